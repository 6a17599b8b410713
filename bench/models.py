"""Models benchmark: a generated package of 1,000 corpus tools, lazy models against eager ones.

Measures, each in a fresh interpreter (median of several runs, lazy and eager interleaved):
  * importing the package (``import OUT, OUT.models, OUT._decode``),
  * that import plus decoding the first tool call (model lookup, JSON parse, validation),
as ratios lazy / eager, where "eager" is the same package with a models/__init__.py that imports
every per-tool module up front. Also the build time of the models step per tool.

The corpus has 491 tools with valid JSON Schema parameters; BFCL's tools are made valid (their
``"type": "dict"``, ``"float"``, ``"tuple"``, ``"any"`` become JSON Schema types) to reach 1,000.

    python -m bench.models            # writes the "## Models" section of bench/RESULTS.md
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from bench.results import write_section
from toolgen.compile.models import generate_models
from toolgen.load.design import load_design
from toolgen.providers import settings
from toolgen.render.runtime_files import copied
from toolgen.render.templating import header

REPO = Path(__file__).resolve().parents[1]

CORPUS = REPO.parent / "shared" / "corpus" / "tools"
RESULTS = REPO / "bench" / "RESULTS.md"
TOOLS = 1000
RUNS = 7
_BFCL_TYPES = {
    "dict": "object",
    "float": "number",
    "tuple": "array",
    "list": "array",
    "int": "integer",
    "str": "string",
    "bool": "boolean",
}
_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


def _fix_bfcl(node: Any) -> Any:
    if isinstance(node, list):
        return [_fix_bfcl(v) for v in node]
    if not isinstance(node, dict):
        return node
    fixed = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str):
            if value == "any":
                continue
            fixed[key] = _BFCL_TYPES.get(value, value)
        elif key == "properties" and isinstance(value, dict):
            fixed[key] = {k: _fix_bfcl(v) for k, v in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf"):
            fixed[key] = _fix_bfcl(value)
        elif key == "optional":  # BFCL's non-standard marker
            continue
        else:
            fixed[key] = value
    return fixed


def corpus_tools(count: int) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    seen: set[str] = set()
    files = sorted(CORPUS.glob("*.jsonl"), key=lambda p: (p.name.startswith("bfcl"), p.name))
    for path in files:
        if path.name.endswith(".sources.jsonl"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            tool = json.loads(line)
            schema = tool.get("parameters")
            if path.name.startswith("bfcl"):
                schema = _fix_bfcl(schema)
            if (
                not isinstance(tool.get("name"), str)
                or not tool["name"]
                or not isinstance(schema, dict)
                or schema.get("type") != "object"
                or tool["name"] in seen
                or any(True for _ in _META.iter_errors(schema))
            ):
                continue
            seen.add(tool["name"])
            tools.append(
                {
                    "name": tool["name"],
                    "description": tool.get("description") or "",
                    "parameters": schema,
                }
            )
            if len(tools) == count:
                return tools
    return tools


def write_design(root: Path, tools: list[dict[str, Any]]) -> None:
    (root / "tools").mkdir(parents=True)
    for index, tool in enumerate(tools):
        (root / "tools" / f"t{index:04d}.json").write_text(json.dumps(tool))


def write_package(out: Path, files: dict[str, str], eager: bool) -> None:
    for relative, source in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    (out / "__init__.py").write_text("from . import _decode, _runtime, models  # noqa: F401\n")
    (out / "_runtime.py").write_text(copied("_runtime", header()))
    if eager:
        modules = sorted(
            p.stem for p in (out / "models" / "tools").glob("*.py") if p.stem != "__init__"
        )
        init = out / "models" / "__init__.py"
        init.write_text(
            init.read_text() + "".join(f"from .tools import {m}  # noqa\n" for m in modules)
        )


_PROBE = """
import time, sys
t0 = time.perf_counter()
import {pkg}
t1 = time.perf_counter()
model = {pkg}.models.model_for("tool", {name!r})
raw = {pkg}._runtime.RawCalls("bench", {{"wire": {name!r}}}).from_text("call_1", "wire", {raw!r})
call = {pkg}._decode.TypedCalls("bench", {{}}, None, lambda kind, name: model).typed(raw)
t2 = time.perf_counter()
print(t1 - t0, t2 - t0)
"""


def probe(parent: Path, package: str, name: str, raw: str) -> tuple[float, float]:
    code = _PROBE.format(pkg=package, name=name, raw=raw)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "0"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=parent,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    imported, decoded = result.stdout.split()
    return float(imported), float(decoded)


def main() -> None:
    tools = corpus_tools(TOOLS)
    work = Path(tempfile.mkdtemp(prefix="toolgen_bench_models_"))
    try:
        write_design(work / "design", tools)
        design, diagnostics = load_design(work / "design", settings(["openai"]))
        assert design is not None, [d.format() for d in diagnostics[:5]]
        start = time.perf_counter()
        output = generate_models(design, header())
        build = time.perf_counter() - start
        fallbacks = sum(d.code == "MODEL_NOT_GENERATED" for d in output.diagnostics)
        write_package(work / "lazy_pkg", output.files, eager=False)
        write_package(work / "eager_pkg", output.files, eager=True)
        # the first call: a tool with a required string member, so the payload is a real one
        first = next(t for t in tools if t["parameters"].get("required"))
        raw = json.dumps(
            {
                k: _sample(first["parameters"]["properties"].get(k, {}))
                for k in first["parameters"]["required"]
            }
        )
        for package in ("lazy_pkg", "eager_pkg"):  # warm the bytecode caches once
            probe(work, package, first["name"], raw)
        timings: dict[str, list[tuple[float, float]]] = {"lazy_pkg": [], "eager_pkg": []}
        for _ in range(RUNS):
            for package in timings:
                timings[package].append(probe(work, package, first["name"], raw))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def median(package: str, index: int) -> float:
        return statistics.median(t[index] for t in timings[package])

    lazy_import, eager_import = median("lazy_pkg", 0), median("eager_pkg", 0)
    lazy_first, eager_first = median("lazy_pkg", 1), median("eager_pkg", 1)
    lines = [
        "## Models",
        "",
        f"Command: `python -m bench.models` ({len(design.tools)} corpus tools, median of {RUNS} "
        f"fresh interpreters each, lazy and eager interleaved; Python {sys.version.split()[0]}).",
        "",
        "| measure | lazy (generated) | eager (all models imported) | lazy / eager |",
        "|---|---|---|---|",
        f"| import the package | {lazy_import * 1e3:.1f} ms | {eager_import * 1e3:.1f} ms "
        f"| {lazy_import / eager_import:.3f} |",
        f"| import + decode the first call | {lazy_first * 1e3:.1f} ms | "
        f"{eager_first * 1e3:.1f} ms | {lazy_first / eager_first:.3f} |",
        "",
        f"Build of the models step: {build:.1f} s for {len(design.tools)} tools, "
        f"{build / len(design.tools) * 1e3:.0f} ms per tool (one datamodel-code-generator call "
        f"per tool, in-process, plus black); {fallbacks} tool(s) fell back to a permissive model.",
        "",
    ]
    section = "\n".join(lines)
    print(section)
    write_section("Models", section)


def _sample(schema: Any) -> Any:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(schema, dict) and "enum" in schema:
        return schema["enum"][0]
    return {
        "string": "x",
        "integer": 1,
        "number": 1,
        "boolean": True,
        "array": [],
        "object": {},
    }.get(kind if isinstance(kind, str) else "string", "x")


if __name__ == "__main__":
    main()
