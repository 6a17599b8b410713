"""The OpenAI strict projection, rule by rule (issue 2, requirement 3).

Every case goes through the real loading path (a one-tool design in ``tools/t.json``), so the
diagnostics carry the design file, the JSON pointer inside it, the provider and a stable code.
Every projection that succeeds must also pass the independent strict-mode checker.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from strict_checker import assert_strict, violations

from toolgen.compile.canonical.reference import reference_inverse
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.project.rewrites import EncodingError
from toolgen.project.rewrites.presence import BOX_NOTE
from toolgen.providers import PROFILES
from toolgen.providers.gemini import DIALECTS as GEMINI_DIALECTS

FILE = "tools/t.json"

S = {"type": "string"}
CLOSED_EMPTY = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    """A canonical object (open: the projection must close it)."""
    node: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        node["required"] = required
    node.update(extra)
    return node


def closed(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The projected form of an object: closed, every member required."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        **extra,
    }


def errors(diagnostics: list[Any]) -> list[Any]:
    return [d for d in diagnostics if d.level == "error"]


def accepts(schema: Any, root: Any, value: Any) -> bool:
    """jsonschema's verdict on ``value`` against ``schema``, a subschema of ``root``."""
    return Draft202012Validator(root).evolve(schema=schema).is_valid(value)


# --------------------------------------------------------------------------------------------
# Accepted schemas: the exact projection
# --------------------------------------------------------------------------------------------

ACCEPTED: dict[str, tuple[Any, Any]] = {
    # seed: an empty schema (a tool without parameters) becomes a closed empty object
    "empty schema": ({}, CLOSED_EMPTY),
    "true schema": (True, CLOSED_EMPTY),
    "bare object root": ({"type": "object"}, CLOSED_EMPTY),
    "empty properties": ({"type": "object", "properties": {}}, CLOSED_EMPTY),
    # seed: annotations stripped, title/description kept
    "annotations stripped": (
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/t",
            "$comment": "internal",
            "title": "T",
            "description": "Root.",
            "type": "object",
            "properties": {
                "a": {
                    "type": "string",
                    "default": "x",
                    "examples": ["y"],
                    "example": "z",
                    "$comment": "c",
                    "title": "A",
                    "description": "An a.",
                }
            },
            "required": ["a"],
            "examples": [{"a": "q"}],
            "default": {"a": "x"},
        },
        {
            "title": "T",
            "description": "Root.",
            "type": "object",
            "properties": {"a": {"type": "string", "title": "A", "description": "An a."}},
            "required": ["a"],
            "additionalProperties": False,
        },
    ),
    # seed: optional -> nullable, required in authored property order whatever order `required` has
    "optional nullable, required authored": (
        obj({"b": S, "a": {"type": "integer"}, "c": {"type": "boolean"}}, ["b", "c"]),
        closed({"b": S, "a": {"type": ["integer", "null"]}, "c": {"type": "boolean"}}),
    ),
    "optional nullable, required sorted": (
        obj({"b": S, "a": {"type": "integer"}, "c": {"type": "boolean"}}, ["c", "b"]),
        closed({"b": S, "a": {"type": ["integer", "null"]}, "c": {"type": "boolean"}}),
    ),
    "all optional": (
        obj({"x": S, "y": {"type": "number"}}),
        closed({"x": {"type": ["string", "null"]}, "y": {"type": ["number", "null"]}}),
    ),
    # nullable forms
    "nullable: type list gains null": (
        obj({"a": {"type": ["string", "integer"]}}),
        closed({"a": {"type": ["string", "integer", "null"]}}),
    ),
    "nullable: enum gains null (with type)": (
        obj({"a": {"type": "string", "enum": ["x", "y"]}}),
        closed({"a": {"type": ["string", "null"], "enum": ["x", "y", None]}}),
    ),
    "nullable: enum gains null (no type)": (
        obj({"a": {"enum": ["x", 1]}}),
        closed({"a": {"enum": ["x", 1, None]}}),
    ),
    "nullable: anyOf gains a null branch": (
        obj({"a": {"anyOf": [S, {"type": "integer"}]}}),
        closed({"a": {"anyOf": [S, {"type": "integer"}, {"type": "null"}]}}),
    ),
    "nullable: const wrapped": (
        obj({"a": {"const": "fixed"}}),
        closed({"a": {"anyOf": [{"const": "fixed"}, {"type": "null"}]}}),
    ),
    "nullable: $ref wrapped": (
        {**obj({"a": {"$ref": "#/$defs/D"}}), "$defs": {"D": S}},
        {**closed({"a": {"anyOf": [{"$ref": "#/$defs/D"}, {"type": "null"}]}}), "$defs": {"D": S}},
    ),
    "nullable: nested object gains null": (
        obj({"o": obj({"x": S}, ["x"])}),
        closed({"o": {**closed({"x": S}), "type": ["object", "null"]}}),
    ),
    "required members stay as they are": (
        obj({"a": S, "b": {"const": 1}, "c": {"enum": [1, 2]}}, ["a", "b", "c"]),
        closed({"a": S, "b": {"const": 1}, "c": {"enum": [1, 2]}}),
    ),
    # objects given only by properties are closed too
    "untyped object closed": (
        obj({"o": {"properties": {"x": S}, "required": ["x"]}}, ["o"]),
        closed({"o": closed({"x": S})}),
    ),
    "untyped root closed": (
        {"properties": {"x": S}, "required": ["x"]},
        closed({"x": S}),
    ),
    # seed: nested objects and array items closed
    "nested objects and items closed": (
        obj(
            {
                "list": {
                    "type": "array",
                    "items": obj({"n": {"type": "integer"}, "m": S}, ["n"]),
                    "minItems": 1,
                    "maxItems": 5,
                },
                "o": obj({"deep": obj({"z": S}, ["z"])}, ["deep"]),
            },
            ["list", "o"],
        ),
        closed(
            {
                "list": {
                    "type": "array",
                    "items": closed({"n": {"type": "integer"}, "m": {"type": ["string", "null"]}}),
                    "minItems": 1,
                    "maxItems": 5,
                },
                "o": closed({"deep": closed({"z": S})}),
            }
        ),
    ),
    "explicitly closed object stays closed": (
        obj({"o": obj({"x": S}, ["x"], additionalProperties=False)}, ["o"]),
        closed({"o": closed({"x": S})}),
    ),
    "closed object without properties": (
        obj({"o": {"type": "object", "additionalProperties": False}}, ["o"]),
        closed({"o": CLOSED_EMPTY}),
    ),
    # seed: $defs closed, optional refs wrapped
    "$defs closed, optional refs wrapped": (
        {
            **obj({"req": {"$ref": "#/$defs/Item"}, "opt": {"$ref": "#/$defs/Item"}}, ["req"]),
            "$defs": {"Item": obj({"id": {"type": "integer"}, "tag": S}, ["id"])},
        },
        {
            **closed(
                {
                    "req": {"$ref": "#/$defs/Item"},
                    "opt": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]},
                }
            ),
            "$defs": {
                "Item": closed({"id": {"type": "integer"}, "tag": {"type": ["string", "null"]}})
            },
        },
    ),
    "recursive $defs kept as references": (
        {
            **obj({"root": {"$ref": "#/$defs/Node"}}, ["root"]),
            "$defs": {
                "Node": obj(
                    {"value": S, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                    ["value", "children"],
                )
            },
        },
        {
            **closed({"root": {"$ref": "#/$defs/Node"}}),
            "$defs": {
                "Node": closed(
                    {"value": S, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}
                )
            },
        },
    ),
    # seed: oneOf folded into anyOf
    "oneOf folded": (
        obj({"v": {"oneOf": [S, {"type": "integer"}]}}, ["v"]),
        closed({"v": {"anyOf": [S, {"type": "integer"}]}}),
    ),
    "oneOf folded, optional": (
        obj(
            {"v": {"oneOf": [obj({"k": {"const": "a"}}, ["k"]), obj({"k": {"const": "b"}}, ["k"])]}}
        ),
        closed(
            {
                "v": {
                    "anyOf": [
                        closed({"k": {"const": "a"}}),
                        closed({"k": {"const": "b"}}),
                        {"type": "null"},
                    ]
                }
            }
        ),
    ),
    # a one-element allOf collapses
    "one-element allOf collapsed": (
        obj({"a": {"allOf": [{"type": "string", "pattern": "^x"}], "description": "site"}}, ["a"]),
        closed({"a": {"type": "string", "pattern": "^x", "description": "site"}}),
    ),
    "one-element allOf of a $ref": (
        {
            **obj({"a": {"allOf": [{"$ref": "#/$defs/D"}], "description": "site"}}, ["a"]),
            "$defs": {"D": {"type": "integer", "description": "def"}},
        },
        closed({"a": {"type": "integer", "description": "site"}}),  # D inlined: not sent
    ),
    # a $ref with siblings is unravelled; a bare $ref stays
    "$ref with siblings unravelled": (
        {
            **obj(
                {
                    "a": {"$ref": "#/$defs/Money", "description": "Amount."},
                    "b": {"$ref": "#/$defs/Money"},
                },
                ["a", "b"],
            ),
            "$defs": {
                "Money": obj({"cents": {"type": "integer"}}, ["cents"], description="Money.")
            },
        },
        {
            **closed(
                {
                    "a": closed({"cents": {"type": "integer"}}, description="Amount."),
                    "b": {"$ref": "#/$defs/Money"},
                }
            ),
            "$defs": {"Money": closed({"cents": {"type": "integer"}}, description="Money.")},
        },
    ),
    # formats: the supported ones stay, the others go (the canonical validation keeps them)
    "formats": (
        obj(
            {
                f: {"type": "string", "format": f}
                for f in (
                    "date-time",
                    "time",
                    "date",
                    "duration",
                    "email",
                    "hostname",
                    "ipv4",
                    "ipv6",
                    "uuid",
                )
            }
            | {
                "u": {"type": "string", "format": "uri"},
                "i": {"type": "integer", "format": "int64"},
            },
            [
                "date-time",
                "time",
                "date",
                "duration",
                "email",
                "hostname",
                "ipv4",
                "ipv6",
                "uuid",
                "u",
                "i",
            ],
        ),
        closed(
            {
                f: {"type": "string", "format": f}
                for f in (
                    "date-time",
                    "time",
                    "date",
                    "duration",
                    "email",
                    "hostname",
                    "ipv4",
                    "ipv6",
                    "uuid",
                )
            }
            | {"u": S, "i": {"type": "integer"}}
        ),
    ),
    # supported constraints are kept
    "constraints kept": (
        obj(
            {
                "s": {"type": "string", "pattern": "^[a-z]+$"},
                "n": {"type": "number", "minimum": 0, "maximum": 10, "multipleOf": 0.5},
                "e": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 100},
                "l": {"type": "array", "items": S, "minItems": 1, "maxItems": 3},
            },
            ["s", "n", "e", "l"],
        ),
        closed(
            {
                "s": {"type": "string", "pattern": "^[a-z]+$"},
                "n": {"type": "number", "minimum": 0, "maximum": 10, "multipleOf": 0.5},
                "e": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 100},
                "l": {"type": "array", "items": S, "minItems": 1, "maxItems": 3},
            }
        ),
    ),
    # seed: properties named like keywords are names, never keywords
    "keyword-named properties": (
        obj(
            {
                "default": {"type": "string", "default": "d"},
                "type": {"type": "string", "enum": ["a", "b"]},
                "$ref": {"type": "string"},
                "properties": obj({"items": S, "anyOf": {"type": "integer"}}, ["items", "anyOf"]),
                "format": {"type": "string", "format": "uri"},
                "$schema": S,
                "$id": S,
                "$comment": S,
                "examples": S,
                "additionalProperties": S,
                "not": S,
                "allOf": S,
                "required": S,
                "description": S,
                "title": S,
                "$defs": S,
            },
            [
                "default",
                "type",
                "$ref",
                "properties",
                "format",
                "$schema",
                "$id",
                "$comment",
                "examples",
                "additionalProperties",
                "not",
                "allOf",
                "required",
                "description",
                "title",
                "$defs",
            ],
        ),
        closed(
            {
                "default": S,
                "type": {"type": "string", "enum": ["a", "b"]},
                "$ref": S,
                "properties": closed({"items": S, "anyOf": {"type": "integer"}}),
                "format": S,
                "$schema": S,
                "$id": S,
                "$comment": S,
                "examples": S,
                "additionalProperties": S,
                "not": S,
                "allOf": S,
                "required": S,
                "description": S,
                "title": S,
                "$defs": S,
            }
        ),
    ),
    # seed: large integers stay exact
    "large integers kept": (
        obj(
            {
                "n": {
                    "type": "integer",
                    "minimum": 9007199254740993,
                    "maximum": 18446744073709551617,
                },
                "e": {"enum": [9007199254740993, 9007199254740995]},
                "c": {"const": 9007199254740993},
            },
            ["n", "e", "c"],
        ),
        closed(
            {
                "n": {
                    "type": "integer",
                    "minimum": 9007199254740993,
                    "maximum": 18446744073709551617,
                },
                "e": {"enum": [9007199254740993, 9007199254740995]},
                "c": {"const": 9007199254740993},
            }
        ),
    ),
    # keywords the canonical validation keeps enforcing are dropped (the projection is looser)
    "dropped constraints": (
        obj(
            {
                "s": {"type": "string", "minLength": 1, "maxLength": 5},
                "l": {"type": "array", "items": S, "uniqueItems": True},
                "o": obj({"x": S}, ["x"], minProperties=1),
                "d": {"type": "string", "deprecated": True},
            },
            ["s", "l", "o", "d"],
        ),
        closed({"s": S, "l": {"type": "array", "items": S}, "o": closed({"x": S}), "d": S}),
    ),
}


@pytest.mark.parametrize("canonical, expected", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_projection(project_one, canonical, expected):
    before = copy.deepcopy(canonical)
    projected, diagnostics = project_one(canonical)
    assert errors(diagnostics) == []
    assert projected == expected
    assert canonical == before  # the input is never mutated
    assert_strict(projected)


@pytest.mark.parametrize("canonical, expected", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_property_order_is_authored(project_one, canonical, expected):
    projected, _ = project_one(canonical)

    def orders(node: Any) -> list[list[str]]:
        if isinstance(node, dict):
            found = [list(node["properties"])] if isinstance(node.get("properties"), dict) else []
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    found += [o for v in value.values() for o in orders(v)]
                elif key != "enum" and key != "const":
                    found += orders(value)
            return found
        if isinstance(node, list):
            return [o for v in node for o in orders(v)]
        return []

    assert orders(projected) == orders(expected)
    # `required` follows the property order too
    for node in _objects(projected):
        assert node["required"] == list(node["properties"])


def _objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and node.get("additionalProperties") is False:
            found.append(node)
        for key, value in node.items():
            if key in ("enum", "const"):
                continue
            if key == "properties" and isinstance(value, dict):
                for sub in value.values():
                    found += _objects(sub)
            else:
                found += _objects(value)
    elif isinstance(node, list):
        for sub in node:
            found += _objects(sub)
    return found


# --------------------------------------------------------------------------------------------
# Nullability: an optional member accepts null in the projection unless it already did
# --------------------------------------------------------------------------------------------

NULLABLE_CASES: dict[str, Any] = {
    "type": S,
    "type list": {"type": ["integer", "boolean"]},
    "enum": {"enum": ["a", "b"]},
    "typed enum": {"type": "string", "enum": ["a", "b"]},
    "const": {"const": 3},
    "anyOf": {"anyOf": [S, {"type": "integer"}]},
    "type beside anyOf": {
        "type": "string",
        "anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "^b"}],
    },
    "enum beside anyOf": {"enum": ["a", "b", 1], "anyOf": [S, {"type": "integer"}]},
    "oneOf": {"oneOf": [S, {"type": "integer"}]},
    "$ref": {"$ref": "#/$defs/D"},
    "$ref with description": {"$ref": "#/$defs/D", "description": "site"},
    "object": obj({"x": S}, ["x"]),
    "array": {"type": "array", "items": S},
    "allOf of one": {"allOf": [S]},
}


@pytest.mark.parametrize("member", NULLABLE_CASES.values(), ids=NULLABLE_CASES.keys())
def test_optional_members_accept_null(project_one, member):
    canonical = {**obj({"m": member}), "$defs": {"D": {"type": "string", "enum": ["x"]}}}
    projected, diagnostics = project_one(canonical)
    assert errors(diagnostics) == []
    assert_strict(projected)
    assert projected["required"] == ["m"]
    schema = projected["properties"]["m"]
    assert accepts(schema, projected, None), schema
    # ... and still accepts what the canonical member accepts, and rejects what it rejects
    for value in ("a", "b", "x", 1, 3, True, {"x": "s"}, ["s"], 2.5):
        canonical_verdict = accepts(member, canonical, value)
        if canonical_verdict:
            assert accepts(schema, projected, value), value


ALREADY_NULLABLE: dict[str, Any] = {
    "type list with null": {"type": ["string", "null"]},
    "type null": {"type": "null"},
    "enum with null": {"enum": ["a", None]},
    "anyOf with a null branch": {"anyOf": [S, {"type": "null"}]},
    "const null": {"const": None},
    "$ref to a nullable definition": {"$ref": "#/$defs/N"},
    "oneOf with null": {"oneOf": [S, {"type": "null"}]},
}


@pytest.mark.parametrize("member", ALREADY_NULLABLE.values(), ids=ALREADY_NULLABLE.keys())
def test_optional_member_that_accepts_null_is_boxed(project_one, member):
    """Required, and either null (absent) or {"value": v} (v, null included): the member's own
    projection inside the box, unchanged."""
    canonical = {**obj({"m": member}), "$defs": {"N": {"type": ["integer", "null"]}}}
    projected, diagnostics = project_one(canonical)
    assert diagnostics == []
    assert_strict(projected)
    assert projected["required"] == ["m"]
    box, null = projected["properties"]["m"]["anyOf"]
    assert null == {"type": "null"}
    expected = {"anyOf": member["oneOf"]} if "oneOf" in member else member
    assert box["properties"] == {"value": expected}
    assert box["required"] == ["value"]
    assert accepts(projected["properties"]["m"], projected, {"value": None})
    assert not accepts(projected["properties"]["m"], projected, {})


def _nested(levels: int, innermost: dict[str, Any]) -> dict[str, Any]:
    schema = innermost
    for _ in range(levels):
        schema = obj({"d": schema}, ["d"])
    return schema


def test_a_box_that_would_break_a_limit_is_not_written(project_one):
    """A box is one more level: at the deepest level OpenAI takes (10), the member is kept as it
    is, with the warning of "keep" saying why; one level less, it is boxed."""
    member = obj({"m": {"type": ["string", "null"]}})
    projected, diagnostics = project_one(_nested(7, member))
    assert diagnostics == []
    deepest = _nested(8, member)
    projected, diagnostics = project_one(deepest)
    assert errors(diagnostics) == []
    assert [(d.code, d.level) for d in diagnostics] == [("OPTIONAL_NULLABLE", "warning")]
    assert "with boxes, 11 levels of nesting exceed the limit of 10" in diagnostics[0].message
    innermost = projected
    for _ in range(8):
        innermost = innermost["properties"]["d"]
    assert innermost["properties"]["m"] == {"type": ["string", "null"]}


@pytest.mark.parametrize("member", ALREADY_NULLABLE.values(), ids=ALREADY_NULLABLE.keys())
def test_optional_member_that_accepts_null_is_left_alone_with_a_warning(project_one, member):
    canonical = {**obj({"m": member}), "$defs": {"N": {"type": ["integer", "null"]}}}
    toml = '[providers.openai]\noptional_nullable = "keep"\n'
    projected, diagnostics = project_one(canonical, extra_files={"toolgen.toml": toml})
    assert errors(diagnostics) == []
    expected = {"anyOf": member["oneOf"]} if "oneOf" in member else member
    assert projected["properties"]["m"] == expected  # not wrapped a second time
    assert [(d.file, d.pointer, d.provider, d.code, d.level) for d in diagnostics] == [
        (FILE, "/parameters/properties/m", "openai", "OPTIONAL_NULLABLE", "warning")
    ]


#: pydantic's ``label: str | None = None``, and the same through a reference
DEFAULT_NULL: dict[str, Any] = {
    "anyOf with a null branch": {"anyOf": [S, {"type": "null"}], "default": None},
    "type list with null": {"type": ["string", "null"], "default": None, "title": "Label"},
    "$ref to a nullable definition whose default is null": {"$ref": "#/$defs/D"},
}


@pytest.mark.parametrize("setting", ["encode", "keep", "error"])
@pytest.mark.parametrize("member", DEFAULT_NULL.values(), ids=DEFAULT_NULL.keys())
def test_an_optional_member_whose_default_is_null_is_required_and_nullable(
    project_one, member, setting
):
    """With ``default: null`` absent and null are one value: the member is written required as
    it is (DefaultNullRequired), no box, whatever ``optional_nullable`` says, and quietly; the
    inverse reads null back as absent."""
    canonical = {
        **obj({"label": member}),
        "$defs": {"D": {"anyOf": [S, {"type": "null"}], "default": None}},
    }
    toml = f'[providers.openai]\noptional_nullable = "{setting}"\n'
    projected, diagnostics = project_one(canonical, extra_files={"toolgen.toml": toml})
    assert diagnostics == []
    assert_strict(projected)
    assert projected["required"] == ["label"]
    written = projected["properties"]["label"]
    assert "value" not in json.dumps(written)  # no box
    assert accepts(written, projected, None) and accepts(written, projected, "bug")
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    options = ProviderOptions(optional_nullable=setting)  # type: ignore[arg-type]
    inverse, _ = project_contract(contract, PROFILES["openai"], options, "t")
    assert reference_inverse({"label": None}, inverse) == {}
    assert reference_inverse({"label": "bug"}, inverse) == {"label": "bug"}


def test_optional_nullable_can_be_made_an_error(project_one):
    toml = '[providers.openai]\noptional_nullable = "error"\n'
    projected, diagnostics = project_one(
        obj({"m": {"type": ["string", "null"]}}), extra_files={"toolgen.toml": toml}
    )
    assert projected is None
    assert [(d.pointer, d.code, d.level) for d in diagnostics] == [
        ("/parameters/properties/m", "OPTIONAL_NULLABLE", "error")
    ]


# --------------------------------------------------------------------------------------------
# Rejections: what strict mode cannot represent, each with its file, pointer, provider and code
# --------------------------------------------------------------------------------------------


def _deep(levels: int) -> dict[str, Any]:
    """An object whose data nests ``levels`` levels deep (the root object is level 1)."""
    node: dict[str, Any] = S
    for _ in range(levels - 1):
        node = obj({"n": node}, ["n"])
    return node


def _deep_pointer(levels: int) -> str:
    return "/parameters" + "/properties/n" * (levels - 1)


REJECTED: dict[str, tuple[Any, list[tuple[str, str]]]] = {
    "string root": ({"type": "string"}, [("/parameters/type", "NON_OBJECT_ROOT")]),
    "nullable object root": (
        {"type": ["object", "null"], "properties": {}},
        [("/parameters/type", "NON_OBJECT_ROOT")],
    ),
    "array root": ({"type": "array", "items": S}, [("/parameters/type", "NON_OBJECT_ROOT")]),
    "const root": ({"const": "x"}, [("/parameters/const", "NON_OBJECT_ROOT")]),
    "enum root": ({"enum": [1, 2]}, [("/parameters/enum", "NON_OBJECT_ROOT")]),
    "anyOf root": (
        {"anyOf": [obj({"a": S}), obj({"b": S})]},
        [("/parameters/anyOf", "ROOT_UNION")],
    ),
    "oneOf root": (
        {"oneOf": [obj({"a": S}), obj({"b": S})]},
        [("/parameters/oneOf", "ROOT_UNION")],
    ),
    "patternProperties beside other members": (
        obj({"o": obj({}, patternProperties={"^x": S})}, ["o"]),
        [("/parameters/properties/o/patternProperties", "UNSUPPORTED_PATTERN_PROPERTIES")],
    ),
    "propertyNames": (
        obj({"o": obj({"a": S}, propertyNames={"pattern": "^a"})}, ["o"]),
        [("/parameters/properties/o/propertyNames", "UNSUPPORTED_PROPERTY_NAMES")],
    ),
    "not": (
        obj({"a": {"type": "string", "not": {"const": "x"}}}, ["a"]),
        [("/parameters/properties/a/not", "UNSUPPORTED_NOT")],
    ),
    "if/then/else": (
        obj(
            {"a": S, "b": S},
            ["a"],
            **{"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": []}},
        ),
        [
            ("/parameters/else", "UNSUPPORTED_CONDITIONAL"),
            ("/parameters/if", "UNSUPPORTED_CONDITIONAL"),
            ("/parameters/then", "UNSUPPORTED_CONDITIONAL"),
        ],
    ),
    "dependentRequired": (
        obj({"a": S, "b": S}, dependentRequired={"a": ["b"]}),
        [("/parameters/dependentRequired", "UNSUPPORTED_DEPENDENT")],
    ),
    "dependentSchemas": (
        obj({"a": S, "b": S}, dependentSchemas={"a": {"required": ["b"]}}),
        [("/parameters/dependentSchemas", "UNSUPPORTED_DEPENDENT")],
    ),
    "multi-branch allOf that cannot be one schema": (
        obj({"a": {"allOf": [obj({"x": S}, additionalProperties=False), obj({"y": S})]}}, ["a"]),
        [("/parameters/properties/a/allOf", "UNSUPPORTED_ALL_OF")],
    ),
    "prefixItems": (
        obj({"pair": {"type": "array", "prefixItems": [S, S]}}, ["pair"]),
        [("/parameters/properties/pair/prefixItems", "UNSUPPORTED_TUPLE")],
    ),
    "unevaluatedProperties": (
        obj({"a": S}, unevaluatedProperties=False),
        [("/parameters/unevaluatedProperties", "UNSUPPORTED_UNEVALUATED")],
    ),
    "unevaluatedItems": (
        obj({"l": {"type": "array", "items": S, "unevaluatedItems": False}}, ["l"]),
        [("/parameters/properties/l/unevaluatedItems", "UNSUPPORTED_UNEVALUATED")],
    ),
    "rejection inside $defs": (
        {
            **obj({"a": {"$ref": "#/$defs/D"}}, ["a"]),
            "$defs": {"D": {"type": "string", "not": {"const": ""}}},
        },
        [("/parameters/$defs/D/not", "UNSUPPORTED_NOT")],
    ),
    "rejection inside items": (
        obj({"l": {"type": "array", "items": {"type": "string", "not": {"const": ""}}}}, ["l"]),
        [("/parameters/properties/l/items/not", "UNSUPPORTED_NOT")],
    ),
    "rejection inside anyOf": (
        obj({"u": {"anyOf": [S, {"type": "integer", "not": {"const": 0}}]}}, ["u"]),
        [("/parameters/properties/u/anyOf/1/not", "UNSUPPORTED_NOT")],
    ),
    "rejection under a keyword-named property": (
        obj({"not": {"type": "string", "not": {"const": ""}}}, ["not"]),
        [("/parameters/properties/not/not", "UNSUPPORTED_NOT")],
    ),
    "false schema": (
        obj({"never": False}, ["never"]),
        [("/parameters/properties/never", "FALSE_SCHEMA")],
    ),
    "oneOf beside anyOf": (
        obj({"u": {"oneOf": [S, {"type": "integer"}], "anyOf": [S, {"type": "number"}]}}, ["u"]),
        [("/parameters/properties/u/oneOf", "UNSUPPORTED_ONE_OF")],
    ),
    "required member without a schema": (
        obj({"a": S}, ["a", "ghost"]),
        [("/parameters/required", "REQUIRED_WITHOUT_PROPERTY")],
    ),
    "$ref sibling conflicting with its target": (
        {**obj({"a": {"$ref": "#/$defs/D", "type": "integer"}}, ["a"]), "$defs": {"D": S}},
        [("/parameters/properties/a/$ref", "CONFLICTING_KEYWORDS")],
    ),
    # documented limits
    "11 levels of nesting": (_deep(11), [(_deep_pointer(11), "LIMIT_NESTING")]),
    "nesting counted through a $ref": (
        {**obj({"a": {"$ref": "#/$defs/Deep"}}, ["a"]), "$defs": {"Deep": _deep(10)}},
        [("/parameters/$defs/Deep" + "/properties/n" * 9, "LIMIT_NESTING")],
    ),
    "5,001 properties": (
        obj({f"p{i}": S for i in range(5_001)}, [f"p{i}" for i in range(5_001)]),
        [("/parameters", "LIMIT_PROPERTIES")],
    ),
    "1,001 enum values": (
        obj({"e": {"enum": list(range(1_001))}}, ["e"]),
        [("/parameters", "LIMIT_ENUM_VALUES")],
    ),
    "120,001 characters": (
        obj({"e": {"enum": [f"{i:0480d}" for i in range(250)]}}, ["e"]),
        [("/parameters", "LIMIT_TOTAL_CHARS")],
    ),
    "large string enum": (
        obj({"e": {"enum": [f"{i:060d}" for i in range(251)]}}, ["e"]),
        [("/parameters/properties/e/enum", "LIMIT_STRING_ENUM")],
    ),
}


@pytest.mark.parametrize("canonical, expected", REJECTED.values(), ids=REJECTED.keys())
def test_rejection(project_one, canonical, expected):
    projected, diagnostics = project_one(canonical)
    assert projected is None
    found = sorted((d.pointer, d.code) for d in errors(diagnostics))
    assert found == sorted(expected), [d.format() for d in diagnostics]
    for d in errors(diagnostics):
        assert (d.file, d.provider) == (FILE, "openai")
        assert d.message


@pytest.mark.parametrize("canonical, expected", REJECTED.values(), ids=REJECTED.keys())
def test_strict_checker_agrees_with_rejections(canonical, expected):
    """The independent checker refuses what a naive projection (close, require all) would send."""

    def naive(node: Any) -> Any:
        if isinstance(node, list):
            return [naive(v) for v in node]
        if not isinstance(node, dict):
            return node
        result = {}
        for key, value in node.items():
            if key == "properties":
                result[key] = {name: naive(sub) for name, sub in value.items()}
            elif key in ("enum", "const", "required"):
                result[key] = value
            else:
                result[key] = naive(value)
        if "properties" in result:
            result["required"] = list(
                dict.fromkeys([*result.get("required", []), *result["properties"]])
            )
            result.setdefault("additionalProperties", False)
        return result

    assert violations(naive(canonical)), "the checker should refuse this schema"


LIMITS_ACCEPTED: dict[str, Any] = {
    "10 levels of nesting": _deep(10),
    "10 levels through a $ref": {
        **obj({"a": {"$ref": "#/$defs/Deep"}}, ["a"]),
        "$defs": {"Deep": _deep(9)},
    },
    "5,000 properties": obj({f"p{i}": S for i in range(5_000)}, [f"p{i}" for i in range(5_000)]),
    "1,000 enum values": obj({"e": {"enum": list(range(1_000))}}, ["e"]),
    "120,000 characters": obj(
        {"e": {"enum": [f"{i:0480d}" for i in range(249)] + ["y" * 479]}}, ["e"]
    ),
    "string enum of 251 values in 15,000 characters": obj(
        {"e": {"enum": [f"{i:059d}" for i in range(251)]}}, ["e"]
    ),
    "string enum of 250 long values": obj(
        {"e": {"enum": [f"{i:070d}" for i in range(250)]}}, ["e"]
    ),
}


@pytest.mark.parametrize("canonical", LIMITS_ACCEPTED.values(), ids=LIMITS_ACCEPTED.keys())
def test_at_the_limit(project_one, canonical):
    projected, diagnostics = project_one(canonical)
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    assert_strict(projected)


def test_an_optional_enum_counts_its_added_null(project_one):
    """1,000 canonical values plus the null that makes the member optional: 1,001 on the wire."""
    projected, diagnostics = project_one(obj({"e": {"enum": list(range(1_000))}}))
    assert projected is None
    assert [(d.pointer, d.code) for d in errors(diagnostics)] == [
        ("/parameters", "LIMIT_ENUM_VALUES")
    ]


def test_description_limit(project_one):
    projected, diagnostics = project_one({}, description="d" * 1_025)
    assert projected is None
    assert [(d.file, d.pointer, d.provider, d.code) for d in errors(diagnostics)] == [
        (FILE, "/description", "openai", "LIMIT_DESCRIPTION")
    ]
    projected, diagnostics = project_one({}, description="d" * 1_024)
    assert projected == CLOSED_EMPTY


def test_every_rejection_is_reported_together(project_one):
    canonical = obj(
        {"a": {"not": S}, "b": {"if": S}, "c": {"patternProperties": {"x": S}}},
        ["a", "b", "c"],
    )
    projected, diagnostics = project_one(canonical)
    assert projected is None
    assert sorted((d.pointer, d.code) for d in errors(diagnostics)) == [
        ("/parameters/properties/a/not", "UNSUPPORTED_NOT"),
        ("/parameters/properties/b/if", "UNSUPPORTED_CONDITIONAL"),
        ("/parameters/properties/c/patternProperties", "UNSUPPORTED_PATTERN_PROPERTIES"),
    ]


def test_pointer_escapes_property_names(project_one):
    projected, diagnostics = project_one(obj({"a/b~c": {"not": S}}, ["a/b~c"]))
    assert [(d.pointer, d.code) for d in errors(diagnostics)] == [
        ("/parameters/properties/a~1b~0c/not", "UNSUPPORTED_NOT")
    ]


def test_rejection_in_a_shared_definition_points_into_its_file(make_design, tool):
    """Strict mode asked for in toolgen.toml, or left unsaid: an error where the shared
    definition is written; with ``strict_fallback = "non-strict"``: the tool goes non-strict,
    with a warning at the same place."""
    from toolgen.build import analyze

    files = {
        "tools/a.yaml": tool("a", obj({"m": {"$ref": "../defs/common.yaml#/$defs/Bad"}}, ["m"])),
        "defs/common.yaml": {"$defs": {"Bad": {"type": "string", "not": {"const": ""}}}},
    }
    where = ("defs/common.yaml", "/$defs/Bad/not", "openai")
    root = make_design({**files, "toolgen.toml": "[providers.openai]\nstrict = true\n"}, "asked")
    result = analyze(root, ("openai",))
    assert [(d.file, d.pointer, d.provider, d.code) for d in errors(result.diagnostics)] == [
        (*where, "UNSUPPORTED_NOT")
    ]
    result = analyze(make_design(files, "unsaid"), ("openai",))
    assert [(d.file, d.pointer, d.provider, d.code) for d in errors(result.diagnostics)] == [
        (*where, "UNSUPPORTED_NOT")
    ]
    fallback = '[toolgen]\nstrict_fallback = "non-strict"\n'
    result = analyze(make_design({**files, "toolgen.toml": fallback}, "opted"), ("openai",))
    assert [(d.file, d.pointer, d.provider, d.code, d.level) for d in result.diagnostics] == [
        (*where, "STRICT_FALLBACK", "warning")
    ]
    assert "UNSUPPORTED_NOT" in result.diagnostics[0].message
    assert result.projections[0].tools[0].strict is False


# --------------------------------------------------------------------------------------------
# Large integers reach the written schema files and the generated module exactly
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["json", "yaml"])
def test_large_integers_survive_the_build(make_design, suffix):
    from toolgen.build import build

    big = 9007199254740993
    text = (json.dumps if suffix == "json" else _yaml)(
        {
            "name": "big",
            "description": "d",
            "parameters": {
                "type": "object",
                "properties": {"n": {"type": "integer", "maximum": big}, "c": {"const": big}},
                "required": ["n", "c"],
            },
            "examples": [{"n": 1, "c": big}],
        }
    )
    root = make_design({f"tools/big.{suffix}": text})
    result = build(root, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    written = json.loads(result.files["schemas/openai/tools/big.json"])
    assert written["properties"]["n"]["maximum"] == big
    assert written["properties"]["c"]["const"] == big
    assert "9007199254740993" in result.files["schemas/openai/tools/big.json"]
    assert "9007199254740993" in result.files["_tables_openai.py"]
    assert "9007199254740992" not in result.files["_tables_openai.py"]


def _yaml(value: Any) -> str:
    import yaml

    return yaml.safe_dump(value, sort_keys=False)


# --------------------------------------------------------------------------------------------
# Names: provider names sanitised, shortened with a hash, collisions are errors, both maps emitted
# --------------------------------------------------------------------------------------------

NAMES = {
    "billing.refund": "billing_refund",
    "get_weather": "get_weather",
    "Get-Weather-2": "Get-Weather-2",
    "ns:tool name": "ns_tool_name",
    "café": "caf_",
    "a/b\\c": "a_b_c",
}


@pytest.mark.parametrize("canonical, wire", NAMES.items(), ids=NAMES.keys())
def test_provider_names(make_design, tool, canonical, wire):
    from toolgen.build import build

    root = make_design({"tools/t.yaml": tool(canonical, {})})
    result = build(root, ("openai",))
    assert result.ok
    names = json.loads(result.files["schemas/openai/names.json"])
    assert names["tools"] == {canonical: wire}
    assert f"schemas/openai/tools/{wire}.json" in result.files


def test_long_names_are_cut_with_a_hash(make_design, tool):
    from toolgen.build import build

    long_a = "namespace." + "a" * 80 + ".first"
    long_b = "namespace." + "a" * 80 + ".second"
    root = make_design({"tools/a.yaml": tool(long_a, {}), "tools/b.yaml": tool(long_b, {})})
    result = build(root, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    names = json.loads(result.files["schemas/openai/names.json"])["tools"]
    wire_a, wire_b = names[long_a], names[long_b]
    for wire in (wire_a, wire_b):
        assert (
            violations(
                {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
                name=wire,
            )
            == []
        )
        assert len(wire) == 64
        assert wire.startswith("namespace_aaaa")
    assert wire_a != wire_b
    # stable: the same canonical name always gives the same wire name
    again = build(root, ("openai",))
    assert json.loads(again.files["schemas/openai/names.json"])["tools"][long_a] == wire_a


@pytest.mark.parametrize(
    "first, second, code",
    [
        ("billing.refund", "billing_refund", "NAME_COLLISION"),
        ("a b", "a_b", "NAME_COLLISION"),
        ("Refund", "refund", "CASE_COLLISION"),
    ],
)
def test_name_collisions_are_errors(make_design, tool, first, second, code):
    from toolgen.build import build

    root = make_design({"tools/one.yaml": tool(first, {}), "tools/two.yaml": tool(second, {})})
    result = build(root, ("openai",))
    assert not result.ok
    assert result.files == {}
    found = [(d.provider, d.code, d.pointer) for d in errors(result.diagnostics)]
    assert found == [("openai", code, "/name")]
    assert {d.file for d in errors(result.diagnostics)} <= {"tools/one.yaml", "tools/two.yaml"}


def test_output_names_are_sanitised_and_mapped(make_design, tool, output, import_package):
    from toolgen.build import build

    root = make_design(
        {
            "tools/t.yaml": tool("support.lookup", {}),
            "outputs/o.yaml": output("support.triage", obj({"x": S}, ["x"])),
        }
    )
    result = build(root, ("openai",))
    assert result.ok
    names = json.loads(result.files["schemas/openai/names.json"])
    assert names == {
        "tools": {"support.lookup": "support_lookup"},
        "outputs": {"support.triage": "support_triage"},
    }
    namespace = vars(import_package(result.files).openai)
    assert namespace["PROVIDER_NAMES"] == {"support.lookup": "support_lookup"}
    assert namespace["CANONICAL_NAMES"] == {"support_lookup": "support.lookup"}
    definition = namespace["tool_definition"]("support.lookup")
    assert definition["function"]["name"] == "support_lookup"
    assert definition["function"]["strict"] is True
    assert_strict(definition["function"]["parameters"], name="support_lookup")
    fmt = namespace["response_format"]("support.triage")
    assert fmt["json_schema"]["name"] == "support_triage"
    assert_strict(fmt["json_schema"]["schema"], name="support_triage")


def test_pointer_inside_a_folded_one_of_is_the_authored_one(project_one):
    canonical = obj({"u": {"oneOf": [obj({"v": {"not": S}}, ["v"]), S]}}, ["u"])
    projected, diagnostics = project_one(canonical)
    assert [(d.pointer, d.code) for d in errors(diagnostics)] == [
        ("/parameters/properties/u/oneOf/0/properties/v/not", "UNSUPPORTED_NOT")
    ]


@pytest.mark.parametrize(
    "member, pointer",
    [
        (
            {"allOf": [obj({"x": {"not": S}}, ["x"])], "description": "d"},
            "/parameters/properties/a/allOf/0/properties/x/not",
        ),
        ({"$ref": "#/$defs/M", "description": "d"}, "/parameters/$defs/M/properties/x/not"),
    ],
)
def test_pointer_inside_a_merged_schema_exists_in_the_file(project_one, member, pointer):
    canonical = {**obj({"a": member}, ["a"]), "$defs": {"M": obj({"x": {"not": S}}, ["x"])}}
    _, diagnostics = project_one(canonical)
    assert {d.pointer for d in errors(diagnostics)} <= {
        pointer,
        "/parameters/$defs/M/properties/x/not",
    }


def test_recursive_ref_with_a_description_is_projected(project_one):
    """Inlining a $ref with siblings must stop where it recurses (it used to never end)."""
    node = obj(
        {"kids": {"type": "array", "items": {"$ref": "#/$defs/N", "description": "a child"}}},
        ["kids"],
    )
    canonical = {
        **obj({"root": {"$ref": "#/$defs/N", "description": "the root"}}, ["root"]),
        "$defs": {"N": node},
    }
    projected, diagnostics = project_one(canonical)
    assert errors(diagnostics) == []
    assert_strict(projected)
    assert projected["$defs"]["N"]["properties"]["kids"]["items"]["description"] == "a child"
    assert projected["properties"]["root"]["description"] == "the root"


def test_recursive_ref_with_a_constraint_beside_it_is_rejected(project_one):
    node = obj(
        {"kids": {"type": "array", "items": {"$ref": "#/$defs/N", "required": ["kids"]}}}, ["kids"]
    )
    canonical = {**obj({"root": {"$ref": "#/$defs/N"}}, ["root"]), "$defs": {"N": node}}
    projected, diagnostics = project_one(canonical)
    assert projected is None
    assert {d.code for d in errors(diagnostics)} == {"UNSUPPORTED_RECURSIVE_REF"}


#: What an encoding carries now (toolgen.project.rewrites.encodings): once rejected, no diagnostic.
ENCODED = {
    "open nested object": obj({"o": {"type": "object"}}, ["o"]),
    "additionalProperties true": obj({"o": obj({"x": S}, additionalProperties=True)}, ["o"]),
    "additionalProperties empty schema": obj({"o": obj({"x": S}, additionalProperties={})}, ["o"]),
    "open root": obj({"x": S}, additionalProperties=True),
    "map-style additionalProperties": obj(
        {"tags": {"type": "object", "additionalProperties": S}}, ["tags"]
    ),
    "array without items": obj({"l": {"type": "array"}}, ["l"]),
    "untyped member": obj({"any": {"description": "anything"}}, ["any"]),
}


@pytest.mark.parametrize("name", ENCODED)
def test_what_an_encoding_carries_is_not_rejected(name):
    from toolgen.load.contracts import Contract, ProviderOptions
    from toolgen.project.projection import project_contract
    from toolgen.providers import PROFILES

    contract = Contract("tool", "t", "", ENCODED[name], "tools/t.yaml", "/parameters")
    projected, found = project_contract(contract, PROFILES["openai"], ProviderOptions(), "t")
    assert found == [] and projected.schema is not None


#: output roots that admit no object, each with a value it accepts
WRAPPED_OUTPUT_ROOTS = {
    "array": ({"type": "array", "items": obj({"a": S}, ["a"])}, [{"a": "x"}]),
    "string": (S, "x"),
    "several types": ({"type": ["integer", "string"]}, 3),
    "enum": ({"enum": [1, "b"]}, "b"),
    "const": ({"const": "x"}, "x"),
}


@pytest.mark.parametrize("profile", ["openai", "anthropic", "gemini", "mistral"])
@pytest.mark.parametrize(
    "canonical, value", WRAPPED_OUTPUT_ROOTS.values(), ids=WRAPPED_OUTPUT_ROOTS.keys()
)
def test_an_output_root_that_admits_no_object_is_wrapped(canonical, value, profile):
    """Structured outputs take an object root: the value is the one member of a closed object
    (RootWrapped), which the inverse unwraps; tool parameters stay refused (REJECTED)."""
    contract = Contract("output", "o", "", canonical, FILE, "/schema")
    projected, diagnostics = project_contract(contract, PROFILES[profile], ProviderOptions(), "o")
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    wrapper = projected.meaning
    assert wrapper["type"] == "object" and wrapper["required"] == ["value"]
    assert list(wrapper["properties"]) == ["value"]
    assert Draft202012Validator(wrapper).is_valid({"value": value})
    assert reference_inverse({"value": value}, projected) == value
    assert reference_inverse(value, projected) == value  # a canonical value is left as it is
    with pytest.raises(EncodingError):
        reference_inverse({"value": value, "other": 1}, projected)


def test_an_output_root_that_admits_an_object_is_not_wrapped():
    contract = Contract("output", "o", "", {"type": ["object", "null"]}, FILE, "/schema")
    projected, diagnostics = project_contract(contract, PROFILES["openai"], ProviderOptions(), "o")
    assert projected.schema is None
    assert [d.code for d in errors(diagnostics)] == ["NON_OBJECT_ROOT"]


def test_a_map_written_with_one_key_pattern_is_encoded_with_the_key_s_pattern():
    """patternProperties as the key pattern of a map (one pattern, no other members), where the
    provider keeps pattern; where it drops pattern the keys go out without it (looser: the model
    checks member names by the pattern after decoding, so a key that breaks it is a
    PayloadError), never refused: the map comes back on every profile."""
    codes = {
        "type": "object",
        "patternProperties": {"^[a-z]+$": {"type": "integer"}},
        "additionalProperties": False,
    }
    canonical = obj({"codes": codes}, ["codes"])
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(contract, PROFILES["openai"], ProviderOptions(), "t")
    assert errors(diagnostics) == []
    entry = projected.schema["properties"]["codes"]["items"]
    assert entry["properties"]["key"] == {"type": "string", "pattern": "^[a-z]+$"}
    assert entry["properties"]["value"] == {"type": "integer"}
    assert_strict(projected.schema)
    payload = {"codes": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]}
    assert reference_inverse(payload, projected) == {"codes": {"a": 1, "b": 2}}
    looser, diagnostics = project_contract(contract, PROFILES["mistral"], ProviderOptions(), "t")
    assert errors(diagnostics) == []
    assert looser.schema["properties"]["codes"]["items"]["properties"]["key"] == {"type": "string"}
    assert reference_inverse(payload, looser) == {"codes": {"a": 1, "b": 2}}


#: every strict profile, Gemini in both dialects
EVERY_PROFILE = {**PROFILES, "gemini-openapi": GEMINI_DIALECTS["openapi"]}

#: roots that declare no member and say what the others are: their members go in ExtraMembers
EXTRAS_ROOTS = {
    "a root map": {"type": "object", "additionalProperties": S},
    "empty properties and additionalProperties": {
        "type": "object",
        "properties": {},
        "additionalProperties": S,
    },
}


@pytest.mark.parametrize("profile", EVERY_PROFILE)
@pytest.mark.parametrize("canonical", EXTRAS_ROOTS.values(), ids=EXTRAS_ROOTS.keys())
def test_a_root_map_is_written_as_its_extra_members(canonical, profile):
    """A root must stay an object, so a map there is an object of no declared member whose
    others are one more member of entries (ExtraMembers), on every profile; nothing is closed,
    so no EMPTY_ROOT_CLOSED either."""
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(
        contract, EVERY_PROFILE[profile], ProviderOptions(), "t"
    )
    assert diagnostics == [], [d.format() for d in diagnostics]
    written = {"additional_members": [{"key": "a", "value": "x"}, {"key": "b", "value": "y"}]}
    assert Draft202012Validator(projected.meaning).is_valid(written)
    assert reference_inverse(written, projected) == {"a": "x", "b": "y"}


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_an_object_of_empty_properties_takes_any_members(profile):
    """``{type: object, properties: {}}`` declares no member and takes any: a map of any values,
    never an object closed to every member."""
    canonical = obj({"o": {"type": "object", "properties": {}}}, ["o"])
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(
        contract, EVERY_PROFILE[profile], ProviderOptions(), "t"
    )
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    written = {"o": [{"key": "k", "value": "[1]"}]}
    assert Draft202012Validator(projected.meaning).is_valid(written)
    assert reference_inverse(written, projected) == {"o": {"k": [1]}}


@pytest.mark.parametrize("profile", EVERY_PROFILE)
@pytest.mark.parametrize(
    "member",
    [
        {"type": ["object", "null"]},
        {"type": ["null", "object"], "additionalProperties": {"type": "integer"}},
        {"anyOf": [{"type": "object"}, {"type": "null"}]},
    ],
    ids=["nullable object", "nullable map", "union with null"],
)
def test_a_nullable_map_is_a_map_or_null(profile, member):
    """A map in a type list with null is split into a map (an array of entries) and null, as
    the same map written with anyOf is: no type list can hold the array of entries. (Nested:
    Workers AI writes a top-level member of no one type as JSON text.)"""
    canonical = obj({"w": obj({"m": member}, ["m"])}, ["w"])
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(
        contract, EVERY_PROFILE[profile], ProviderOptions(), "t"
    )
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    validator = Draft202012Validator(projected.meaning)
    for written, expected in (
        ({"w": {"m": [{"key": "a", "value": 1}]}}, {"w": {"m": {"a": 1}}}),
        ({"w": {"m": None}}, {"w": {"m": None}}),
    ):
        if "additionalProperties" not in member:  # values of any type: JSON text
            written = json.loads(json.dumps(written).replace('"value": 1', '"value": "1"'))
        assert validator.is_valid(written), written
        assert reference_inverse(written, projected) == expected


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_a_member_whose_default_is_null_is_sent_no_box_on_any_profile(profile):
    """pydantic's ``label: str | None = None`` (what FastMCP and pydantic-ai tools are made of):
    no profile boxes it. Where the profile writes it required, null reads back as absent; where
    it stays optional, a payload is canonical as written."""
    label = {"anyOf": [S, {"type": "null"}], "default": None}
    canonical = obj({"w": obj({"label": label, "id": S}, ["id"])}, ["w"])
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(
        contract, EVERY_PROFILE[profile], ProviderOptions(), "t"
    )
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    assert BOX_NOTE not in json.dumps(projected.schema)
    w = projected.meaning["properties"]["w"]
    assert "properties" not in json.dumps(w["properties"]["label"])  # no box
    null = {"w": {"id": "a", "label": None}}
    assert Draft202012Validator(projected.meaning).is_valid(null)
    forced = "label" in w["required"]
    assert reference_inverse(null, projected) == ({"w": {"id": "a"}} if forced else null)
    if not forced:
        assert reference_inverse({"w": {"id": "a"}}, projected) == {"w": {"id": "a"}}


#: schemas strict modes refused that have an exact equivalent they take, with a value each
#: accepts (as canonical and as written, where every optional member is written null on
#: OpenAI-style profiles: the value has all of them)
MERGED = {
    "allOf of objects with disjoint members": (
        {"allOf": [obj({"a": S}, ["a"]), obj({"b": {"type": "integer"}}, ["b"])]},
        {"a": "x", "b": 1},
    ),
    "allOf of a type and a keyword": ({"allOf": [S, {"minLength": 5}]}, "hello"),
    "a union of one beside members": (
        {**obj({"a": S}, ["a"]), "anyOf": [obj({"b": S}, ["b"])]},
        {"a": "x", "b": "y"},
    ),
    "a oneOf of one beside a type": ({"type": "integer", "oneOf": [{"minimum": 1}]}, 3),
}


@pytest.mark.parametrize("profile", EVERY_PROFILE)
@pytest.mark.parametrize("member, value", MERGED.values(), ids=MERGED.keys())
def test_an_intersection_with_one_equivalent_schema_is_merged(member, value, profile):
    """Each is one schema (merged: members and required members add up), no refusal."""
    canonical = obj({"w": obj({"m": member}, ["m"])}, ["w"])
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(
        contract, EVERY_PROFILE[profile], ProviderOptions(), "t"
    )
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    written = projected.meaning["properties"]["w"]["properties"]["m"]
    assert not {"allOf", "oneOf"} & set(written), written
    payload = {"w": {"m": value}}
    assert Draft202012Validator(projected.meaning).is_valid(payload)
    assert reference_inverse(payload, projected) == payload
    assert Draft202012Validator(canonical).is_valid(payload)


def test_a_merged_member_is_reported_where_its_schema_declares_it(project_one):
    """The members of merged schemas come from both: a diagnostic points into the one that
    declares the member."""
    member = {"allOf": [obj({"a": {"not": S}}), obj({"b": {"not": S}})]}
    _, diagnostics = project_one(obj({"m": member}, ["m"]))
    assert sorted((d.pointer, d.code) for d in errors(diagnostics)) == [
        ("/parameters/properties/m/allOf/0/properties/a/not", "UNSUPPORTED_NOT"),
        ("/parameters/properties/m/allOf/1/properties/b/not", "UNSUPPORTED_NOT"),
    ]


def test_an_allof_that_cannot_be_one_schema_is_refused_with_the_reason(project_one):
    member = {"allOf": [obj({"a": S}, additionalProperties=False), obj({"b": S})]}
    _, diagnostics = project_one(obj({"m": member}, ["m"]))
    assert [(d.pointer, d.code) for d in errors(diagnostics)] == [
        ("/parameters/properties/m/allOf", "UNSUPPORTED_ALL_OF")
    ]
    assert "would also apply to 'b', which only the other declares" in diagnostics[0].message


@pytest.mark.parametrize("profile", ["openai", "anthropic", "xai"])
def test_an_array_whose_values_are_given_keeps_them(profile):
    """An array without ``items`` has elements of any type, written as JSON text, but where its
    ``const`` or ``enum`` gives the values, elements as text would admit none of them."""
    canonical = obj({"c": {"type": "array", "const": [1, 2, 3]}}, ["c"])
    contract = Contract("tool", "t", "", canonical, FILE, "/parameters")
    projected, diagnostics = project_contract(contract, PROFILES[profile], ProviderOptions(), "t")
    assert errors(diagnostics) == [], [d.format() for d in diagnostics]
    assert Draft202012Validator(projected.meaning).is_valid({"c": [1, 2, 3]})
    assert reference_inverse({"c": [1, 2, 3]}, projected) == {"c": [1, 2, 3]}


@pytest.mark.parametrize("profile", sorted(EVERY_PROFILE))
def test_a_root_map_of_one_key_pattern_is_the_roots_other_members(profile):
    """A tool whose parameters are a patternProperties map (no declared member): its members
    must stay an object, so they are the root's other members (ExtraMembers), keyed by the
    pattern where the provider keeps it; refused before on every profile."""
    root = {
        "type": "object",
        "patternProperties": {"^[a-z]+$": {"type": "integer"}},
        "additionalProperties": False,
    }
    contract = Contract("tool", "t", "", root, FILE, "/parameters")
    projected, diagnostics = project_contract(
        contract, EVERY_PROFILE[profile], ProviderOptions(), "t"
    )
    assert errors(diagnostics) == [], diagnostics
    (member,) = [m for m in projected.meaning["properties"]]
    payload = {member: [{"key": "a", "value": 1}]}
    assert reference_inverse(payload, projected) == {"a": 1}
