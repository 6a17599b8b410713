"""Definitions as small as the contract (issue 35, item 4): an imported tool list whose tools all
repeat the same definitions, built, against the list as it came.

The list is tests/fixtures/shared_defs/tools_list.json (24 tools of a Notion-like MCP server, each
carrying the same 9 ``$defs``). It is imported with ``toolgen import`` and built for OpenAI,
Anthropic and Gemini with ``strict_fallback = "non-strict"`` (a tool strict mode cannot carry is
sent non-strict, as a user importing a server would set). Measured:

  * the bytes of the tool definitions each provider module returns (``tool_definitions()``,
    compact JSON) against the upstream list written in the same request shape, as it came and with
    each tool's ``$defs`` pruned to the entries it reaches (pruned here, independently of toolgen);
  * the one-string-parameter tool's definition;
  * the lines of the generated package (``.py`` and ``.pyi``), by part.

    python -m bench.shared_defs                  # this tree
    python -m bench.shared_defs --against SRC    # and another toolgen source tree beside it
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bench.build import REPO, toolgen
from bench.results import write_section

FIXTURE = REPO / "tests" / "fixtures" / "shared_defs" / "tools_list.json"
PROVIDERS = ("openai", "anthropic", "gemini")
ONE_STRING_TOOL = "API-get-user"
RUNTIME = REPO / "toolgen" / "runtime"


def _compact(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _reached(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with only the ``$defs`` entries its references reach (``#/$defs/NAME``)."""
    defs = schema.get("$defs", {})

    def names(value: Any) -> set[str]:
        text = json.dumps(value)
        return set(re.findall(r'"\$ref": "#/\$defs/([^"/]+)', text))

    body = {k: v for k, v in schema.items() if k != "$defs"}
    reached: set[str] = set()
    pending = names(body)
    while pending:
        name = pending.pop()
        if name not in reached and name in defs:
            reached.add(name)
            pending |= names(defs[name])
    if not reached:
        return body
    return {**body, "$defs": {n: v for n, v in defs.items() if n in reached}}


def _request_shape(provider: str, tools: list[dict[str, Any]]) -> Any:
    """The upstream tools written as ``provider``'s ``tool_definitions()`` writes its own."""
    if provider == "openai":
        return [
            {
                "type": "function",
                "function": {
                    "name": t["name"],
                    "description": t["description"],
                    "parameters": t["inputSchema"],
                },
            }
            for t in tools
        ]
    if provider == "anthropic":
        return [
            {"name": t["name"], "description": t["description"], "input_schema": t["inputSchema"]}
            for t in tools
        ]
    declarations = [
        {
            "name": t["name"],
            "description": t["description"],
            "parametersJsonSchema": t["inputSchema"],
        }
        for t in tools
    ]
    return [{"functionDeclarations": declarations}]


def _upstream() -> dict[str, dict[str, int]]:
    tools = json.loads(FIXTURE.read_text(encoding="utf-8"))["tools"]
    pruned = [{**t, "inputSchema": _reached(t["inputSchema"])} for t in tools]
    return {
        p: {
            "as it came": _compact(_request_shape(p, tools)),
            "pruned": _compact(_request_shape(p, pruned)),
        }
        for p in PROVIDERS
    }


_MEASURE = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
one = sys.argv[3]
size = lambda v: len(json.dumps(v, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
found = {}
for provider in sys.argv[4:]:
    module = importlib.import_module(f"{sys.argv[2]}.{provider}")
    definitions = module.tool_definitions()
    listed = definitions[0]["functionDeclarations"] if provider == "gemini" else definitions
    named = {d.get("function", d)["name"]: d for d in listed}
    strict = sum(1 for d in listed if d.get("function", d).get("strict"))
    found[provider] = {"bytes": size(definitions), "one": size(named[one]), "strict": strict}
print(json.dumps(found))
"""


#: the parts of the package written per contract; the others are the same for any design
#: of these providers (the runtime modules copied verbatim, the envelope validators, the
#: provider modules)
_PER_CONTRACT = ("schema tables", "models", "testing", "inverses")


def _part(path: str, runtime: set[str]) -> str:
    folder, name = os.path.split(path)
    if not folder and name in runtime:
        return "runtime copies"
    for prefix, part in (
        ("_tables_", "schema tables"),
        ("models", "models"),
        ("testing", "testing"),
        ("_canonical", "inverses"),
        ("_envelopes_", "envelope validators"),
    ):
        if path.startswith(prefix):
            return part
    return "the rest"


def _lines(package: Path) -> Counter[str]:
    runtime = {p.name for p in RUNTIME.glob("*.py")}
    counts: Counter[str] = Counter()
    for file in package.rglob("*"):
        if file.suffix in (".py", ".pyi"):
            lines = file.read_text(encoding="utf-8").count("\n")
            counts[_part(file.relative_to(package).as_posix(), runtime)] += lines
    return counts


def _measure(code: Path, work: Path) -> dict[str, Any]:
    """Import the fixture, build it with the toolgen of ``code`` and measure the package."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    design, out = work / "design", work / "gen"
    subprocess.run(
        [sys.executable, "-P", "-m", "toolgen", "import", str(FIXTURE), "-o", str(design)],
        env=env,
        check=False,  # the import reports what strict mode cannot carry (exit 1), and writes
        capture_output=True,
    )
    config = (
        f'[toolgen]\nproviders = {json.dumps(list(PROVIDERS))}\nstrict_fallback = "non-strict"\n'
    )
    (design / "toolgen.toml").write_text(config, encoding="utf-8")
    toolgen(design, out, "-q", code=code)
    measured = subprocess.run(
        [sys.executable, "-P", "-c", _MEASURE, str(work), "gen", ONE_STRING_TOOL, *PROVIDERS],
        check=True,
        capture_output=True,
        text=True,
    )
    return {"sent": json.loads(measured.stdout), "lines": _lines(out)}


def _row(name: str, figures: list[str], target: str) -> str:
    return f"| {name} | " + " | ".join(figures) + f" | {target} |"


def report(contenders: dict[str, dict[str, Any]]) -> str:
    upstream = _upstream()
    names = list(contenders)
    rows = [
        "| measure | " + " | ".join(names) + " | target |",
        "|---|" + "---|" * len(names) + "---|",
    ]
    for provider in PROVIDERS:
        whole = upstream[provider]["as it came"]
        figures = [
            f"{c['sent'][provider]['bytes'] / whole:.2f} ({c['sent'][provider]['bytes']:,} B)"
            for c in contenders.values()
        ]
        rows.append(_row(f"{provider} tool definitions / upstream list", figures, "≤ 0.50"))
    for provider in PROVIDERS:
        whole, pruned = upstream[provider]["as it came"], upstream[provider]["pruned"]
        rows.append(
            _row(
                f"{provider}: upstream pruned to what each tool reaches / upstream "
                f"({pruned:,} B / {whole:,} B)",
                [f"{pruned / whole:.2f}"] * len(names),
                "reference",
            )
        )
    rows.append(
        _row(
            f"one-string-parameter tool ({ONE_STRING_TOOL}), " + ", ".join(PROVIDERS),
            [
                ", ".join(f"{c['sent'][p]['one']:,} B" for p in PROVIDERS)
                for c in contenders.values()
            ],
            "< 400 B",
        )
    )
    rows.append(
        _row(
            "tools marked strict (of 24), " + ", ".join(p for p in PROVIDERS if p != "gemini"),
            [
                ", ".join(str(c["sent"][p]["strict"]) for p in PROVIDERS if p != "gemini")
                for c in contenders.values()
            ],
            "report",
        )
    )
    first = contenders[names[0]]["lines"]
    parts = sorted(first, key=lambda part: -first[part])
    totals = [sum(c["lines"].values()) for c in contenders.values()]
    rows.append(
        _row(
            "package lines (.py, .pyi), " + ", ".join(PROVIDERS),
            [f"{t:,} ({t / totals[0]:.2f}×)" for t in totals],
            "< 0.10× of before",
        )
    )
    growing = [sum(c["lines"][part] for part in _PER_CONTRACT) for c in contenders.values()]
    rows.append(
        _row(
            "of which what grows with the tools (" + ", ".join(_PER_CONTRACT) + ")",
            [f"{g:,} ({g / growing[0]:.2f}×)" for g in growing],
            "report",
        )
    )
    for part in parts:
        rows.append(
            _row(f"of which {part}", [f"{c['lines'][part]:,}" for c in contenders.values()], "")
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against",
        type=Path,
        help="another toolgen source tree (e.g. an export of main), measured first, beside this one",
    )
    args = parser.parse_args()
    contenders: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="toolgen-bench-defs-") as temp:
        if args.against is not None:
            contenders[f"before ({args.against.name})"] = _measure(
                args.against.resolve(), Path(temp, "against")
            )
        contenders["this tree"] = _measure(REPO, Path(temp, "this"))
    command = "python -m bench.shared_defs" + (
        f" --against <{args.against.name}>" if args.against else ""
    )
    table = report(contenders)
    print(table)
    section = (
        "## Definitions as small as the contract\n\n"
        f"Command: `{command}` (tests/fixtures/shared_defs/tools_list.json: 24 tools of a "
        "Notion-like MCP server, each carrying the same 9 `$defs`; imported, built for "
        f'{", ".join(PROVIDERS)} with `strict_fallback = "non-strict"`; bytes of compact JSON; '
        f"Python {sys.version.split()[0]}).\n\n{table}\n\n"
        "The inverses are code for the tools sent strict (a tool sent non-strict comes back as "
        "it is): read them beside the row of strict tools. The runtime copies, envelope "
        "validators and provider modules are the same for any design of these providers.\n"
    )
    write_section("Definitions as small as the contract", section)


if __name__ == "__main__":
    main()
