"""The Cloudflare Workers AI profile: its rules table, the wire form of a tool's top-level members
(one type and a description each, as the native input types declare them; a member of no one type
as JSON text), and the hard cases and the example design checked by the independent checker
(tests/cloudflare_checker.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.canonical import hard_cases
from tests.cloudflare_checker import violations
from tests.conftest import write_design
from toolgen.build import analyze
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.project.rewrites import EncodingError
from toolgen.providers.cloudflare import CLOUDFLARE, FAMILIES, RULES

REPO = Path(__file__).resolve().parents[1]


def _project(tmp_path: Path, files: dict[str, Any]) -> Any:
    design = write_design(
        tmp_path / "design", {"toolgen.toml": '[toolgen]\nproviders = ["cloudflare"]\n', **files}
    )
    return analyze(design)


def _tool(parameters: dict[str, Any]) -> dict[str, Any]:
    return {"name": "t", "description": "a tool", "parameters": parameters}


def test_every_rule_and_family_names_its_source() -> None:
    assert CLOUDFLARE.rules == RULES
    topics = {rule.topic for rule in RULES}
    assert {"tool forms", "json mode (native)", "top-level members", "model families"} <= topics
    for family in FAMILIES:
        assert family.prefixes and family.shapes and "workers-types" in family.source
    prefixes = [p for family in FAMILIES for p in family.prefixes]
    assert len(prefixes) == len(set(prefixes))


def test_top_level_members_get_one_type_and_a_description(tmp_path: Path) -> None:
    parameters = {
        "type": "object",
        "properties": {
            "plain": {"type": "string", "description": "kept"},
            "bare": {"type": "integer"},
            "choice": {"enum": ["a", "b"]},
            "fixed": {"const": 3},
            "point": {"$ref": "#/$defs/Point"},
            "shape": {
                "oneOf": [
                    {"type": "object", "properties": {"r": {"type": "number"}}},
                    {"type": "object", "properties": {"w": {"type": "number"}}},
                ]
            },
        },
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}},
    }
    result = _project(tmp_path, {"tools/t.yaml": _tool(parameters)})
    assert result.ok, [d.format() for d in result.diagnostics]
    (projected,) = result.projections[0].tools
    members = projected.schema["properties"]
    assert {name: (m["type"], m["description"]) for name, m in members.items()} == {
        "plain": ("string", "kept"),
        "bare": ("integer", ""),
        "choice": ("string", ""),
        "fixed": ("integer", ""),
        "point": ("object", ""),
        "shape": ("object", ""),
    }
    assert violations(projected.schema, name=projected.provider_name) == []
    assert "$ref" not in members["point"]  # inlined: a type beside a $ref reads as siblings
    assert members["point"]["properties"] == {"x": {"type": "number"}}
    # only annotations and implied types were added: the inverse reads the same meaning
    assert projected.meaning is not None


#: top-level members of no one JSON type, each with a value it accepts
UNTYPED = [
    ({"type": ["string", "null"]}, None),
    ({"type": ["string", "integer"], "minimum": 1}, 2),
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, "7"),
    ({"enum": ["a", 1]}, 1),
    ({"const": {"k": 1}}, {"k": 1}),
    ({"anyOf": [{"$ref": "#/$defs/Name"}, {"type": "null"}]}, "x"),
]


@pytest.mark.parametrize("member, value", UNTYPED)
def test_a_member_without_one_type_is_written_as_json_text(
    tmp_path: Path, member: dict[str, Any], value: Any
) -> None:
    parameters = {
        "type": "object",
        "properties": {"ok": {"type": "string"}, "loose": {**member, "description": "d"}},
        "$defs": {"Name": {"type": "string"}},
    }
    result = _project(tmp_path, {"tools/t.yaml": _tool(parameters)})
    assert result.ok, [d.format() for d in result.diagnostics]
    (projected,) = result.projections[0].tools
    loose = projected.schema["properties"]["loose"]
    assert loose["type"] == "string"
    assert loose["description"].startswith("d (a value of the JSON Schema ")
    assert violations(projected.schema, name=projected.provider_name) == []
    payload = {"ok": "a", "loose": json.dumps(value)}
    assert reference_inverse(payload, projected) == {"ok": "a", "loose": value}
    with pytest.raises(EncodingError):
        reference_inverse({"loose": "not JSON"}, projected)


def test_outputs_keep_their_unions_and_optionals_stay_optional(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"note": {"type": ["string", "null"]}, "n": {"type": "integer"}},
        "required": ["n"],
    }
    files = {"outputs/o.yaml": {"name": "o", "description": "", "schema": schema}}
    result = _project(tmp_path, files)
    assert result.ok, [d.format() for d in result.diagnostics]
    (projected,) = result.projections[0].outputs
    assert projected.schema["required"] == ["n"]
    assert projected.schema["properties"]["note"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}]
    }


def test_recursion_is_written_as_json_text(tmp_path: Path) -> None:
    """Workers AI takes no recursive schema: the reference that closes the cycle is a string of
    JSON text (RecursionAsJsonText); the one into the cycle, a top-level member, is inlined (its
    native form is one type), and the definition nothing refers to any more is not sent."""
    parameters = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            }
        },
    }
    result = _project(tmp_path, {"tools/t.yaml": _tool(parameters)})
    assert result.ok, [d.format() for d in result.diagnostics]
    schema = result.projections[0].tools[0].schema
    # the top-level member is written out (the tool wire form): Node is reached no more, not sent
    assert "$defs" not in schema
    kids = schema["properties"]["tree"]["properties"]["kids"]["items"]
    assert kids["type"] == "string" and "JSON text" in kids["description"]
    assert violations(schema, name="t") == []


def test_hard_cases_and_the_example_design_pass_the_checker(tmp_path: Path) -> None:
    hard = analyze(write_design(tmp_path / "hard", hard_cases.design_files()), ["cloudflare"])
    example = analyze(REPO / "examples" / "design", ["cloudflare"])
    checked = 0
    for result in (hard, example):
        for projected in result.projections[0].tools:
            if projected.schema is not None:
                checked += 1
                assert violations(projected.schema, name=projected.provider_name) == [], (
                    projected.contract.name
                )
    assert checked > 10
    assert CLOUDFLARE.strict_flag is False and CLOUDFLARE.non_strict is None
