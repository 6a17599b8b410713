"""Helpers of the model-generation tests: small designs in tmp folders, generated and imported."""

from __future__ import annotations

import importlib
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from toolgen.compile.models import ModelsOutput, generate_models
from toolgen.load.contracts import Design
from toolgen.load.design import load_design
from toolgen.providers import settings
from toolgen.render.runtime_files import copied, with_imports
from toolgen.render.templating import header

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tools"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "design"

_counter = itertools.count()


def write_design(
    root: Path,
    tools: dict[str, Any] | None = None,
    outputs: dict[str, Any] | None = None,
    defs: dict[str, Any] | None = None,
    descriptions: dict[str, str] | None = None,
) -> Path:
    """tools/outputs: canonical name -> schema; defs: file stem -> document (JSON files)."""
    descriptions = descriptions or {}
    for folder, key, contracts in (("tools", "parameters", tools), ("outputs", "schema", outputs)):
        for index, (name, schema) in enumerate((contracts or {}).items()):
            path = root / folder / f"c{index:04d}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            document = {"name": name, "description": descriptions.get(name, ""), key: schema}
            path.write_text(json.dumps(document))
    for stem, document in (defs or {}).items():
        path = root / "defs" / f"{stem}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document))
    return root


@dataclass
class Built:
    design: Design
    output: ModelsOutput
    root: Path
    package: str

    def module(self, relative: str = "") -> Any:
        return importlib.import_module(f"{self.package}{relative}")

    def model(self, kind: str, name: str) -> Any:
        return self.module(".models").model_for(kind, name)

    def decode(self) -> Any:
        return self.module("._decode")


def load(design_root: Path) -> Design:
    design, diagnostics = load_design(design_root, settings(["openai"]))
    assert design is not None, [d.format() for d in diagnostics]
    return design


def materialize(design: Design, out_parent: Path) -> Built:
    output = generate_models(design, header())
    package = f"toolgen_models_test_{next(_counter)}"
    out = out_parent / package
    for relative, source in output.files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    (out / "__init__.py").write_text("")
    for fixed in with_imports("_decode"):  # what _decode imports, as the package has them
        if fixed != "_decode":
            (out / f"{fixed}.py").write_text(copied(fixed, header()), encoding="utf-8")
    return Built(design, output, out, package)


_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


def corpus_tools(limit: int) -> list[dict[str, Any]]:
    """A deterministic sample of the corpus tools whose parameters are valid 2020-12 object schemas
    (BFCL's ``"type": "dict"`` ones are not), one per name."""
    valid: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in sorted(CORPUS.glob("*.jsonl")):
        if path.name.endswith(".sources.jsonl"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            tool = json.loads(line)
            schema = tool.get("parameters")
            if (
                not isinstance(tool.get("name"), str)
                or not isinstance(schema, dict)
                or schema.get("type") != "object"
                or tool["name"] in seen
                or any(True for _ in _META.iter_errors(schema))
            ):
                continue
            seen.add(tool["name"])
            valid.append(tool)
    step = max(1, len(valid) // limit)
    return valid[::step][:limit]
