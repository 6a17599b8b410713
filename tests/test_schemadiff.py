"""toolgen/schema/compare.py on real schemas: the tools of ../shared/corpus (MCP servers, pydantic-ai and
Anthropic SDK recordings) compared with rewritten copies of themselves. A rewrite that keeps the
meaning is no change; one known edit is exactly one change of the expected kind."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from toolgen.schema import walker
from toolgen.schema.compare import BREAKING, COMPATIBLE, SchemaChange, compare_schemas

#: Keywords whose values are maps of names to subschemas, and lists whose order means nothing.
_MAPS = {"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"}
_SETS = {"required", "enum", "type"}


def corpus_schemas(corpus: Path) -> list[tuple[str, Any]]:
    schemas = []
    for path in sorted((corpus / "tools").glob("*.jsonl")):
        if path.name.startswith("bfcl"):  # not JSON Schema types; loading rejects them
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = json.loads(line)
            schema = record.get("parameters", record.get("input_schema", record.get("schema")))
            if isinstance(schema, dict):
                schemas.append((f"{path.stem}:{number}", schema))
    return schemas


def reordered(node: Any) -> Any:
    """``node`` with every schema's keys, and its required/enum/type lists, in reverse order
    (values of other keywords, annotations included, are data and stay as they are)."""
    if not isinstance(node, dict):
        return node
    copied = walker.map_children(node, "", lambda child: reordered(child.schema))
    result = {}
    for key, value in reversed(list(copied.items())):
        if key in _MAPS and isinstance(value, dict):
            value = dict(reversed(list(value.items())))
        elif key in _SETS and isinstance(value, list):
            value = value[::-1]
        result[key] = value
    return result


@pytest.fixture(scope="module")
def schemas(corpus_dir: Path) -> list[tuple[str, Any]]:
    found = corpus_schemas(corpus_dir)
    assert len(found) > 300, "the corpus lost its tools"
    return found


@pytest.mark.corpus
def test_a_schema_and_its_reordered_copy_are_the_same(schemas) -> None:
    for where, schema in schemas:
        assert compare_schemas(schema, schema) == [], where
        assert compare_schemas(schema, reordered(schema)) == [], where


@pytest.mark.corpus
def test_one_edit_is_one_change(schemas) -> None:
    edited = 0
    for where, schema in schemas:
        properties = schema.get("properties")
        if not isinstance(properties, dict) or not properties:
            continue
        name = sorted(properties)[0]
        at = "/properties/" + name.replace("~", "~0").replace("/", "~1")
        removed = copy.deepcopy(schema)
        del removed["properties"][name]
        removed["required"] = [r for r in schema.get("required", []) if r != name]
        if not removed["required"]:
            del removed["required"]
        found = compare_schemas(schema, removed)
        assert [(c.pointer, c.kind, c.classification) for c in found] == [
            (at, "MEMBER_REMOVED", BREAKING)
        ], where
        open_root = schema.get("additionalProperties", True) in (True, {})
        closed_root = schema.get("additionalProperties") is False
        if "patternProperties" not in schema and (open_root or closed_root):
            payloads = OPEN if open_root else CLOSED
            assert found[0].message == f"member removed: {payloads}; {CODE}", where

        added = copy.deepcopy(schema)
        added["properties"]["zz_added"] = {"type": "string"}
        assert compare_schemas(schema, added) == [
            SchemaChange("/properties/zz_added", "MEMBER_ADDED", COMPATIBLE, "new optional member")
        ], where
        edited += 1
    assert edited > 300


#: What a removed member breaks (issue 37), by the object it is removed from.
OPEN = "stored payloads that have it still validate (the object is open)"
CLOSED = "stored payloads that have it are rejected now (the object is closed)"
CODE = "code that reads or sets it breaks (the model has no field for it now)"


@pytest.mark.parametrize(
    ("member", "rest", "classification", "message"),
    [
        ({"type": "integer"}, None, BREAKING, f"member removed: {OPEN}; {CODE}"),
        ({"type": "integer"}, False, BREAKING, f"member removed: {CLOSED}; {CODE}"),
        (
            {"type": "integer"},
            {"type": "number"},
            BREAKING,
            "member removed: stored payloads that have it still validate (additionalProperties "
            f"takes it); {CODE}",
        ),
        (
            {"type": "integer"},
            {"type": "string"},
            BREAKING,
            "member removed: stored payloads that have it may be rejected now (undeclared members "
            f"must match additionalProperties); {CODE}",
        ),
        (False, False, COMPATIBLE, "member removed: it accepted no value; nothing breaks"),
    ],
    ids=["open", "closed", "wider rest", "narrower rest", "no value"],
)
def test_a_removed_member_says_what_breaks(
    member: Any, rest: Any, classification: Any, message: str
) -> None:
    """Issue 37: "member removed: BREAKING" on an open object whose stored payloads still
    validate. The object it leaves decides for payloads; code loses the model's field."""
    extra = {} if rest is None else {"additionalProperties": rest}
    old = {"type": "object", "properties": {"a": {"type": "string"}, "b": member}, **extra}
    new = {"type": "object", "properties": {"a": {"type": "string"}}, **extra}
    removed = [c for c in compare_schemas(old, new) if c.kind == "MEMBER_REMOVED"]
    assert removed == [SchemaChange("/properties/b", "MEMBER_REMOVED", classification, message)]


def test_mutual_recursion_ends_and_reports_a_change_once() -> None:
    def schema(kind: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {
                "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                "B": {
                    "type": "object",
                    "properties": {"a": {"$ref": "#/$defs/A"}, "k": {"type": kind}},
                },
            },
        }

    assert compare_schemas(schema("string"), schema("string")) == []
    assert compare_schemas(schema("number"), schema("integer")) == [
        SchemaChange(
            "/properties/a/properties/b/properties/k/type",
            "TYPE_NARROWED",
            BREAKING,
            "type narrowed from number to integer",
        )
    ]


def test_a_ref_with_siblings_is_the_target_with_them() -> None:
    old = {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/S", "maxLength": 3}},
        "$defs": {"S": {"type": "string"}},
    }
    new = {"type": "object", "properties": {"x": {"type": "string", "maxLength": 3}}}
    assert compare_schemas(old, new) == []
    tighter = {"type": "object", "properties": {"x": {"type": "string", "maxLength": 2}}}
    assert [c.kind for c in compare_schemas(old, tighter)] == ["CONSTRAINT_TIGHTENED"]


def test_boolean_schemas() -> None:
    old = {"type": "object", "properties": {"x": True}}
    assert [
        c.kind for c in compare_schemas(old, {"type": "object", "properties": {"x": False}})
    ] == ["NOW_REJECTS_ALL"]
    assert [
        c.kind
        for c in compare_schemas(old, {"type": "object", "properties": {"x": {"type": "string"}}})
    ] == ["TYPE_NARROWED"]
    assert compare_schemas(old, {"type": "object", "properties": {"x": {}}}) == []


def test_a_union_against_a_single_schema_compares_branches() -> None:
    short = {"type": "string", "maxLength": 5}
    union = {"anyOf": [short, {"type": "integer"}]}
    assert compare_schemas(union, {"type": "string", "maxLength": 3}) == [
        SchemaChange("", "UNION_BRANCH_REMOVED", BREAKING, "union branch removed").under(
            "/anyOf/1"
        ),
        SchemaChange(
            "/maxLength", "CONSTRAINT_TIGHTENED", BREAKING, "maxLength lowered from 5 to 3"
        ),
    ]
    assert compare_schemas({"type": "string", "maxLength": 3}, {"oneOf": union["anyOf"]}) == [
        SchemaChange(
            "/oneOf/0/maxLength", "CONSTRAINT_LOOSENED", COMPATIBLE, "maxLength raised from 3 to 5"
        ),
        SchemaChange("/oneOf/1", "UNION_BRANCH_ADDED", COMPATIBLE, "union branch added"),
    ]


def test_every_subschema_keyword_has_a_rule() -> None:
    """A keyword holding subschemas that fell to the annotation rule would hide real changes."""
    from toolgen.schema.compare import RULES

    assert set(walker.SUBSCHEMA_KEYWORDS) <= set(RULES)


@pytest.mark.corpus
def test_unrelated_schemas_compare_without_error(schemas) -> None:
    for (where, old), (_, new) in zip(schemas, schemas[1:], strict=False):
        for change in compare_schemas(old, new):
            assert change.pointer == "" or change.pointer.startswith("/"), where


def test_an_in_place_cycle_ends() -> None:
    """The loader rejects these (UNBOUNDED_REF); compare_schemas must still end on them."""
    schema = {"$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}, "$ref": "#/$defs/A"}
    assert compare_schemas(schema, schema) == []
    assert [c.kind for c in compare_schemas(schema, {"type": "string"})] == ["TYPE_NARROWED"]
