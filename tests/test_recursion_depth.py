"""``[providers.X] recursion_depth = N`` (issue 20): where a provider refuses recursion, a ``$ref``
that closes a cycle is unrolled N levels instead of written as JSON text; at the last level the
member holding the reference goes where it is optional (the model cannot nest deeper), and is JSON
text where it is required. Checked on the wire form with each profile's strict checker, with the
RECURSION_UNROLLED warning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from anthropic_strict_checker import violations as anthropic_violations
from gemini_checker import violations as gemini_violations
from strict_checker import violations as strict_violations

from tests.conftest import write_design
from toolgen.build import analyze
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.infra.cache import Cache
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.providers import PROFILES
from toolgen.schema import walker

S = {"type": "string"}
NODE = {
    "type": "object",
    "properties": {"name": S, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    "required": ["name"],
}
TREE = {
    "type": "object",
    "properties": {"tree": {"$ref": "#/$defs/Node"}},
    "required": ["tree"],
    "$defs": {"Node": NODE},
}
#: the providers and dialects that refuse recursion in strict mode, with their checkers
REFUSING = {
    "anthropic": ("", lambda schema: anthropic_violations(schema)),
    "mistral": ("", lambda schema: strict_violations(schema, provider="mistral")),
    "gemini": ('dialect = "openapi"\n', lambda schema: gemini_violations(schema, "openapi")),
}


def project(
    tmp_path: Path, provider: str, parameters: Any, depth: int | None, runner: Runner | None = None
) -> tuple[Any, Any]:
    """(wire schema or None, every diagnostic) of a one-tool design built for ``provider``."""
    table = REFUSING[provider][0] + (f"recursion_depth = {depth}\n" if depth else "")
    root = write_design(
        tmp_path / "design",
        {
            "toolgen.toml": f"[providers.{provider}]\n{table}",
            "tools/t.json": {"name": "t", "description": "A tool.", "parameters": parameters},
        },
    )
    result = analyze(root, (provider,), runner)
    tools = result.projections[0].tools if result.projections else ()
    return (tools[0].schema if tools else None), list(result.diagnostics)


def objects_with_name(schema: Any) -> list[dict[str, Any]]:
    """Each level of the tree in the wire schema: an object schema with a ``name`` member."""
    return [
        node
        for node, _ in walker.walk(schema)
        if isinstance(node, dict) and "name" in (node.get("properties") or {})
    ]


def refs(schema: Any) -> list[str]:
    return [p for n, p in walker.walk(schema) if isinstance(n, dict) and "$ref" in n]


@pytest.mark.parametrize("provider", list(REFUSING))
def test_the_tree_is_unrolled_to_the_depth(tmp_path: Path, provider: str) -> None:
    """Depth 2: the definition and two copies below it, the last without ``children``; no JSON
    text is left, and the profile's strict checker accepts the wire schema."""
    schema, diagnostics = project(tmp_path, provider, TREE, 2)
    assert schema is not None, diagnostics
    text = json.dumps(schema)
    assert "JSON text" not in text
    assert REFUSING[provider][1](schema) == []
    # every level holds name; only the last one lacks children
    found = objects_with_name(schema)
    assert ["children" in node["properties"] for node in found] == [True, True, False]
    for ref in refs(schema):  # a reference left may only lead into the definition, from outside
        assert "/$defs/" not in ref and "/definitions/" not in ref


@pytest.mark.parametrize("provider", list(REFUSING))
def test_without_the_setting_the_reference_is_json_text(tmp_path: Path, provider: str) -> None:
    schema, diagnostics = project(tmp_path, provider, TREE, None)
    assert schema is not None
    assert "JSON text" in json.dumps(schema)
    assert not [d for d in diagnostics if d.code == "RECURSION_UNROLLED"]


@pytest.mark.parametrize("provider", list(REFUSING))
def test_the_warning_names_the_depth_and_the_size_added(tmp_path: Path, provider: str) -> None:
    _, diagnostics = project(tmp_path, provider, TREE, 2)
    [warning] = [d for d in diagnostics if d.code == "RECURSION_UNROLLED"]
    assert warning.level == "warning"
    assert (warning.file, warning.provider) == ("tools/t.json", provider)
    assert warning.pointer == "/parameters/$defs/Node/properties/children/items/$ref"
    assert "recursion_depth = 2" in warning.message
    assert "bytes" in warning.message
    added = int(warning.message.split("adding ")[1].split(" bytes")[0])
    assert added > 0
    assert not [d for d in diagnostics if d.level == "error"]


def test_a_deeper_setting_nests_deeper(tmp_path: Path) -> None:
    shallow, _ = project(tmp_path / "a", "anthropic", TREE, 1)
    deep, _ = project(tmp_path / "b", "anthropic", TREE, 3)
    assert len(json.dumps(deep)) > len(json.dumps(shallow))
    assert anthropic_violations(deep) == []


def test_a_required_recursive_member_is_json_text_at_the_last_level() -> None:
    """A member that must be there cannot be removed: at the last level its reference is written
    as JSON text (RecursionAsJsonText), which reads back exactly."""
    linked = {
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Cell"}},
        "required": ["head"],
        "$defs": {
            "Cell": {
                "type": "object",
                "properties": {
                    "value": S,
                    "next": {"anyOf": [{"$ref": "#/$defs/Cell"}, {"type": "null"}]},
                },
                "required": ["value", "next"],
            }
        },
    }
    contract = Contract("tool", "t", "", linked, "tools/t.json", "/parameters")
    options = ProviderOptions(recursion_depth=1)
    projected, diagnostics = project_contract(contract, PROFILES["anthropic"], options, "t")
    assert not [d for d in diagnostics if d.level == "error"], diagnostics
    cell = projected.schema["$defs"]["Cell"]
    copy = cell["properties"]["next"]["anyOf"][0]
    assert copy["properties"]["value"] == S
    assert copy["properties"]["next"]["anyOf"][0]["type"] == "string"  # JSON text
    assert anthropic_violations(projected.schema) == []


@pytest.mark.parametrize("value", ["2", 0, -1, 1.5, True])
def test_an_invalid_depth_is_a_config_error(tmp_path: Path, value: Any) -> None:
    root = write_design(
        tmp_path / "design",
        {
            "toolgen.toml": f"[providers.anthropic]\nrecursion_depth = {json.dumps(value)}\n",
            "tools/t.json": {"name": "t", "description": "A tool.", "parameters": TREE},
        },
    )
    result = analyze(root, ("anthropic",))
    found = [(d.file, d.pointer, d.code) for d in result.diagnostics if d.level == "error"]
    assert found == [("toolgen.toml", "/providers/anthropic/recursion_depth", "INVALID_CONFIG")]


def test_the_depth_is_in_the_projection_cache_key(tmp_path: Path) -> None:
    """A cached build that changes only recursion_depth projects again."""
    cache = Cache(tmp_path / "cache")
    with Runner(1, cache) as runner:
        as_text, unrolled, deeper = (
            project(tmp_path, "anthropic", TREE, depth, runner)[0] for depth in (None, 2, 3)
        )
    assert "JSON text" in json.dumps(as_text)
    assert len(objects_with_name(unrolled)) == 3
    assert len(objects_with_name(deeper)) == 4


def test_a_root_that_recurses_is_copied_without_its_definitions() -> None:
    """``$ref: "#"``: each copy is the root's schema, but its ``$defs`` stay at the root once
    (the copies' references resolve there); the value reads back as it was."""
    schema = {
        "type": "object",
        "properties": {"v": {"$ref": "#/$defs/V"}, "next": {"$ref": "#"}},
        "required": ["v"],
        "$defs": {"V": S},
    }
    contract = Contract("tool", "t", "", schema, "tools/t.json", "/parameters")
    options = ProviderOptions(recursion_depth=2)
    projected, diagnostics = project_contract(contract, PROFILES["anthropic"], options, "t")
    assert [d.code for d in diagnostics] == ["RECURSION_UNROLLED"]
    found = [p for n, p in walker.walk(projected.schema) if isinstance(n, dict) and "$defs" in n]
    assert found == [""]
    assert anthropic_violations(projected.schema) == []
    payload = {"v": "a", "next": {"v": "b", "next": {"v": "c"}}}
    assert reference_inverse(payload, projected) == payload


def test_mutual_recursion_leaves_no_cycle() -> None:
    """A and B refer to each other: both references are unrolled, the strict checker finds no
    recursion, and no reference is left inside the definitions."""
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "required": ["a"],
        "$defs": {
            "A": {"type": "object", "properties": {"x": S, "b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"y": S, "a": {"$ref": "#/$defs/A"}}},
        },
    }
    contract = Contract("tool", "t", "", schema, "tools/t.json", "/parameters")
    options = ProviderOptions(recursion_depth=1)
    projected, diagnostics = project_contract(contract, PROFILES["mistral"], options, "t")
    assert {d.code for d in diagnostics} == {"RECURSION_UNROLLED"}
    assert strict_violations(projected.schema, provider="mistral") == []
    assert [r for r in refs(projected.schema) if r.startswith("/$defs/")] == []
