"""The MCP profile (toolgen/providers/mcp.py): the tool schemas MCP's clients take, each rewrite
meaning what the canonical schema means (the same instances valid), what no exact form carries
refused with its file, pointer and provider; and ``[toolgen] targets`` in toolgen.toml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from toolgen.build import analyze, build
from toolgen.infra.diagnostics import Level
from toolgen.load.loader import load_config
from toolgen.package.targets import TARGET_NAMES, mcp_rows
from toolgen.providers import mcp, settings
from toolgen.schema import walker


def _same_meaning(canonical: Any, projected: Any, instances: list[Any]) -> None:
    """Each instance is valid under both schemas or under neither."""
    for instance in instances:
        before = Draft202012Validator(canonical).is_valid(instance)
        after = Draft202012Validator(projected).is_valid(instance)
        assert before == after, (instance, before, after)


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf", "allOf"])
def test_a_root_union_is_refused(keyword: str):
    schema = {keyword: [{"type": "object"}, {"type": "object", "required": ["a"]}]}
    projected, problems = mcp.project(schema)
    assert projected is None
    assert [(pointer, code) for pointer, code, _ in problems] == [(f"/{keyword}", "ROOT_UNION")]


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        ({"type": "string"}, "/type"),
        ({"type": ["object", "null"]}, "/type"),
        ({"enum": [1]}, "/enum"),
    ],
)
def test_a_root_that_is_no_object_is_refused(schema: Any, pointer: str):
    projected, problems = mcp.project(schema)
    assert projected is None
    assert [(at, code) for at, code, _ in problems] == [(pointer, "NON_OBJECT_ROOT")]


def test_the_root_is_typed_with_properties():
    assert mcp.project({}) == ({"type": "object", "properties": {}}, [])
    projected, _ = mcp.project({"properties": {"a": {"type": "string"}}})
    assert projected == {"type": "object", "properties": {"a": {"type": "string"}}}


def test_references_go_under_defs_with_the_same_meaning():
    schema = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/definitions/A"},
            "b": {"type": "integer", "minimum": 3},
            "c": {"$ref": "#/properties/b"},
            "child": {"$ref": "#"},
        },
        "definitions": {"A": {"type": "string", "maxLength": 2}},
        "$defs": {"unused": {"type": "null"}},
        "additionalProperties": False,
    }
    projected, problems = mcp.project(schema)
    assert problems == [] and projected is not None
    refs = [n["$ref"] for n, _ in walker.walk(projected) if isinstance(n, dict) and "$ref" in n]
    assert all(ref.startswith("#/$defs/") for ref in refs)
    assert "definitions" not in projected and set(projected["$defs"]) == {"A", "b", "root"}
    _same_meaning(
        schema,
        projected,
        [
            {"a": "xy", "b": 3, "c": 4},
            {"a": "xyz"},
            {"c": 2},
            {"child": {"child": {"a": "x"}}},
            {"child": {"child": {"a": "xyz"}}},
            {"child": {"c": 1}},
            {"d": 1},
        ],
    )


def test_only_the_definitions_reached_are_kept():
    schema = {
        "type": "object",
        "properties": {"m": {"$ref": "#/$defs/Money"}},
        "$defs": {
            "Money": {"type": "object", "properties": {"c": {"$ref": "#/$defs/Currency"}}},
            "Currency": {"type": "string"},
            "Address": {"type": "object"},
        },
    }
    projected, _ = mcp.project(schema)
    assert projected is not None and set(projected["$defs"]) == {"Money", "Currency"}


def test_items_of_several_types_are_written_as_a_union_of_one_type_each():
    schema = {
        "type": "object",
        "properties": {
            "rows": {
                "type": "array",
                "items": {
                    "type": ["object", "null"],
                    "description": "a row",
                    "properties": {"a": {"type": "string"}},
                    "required": ["a"],
                },
            }
        },
    }
    projected, _ = mcp.project(schema)
    assert projected is not None
    items = projected["properties"]["rows"]["items"]
    assert items["description"] == "a row" and "type" not in items
    assert [branch["type"] for branch in items["anyOf"]] == ["object", "null"]
    rows = [[None, {"a": "x"}], [{"b": 1}], [1], [None], []]
    _same_meaning(schema, projected, [{"rows": r} for r in rows])


def _design(tmp_path: Path, tool: dict[str, Any], config: str) -> Path:
    (tmp_path / "tools").mkdir(parents=True)
    (tmp_path / "tools" / "t.yaml").write_text(yaml.safe_dump(tool), encoding="utf-8")
    (tmp_path / "toolgen.toml").write_text(config, encoding="utf-8")
    return tmp_path


CONFIG = '[toolgen]\nproviders = ["openai"]\ntargets = ["mcp"]\n'


def test_a_refused_tool_names_its_file_pointer_and_profile_and_writes_nothing(tmp_path: Path):
    tool = {
        "name": "t",
        "description": "A tool.",
        "parameters": {"oneOf": [{"type": "object"}, {"type": "object", "required": ["a"]}]},
        "providers": {"openai": {"strict": False}},  # which takes it (the root union dropped)
    }
    result = build(_design(tmp_path, tool, CONFIG))
    assert result.files == {}
    assert [(d.file, d.pointer, d.provider, d.code, d.level) for d in result.diagnostics] == [
        ("tools/t.yaml", "/parameters/oneOf", "mcp", "ROOT_UNION", Level.ERROR)
    ]


def test_a_framework_without_its_provider_module_is_refused(tmp_path: Path):
    parameters = {"type": "object", "properties": {"a": {"type": "string"}}}
    tool = {"name": "t", "description": "A tool.", "parameters": parameters}
    config = '[toolgen]\nproviders = ["anthropic"]\ntargets = ["mcp", "openai_agents"]\n'
    found = analyze(_design(tmp_path, tool, config)).diagnostics
    assert [(d.file, d.pointer, d.code) for d in found] == [
        ("toolgen.toml", "/toolgen/targets/1", "TARGET_WITHOUT_PROVIDER")
    ]


def test_an_output_clients_cannot_take_is_listed_without_output_schema(tmp_path: Path):
    tool = {
        "name": "t",
        "description": "A tool.",
        "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        "output": {"type": "array", "items": {"type": "integer"}},
    }
    design = analyze(_design(tmp_path, tool, CONFIG)).design
    assert design is not None
    rows, found = mcp_rows(design.tools)
    assert rows[0][6] is None
    assert [(d.file, d.pointer, d.code, d.level) for d in found] == [
        ("tools/t.yaml", "/output/type", "NON_OBJECT_ROOT", Level.WARNING)
    ]


def test_a_build_of_fewer_providers_leaves_their_framework_out(tmp_path: Path):
    """``--provider anthropic`` of a design that builds openai too: no Agents SDK module (its
    provider is not in this build), the other targets as asked."""
    parameters = {"type": "object", "properties": {"a": {"type": "string"}}}
    tool = {"name": "t", "description": "A tool.", "parameters": parameters}
    config = (
        '[toolgen]\nproviders = ["openai", "anthropic"]\ntargets = ["openai_agents", "langchain"]\n'
    )
    result = build(_design(tmp_path, tool, config), ("anthropic",))
    assert result.ok and result.diagnostics == []
    assert "langchain.py" in result.files and "openai_agents.py" not in result.files
    # and the package's __init__ names no module it does not have (mypy's attr-defined)
    init = result.files["__init__.py"]
    assert "import langchain as langchain" in init and "openai_agents" not in init


@pytest.mark.parametrize(
    ("toml", "targets", "found"),
    [
        ('targets = ["mcp", "mcp"]', ("mcp",), []),
        ("", (), []),
        ('targets = ["mcp", "crewai"]', ("mcp",), [("/toolgen/targets/1", "UNKNOWN_TARGET")]),
        ('targets = "mcp"', (), [("/toolgen/targets", "INVALID_CONFIG")]),
    ],
)
def test_the_targets_of_toolgen_toml(tmp_path: Path, toml: str, targets: Any, found: Any):
    (tmp_path / "toolgen.toml").write_text(f"[toolgen]\n{toml}\n", encoding="utf-8")
    config, diagnostics = load_config(tmp_path, settings(), TARGET_NAMES)
    assert config.targets == targets
    assert [(d.pointer, d.code) for d in diagnostics] == found
