"""A tool list whose tools all repeat the same definitions (tests/fixtures/shared_defs: 24 tools of
a Notion-like MCP server, each carrying the same 9 ``$defs``): what the projection sends is as
small as each tool's contract (issue 35, item 4). bench/shared_defs.py measures the built package."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolgen.build import analyze

FIXTURE = Path(__file__).parent / "fixtures" / "shared_defs" / "tools_list.json"
PROVIDERS = ("openai", "anthropic", "gemini")
CONFIG = (
    '[toolgen]\nproviders = ["openai", "anthropic", "gemini"]\nstrict_fallback = "non-strict"\n'
)


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _ref_names(value: Any) -> set[str]:
    """The ``$defs`` entries ``value`` names in its references (read as text: independent of
    toolgen's reference walking)."""
    text = json.dumps(value)
    return {part.split('"', 1)[0] for part in text.split('"$ref": "#/$defs/')[1:]}


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], Any]:
    tools = json.loads(FIXTURE.read_text(encoding="utf-8"))["tools"]
    root = tmp_path_factory.mktemp("shared-defs")
    (root / "tools").mkdir()
    (root / "toolgen.toml").write_text(CONFIG, encoding="utf-8")
    for entry in tools:
        document = {
            "name": entry["name"],
            "description": entry["description"],
            "parameters": entry["inputSchema"],
        }
        (root / "tools" / f"{entry['name']}.json").write_text(json.dumps(document), "utf-8")
    return tools, analyze(root, PROVIDERS)


def test_the_fixture_is_a_list_whose_tools_repeat_nine_definitions(analyzed) -> None:
    tools, _ = analyzed
    assert len(tools) == 24
    definitions = {json.dumps(t["inputSchema"]["$defs"], sort_keys=True) for t in tools}
    (only,) = definitions
    assert len(json.loads(only)) == 9


def test_the_list_builds_and_its_definitions_are_shared(analyzed) -> None:
    _, result = analyzed
    assert result.ok, [d.format() for d in result.diagnostics]
    # "page" is reached by no tool (the server lists it all the same)
    assert sorted(result.design.shared) == sorted(
        ["block", "color", "date", "file", "mention", "parent", "rich_text", "user"]
    )
    assert all(shared.common for shared in result.design.shared.values())


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_tool_is_sent_only_the_definitions_it_reaches(analyzed, provider) -> None:
    tools, result = analyzed
    (projection,) = [p for p in result.projections if p.profile.name == provider]
    upstream = {t["name"]: t["inputSchema"] for t in tools}
    sent = 0
    for projected in projection.tools:
        schema = projected.schema
        assert schema is not None
        defs = schema.get("$defs", {})
        body = {key: value for key, value in schema.items() if key != "$defs"}
        reached, pending = set(), _ref_names(body)
        while pending:
            name = pending.pop()
            if name not in reached:
                reached.add(name)
                pending |= _ref_names(defs.get(name))
        assert set(defs) <= reached, (projected.contract.name, set(defs) - reached)
        sent += _size(schema)
    whole = sum(_size(schema) for schema in upstream.values())
    assert sent <= whole / 2, (sent, whole)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_one_string_parameter_tool_is_small(analyzed, provider) -> None:
    _, result = analyzed
    (projection,) = [p for p in result.projections if p.profile.name == provider]
    (projected,) = [p for p in projection.tools if p.contract.name == "API-get-user"]
    assert _size(projected.schema) < 200  # its definition (name, description) under 400 bytes
