"""The first hour with a real tool set (issue 37, items 1 and 2): importing an MCP ``tools/list``
whose 24 tools carry the server's 9 shared ``$defs`` (one holding a node every provider refuses)
reports that node on one line with its counts, writes the shared definitions once under
``defs/``, and a fix there reaches every tool on the next ``--update``, new ones included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from tests.notion_tools_list import DEFS, QUERY_DATA_SOURCE, REACH_FILTER, TOOLS, tools_list
from toolgen.commands.import_defs import shared_names
from toolgen.commands.import_sync import RECORD_FILE, record_imported, update_design
from toolgen.commands.importing import import_sources, write_tools
from toolgen.formats import IMPORT_FORMATS
from toolgen.schema import walker

WIDTH = 100


def _write(folder: Path, name: str, value: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _refs(schema: Any) -> list[str]:
    return [n["$ref"] for n, _ in walker.walk(schema) if isinstance(n, dict) and "$ref" in n]


def _report_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if not line.startswith("toolgen:")]


def test_a_shared_definition_is_reported_once_written_once_and_fixed_once(
    cli: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    design = tmp_path / "design"
    source = _write(tmp_path / "server", "tools-list.json", tools_list())

    imported = cli("import", source, "-o", design)

    # one line for the refused node, counted over the tools that reach it (not all 24) and the
    # default build's 7 providers; every line within the terminal's width
    assert imported.exit_code == 1, imported.stderr
    problems = [line for line in _report_lines(imported.stderr) if "UNSUPPORTED_NOT" in line]
    assert len(problems) == 1, imported.stderr
    assert problems[0].startswith("defs/Filter.yaml:/$defs/Filter/not: anthropic: UNSUPPORTED_NOT ")
    assert problems[0].endswith(f" ({len(REACH_FILTER)} tools, 7 providers)")
    assert all(len(line) <= WIDTH for line in _report_lines(imported.stderr)), imported.stderr
    assert "toolgen: 1 UNSUPPORTED_NOT error (2 tools, 7 providers)" in imported.stderr
    assert f"imported {len(TOOLS)} tool(s)" in imported.stderr

    # the 9 definitions once, each referring to the others in its folder; the tools refer to
    # them and hold none
    assert sorted(p.name for p in (design / "defs").iterdir()) == sorted(
        f"{name}.yaml" for name in DEFS
    )
    assert _load(design / "defs/Filter.yaml") == {"$defs": {"Filter": DEFS["Filter"]}}
    rich_text = _load(design / "defs/RichText.yaml")["$defs"]["RichText"]
    assert rich_text["properties"]["color"] == {"$ref": "Color.yaml#/$defs/Color"}
    for name, *_ in TOOLS:
        parameters = _load(design / f"tools/{name}.yaml")["parameters"]
        assert "$defs" not in parameters, name
        assert all(ref.startswith("../defs/") for ref in _refs(parameters)), name
    search = _load(design / "tools/search.yaml")["parameters"]
    assert search["properties"]["filter"] == {"$ref": "../defs/Filter.yaml#/$defs/Filter"}
    record = json.loads((design / RECORD_FILE).read_text(encoding="utf-8"))
    assert record["defs"]["Filter"]["file"] == "defs/Filter.yaml"

    # the fix, made once; upstream then adds a tool that reaches Filter too
    fixed = _load(design / "defs/Filter.yaml")
    del fixed["$defs"]["Filter"]["not"]
    (design / "defs/Filter.yaml").write_text(yaml.safe_dump(fixed), encoding="utf-8")
    _write(source.parent, source.name, tools_list(QUERY_DATA_SOURCE))

    updated = cli("import", "--update", source, "-o", design)

    assert updated.exit_code == 0, updated.stderr
    assert "UNSUPPORTED_NOT" not in updated.stderr
    assert "1 added, 0 updated, 0 removed, 0 conflict(s), 0 error(s)" in updated.stderr
    assert "NEEDS_HANDLER tool 'query_data_source' added" in updated.stdout
    added = _load(design / "tools/query_data_source.yaml")["parameters"]
    assert added["properties"]["filter"] == {"$ref": "../defs/Filter.yaml#/$defs/Filter"}
    assert "$defs" not in added
    assert _load(design / "defs/Filter.yaml") == fixed


def _tool(name: str, defs: dict[str, Any], refs: list[str]) -> dict[str, Any]:
    """A tool document whose parameters refer to ``refs`` among its ``defs``."""
    properties = {f"p{i}": {"$ref": f"#/$defs/{ref}"} for i, ref in enumerate(refs)}
    return {"name": name, "parameters": {"type": "object", "properties": properties, "$defs": defs}}


def _mcp_source(folder: Path, tools: list[dict[str, Any]]) -> Path:
    """An MCP tools/list of tool documents (as :func:`_tool` makes them)."""
    listed = [{"name": t["name"], "description": "", "inputSchema": t["parameters"]} for t in tools]
    return _write(folder, "tools-list.json", {"tools": listed})


S = {"type": "string"}
N = {"type": "number"}


def test_what_is_shared() -> None:
    """Shared: the same value under the same name in two tools or more, referring only to shared
    definitions. Not: a definition one tool holds (unless an earlier import shared it), one the
    tools give different values, one that refers to what only a tool has (its root), one with an
    anchor, and one referring to a definition that is not shared."""
    uses_root = {"type": "array", "items": {"$ref": "#"}}
    anchored = {"$anchor": "x", "type": "string"}
    uses_own = {"type": "array", "items": {"$ref": "#/$defs/Own"}}
    common = {
        "Same": S,
        "Root": uses_root,
        "Anchored": anchored,
        "UsesOwn": uses_own,
        "UsesSame": {"type": "array", "items": {"$ref": "#/$defs/Same"}},
    }
    documents = [
        _tool("a", {**common, "Own": S, "Differs": S, "Alone": N}, ["Same"]),
        _tool("b", {**common, "Own": N, "Differs": N}, ["Same"]),
    ]
    shared, unshared = shared_names(documents)
    assert shared == ["Same", "UsesSame"]
    assert unshared == ["Anchored", "Differs", "Own", "Root", "UsesOwn"]
    assert shared_names(documents, keep=["Alone"])[0] == ["Alone", "Same", "UsesSame"]
    assert shared_names(documents, exclude=["Same"])[0] == []  # UsesSame needs Same


def test_a_definition_file_that_holds_something_else_is_not_replaced(tmp_path: Path) -> None:
    """A second server imported into the same design gives ``Color`` another value: its tools
    share their own file, and the first server's stays as it was (without --force)."""
    design = tmp_path / "design"
    color = {"$defs": {"Color": {"type": "string", "enum": ["red"]}}}
    (design / "defs").mkdir(parents=True)
    (design / "defs/Color.yaml").write_text(yaml.safe_dump(color), encoding="utf-8")
    blue = {"type": "string", "enum": ["blue"]}
    source = _mcp_source(tmp_path, [_tool(name, {"Color": blue}, ["Color"]) for name in "ab"])
    result = import_sources([(source, "src")], design, IMPORT_FORMATS)
    assert [d.path for d in result.defs] == ["defs/Color_2.yaml"], result.diagnostics
    write_tools(design, result.tools, result.defs)
    assert _load(design / "defs/Color.yaml") == color
    assert _load(design / "defs/Color_2.yaml") == {"$defs": {"Color": blue}}
    assert _load(design / "tools/a.yaml")["parameters"]["properties"]["p0"] == {
        "$ref": "../defs/Color_2.yaml#/$defs/Color"
    }


def test_a_definition_upstream_no_longer_shares_is_reported_and_pruned(tmp_path: Path) -> None:
    """Upstream gives ``Color`` different values now: each tool holds its own, and the file
    of the shared one is reported (a local edit of it would no longer reach them), deleted by
    --prune when unedited."""
    design = tmp_path / "design"

    def source(values: tuple[Any, Any]) -> Path:
        tools = [_tool(n, {"Color": v}, ["Color"]) for n, v in zip("ab", values, strict=True)]
        return _mcp_source(tmp_path, tools)

    first = import_sources([(source((S, S)), "src")], design, IMPORT_FORMATS)
    write_tools(design, first.tools, first.defs)
    assert record_imported(design, first.tools, first.defs) == []
    assert (design / "defs/Color.yaml").is_file()

    kept = update_design([(source((S, N)), "src")], design, IMPORT_FORMATS)
    [gone] = [d for d in kept.diagnostics if d.file == "defs/Color.yaml"]
    assert (gone.code, gone.level) == ("REMOVED_UPSTREAM", "warning")
    assert "kept (--prune deletes it)" in gone.message
    assert _load(design / "tools/a.yaml")["parameters"]["$defs"] == {"Color": S}

    pruned = update_design([(source((S, N)), "src")], design, IMPORT_FORMATS, prune=True)
    assert [d.code for d in pruned.diagnostics if d.file == "defs/Color.yaml"] == ["PRUNED"]
    assert not (design / "defs/Color.yaml").exists()
