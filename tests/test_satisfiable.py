"""Schemas no value satisfies are design errors (issue 23, item 5): ``toolgen validate`` reports
each unsatisfiable node with its pointer, for the canonical schema and for projections."""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.build import analyze
from toolgen.infra.diagnostics import DESIGN, Level
from toolgen.project.satisfiable import unsatisfiable_nodes

#: bfcl_functions.jsonl, line 498 (``get_response``): a required array whose only constraint is a
#: string enum, as the BFCL import writes it
GET_RESPONSE = {
    "type": "object",
    "required": ["url", "intents"],
    "properties": {
        "url": {"type": "string", "description": "The full URL."},
        "intents": {
            "type": "array",
            "items": {"type": "string"},
            "description": "A list of recognized intents.",
            "enum": ["Weather", "News", "Traffic"],
        },
        "timeout": {"type": "integer", "default": 30},
    },
}

UNSATISFIABLE = [
    ({"type": "array", "enum": ["a", "b"]}, "none of its enum values is of its type (array)"),
    ({"type": "boolean", "enum": ["True", "False"]}, "none of its enum values"),
    ({"type": "integer", "enum": [1.5, "2"]}, "none of its enum values"),
    ({"enum": []}, "its enum is empty"),
    ({"type": []}, "its type list is empty"),
    ({"type": "string", "const": 3}, "its const is of type integer"),
    ({"type": ["integer", "null"], "const": "x"}, "its const is of type string"),
    ({"type": "number", "minimum": 5, "maximum": 1}, "no number lies between"),
    ({"type": "number", "exclusiveMinimum": 1, "maximum": 1}, "no number lies between"),
    ({"type": "number", "minimum": 1, "exclusiveMaximum": 1}, "no number lies between"),
    ({"type": "integer", "minimum": 1.2, "maximum": 1.8}, "no integer lies between"),
    ({"type": "integer", "exclusiveMinimum": 1, "exclusiveMaximum": 2}, "no integer lies"),
    ({"type": "string", "minLength": 3, "maxLength": 2}, "minLength 3 is above maxLength 2"),
    ({"type": "array", "minItems": 2, "maxItems": 1}, "minItems 2 is above maxItems 1"),
    ({"type": "object", "minProperties": 2, "maxProperties": 1}, "minProperties 2 is above"),
    (
        {"type": "object", "properties": {}, "required": ["a"], "additionalProperties": False},
        "it requires 'a', which its closed properties do not have",
    ),
]

SATISFIABLE = [
    {"type": "integer", "enum": [1.0, "x"]},  # 1.0 is an integer
    {"type": "number", "enum": [1]},
    {"type": ["string", "array"], "enum": ["a"]},
    {"enum": ["a", 1]},
    {"type": ["number", "string"], "minimum": 5, "maximum": 1},  # any string
    {"minimum": 5, "maximum": 1},  # any non-number
    {"type": "number", "minimum": 1, "maximum": 1},
    {"type": "integer", "minimum": 0.5, "maximum": 1.5},
    {"type": "string", "minLength": 2, "maxLength": 2},
    {"type": "object", "required": ["a"], "additionalProperties": False,
     "properties": {"a": {"type": "string"}}},
    {"type": "object", "required": ["a"]},
    {"type": "boolean", "const": False},
    True,
    False,  # a false subschema says "nothing here", which is no design error on its own
]  # fmt: skip


@pytest.mark.parametrize(("schema", "reason"), UNSATISFIABLE)
def test_unsatisfiable_nodes_are_found(schema: Any, reason: str) -> None:
    [(pointer, found)] = unsatisfiable_nodes(schema)
    assert pointer == "" and reason in found


@pytest.mark.parametrize("schema", SATISFIABLE)
def test_satisfiable_nodes_are_not(schema: Any) -> None:
    assert unsatisfiable_nodes(schema) == []


def test_nodes_are_found_everywhere_with_their_pointers() -> None:
    bad = {"type": "string", "enum": [1]}
    schema = {
        "type": "object",
        "properties": {"a~b/c": bad, "list": {"type": "array", "items": bad}},
        "anyOf": [bad, {"type": "object"}],
        "$defs": {"Bad": bad},
        "prefixItems": [True, bad],
    }
    assert sorted(p for p, _ in unsatisfiable_nodes(schema)) == [
        "/$defs/Bad",
        "/anyOf/0",
        "/prefixItems/1",
        "/properties/a~0b~1c",
        "/properties/list/items",
    ]


def test_a_deep_schema_is_walked_not_recursed() -> None:
    schema: Any = {"type": "string", "enum": [1]}
    for _ in range(5000):
        schema = {"type": "array", "items": schema}
    [(pointer, _)] = unsatisfiable_nodes(schema)
    assert pointer == "/items" * 5000


def test_validate_reports_the_corpus_tool(make_design: Any, tool: Any, cli: Any) -> None:
    design = make_design({"tools/get_response.yaml": tool("get_response", GET_RESPONSE)})
    result = analyze(design)
    found = [d for d in result.diagnostics if d.code == "UNSATISFIABLE_SCHEMA"]
    assert [(d.file, d.pointer, d.provider, d.level) for d in found] == [
        ("tools/get_response.yaml", "/parameters/properties/intents", DESIGN, Level.ERROR)
    ]
    assert "none of its enum values is of its type (array)" in found[0].message
    run = cli("validate", design)
    assert run.exit_code == 1
    assert (
        "tools/get_response.yaml:/parameters/properties/intents: design: UNSATISFIABLE_SCHEMA"
        in run.stderr
    )


def test_a_satisfiable_design_has_no_such_diagnostic(make_design: Any, tool: Any) -> None:
    fixed = {**GET_RESPONSE, "properties": {**GET_RESPONSE["properties"]}}
    fixed["properties"]["intents"] = {
        "type": "array",
        "items": {"type": "string", "enum": ["Weather", "News", "Traffic"]},
    }
    design = make_design({"tools/get_response.yaml": tool("get_response", fixed)})
    assert not [d for d in analyze(design).diagnostics if d.code == "UNSATISFIABLE_SCHEMA"]


def test_an_output_is_checked_too(make_design: Any, output: Any) -> None:
    schema = {
        "type": "object",
        "properties": {"score": {"type": "integer", "minimum": 10, "maximum": 1}},
        "required": ["score"],
        "additionalProperties": False,
    }
    design = make_design({"outputs/rating.yaml": output("rating", schema)})
    [found] = [d for d in analyze(design).diagnostics if d.code == "UNSATISFIABLE_SCHEMA"]
    assert (found.file, found.pointer) == ("outputs/rating.yaml", "/schema/properties/score")


def test_a_rebuild_reads_the_findings_from_the_cache_and_reports_them_the_same(
    make_design: Any, tool: Any, tmp_path: Any
) -> None:
    """The nodes found are cached per contract (by its source) and per projection (by its key):
    a rebuild walks no unchanged schema, and reports what a cold build reports."""
    from toolgen.build import build
    from toolgen.infra.cache import Cache
    from toolgen.infra.parallel import Runner

    fine = {"type": "object", "properties": {"q": {"type": "string"}}}
    design = make_design(
        {
            "tools/get_response.yaml": tool("get_response", GET_RESPONSE),
            "tools/search.yaml": tool("search", fine),
        }
    )
    cold = build(design, ("openai",)).diagnostics
    cache = tmp_path / "cache"
    assert build(design, ("openai",), cache_dir=cache).diagnostics == cold

    def diagnostics() -> tuple[list[Any], Cache]:
        found = Cache(cache)
        return analyze(design, ("openai",), Runner(cache=found)).diagnostics, found

    again, used = diagnostics()
    assert (used.misses["satisfiable"], used.hits["satisfiable"]) == (
        0,
        3,
    )  # two schemas, one projection
    assert again == cold
    assert [d.code for d in again].count("UNSATISFIABLE_SCHEMA") == 1
