"""A node with several types and the union of one branch per type accept the same values
(toolgen.schema.type_union: the projection's TypeListAsUnion and the schema comparison use it)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.support import PROPERTY, json_values
from toolgen.schema.type_union import branches_by_type

NODES: dict[str, dict[str, Any]] = {
    "scalars with their keywords": {
        "type": ["string", "number", "boolean"],
        "minLength": 2,
        "minimum": 0,
        "multipleOf": 0.5,
    },
    "an enum of several types with null": {
        "type": ["string", "integer", "null"],
        "enum": ["a", 1, 2.5, None, True],
    },
    "integer beside number": {"type": ["integer", "number"], "maximum": 3},
    "object and array": {
        "type": ["object", "array", "null"],
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "items": {"type": "integer"},
        "maxItems": 2,
    },
    "a const": {"type": ["string", "integer"], "const": 1},
    "a keyword for every value": {"type": ["string", "integer"], "not": {"const": 1}},
}


@pytest.mark.parametrize("node", NODES.values(), ids=NODES.keys())
@settings(PROPERTY, max_examples=200)
@given(value=st.one_of(json_values(), st.sampled_from(["a", "abc", 1, 2.5, 3, 4, True, None])))
def test_the_union_accepts_what_the_type_list_accepts(node: dict[str, Any], value: Any) -> None:
    union = branches_by_type(node)
    assert union is not None
    assert Draft202012Validator(union).is_valid(value) == Draft202012Validator(node).is_valid(value)


@pytest.mark.parametrize("node", NODES.values(), ids=NODES.keys())
def test_no_branch_has_an_enum_value_of_another_type(node: dict[str, Any]) -> None:
    union = branches_by_type(node)
    assert union is not None
    for branch in union["anyOf"]:
        for value in branch.get("enum", [branch["const"]] if "const" in branch else []):
            assert Draft202012Validator({"type": branch["type"]}).is_valid(value), branch


def test_a_list_with_one_type_besides_null_is_no_union() -> None:
    assert branches_by_type({"type": ["string", "null"]}) is None
    assert branches_by_type({"type": "string"}) is None
