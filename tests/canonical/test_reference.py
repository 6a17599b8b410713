"""The reference inverse, case by case (docs/projection.md, "The inverse and its laws"), and its text entry point."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.canonical.conftest import write_files
from toolgen.compile.canonical.reference import canonicalize_text, reference_inverse
from toolgen.infra.diagnostics import Level
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.load.design import load_design
from toolgen.project.design_projection import project_design
from toolgen.project.projection import ProjectedContract, project_contract
from toolgen.providers import PROFILES, settings

OPENAI = PROFILES["openai"]


def project(schema: dict[str, Any]) -> ProjectedContract:
    contract = Contract("tool", "t", "", schema, "tools/t.yaml", "/parameters")
    projected, diagnostics = project_contract(contract, OPENAI, ProviderOptions(), "t")
    assert projected.schema is not None, diagnostics
    return projected


def inverse(schema: dict[str, Any]) -> Any:
    projected = project(schema)
    return lambda payload: reference_inverse(payload, projected)


BOOST = {
    "type": "object",
    "properties": {
        "filter": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "field": {"type": "string"},
                        "equals": {"type": "string"},
                        "boost": {"type": "number"},
                    },
                    "required": ["field", "equals"],
                },
                {
                    "type": "object",
                    "properties": {
                        "field": {"type": "string"},
                        "gte": {"type": "number"},
                        "boost": {"type": ["number", "null"]},
                    },
                    "required": ["field", "gte", "boost"],
                },
            ]
        }
    },
    "required": ["filter"],
}


def test_the_branch_decides_which_nulls_go() -> None:
    run = inverse(BOOST)
    first = {"filter": {"field": "a", "equals": "b", "boost": None}}
    second = {"filter": {"field": "a", "gte": 1, "boost": None}}
    assert run(first) == {"filter": {"field": "a", "equals": "b"}}
    assert run(second) is second  # the null is the branch's own: kept, and nothing changed


def test_no_branch_admits_then_every_branch_applies() -> None:
    payload = {"filter": {"field": "a", "equals": 1, "gte": "x", "boost": None}}
    assert inverse(BOOST)(payload) == {"filter": {"field": "a", "equals": 1, "gte": "x"}}


def test_null_goes_only_where_the_projection_added_it() -> None:
    schema = {
        "type": "object",
        "properties": {
            "opt": {"type": "string"},
            "opt_const": {"const": "x"},
            "opt_enum": {"enum": ["a", "b"]},
            "opt_ref": {"$ref": "#/$defs/D"},
            "opt_null_enum": {"enum": ["a", None]},
            "opt_nullable": {"type": ["string", "null"]},
            "req": {"type": "string"},
            "req_nullable": {"type": ["string", "null"]},
        },
        "required": ["req", "req_nullable"],
        "$defs": {"D": {"type": "object", "properties": {"d": {"type": "string"}}}},
    }
    payload = dict.fromkeys(schema["properties"])
    # a member that is optional and accepts null is boxed: null is the absent member
    assert inverse(schema)(payload) == {"req": None, "req_nullable": None}
    boxed = {**payload, "opt_null_enum": {"value": None}, "opt_nullable": {"value": None}}
    assert inverse(schema)(boxed) == {
        "opt_null_enum": None,
        "opt_nullable": None,
        "req": None,
        "req_nullable": None,
    }


def test_undeclared_members_and_array_elements_keep_their_nulls() -> None:
    schema = {
        "type": "object",
        "properties": {
            "list": {"type": "array", "items": {"type": ["string", "null"]}},
            "rows": {
                "type": "array",
                "items": {"type": "object", "properties": {"a": {"type": "string"}}},
            },
        },
    }
    run = inverse(schema)
    assert run({"list": [None, "x", None], "undeclared": None}) == {
        "list": [None, "x", None],
        "undeclared": None,
    }
    assert run({"rows": [None, {"a": None}, {"b": None}]}) == {"rows": [None, {}, {"b": None}]}


def test_recursion_is_bounded_by_the_payload() -> None:
    schema = {
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/N"}},
        "$defs": {
            "N": {
                "type": "object",
                "properties": {"next": {"$ref": "#/$defs/N"}, "v": {"type": "integer"}},
            }
        },
    }
    payload: dict[str, Any] = {"next": None, "v": None}
    for depth in range(60):
        payload = {"next": payload, "v": depth}
    result = inverse(schema)({"node": payload})
    node = result["node"]
    while "next" in node:
        node = node["next"]
    assert node == {}


def test_input_is_never_mutated_and_untouched_parts_are_shared() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"x": {"type": "string"}}},
            "b": {"type": "object", "properties": {"y": {"type": "string"}}},
        },
    }
    payload = {"a": {"x": None}, "b": {"y": "keep"}}
    before = copy.deepcopy(payload)
    result = inverse(schema)(payload)
    assert payload == before
    assert result == {"a": {}, "b": {"y": "keep"}}
    assert result["b"] is payload["b"]
    untouched = {"a": {"x": "1"}}
    assert inverse(schema)(untouched) is untouched


def test_large_integers_and_floats_survive() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "f": {"type": "number"}, "o": {"type": "string"}},
    }
    big = 123456789012345678901234567890
    result = inverse(schema)({"n": big, "f": 0.1, "o": None})
    assert result == {"n": big, "f": 0.1}
    assert type(result["n"]) is int


def test_text_entry_point() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "f": {"type": "number"},
            "o": {"type": "string"},
            "ü": {"type": "string"},
        },
    }
    projected = project(schema)
    unchanged = '{ "n" : 123456789012345678901234567890, "f": 1.50e0, "ü": "é" }'
    assert canonicalize_text(unchanged, projected) is unchanged
    raw = unchanged.encode()
    assert canonicalize_text(raw, projected) is raw
    changed = '{"ü": "é\\n", "n": 123456789012345678901234567890, "o": null, "f": 1.50e0}'
    expected = '{"ü":"é\\n","n":123456789012345678901234567890,"f":1.50e0}'
    assert canonicalize_text(changed, projected) == expected
    assert canonicalize_text(changed.encode(), projected) == expected.encode()


@pytest.mark.parametrize(
    ("setting", "level"), [(None, None), ("keep", Level.WARNING), ("error", Level.ERROR)]
)
def test_optional_nullable_is_boxed_or_a_diagnostic_and_the_null_stays(
    tmp_path: Path, setting: str | None, level: Level | None
) -> None:
    """By default the member is boxed, quietly: null is the absent member, {"value": null} a null
    one. With "keep" (a warning) or "error" it is written as it is and the inverse keeps null."""
    files: dict[str, object] = {
        "tools/t.json": {
            "name": "t",
            "description": "d",
            "parameters": {"type": "object", "properties": {"maybe": {"type": ["string", "null"]}}},
        }
    }
    if setting:
        files["toolgen.toml"] = f'[providers.openai]\noptional_nullable = "{setting}"\n'
    design, _ = load_design(write_files(tmp_path / "design", files), settings(["openai"]))
    assert design is not None
    projection = project_design(design, OPENAI)
    found = [d for d in projection.diagnostics if d.code == "OPTIONAL_NULLABLE"]
    expected = [] if level is None else [("/parameters/properties/maybe", level)]
    assert [(d.pointer, d.level) for d in found] == expected
    if level is None:
        assert reference_inverse({"maybe": None}, projection.tools[0]) == {}
        assert reference_inverse({"maybe": {"value": None}}, projection.tools[0]) == {"maybe": None}
    if level is Level.WARNING:
        payload = {"maybe": None}
        assert reference_inverse(payload, projection.tools[0]) is payload
