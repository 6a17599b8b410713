"""The models accept what the canonical schema accepts, refuse what it refuses, and dump back what
they were given (issue 34, models 1-5): a schema without ``type`` by what it admits, arrays with
positions and unique items, the formats the docs say are checked, and member names pydantic
treats specially, imported without a warning."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from models_support import Built, load, materialize, write_design
from pydantic import BaseModel, ValidationError

from toolgen.compile.models.prepare import FORMAT_PATTERNS
from toolgen.providers import PROFILES

PAIR = [{"type": "string"}, {"type": "integer", "minimum": 3}]
#: member -> schema; one tool holds them all
MEMBERS: dict[str, Any] = {
    # no type: a value of any type, each type checked by its own keywords
    "any_object": {"properties": {"a": {"type": "string"}}},
    "any_empty": {"properties": {}},
    "any_array": {"items": {"type": "string"}},
    "any_string": {"minLength": 2},
    "any_format": {"format": "date"},
    # positions (prefixItems): the shapes the generator wrote as a strict tuple, or as a list
    # checking no position
    "tuple_fixed": {"type": "array", "prefixItems": PAIR, "minItems": 2, "maxItems": 2},
    "tuple_short": {"type": "array", "prefixItems": PAIR, "minItems": 1, "items": False},
    "tuple_open": {"type": "array", "prefixItems": PAIR},
    "tuple_rest": {"type": "array", "prefixItems": PAIR, "items": {"type": "boolean"}},
    "tuple_closed": {"type": "array", "prefixItems": PAIR, "items": False},
    "tuples": {
        "type": "array",
        "items": {"type": "array", "prefixItems": PAIR, "minItems": 2, "maxItems": 2},
    },
    "tuple_or_text": {
        "anyOf": [{"type": "array", "prefixItems": PAIR, "items": False}, {"type": "string"}]
    },
    "tuple_shared": {"$ref": "#/$defs/Pair"},
    "tuple_nullable": {"type": ["array", "null"], "prefixItems": PAIR, "items": False},
    "tuple_nested": {
        "type": "array",
        "prefixItems": [{"type": "array", "prefixItems": [{"const": 1}, {"enum": ["a]", True]}]}],
        "items": {"type": "string"},
    },
    "tuple_map": {
        "type": "object",
        "additionalProperties": {"type": "array", "prefixItems": PAIR, "minItems": 2},
    },
    # uniqueItems
    "unique": {"type": "array", "uniqueItems": True},
    "unique_objects": {
        "type": "array",
        "items": {"type": "object", "properties": {"a": {"type": "number"}}},
        "uniqueItems": True,
    },
    # keys are strings: an untyped propertyNames judges strings only (not split by type)
    "named_keys": {
        "type": "object",
        "propertyNames": {"pattern": "^[A-Z_]+$"},
        "additionalProperties": {"type": "string"},
    },
    # allOf merged as one schema where it is (the generator made a class of each branch)
    "all_of_text": {"allOf": [{"type": "string"}, {"minLength": 5}]},
    "all_of_objects": {
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]},
        ]
    },
    # formats
    "hostname": {"type": "string", "format": "hostname"},
    "ipv6": {"type": "string", "format": "ipv6"},
    "duration": {"type": "string", "format": "duration"},
}
SCHEMA = {
    "type": "object",
    "properties": MEMBERS,
    "$defs": {"Pair": {"type": "array", "prefixItems": PAIR, "minItems": 2, "items": False}},
}

ACCEPTED: list[tuple[str, Any]] = [
    *[("any_object", v) for v in (3, "s", None, True, [1], {}, {"a": "x", "b": 1})],
    *[("any_empty", v) for v in (3, 2.5, "s", None, False, [], {"z": [None]})],
    *[("any_array", v) for v in (3, "s", None, ["a"], {"a": 1})],
    *[("any_string", v) for v in ("ab", 1, None, [], {})],
    *[("any_format", v) for v in ("2024-05-01", 7)],
    ("tuple_fixed", ["a", 3]),
    ("tuple_short", ["a"]),
    ("tuple_short", ["a", 3]),
    ("tuple_open", []),
    ("tuple_open", ["a", 3, None, {"x": 1}]),
    ("tuple_rest", ["a", 3, True, False]),
    ("tuple_closed", ["a"]),
    ("tuples", [["a", 3], ["b", 4]]),
    ("tuple_or_text", ["a", 3]),
    ("tuple_or_text", "a"),
    ("tuple_shared", ["a", 3]),
    ("tuple_nullable", None),
    ("tuple_nullable", ["a"]),
    ("tuple_nested", [[1, "a]", None], "x"]),
    ("tuple_nested", [[1.0, True]]),
    ("tuple_map", {"k": ["a", 3, "more"]}),
    ("unique", [1, True, "1", None, 0, False, [1], {"a": 1}, [True]]),
    ("unique", [{"a": 1, "b": 2}, {"a": 2, "b": 1}]),
    ("unique_objects", [{"a": 1}, {"a": 2}, {}]),
    ("named_keys", {"A_B": "x", "C": "y"}),
    ("named_keys", {}),
    ("all_of_text", "abcdef"),
    ("all_of_objects", {"a": "x", "b": 1}),
    ("all_of_objects", {"a": "x", "b": 1, "c": None}),  # neither closes the object
    *[("hostname", v) for v in ("example.com", "xn--4gbwdl.xn--wgbh1c", "a" * 63 + ".com")],
    *[("ipv6", v) for v in ("::1", "1:2:3:4:5:6:7:8", "1::d6:192.168.0.1", "d6::", "::")],
    *[("duration", v) for v in ("P4DT12H30M5S", "PT0S", "P2W", "P1Y2M", "PT36H")],
]
REFUSED: list[tuple[str, Any]] = [
    ("any_object", {"a": 1}),
    ("any_array", [1]),
    ("any_string", "a"),
    ("any_format", "May 1st"),
    ("tuple_fixed", ["a"]),
    ("tuple_fixed", ["a", 2]),  # the second position's minimum
    ("tuple_fixed", [3, "a"]),  # positions in the wrong order
    ("tuple_fixed", ("a", 3)),  # a tuple is no JSON array
    ("tuple_short", []),
    ("tuple_short", ["a", 3, 4]),
    ("tuple_open", [3]),
    ("tuple_rest", ["a", 3, 1]),
    ("tuple_closed", ["a", "b"]),
    ("tuples", [["a", 3], [3, "a"]]),
    ("tuple_or_text", [3]),
    ("tuple_shared", ["a"]),
    ("tuple_nullable", ["a", 3, 4]),
    ("tuple_nested", [[True]]),  # true is not 1
    ("tuple_nested", [[1, "a"]]),
    ("tuple_nested", [[1], 2]),
    ("tuple_map", {"k": ["a"]}),
    ("tuple_map", {"k": [3, "a"]}),
    ("unique", [1, 1.0]),
    ("unique", [{"a": 1, "b": 2}, {"b": 2, "a": 1}]),  # member order is no difference
    ("unique", [[1, {"x": True}], [1.0, {"x": True}]]),
    ("unique_objects", [{"a": 1}, {"a": 1.0}]),
    ("unique_objects", [{}, {}]),
    ("named_keys", {"a": "x"}),
    ("named_keys", {"A": 1}),
    ("all_of_text", "abc"),
    ("all_of_text", 123456),
    ("all_of_objects", {"a": "x"}),
    ("all_of_objects", {"a": 1, "b": 1}),
    *[
        ("hostname", v)
        for v in ("-a.com", "a_b.com", "", "a" * 64 + ".com", ".".join(["a" * 63] * 4))
    ],
    *[("ipv6", v) for v in ("127.0.0.1", "1::2::3", "12345::", "fe80::a%eth1", "1:2:3:4:5:6:7")],
    *[("duration", v) for v in ("P", "PT", "P1D2H", "PT0.5S", "P1Y2D", "P1WT1H", "-P1D")],
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    root = tmp_path_factory.mktemp("exact")
    sys.path.insert(0, str(root))
    tools = {"t.exact": SCHEMA, "t.names": _names_schema()}
    yield materialize(load(write_design(root / "design", tools=tools)), root)
    sys.path.remove(str(root))


def _model(built: Built, name: str = "t.exact") -> type[BaseModel]:
    model: type[BaseModel] = built.model("tool", name)
    return model


@pytest.mark.parametrize(("member", "value"), ACCEPTED)
def test_what_the_schema_accepts_validates_and_dumps_back(
    built: Built, member: str, value: Any
) -> None:
    payload = {member: value}
    instance = _model(built).model_validate(payload)
    assert instance.model_dump(mode="json") == payload
    assert instance.model_dump() == payload  # a JSON array is a list, in Python too


@pytest.mark.parametrize(("member", "value"), REFUSED)
def test_what_the_schema_refuses_is_refused(built: Built, member: str, value: Any) -> None:
    with pytest.raises(ValidationError):
        _model(built).model_validate({member: value})


def test_an_untyped_root_of_a_tool_stays_its_class(built: Built) -> None:
    """A tool's arguments are an object whatever the root says: its members stay fields."""
    root = write_design(
        built.root.parent / "untyped_root", tools={"t.root": {"properties": {"a": {}}}}
    )
    model = materialize(load(root), built.root.parent).model("tool", "t.root")
    assert model(a=1).model_dump(mode="json") == {"a": 1}


def test_every_format_a_provider_keeps_is_checked() -> None:
    """The formats strict modes keep, and the docs say the models check (generated-api.md)."""
    kept = set().union(*(profile.formats for profile in PROFILES.values()))
    assert kept <= set(FORMAT_PATTERNS)
    documented = Path(__file__).parents[2] / "docs" / "generated-api.md"
    text = documented.read_text(encoding="utf-8")
    assert all(f"`{name}`" in text for name in FORMAT_PATTERNS)


# -- member names pydantic treats specially -----------------------------------------------------

#: BaseModel's attributes, the class-based configuration, its protected namespaces
SPECIAL = [
    *(name for name in dir(BaseModel) if not name.startswith("__")),
    "Config",
    "model_dump_",
    "model_validate_later",
    "model_",
    "_private",
    "__dunder__",
    "root",
    "fields",
]


def _names_schema() -> dict[str, Any]:
    nested = {"type": "object", "properties": {name: {"type": "string"} for name in SPECIAL}}
    return {
        "type": "object",
        "properties": {**{name: {"type": "string"} for name in SPECIAL}, "nested": nested},
        "additionalProperties": False,
    }


def test_member_names_pydantic_treats_specially_import_without_a_warning(built: Built) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = _model(built, "t.names")
    payload = {name: name for name in SPECIAL}
    payload["nested"] = dict(payload)
    assert model.model_validate(payload).model_dump(mode="json") == payload
    config = model.model_validate({"Config": "x"})
    assert config.model_dump(mode="json") == {"Config": "x"}
