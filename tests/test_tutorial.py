"""The tutorial (docs/tutorial.md) starts from ``toolgen import examples/mcp_tools_list.json``: an
MCP server's ``tools/list`` holding the example design's tools, shared definitions inlined. Its
Python blocks run in tests/test_docs_examples.py against the package built from examples/design;
this checks that what the tutorial's own commands import is that design's tools, so the blocks
run against what a reader builds. Cheap: an import, no build.

``python -m tests.test_tutorial`` rewrites examples/mcp_tools_list.json from examples/design (after
a tool of the example design changed)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
DESIGN = REPO / "examples" / "design"
SOURCE = REPO / "examples" / "mcp_tools_list.json"
PAGE = REPO / "docs" / "tutorial.md"


def inlined(schema: Any, base: Path, document: Any) -> Any:
    """``schema`` with every ``$ref`` (to another file of the design, or into ``document``, the
    file ``base`` holds) replaced by its target, the referring site's own keywords kept beside
    the target's (a ``description`` there wins: an annotation of that use)."""
    if isinstance(schema, list):
        return [inlined(item, base, document) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" not in schema:
        return {key: inlined(value, base, document) for key, value in schema.items()}
    reference = schema["$ref"]
    where, _, pointer = reference.partition("#")
    target_file = (base.parent / where).resolve() if where else base
    target_document = yaml.safe_load(target_file.read_text()) if where else document
    target: Any = target_document
    for part in filter(None, pointer.split("/")):
        target = target[part]
    rest = {key: value for key, value in schema.items() if key != "$ref"}
    return {
        **inlined(target, target_file, target_document),
        **inlined(rest, base, document),
    }


def example_tools() -> list[dict[str, Any]]:
    """The example design's tools as an MCP server lists them, in file order."""
    tools = []
    for path in sorted((DESIGN / "tools").glob("*.yaml")):
        tool = yaml.safe_load(path.read_text())
        listed = {
            "name": tool["name"],
            "description": tool["description"],
            "inputSchema": inlined(tool["parameters"], path, tool),
        }
        if "output" in tool:
            listed["outputSchema"] = inlined(tool["output"], path, tool)
        tools.append(listed)
    return tools


def test_the_source_lists_the_example_designs_tools():
    assert json.loads(SOURCE.read_text())["tools"] == example_tools(), (
        "examples/design changed: run python -m tests.test_tutorial"
    )


def test_the_tutorials_import_writes_those_tools(tmp_path: Path, cli):
    commands = re.findall(r"^\$ (toolgen .*)$", PAGE.read_text(), re.MULTILINE)
    assert commands[0] == "toolgen import examples/mcp_tools_list.json -o design"
    result = cli("import", str(SOURCE), "-o", str(tmp_path / "design"))
    assert result.exit_code == 0, result.stderr
    imported = {
        tool["name"]: tool
        for tool in (
            yaml.safe_load(path.read_text())
            for path in sorted((tmp_path / "design" / "tools").glob("*.yaml"))
        )
    }
    for listed in example_tools():
        tool = imported.pop(listed["name"])
        assert tool["description"] == listed["description"]
        assert tool["parameters"] == listed["inputSchema"], listed["name"]
        assert tool.get("output") == listed.get("outputSchema"), listed["name"]
    assert imported == {}


if __name__ == "__main__":
    SOURCE.write_text(json.dumps({"tools": example_tools()}, indent=2) + "\n")
    print(f"wrote {SOURCE.relative_to(REPO)}", file=sys.stderr)
