"""Soundness defects found by holding toolgen against peers' own test suites (issue 20): each a
projection that was silently wrong. Every case projects one in-memory contract through
``project_contract``, the projection's one entry point."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolgen.infra.diagnostics import Level
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.project.rewrites.presence import BOX_NOTE
from toolgen.providers import PROFILES
from toolgen.providers.gemini import DIALECTS

S = {"type": "string"}
LOOKAROUND = r"(?<=USD)\d+"
DECIMAL = r"^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$"  # pydantic's Decimal pattern


def profile_of(name: str) -> Any:
    return DIALECTS["openapi"] if name == "gemini-openapi" else PROFILES[name]


def project(schema: Any, provider: str = "openai") -> tuple[Any, list[Any]]:
    """(the wire schema or None, the diagnostics) of a one-tool contract."""
    contract = Contract("tool", "t", "A tool.", schema, "tools/t.json", "/parameters")
    profile = profile_of(provider)
    projected, diagnostics = project_contract(contract, profile, ProviderOptions(), "t")
    return projected.schema, diagnostics


def codes(diagnostics: list[Any], level: Level = Level.ERROR) -> list[str]:
    return [d.code for d in diagnostics if d.level is level]


def member(schema: Any, name: str = "a") -> Any:
    return schema["properties"][name]


def obj(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), **extra}


# -- lookaround patterns ---------------------------------------------------------------------

STRICT_WITH_PATTERNS = [
    name for name, profile in PROFILES.items() if profile.verdict("pattern") == "keep"
]


@pytest.mark.parametrize("provider", STRICT_WITH_PATTERNS)
@pytest.mark.parametrize(
    "pattern", [LOOKAROUND, DECIMAL, r"(\w)\1", r"\bword\b", r"\\(?=a)", r"[a]\b", r"\k<x>"]
)
def test_a_pattern_no_strict_decoder_takes_is_dropped(provider, pattern):
    schema, diagnostics = project(obj({"a": {"type": "string", "pattern": pattern}}), provider)
    assert not codes(diagnostics), diagnostics
    assert "pattern" not in str(schema), schema


@pytest.mark.parametrize("provider", STRICT_WITH_PATTERNS)
def test_a_simple_pattern_is_kept(provider):
    schema, _ = project(obj({"a": {"type": "string", "pattern": "^[a-z]+$"}}), provider)
    assert "^[a-z]+$" in str(schema)


@pytest.mark.parametrize("provider", STRICT_WITH_PATTERNS)
@pytest.mark.parametrize(
    "pattern",
    [r"^\(?=USD", r"^[(?=]+$", r"^[\b]$", r"^[\]\\(?!]$"],
    ids=["escaped paren", "in a class", "backspace in a class", "escaped bracket in a class"],
)
def test_a_pattern_whose_lookalikes_are_literals_is_kept(provider, pattern):
    """An escaped paren before ``?=`` and a character class holding ``(?=`` or ``\\b`` are
    literals, no lookaround or boundary: the pattern goes to the provider."""
    schema, diagnostics = project(obj({"a": {"type": "string", "pattern": pattern}}), provider)
    assert not codes(diagnostics), diagnostics
    assert member(schema)["pattern"] == pattern


# -- a $ref inside an embedded resource ($id) ------------------------------------------------


def _resolved(schema: Any, node: Any) -> Any:
    """``node`` with its chain of local references followed in ``schema``."""
    from toolgen.schema import pointer as jp

    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        node = jp.resolve(schema, jp.ref_pointer(node["$ref"]))
    return node


EMBEDDED = {
    "type": "object",
    "$defs": {"x": {"type": "string"}},
    "properties": {
        "sub": {
            "$id": "https://example.com/sub",
            "$defs": {"x": {"type": "integer"}},
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/x"}, "m": {"$ref": "#/$defs/y"}},
            "required": ["n", "m"],
        },
        "top": {"$ref": "#/$defs/x"},
    },
    "required": ["sub", "top"],
}
EMBEDDED["properties"]["sub"]["$defs"]["y"] = {"type": "boolean"}  # only the resource has it


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_a_ref_inside_an_embedded_resource_resolves_against_it(make_design, tool, provider):
    from jsonschema import Draft202012Validator

    from toolgen.build import analyze

    root = make_design({"tools/t.json": tool("t", EMBEDDED)})
    result = analyze(root, (provider,))
    assert not [d for d in result.diagnostics if d.level is Level.ERROR], result.diagnostics
    projected = result.projections[0].tools[0].schema
    sub = _resolved(projected, member(projected, "sub"))
    assert _resolved(projected, member(sub, "n"))["type"] == "integer"
    assert _resolved(projected, member(sub, "m"))["type"] == "boolean"
    assert _resolved(projected, member(projected, "top"))["type"] == "string"
    canonical = result.design.tools[0].schema  # the canonical validation agrees
    validator = Draft202012Validator(canonical)
    assert validator.is_valid({"sub": {"n": 1, "m": True}, "top": "a"})
    assert not validator.is_valid({"sub": {"n": "1", "m": True}, "top": "a"})


#: every profile, Gemini in both dialects
EVERY_PROFILE = [*PROFILES, "gemini-openapi"]

#: optional members that reference nodes the projection wraps or moves: a definition of an
#: embedded resource (beside a root definition of the same name), the root of an embedded
#: resource (its own recursion), a member
MOVED_TARGETS = {
    "type": "object",
    "$defs": {"T": {"type": "integer"}},
    "properties": {
        "w": {  # nested: Workers AI writes some top-level members as JSON text
            "type": "object",
            "properties": {
                "n": {"$id": "urn:x", "$defs": {"T": {"type": "string"}}, "$ref": "#/$defs/T"},
                "m": {"$ref": "#/$defs/T"},
                "tree": {
                    "$id": "urn:tree",
                    "type": "object",
                    "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}},
                },
                "a": {"type": "string", "minLength": 1},
                "b": {"$ref": "#/properties/w/properties/a"},
            },
        }
    },
    "required": ["w"],
}


@pytest.fixture(scope="module")
def moved_targets(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The contract of MOVED_TARGETS as the loader bundles it."""
    from tests.conftest import tool_file, write_design
    from toolgen.load.design import load_design
    from toolgen.providers import settings

    root = tmp_path_factory.mktemp("moved") / "design"
    write_design(root, {"tools/t.json": tool_file("t", MOVED_TARGETS)})
    design, diagnostics = load_design(root, settings(list(PROFILES)))
    assert design is not None and not diagnostics, diagnostics
    return design.tools[0]


@pytest.mark.parametrize("provider", EVERY_PROFILE)
def test_a_reference_into_a_node_the_projection_moves_resolves(moved_targets, provider):
    """A local reference to anything but the schema or one of its own definitions is bundled
    into the root's $defs (a shared definition) at load: the projection wraps optional members
    (MadeNullable, a box) and so moves what they hold, where such a reference would dangle."""
    from toolgen.compile.canonical.reference import reference_inverse
    from toolgen.schema import pointer as jp
    from toolgen.schema import walker
    from toolgen.schema.refs import local_refs

    projected, diagnostics = project_contract(
        moved_targets, profile_of(provider), ProviderOptions(), "t"
    )
    assert codes(diagnostics) == [], diagnostics
    meaning = projected.meaning
    for _, target in local_refs(meaning):
        jp.resolve(meaning, target)  # KeyError: it dangles
    n = member(member(meaning, "w"), "n")
    reached = [node for node, _ in walker.walk(n)]
    reached += [jp.resolve(meaning, target) for _, target in local_refs(n)]
    types = {str(node.get("type")).lower() for node in reached if isinstance(node, dict)}
    assert "string" in types and "integer" not in types, n  # the resource's T, not the root's
    payload = {"w": {"n": "x", "m": 1, "tree": {"kids": [{"kids": []}]}, "a": "p", "b": "q"}}
    canonical = Draft202012Validator(moved_targets.schema)
    assert canonical.is_valid(payload)
    assert not canonical.is_valid({"w": {"n": 1}})
    assert not canonical.is_valid({"w": {"b": ""}})  # b is a's schema: minLength 1
    if Draft202012Validator(meaning).is_valid(payload):  # else written otherwise (a recursion)
        assert reference_inverse(payload, projected) == payload


# -- the one-branch allOf merge compares JSON values ------------------------------------------


@pytest.mark.parametrize(
    ("branch", "site"),
    [
        ({"const": True}, {"const": 1}),
        ({"const": 0}, {"const": False}),
        ({"enum": [1]}, {"enum": [True]}),
        ({"const": [1, True]}, {"const": [True, 1]}),
    ],
)
def test_a_merge_of_values_python_calls_equal_is_a_conflict(branch, site):
    _, diagnostics = project(obj({"a": {"allOf": [branch], **site}}))
    assert "CONFLICTING_KEYWORDS" in codes(diagnostics)


def test_a_merge_of_numbers_json_calls_equal_is_none():
    schema, diagnostics = project(obj({"a": {"allOf": [{"const": 1}], "const": 1.0}}))
    assert not codes(diagnostics), diagnostics


def test_json_equality():
    from toolgen.schema.equality import json_equal

    assert json_equal(1, 1.0) and json_equal({"a": [1, None]}, {"a": [1.0, None]})
    assert not json_equal(True, 1) and not json_equal(0, False) and not json_equal([1], [True])
    assert not json_equal({"a": 1}, {"b": 1}) and not json_equal("1", 1)


# -- the generated models compare const and enum values as JSON does --------------------------

LITERALS = {
    "type": "object",
    "properties": {
        "yes": {"const": True},
        "one": {"const": 1},
        "mixed": {"enum": [1, "x", None]},
        "bracket": {"enum": ["]", "[1]"]},
        "items": {"type": "array", "items": {"enum": [0, False]}},
    },
}


@pytest.mark.parametrize(
    ("payload", "valid"),
    [
        ({"yes": True}, True),
        ({"yes": 1}, False),
        ({"yes": 1.0}, False),
        ({"one": 1.0}, True),
        ({"one": True}, False),
        ({"mixed": True}, False),
        ({"mixed": "x"}, True),
        ({"mixed": None}, True),
        ({"bracket": "]"}, True),
        ({"items": [0, False, 0.0]}, True),
        ({"items": [True]}, False),
        ({"items": [1]}, False),
    ],
)
def test_the_models_keep_json_equality(literal_models, payload, valid):
    from jsonschema import Draft202012Validator
    from pydantic import ValidationError

    assert Draft202012Validator(LITERALS).is_valid(payload) is valid  # the case is right
    try:
        literal_models.model_validate(payload)
    except ValidationError:
        assert not valid
    else:
        assert valid


@pytest.fixture(scope="module")
def literal_models(tmp_path_factory):
    import importlib
    import sys

    from tests.conftest import tool_file, write_design
    from toolgen.build import build

    folder = tmp_path_factory.mktemp("literals")
    result = build(
        write_design(folder / "design", {"tools/t.json": tool_file("t", LITERALS)}), ("anthropic",)
    )
    assert result.ok, result.diagnostics
    for relative, text in result.files.items():
        target = folder / "packages" / "literal_models" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder / "packages"))
    try:
        importlib.invalidate_caches()
        yield importlib.import_module("literal_models.models.tools.t").T
    finally:
        sys.path.remove(str(folder / "packages"))


# -- objects closed silently -----------------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_properties_without_type_accepts_any_value_and_is_not_closed(provider):
    # {"properties": {}} without a type accepts any value: it is carried as JSON text (whose
    # inverse is exact), never closed into an empty object
    schema, diagnostics = project(obj({"a": {"properties": {}}}), provider)
    assert not diagnostics
    assert schema["properties"]["a"]["type"] == "string"
    assert "additionalProperties" not in schema["properties"]["a"]


@pytest.mark.parametrize("root", [{}, {"type": "object"}, {"type": "object", "properties": {}}])
def test_an_open_root_without_members_is_closed_with_a_warning(root):
    schema, diagnostics = project(root)
    assert schema == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    assert codes(diagnostics, Level.WARNING) == ["EMPTY_ROOT_CLOSED"]


def test_a_root_closed_by_its_author_is_quiet():
    _, diagnostics = project({"type": "object", "additionalProperties": False})
    assert not diagnostics


# -- Gemini: const null, propertyOrdering, enums with null -----------------------------------


def test_gemini_openapi_writes_const_null_as_the_null_type():
    schema, diagnostics = project(obj({"a": {"const": None}}), "gemini-openapi")
    assert member(schema) == {"type": "NULL"}, diagnostics


def test_gemini_json_schema_writes_const_null_as_the_null_type():
    schema, diagnostics = project(obj({"a": {"const": None}}), "gemini")
    assert member(schema) == {"type": "null"}, diagnostics


@pytest.mark.parametrize("provider", ["gemini", "gemini-openapi"])
def test_gemini_keeps_property_ordering(provider):
    ordered = {"type": "object", "properties": {"x": S, "y": S}, "propertyOrdering": ["y", "x"]}
    schema, diagnostics = project(obj({"a": ordered}), provider)
    assert member(schema)["propertyOrdering"] == ["y", "x"], diagnostics


def test_gemini_types_an_enum_with_null_instead_of_calling_it_any_value():
    schema, diagnostics = project(obj({"a": {"enum": [1, 2, None]}}), "gemini")
    assert not codes(diagnostics), diagnostics
    assert member(schema) == {"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}]}


@pytest.mark.parametrize("provider", ["cerebras", "mistral"])
@pytest.mark.parametrize(
    "canonical",
    [
        {"type": ["string", "null"], "enum": ["a", "b", None]},
        {"type": "string", "enum": ["a", "b", None]},
    ],
)
def test_the_typed_branch_of_a_nullable_enum_holds_no_null(provider, canonical):
    # optional where it does not accept null (made nullable), required where it does (an
    # optional one would be boxed, the same anyOf inside the box)
    required = ["a"] if isinstance(canonical["type"], list) else []
    schema, _ = project(
        {"type": "object", "properties": {"a": canonical}, "required": required}, provider
    )
    assert member(schema) == {"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]}


def test_gemini_writes_a_boolean_const_as_the_boolean_type():
    schema, diagnostics = project(obj({"f": {"const": True}}), "gemini")
    assert member(schema, "f") == {"type": "boolean"}, diagnostics


# -- the wire schemas of Cerebras and Mistral (no type lists: nulls as anyOf branches) --------

NULL = {"type": "null"}
WIRE = [
    # an optional member: required, and null as a second branch
    ({"a": S}, [], {"anyOf": [S, NULL]}),
    # a nullable required member: its type list split
    ({"a": {"type": ["integer", "null"]}}, ["a"], {"anyOf": [{"type": "integer"}, NULL]}),
    # an optional nullable enum: boxed (null is absent, {"value": v} is v); inside the box one
    # null branch, no null inside the typed branch's enum
    (
        {"a": {"type": ["string", "null"], "enum": ["x", None]}},
        [],
        {
            "description": BOX_NOTE,
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"value": {"anyOf": [{"type": "string", "enum": ["x"]}, NULL]}},
                    "required": ["value"],
                    "additionalProperties": False,
                },
                NULL,
            ],
        },
    ),
    # const stays const (both take it), wrapped when optional
    ({"a": {"const": "x"}}, [], {"anyOf": [{"const": "x"}, NULL]}),
    # an array of optional-member objects: every level closed
    (
        {"a": {"type": "array", "items": {"type": "object", "properties": {"b": S}}}},
        ["a"],
        {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"b": {"anyOf": [S, NULL]}},
                "required": ["b"],
                "additionalProperties": False,
            },
        },
    ),
]


@pytest.mark.parametrize("provider", ["cerebras", "mistral"])
@pytest.mark.parametrize(("properties", "required", "expected"), WIRE)
def test_the_wire_schema_of_cerebras_and_mistral(provider, properties, required, expected):
    canonical = {"type": "object", "properties": properties, "required": required}
    schema, diagnostics = project(canonical, provider)
    assert not codes(diagnostics), diagnostics
    assert schema == {
        "type": "object",
        "properties": {"a": expected},
        "required": ["a"],
        "additionalProperties": False,
    }


# -- type beside a union of objects ------------------------------------------------------------

CARD = obj({"kind": {"const": "card"}, "n": S}, additionalProperties=False)
IBAN = obj({"kind": {"const": "iban"}}, additionalProperties=False)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "cerebras"])
def test_type_object_beside_a_union_of_objects_goes_into_the_branches(provider):
    untyped = [{k: v for k, v in b.items() if k != "type"} for b in (CARD, IBAN)]
    schema, diagnostics = project(obj({"pay": {"type": "object", "oneOf": untyped}}), provider)
    assert not codes(diagnostics), diagnostics
    branches = member(schema, "pay")["anyOf"]
    assert [b["type"] for b in branches] == ["object", "object"]
    assert all(b["additionalProperties"] is False for b in branches)


def test_an_enum_gemini_cannot_write_is_not_called_any_value():
    """An object const is no value of any type: the one text of its value, not any JSON text."""
    schema, diagnostics = project(obj({"o": {"const": {"x": 1}}}), "gemini")
    assert codes(diagnostics) == []
    assert member(schema, "o") == {"type": "string", "enum": ['{"x": 1}']}


def test_an_enum_none_of_whose_values_fits_its_type_is_left_as_it_is():
    schema, _ = project(obj({"a": {"type": "string", "enum": [1, 2]}}), "openai")
    assert member(schema)["enum"] == [1, 2]
