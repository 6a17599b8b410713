"""toolgen import keeps a design in sync with its source: toolgen.toml, the import record, and
``import --update``'s three-way merge (issue 21, item 3)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from toolgen.cli import main
from toolgen.commands import import_sync
from toolgen.commands.import_sync import (
    MISSING,
    RECORD_FILE,
    merge,
    record_imported,
    update_design,
)
from toolgen.commands.importing import import_sources, write_tools
from toolgen.formats import IMPORT_FORMATS

LOCAL_DESCRIPTION = "Weather now, as our agent should read it"


def weather(
    description: str = "Weather now", units: tuple[str, ...] = ("c", "f")
) -> dict[str, Any]:
    return {
        "name": "get_weather",
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City"},
                "units": {"type": "string", "enum": list(units)},
            },
            "required": ["city"],
        },
    }


def search() -> dict[str, Any]:
    return {
        "name": "search",
        "description": "Search docs",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
    }


def lookup() -> dict[str, Any]:
    return {
        "name": "lookup",
        "description": "Look an id up",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
    }


class Upstream:
    """An MCP server's tool list, changed step by step."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "tools-list.json"
        self.tools = {"get_weather": weather(), "search": search()}
        self.save()

    def save(self) -> None:
        self.path.write_text(json.dumps({"tools": list(self.tools.values())}), encoding="utf-8")


def first_import(source: Path, design: Path) -> None:
    result = import_sources([(source, "src")], design, IMPORT_FORMATS)
    assert result.ok, result.diagnostics
    write_tools(design, result.tools)
    assert record_imported(design, result.tools) == []


def update(source: Path, design: Path, *, prune: bool = False) -> import_sync.SyncResult:
    return update_design([(source, "src")], design, IMPORT_FORMATS, prune=prune)


def tool_file(design: Path, stem: str) -> dict[str, Any]:
    return yaml.safe_load((design / "tools" / f"{stem}.yaml").read_text(encoding="utf-8"))


def edit_local_description(design: Path) -> None:
    path = design / "tools" / "get_weather.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    document["description"] = LOCAL_DESCRIPTION
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def test_merge_takes_each_sides_own_changes_and_keeps_local_on_conflict():
    base = {"description": "a", "parameters": {"properties": {"x": {"type": "string"}}}}
    local = {"description": "local", "parameters": {"properties": {"x": {"type": "string"}}}}
    upstream = {
        "description": "a",
        "parameters": {"properties": {"x": {"type": "string"}, "y": {"type": "integer"}}},
    }
    assert merge(base, local, upstream) == (
        {
            "description": "local",
            "parameters": {"properties": {"x": {"type": "string"}, "y": {"type": "integer"}}},
        },
        [],
    )
    merged, conflicts = merge(base, local, {**upstream, "description": "upstream"})
    assert merged["description"] == "local"
    assert [(c.pointer, c.local, c.upstream) for c in conflicts] == [
        ("/description", "local", "upstream")
    ]


def test_merge_of_absent_members():
    # removed upstream, untouched here: removed; removed here, untouched upstream: stays removed
    assert merge({"a": 1, "b": 2}, {"a": 1, "b": 2}, {"a": 1}) == ({"a": 1}, [])
    assert merge({"a": 1, "b": 2}, {"a": 1}, {"a": 1, "b": 2}) == ({"a": 1}, [])
    # removed upstream, edited here: a conflict, the local value kept
    merged, conflicts = merge({"a": 1, "b": 2}, {"a": 1, "b": 3}, {"a": 1})
    assert merged == {"a": 1, "b": 3}
    assert [(c.pointer, c.local, c.upstream) for c in conflicts] == [("/b", 3, MISSING)]
    # 1 and true are different values
    assert merge({"a": 1}, {"a": 1}, {"a": True}) == ({"a": True}, [])


STEPS = ("edit local description", "add a tool", "change a schema", "edit description upstream")


@pytest.mark.parametrize("order", list(itertools.permutations(STEPS)), ids="|".join)
def test_no_order_of_steps_loses_a_local_edit(tmp_path, order):
    """Import; then the steps of the done-when in this order, with an update after each."""
    upstream = Upstream(tmp_path)
    design = tmp_path / "design"
    first_import(upstream.path, design)
    conflicts: list[str] = []
    for step in order:
        if step == "edit local description":
            edit_local_description(design)
        elif step == "add a tool":
            upstream.tools["lookup"] = lookup()
        elif step == "change a schema":
            upstream.tools["get_weather"]["inputSchema"]["properties"]["units"]["enum"].append("k")
        else:
            upstream.tools["get_weather"]["description"] = "Weather, upstream's words"
        upstream.save()
        result = update(upstream.path, design)
        assert result.ok, result.diagnostics
        conflicts += [d.pointer for d in result.diagnostics if d.code == "CONFLICT"]
    weather_file = tool_file(design, "get_weather")
    assert weather_file["description"] == LOCAL_DESCRIPTION
    assert weather_file["parameters"]["properties"]["units"]["enum"] == ["c", "f", "k"]
    assert tool_file(design, "lookup")["description"] == "Look an id up"
    assert tool_file(design, "search")["description"] == "Search docs"
    local_first = order.index("edit local description") < order.index("edit description upstream")
    assert conflicts == (["/description"] if local_first else [])


def test_an_update_stopped_half_way_loses_nothing(tmp_path, monkeypatch):
    upstream = Upstream(tmp_path)
    design = tmp_path / "design"
    first_import(upstream.path, design)
    edit_local_description(design)
    upstream.tools["get_weather"]["inputSchema"]["properties"]["units"]["enum"].append("k")
    upstream.tools["lookup"] = lookup()
    upstream.save()
    real_write = import_sync.write_atomically
    written: list[str] = []

    def write_then_stop(path: Path, text: str) -> None:
        if len(written) == 1:
            raise KeyboardInterrupt
        written.append(path.name)
        real_write(path, text)

    monkeypatch.setattr(import_sync, "write_atomically", write_then_stop)
    with pytest.raises(KeyboardInterrupt):
        update(upstream.path, design)
    assert written and RECORD_FILE not in written
    assert not list(design.rglob("*.toolgen-tmp"))
    monkeypatch.setattr(import_sync, "write_atomically", real_write)
    result = update(upstream.path, design)
    assert [d.code for d in result.diagnostics if d.code == "CONFLICT"] == []
    weather_file = tool_file(design, "get_weather")
    assert weather_file["description"] == LOCAL_DESCRIPTION
    assert weather_file["parameters"]["properties"]["units"]["enum"] == ["c", "f", "k"]
    assert (design / "tools" / "lookup.yaml").is_file()


def test_removed_upstream_is_reported_and_pruned_only_when_unedited(tmp_path):
    upstream = Upstream(tmp_path)
    design = tmp_path / "design"
    first_import(upstream.path, design)
    edit_local_description(design)
    upstream.tools = {}
    upstream.tools["lookup"] = lookup()
    upstream.save()
    kept = update(upstream.path, design)
    assert sorted((d.file, d.code) for d in kept.diagnostics if d.code != "ADDED") == [
        ("tools/get_weather.yaml", "REMOVED_UPSTREAM"),
        ("tools/search.yaml", "REMOVED_UPSTREAM"),
    ]
    assert (design / "tools" / "search.yaml").is_file()
    pruned = update(upstream.path, design, prune=True)
    assert pruned.removed == ["search"]
    assert not (design / "tools" / "search.yaml").exists()
    assert tool_file(design, "get_weather")["description"] == LOCAL_DESCRIPTION  # edited: kept
    record = json.loads((design / RECORD_FILE).read_text(encoding="utf-8"))
    assert sorted(record["tools"]) == ["get_weather", "lookup"]


def test_a_tool_deleted_here_is_not_brought_back(tmp_path):
    upstream = Upstream(tmp_path)
    design = tmp_path / "design"
    first_import(upstream.path, design)
    (design / "tools" / "search.yaml").unlink()
    result = update(upstream.path, design)
    assert [d.code for d in result.diagnostics] == ["REMOVED_LOCALLY"]
    assert not (design / "tools" / "search.yaml").exists()


def test_a_tool_that_fails_to_import_is_not_taken_as_removed(tmp_path):
    upstream = Upstream(tmp_path)
    design = tmp_path / "design"
    first_import(upstream.path, design)
    upstream.tools["search"]["inputSchema"] = {"type": "object", "properties": {"q": {"type": 7}}}
    upstream.save()
    result = update(upstream.path, design, prune=True)
    assert "REMOVALS_NOT_CHECKED" in [d.code for d in result.diagnostics]
    assert (design / "tools" / "search.yaml").is_file()


def test_cli_import_writes_the_config_of_the_source_format_and_update_prints_the_diff(tmp_path):
    source = tmp_path / "chat.json"
    chat_tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather now",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            },
        },
    }
    source.write_text(json.dumps({"tools": [chat_tool]}), encoding="utf-8")
    design = tmp_path / "design"
    runner = CliRunner()
    first = runner.invoke(main, ["import", str(source), "-o", str(design)])
    assert first.exit_code == 0, first.output
    assert 'providers = ["openai"]' in (design / "toolgen.toml").read_text(encoding="utf-8")
    assert (design / RECORD_FILE).is_file()

    chat_tool["function"]["parameters"]["properties"]["city"]["type"] = "integer"
    source.write_text(json.dumps({"tools": [chat_tool]}), encoding="utf-8")
    second = runner.invoke(main, ["import", "--update", str(source), "-o", str(design)])
    assert second.exit_code == 0, second.output
    assert "tools/get_weather.yaml:/parameters/properties/city" in second.stdout
    assert "BREAKING" in second.stdout
    assert "1 updated" in second.stderr


def test_cli_import_reports_what_a_named_provider_cannot_take(tmp_path):
    source = tmp_path / "mcp.json"
    pattern_tool = {
        "name": "t",
        "description": "",
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "object", "patternProperties": {"^a": {}}}},
        },
    }
    source.write_text(json.dumps({"tools": [pattern_tool]}), encoding="utf-8")
    design = tmp_path / "design"
    result = CliRunner().invoke(
        main, ["import", str(source), "-o", str(design), "--provider", "gemini"]
    )
    assert 'providers = ["gemini"]' in (design / "toolgen.toml").read_text(encoding="utf-8")
    assert (
        "/properties/n/patternProperties: gemini: UNSUPPORTED_PATTERN_PROPERTIES" in result.stderr
    )
    assert result.exit_code == 1  # the next build would fail: said now


def test_a_second_update_waits_for_the_first(tmp_path):
    """Two processes: this one holds the design's lock as an update does, from reading the record
    to writing it; `toolgen import --update --prune` started meanwhile says it waits, writes
    nothing until the lock is free, then updates the design as it finds it (before: it merged at
    once with the record the first would replace, and both exited 0)."""
    upstream = Upstream(tmp_path)
    design = tmp_path / "design"
    first_import(upstream.path, design)
    upstream.tools = {"search": search(), "lookup": lookup()}  # get_weather gone, lookup new
    upstream.save()
    command = [sys.executable, "-m", "toolgen", "import", "--update", "--prune"]
    with import_sync.design_lock(design):
        before = {p: p.read_bytes() for p in sorted(design.rglob("*")) if p.is_file()}
        second = subprocess.Popen(
            [*command, str(upstream.path), "-o", str(design)],
            stderr=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert second.stderr is not None
        line = (
            second.stderr.readline()
        )  # the first line it prints: it waits (or, before, its report)
        assert f"another import is writing {design}; waiting" in line, line
        assert {p: p.read_bytes() for p in sorted(design.rglob("*")) if p.is_file()} == before
    _, rest = second.communicate(timeout=120)
    assert second.returncode == 0, rest
    assert "1 added, 0 updated, 1 removed" in rest
    assert sorted(p.name for p in (design / "tools").iterdir()) == ["lookup.yaml", "search.yaml"]
