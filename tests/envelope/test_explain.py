"""The runtime's explainer (toolgen/runtime/_explain.py), imported as source, and the schema
document the generated modules hand it (toolgen/compile/validators/data.py)."""

from __future__ import annotations

import ast
import json
from typing import Any

import pytest

from toolgen.compile.validators import load_envelope_schemas
from toolgen.compile.validators.data import schema_document, schema_text
from toolgen.providers import PROFILES
from toolgen.runtime import _runtime
from toolgen.runtime._explain import explain_drift, first_mismatch

INTEGER = {"type": "integer"}
STRING = {"type": "string"}


def mismatch(schema: dict[str, Any], data: Any) -> tuple[str, str, str] | None:
    """(path, expected, actual type) of the first mismatch, as a drift error says them."""
    found = first_mismatch(schema, data)
    if found is None:
        return None
    path, expected, actual = found
    return _runtime.format_path(path), expected, _runtime.json_type_name(actual)


def obj(properties: dict[str, Any], required: list[str] | None = None, **more: Any) -> Any:
    schema = {"type": "object", "properties": properties, **more}
    if required is not None:
        schema["required"] = required
    return schema


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        (STRING, "x", None),
        (STRING, 1, "string"),
        (INTEGER, 3, None),
        (INTEGER, 3.0, None),  # an integral float is an integer in JSON
        (INTEGER, 3.5, "integer"),
        (INTEGER, True, "integer"),  # bool is not a number
        ({"type": "number"}, 2.5, None),
        ({"type": "number"}, float("nan"), "number"),
        ({"type": "boolean"}, 0, "boolean"),
        ({"type": "null"}, None, None),
        ({"type": "array"}, {}, "array"),
        ({"type": ["string", "object"]}, {}, None),
        ({"type": ["string", "object"]}, 1, "string or object"),
        ({"const": "message"}, "message", None),
        ({"const": "message"}, "other", '"message"'),
        ({"enum": ["a", "b"]}, "b", None),
        ({"enum": ["a", "b"]}, "c", 'one of "a", "b"'),
        ({"anyOf": [STRING, {"type": "null"}]}, None, None),
        ({"anyOf": [STRING, {"type": "null"}]}, 1, "string or null"),
        ({"anyOf": [{"type": "null"}, {"enum": ["a"]}]}, 1, 'one of "a" or null'),
    ],
)
def test_the_value_keywords(schema: dict[str, Any], value: Any, expected: str | None) -> None:
    root = obj({"v": schema}, ["v"])
    found = mismatch(root, {"v": value})
    assert (found[1] if found else None) == expected
    if found:
        assert found[0] == "v"


def test_a_missing_required_member_names_what_it_should_be() -> None:
    root = obj({"a": STRING, "b": {"anyOf": [INTEGER, {"type": "null"}]}, "c": True}, ["b", "c"])
    assert mismatch(root, {"c": 1}) == ("b", "integer or null", "missing")
    assert mismatch(root, {"b": None}) == ("c", "value", "missing")  # any value, but present
    assert mismatch(root, {"b": 1, "c": None}) is None  # "a" is optional


def test_required_without_properties_is_a_present_value() -> None:
    root = {"type": "object", "required": ["x"]}
    assert mismatch(root, {}) == ("x", "value", "missing")
    assert mismatch(root, {"x": None}) is None


def test_min_items_drifts_at_the_first_missing_index() -> None:
    root = obj({"list": {"type": "array", "minItems": 2, "items": STRING}}, ["list"])
    assert mismatch(root, {"list": ["a"]}) == ("list[1]", "string", "missing")
    assert mismatch(root, {"list": ["a", 1]}) == ("list[1]", "string", "integer")


def test_the_first_mismatch_in_the_order_of_the_checks() -> None:
    """Own type first, then the members in the order ``properties`` lists them."""
    root = obj({"b": STRING, "a": STRING}, ["a", "b"])
    assert mismatch(root, {"a": 1, "b": 2}) == ("b", "string", "integer")
    assert mismatch(root, []) == ("", "object", "array")
    assert mismatch(root, {"b": "x"}) == ("a", "string", "missing")


def test_references_nullable_references_and_recursion() -> None:
    tree = {
        "type": "object",
        "properties": {"root": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
        "$defs": {
            "Node": obj(
                {
                    "name": STRING,
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                ["name"],
            )
        },
    }
    leaf = {"name": "c", "children": [{"name": "d"}, {"name": 7}]}
    assert mismatch(tree, {"root": {"name": "a", "children": [leaf]}}) == (
        "root.children[0].children[1].name",
        "string",
        "integer",
    )
    assert mismatch(tree, {"root": None}) is None
    assert mismatch(tree, {"root": "x"}) == ("root", "object or null", "string")


def test_a_discriminated_union_checks_the_known_case_and_lets_an_unknown_one_pass() -> None:
    union = obj(
        {"type": STRING},
        ["type"],
        allOf=[
            {
                "if": {"properties": {"type": {"const": "call"}}, "required": ["type"]},
                "then": obj({"id": STRING}, ["id"]),
            }
        ],
    )
    root = obj({"items": {"type": "array", "items": union}}, ["items"])
    assert mismatch(root, {"items": [{"type": "call", "id": "1"}, {"type": "new"}]}) is None
    assert mismatch(root, {"items": [{"type": "call"}]}) == ("items[0].id", "string", "missing")
    assert mismatch(root, {"items": [{"type": 1}]}) == ("items[0].type", "string", "integer")


def test_explain_drift_reports_once_to_the_hooks_and_guards_against_disagreement() -> None:
    text = json.dumps({"$defs": {"S": STRING}, "thing": obj({"a": {"$ref": "#/$defs/S"}}, ["a"])})
    seen: list[Any] = []
    hook = _runtime.on_schema_drift(seen.append)
    try:
        error = explain_drift("acme", "thing", text, {"a": 1})
    finally:
        _runtime.remove_schema_drift_hook(hook)
    assert (error.provider, error.api, error.path, error.expected, error.actual) == (
        "acme",
        "thing",
        "a",
        "string",
        "integer",
    )
    assert seen == [error]
    with pytest.raises(AssertionError, match="validators of thing disagree"):
        explain_drift("acme", "thing", text, {"a": "fine"})


def test_the_schema_document_hoists_definitions_and_writes_equal_ones_once() -> None:
    schemas = load_envelope_schemas("anthropic", {}, PROFILES["anthropic"].apis)
    document = schema_document(schemas)
    assert set(document) == {"$defs", "message", "message_stream_event"}
    assert "$defs" not in document["message"]
    usage = [name for name in document["$defs"] if name.startswith("Usage")]
    assert usage == ["Usage"]  # the same definition in both surfaces, written once
    refs = {ref for ref in _refs(document)}
    assert "#/$defs/Usage" in refs
    for ref in refs:  # every reference resolves in the document
        node: Any = document
        for token in ref[2:].split("/"):
            node = node[token]
    assert "description" not in schema_text(schemas)


def test_a_schema_whose_references_point_elsewhere_keeps_its_definitions() -> None:
    odd = obj({"a": STRING, "b": {"$ref": "#/properties/a"}}, ["b"], **{"$defs": {"X": STRING}})
    document = schema_document({"odd": odd})
    assert document == {
        "odd": {**odd, "properties": {"a": STRING, "b": {"$ref": "#/odd/properties/a"}}}
    }
    assert first_mismatch(document["odd"], {"b": 1}, document)[1] == "string"  # type: ignore[index]


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


def test_the_schema_text_is_cut_into_literals_that_fit_a_line_and_join_back() -> None:
    from toolgen.compile.validators.envelope_module import _chunks

    text = json.dumps({"enum": ["it's", 'say "hi"', "back\\slash", "ünï"] * 20})
    literals = _chunks(text)
    assert "".join(ast.literal_eval(literal) for literal in literals) == text
    assert all(len(literal) <= 84 for literal in literals)


def test_the_schema_text_is_cut_after_commas_outside_strings() -> None:
    from toolgen.compile.validators.envelope_module import _chunks

    text = json.dumps(
        {
            "properties": {
                f"member_{i}": {"type": "string", "enum": ["a,b", 'q"x,y']} for i in range(30)
            }
        },
        separators=(",", ":"),
    )
    literals = [ast.literal_eval(literal) for literal in _chunks(text)]
    assert "".join(literals) == text
    assert len(literals) > 1
    for literal in literals[:-1]:
        assert literal.endswith(",")
        unescaped = literal.replace("\\\\", "").replace('\\"', "")
        assert unescaped.count('"') % 2 == 0  # no string is split across two literals
