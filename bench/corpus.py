"""The corpus tools that project cleanly, written as one design folder (what bench.build measures).

Every tool of ../shared/corpus/tools with a valid JSON Schema object as parameters (BFCL's Python
type names ``dict``, ``float`` ... turned into JSON Schema names, as a user porting them would),
that every chosen provider projects without an error, and whose provider names are unique.

    python -m bench.corpus DESIGN [--provider openai ...] [--count N]   # write a design folder
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgen.formats.bfcl_functions import bfcl_json_schema
from toolgen.infra.diagnostics import Level
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.project.satisfiable import unsatisfiable_nodes
from toolgen.providers import PROFILES, PROVIDER_NAMES
from toolgen.schema.metaschema import meta_validator
from toolgen.schema.names import provider_name

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "tools"

_META = meta_validator()


def _records() -> list[dict[str, Any]]:
    records = []
    # the hand-written tools first, then BFCL's
    files = sorted(CORPUS.glob("*.jsonl"), key=lambda p: (p.name.startswith("bfcl"), p.name))
    for path in files:
        if path.name.endswith(".sources.jsonl"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if path.name.startswith("bfcl"):
                record["parameters"] = bfcl_json_schema(record.get("parameters"))
            records.append(record)
    return records


def _projects_cleanly(name: str, description: str, schema: Any, providers: Sequence[str]) -> bool:
    contract = Contract("tool", name, description, schema, "tools/t.json", "/parameters")
    for provider in providers:
        profile = PROFILES[provider]
        wire = provider_name(name, profile.names)
        projected, diagnostics = project_contract(contract, profile, ProviderOptions(), wire)
        if projected.schema is None or any(d.level is Level.ERROR for d in diagnostics):
            return False
    return True


def _unique(name: str, seen: set[str]) -> tuple[str, set[str]]:
    """``name``, or ``name_2``, ``name_3`` ... when a tool already took it (BFCL repeats names)."""
    candidate, number = name, 1
    while True:
        keys = {candidate.casefold()} | {
            provider_name(candidate, PROFILES[p].names).casefold() for p in PROVIDER_NAMES
        }
        if not keys & seen:
            return candidate, keys
        number += 1
        candidate = f"{name}_{number}"


def clean_tools(
    providers: Sequence[str] = PROVIDER_NAMES, count: int | None = None
) -> list[dict[str, Any]]:
    """Tool files (name, description, parameters) whose schema some value satisfies and that every
    provider in ``providers`` projects without an error, in corpus order; a repeated name gets a
    number (``name_2``) so that names stay unique."""
    tools: list[dict[str, Any]] = []
    seen: set[str] = set()
    for record in _records():
        name, schema = record.get("name"), record.get("parameters")
        description = record.get("description") or ""
        if not isinstance(name, str) or not name or name.strip() != name:
            continue
        if not isinstance(schema, dict) or schema.get("type") != "object":
            continue
        if not isinstance(description, str) or not _META.is_valid(schema):
            continue
        if unsatisfiable_nodes(schema):  # the build reports UNSATISFIABLE_SCHEMA, an error
            continue
        name, keys = _unique(name, seen)
        if not _projects_cleanly(name, description, schema, providers):
            continue
        seen |= keys
        tools.append({"name": name, "description": description, "parameters": schema})
        if count is not None and len(tools) == count:
            break
    return tools


def write_design(root: Path, tools: Sequence[dict[str, Any]], providers: Sequence[str]) -> Path:
    """A design folder of ``tools`` (one JSON file each) with ``providers`` in toolgen.toml."""
    (root / "tools").mkdir(parents=True, exist_ok=True)
    for index, tool in enumerate(tools):
        (root / "tools" / f"t{index:05d}.json").write_text(
            json.dumps(tool, indent=2, ensure_ascii=False), encoding="utf-8"
        )
    listed = ", ".join(json.dumps(p) for p in providers)
    (root / "toolgen.toml").write_text(f"[toolgen]\nproviders = [{listed}]\n", encoding="utf-8")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("design", type=Path)
    parser.add_argument("--provider", action="append", choices=PROVIDER_NAMES)
    parser.add_argument("--count", type=int)
    args = parser.parse_args()
    providers = tuple(args.provider or PROVIDER_NAMES)
    tools = clean_tools(providers, args.count)
    write_design(args.design, tools, providers)
    print(f"{args.design}: {len(tools)} tools ({', '.join(providers)})")


if __name__ == "__main__":
    main()
