"""The Bedrock Converse projection: Anthropic's strict subset where ``strict`` is on (objects
closed, optionals stay optional, unsupported constraints dropped, a recursive reference written as
JSON text), and with strict off the canonical schema (every validation keyword kept, recursion kept, objects left as
authored), minus a root union; the root is an object in every mode."""

from __future__ import annotations

from typing import Any

import pytest
from anthropic_strict_checker import assert_strict, violations

from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.project.strictness import project_non_strict_tool
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.bedrock import BEDROCK
from toolgen.providers.openai import OPENAI

LOOSE = "non-strict"

S = {"type": "string"}


def obj(properties: dict[str, Any], required: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, **extra}


def closed(properties: dict[str, Any], required: list[str], **extra: Any) -> dict[str, Any]:
    return {**obj(properties, required, **extra), "additionalProperties": False}


def project(schema: Any, profile: Any = BEDROCK) -> tuple[Any, list[Any]]:
    """The strict projection by ``profile``, or Bedrock's non-strict one (``LOOSE``)."""
    contract = Contract("tool", "t", "", schema, "tools/t.json", "/parameters")
    if profile == LOOSE:
        return project_non_strict_tool(contract, BEDROCK, "t")
    projected, diagnostics = project_contract(contract, profile, ProviderOptions(), "t")
    return projected, diagnostics


def error_codes(diagnostics: list[Any]) -> list[str]:
    return [d.code for d in diagnostics if d.level == "error"]


CONSTRAINED = obj(
    {
        "count": {"type": "integer", "minimum": 1, "maximum": 9},
        "name": {"type": "string", "minLength": 2, "format": "uri"},
        "tags": {"type": "array", "items": S, "minItems": 2, "maxItems": 4, "uniqueItems": True},
        "when": {"type": "string", "format": "iri"},
    },
    ["count"],
)


def test_strict_is_anthropics_subset_with_optionals_kept_optional():
    projected, diagnostics = project(CONSTRAINED)
    assert error_codes(diagnostics) == []
    assert projected.schema == closed(
        {
            "count": {"type": "integer"},
            "name": {"type": "string", "format": "uri"},
            "tags": {"type": "array", "items": S},
            "when": S,
        },
        ["count"],
    )
    assert_strict(projected.schema, name="t")
    # No nulls are added: the record holds no null-making rule for the inverse to undo.
    pointers = [pointer for pointer, _ in projected.rewrites.nodes]
    assert "/properties/name" in pointers
    assert not any(projected.rewrites.made_nullable(pointer) for pointer in pointers)


def test_strict_projects_as_anthropic_does():
    """Bedrock imports Anthropic's tables: the same schema, for a schema of every kind of rule."""
    bedrock, _ = project(CONSTRAINED)
    anthropic, _ = project(CONSTRAINED, ANTHROPIC)
    assert bedrock.schema == anthropic.schema


def test_loose_is_the_canonical_schema():
    projected, diagnostics = project(CONSTRAINED, LOOSE)
    assert error_codes(diagnostics) == []
    assert projected.schema == CONSTRAINED
    assert projected.strict is False
    # ... which strict mode would refuse: the loose profile is not the strict one renamed.
    assert {rule for _, rule, _ in violations(projected.schema)} >= {
        "unsupported-keyword",
        "unsupported-format",
        "min-items",
    }


RECURSIVE = obj(
    {"value": S, "children": {"type": "array", "items": {"$ref": "#"}}},
    ["value"],
)


def test_recursion_is_json_text_strict_and_kept_loose():
    strict, diagnostics = project(RECURSIVE)
    assert error_codes(diagnostics) == []
    assert strict.schema["properties"]["children"]["items"] == {
        "type": "string",
        "description": "a value of the shape of the whole (top-level) value, written as JSON text",
    }
    assert violations(strict.schema) == []
    loose, diagnostics = project(RECURSIVE, LOOSE)
    assert error_codes(diagnostics) == []
    assert loose.schema is not None
    assert loose.schema["properties"]["children"]["items"] == {"$ref": "#"}


@pytest.mark.parametrize("profile", [BEDROCK, LOOSE], ids=["strict", "loose"])
def test_the_root_must_be_an_object_in_every_mode(profile):
    projected, diagnostics = project({"type": "string"}, profile)
    assert projected.schema is None
    assert error_codes(diagnostics) == ["NON_OBJECT_ROOT"]


def test_a_root_union_is_refused_strict_and_dropped_loose():
    union = {"anyOf": [obj({"a": S}, ["a"]), obj({"b": S}, ["b"])]}
    projected, diagnostics = project(union)
    assert projected.schema is None and "ROOT_UNION" in error_codes(diagnostics)
    projected, diagnostics = project(union, LOOSE)
    assert diagnostics == []
    assert projected.schema == {"type": "object"}
    (dropped,) = projected.rewrites.rewrites("")
    assert dropped.keywords == ("anyOf",)


def test_strict_enforces_the_per_request_caps_on_one_schema():
    """24 optional members at most (Anthropic's cap, kept for Claude on Bedrock: safe side): the
    25th is written required and nullable (OptionalsOverCap), which counts as a union-typed
    schema; over 16 of those too, the schema is refused in strict mode."""
    many = obj({f"p{i}": S for i in range(25)}, [])
    projected, diagnostics = project(many)
    assert error_codes(diagnostics) == []
    assert projected.schema["required"] == ["p24"]
    assert projected.schema["properties"]["p24"] == {"type": ["string", "null"]}
    too_many = obj({f"p{i}": S for i in range(24 + 17)}, [])
    _, diagnostics = project(too_many)
    assert error_codes(diagnostics) == ["LIMIT_OPTIONAL_MEMBERS"]
    _, diagnostics = project(too_many, LOOSE)
    assert error_codes(diagnostics) == []


def test_names_are_bedrocks():
    assert BEDROCK.names.is_valid("get_weather-2")
    assert not BEDROCK.names.is_valid("get.weather")
    assert not BEDROCK.names.is_valid("x" * 65)
    assert BEDROCK.names.is_valid("x" * 64)


def test_the_checker_refuses_what_strict_mode_refuses():
    """The oracle can fail: OpenAI's projection (optionals made nullable-required, numeric bounds
    kept) and an open object are not Anthropic strict schemas."""
    openai, _ = project(CONSTRAINED, OPENAI)
    assert {rule for _, rule, _ in violations(openai.schema)} >= {"unsupported-keyword"}
    assert [rule for _, rule, _ in violations(obj({"a": S}, []))] == ["open-object"]
    assert "recursive" in {rule for _, rule, _ in violations(closed(RECURSIVE["properties"], []))}
    assert "bad-name" in {rule for _, rule, _ in violations(closed({}, []), name="a.b")}
