"""The features of the matrix: each one encoding or one equivalent rewrite of toolgen's
projection, alone, in a one-tool design (and, where it applies to structured outputs, the same
schema as an output of that design), and the profiles the matrix crosses them with.

A feature's schemas are the smallest that carry it: beside the member that holds the feature there
is nothing a projection rewrites, so what a package decodes is that feature's work alone (the
package's decision to write an inverse included: issue 34).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolgen.providers import DIALECTS, PROFILES

#: the tool of every feature's design (and its output, where the feature has one)
TOOL = "probe"
OUTPUT = "probe_output"


@dataclass(frozen=True)
class Feature:
    """One feature: the ``parameters`` of its tool (None: it has no tool, only an output) and the
    ``output`` schema of its structured output (None: the feature is a tool's alone).

    ``violations``: (keyword, payload) pairs, each payload of the tool's shape but breaking
    ``keyword`` of its canonical schema: written by the fakes, it must be refused with a
    PayloadError after decoding, and the projected schema may admit it only where the profile
    drops the keyword on purpose (else the projection is silently less strict).

    ``draws``: where the canonical schema closed (tests/canonical/support.py ``closed``) has no
    instances although the schema has (an ``allOf`` of two objects, each closed alone), the
    schema the payloads are drawn from instead, every instance of which the canonical schema
    accepts. ``case_folded``: an enum member whose values a reply may write in another letter
    case (Anthropic's structured outputs docs, "Invalid outputs").
    """

    name: str
    parameters: Mapping[str, Any] | None
    output: Mapping[str, Any] | None = None
    draws: Mapping[str, Any] | None = None
    case_folded: str | None = None
    violations: tuple[tuple[str, Any], ...] = ()
    note: str = ""


def _one(member: Mapping[str, Any], *, required: bool = True, name: str = "value") -> Any:
    """The parameters of a tool whose one member ``name`` has the schema ``member``, beside a
    required string (the call has something to carry when the member is absent)."""
    return {
        "type": "object",
        "properties": {"id": {"type": "string"}, name: dict(member)},
        "required": ["id", name] if required else ["id"],
    }


def _both(parameters: Any, **extra: Any) -> dict[str, Any]:
    """A feature whose tool parameters are also the schema of its structured output."""
    return {"parameters": parameters, "output": parameters, **extra}


_NODE = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
    },
    "required": ["name"],
}
_T = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "additionalProperties": False,
}

_FORMATS = {
    "hostname": ["example.com", "a-1.b.example", "localhost"],
    "ipv6": ["::1", "2001:db8::8a2e:370:7334", "fe80::1"],
    "duration": ["P3D", "PT1H30M", "P1Y2M", "P2W"],
    "email": ["ana@example.com", "b.c+d@example.org"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"],
}

#: a value of each format's type that is not of the format
_NOT_FORMATS = {
    "hostname": "not a host!",
    "ipv6": "1::2::3",
    "duration": "P",
    "email": "no at sign",
    "uuid": "123e4567",
}

_FEATURES: tuple[Feature, ...] = (
    # -- encodings ------------------------------------------------------------------------------
    Feature("map", **_both(_one({"type": "object", "additionalProperties": {"type": "string"}}))),
    Feature("map_of_any", **_both(_one({"type": "object"}))),
    Feature(
        "map_bounds",
        **_both(
            _one(
                {
                    "type": "object",
                    "additionalProperties": {"type": "integer"},
                    "minProperties": 1,
                    "maxProperties": 3,
                }
            )
        ),
        note="minProperties/maxProperties carried as minItems/maxItems of the entries",
        violations=(
            ("minProperties", {"id": "x", "value": {}}),
            ("maxProperties", {"id": "x", "value": {"a": 1, "b": 2, "c": 3, "d": 4}}),
        ),
    ),
    Feature(
        "pattern_map",
        **_both(
            _one(
                {
                    "type": "object",
                    "patternProperties": {"^[a-z]+$": {"type": "integer"}},
                    "additionalProperties": False,
                }
            )
        ),
    ),
    Feature(
        "property_names_map",
        **_both(
            _one(
                {
                    "type": "object",
                    "propertyNames": {"pattern": "^[A-Z_]+$"},
                    "additionalProperties": {"type": "string"},
                }
            )
        ),
    ),
    Feature(
        "open_object_extras",
        **_both(
            _one(
                {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                    "additionalProperties": {"type": "integer"},
                }
            )
        ),
    ),
    Feature("any_value", **_both(_one({}))),
    Feature("any_value_described", **_both(_one({"description": "Anything."}))),
    Feature("any_value_empty_properties", **_both(_one({"properties": {}}))),
    Feature("array_without_items", **_both(_one({"type": "array"}))),
    Feature(
        "tuple",
        **_both(
            _one(
                {
                    "type": "array",
                    "prefixItems": [{"type": "number"}, {"type": "string"}],
                    "items": False,
                    "minItems": 2,
                }
            )
        ),
    ),
    Feature(
        "tuple_shorter",
        **_both(
            _one(
                {
                    "type": "array",
                    "prefixItems": [{"type": "integer"}, {"type": "string"}, {"type": "boolean"}],
                    "items": False,
                    "minItems": 1,
                }
            )
        ),
    ),
    Feature(
        "recursion",
        **_both(
            {
                "type": "object",
                "properties": {"tree": {"$ref": "#/$defs/Node"}},
                "required": ["tree"],
                "$defs": {"Node": _NODE},
            }
        ),
    ),
    Feature(
        "optional_nullable",
        **_both(_one({"type": ["string", "null"]}, required=False)),
        note="boxed on the profiles that make every member required",
    ),
    Feature(
        "optional_default_null",
        **_both(
            _one({"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}, required=False)
        ),
        note="absent and null mean the same: sent unboxed, required and nullable",
    ),
    Feature(
        "member_of_no_one_type",
        **_both(_one({"anyOf": [{"type": "string"}, {"type": "integer"}]})),
        note="JSON text on Workers AI (MemberAsJsonText)",
    ),
    Feature(
        "integer_enum",
        **_both(_one({"type": "integer", "enum": [1, 2, 3]})),
        note="text on Gemini's openapi dialect (EnumStringified)",
    ),
    Feature(
        "string_enum",
        **_both(_one({"type": "string", "enum": ["Active", "Inactive"]})),
        case_folded="value",
        note="Anthropic does not guarantee the letter case of enum values",
    ),
    Feature(
        "member_names",
        **_both(
            _one(
                {
                    "type": "object",
                    "properties": {"filter[id]": {"type": "string"}, "a b": {"type": "integer"}},
                    "required": ["filter[id]"],
                }
            )
        ),
        note="Anthropic refuses property keys outside ^[a-zA-Z0-9_.-]{1,64}$: sent renamed",
    ),
    Feature("output_root_array", None, {"type": "array", "items": {"type": "string"}}),
    Feature("output_root_string", None, {"type": "string"}),
    # -- equivalent rewrites --------------------------------------------------------------------
    Feature(
        "ref_with_siblings",
        **_both(
            {
                **_one({"$ref": "#/$defs/Name", "description": "A name.", "maxLength": 20}),
                "$defs": {"Name": {"type": "string"}},
            }
        ),
    ),
    Feature("one_element_all_of", **_both(_one({"allOf": [{"type": "string"}]}))),
    Feature("one_of", **_both(_one({"oneOf": [{"type": "string"}, {"type": "integer"}]}))),
    Feature("type_list", **_both(_one({"type": ["string", "integer"]}))),
    Feature(
        "nullable_enum_type_list",
        **_both(_one({"type": ["string", "null"], "enum": ["active", "inactive", None]})),
        violations=(("enum", {"id": "x", "value": "other"}),),
    ),
    Feature("const", **_both(_one({"const": "fixed"}))),
    Feature("enum_without_type", **_both(_one({"enum": ["red", "green"]}))),
    Feature(
        "dropped_string_lengths",
        **_both(_one({"type": "string", "minLength": 2, "maxLength": 5})),
        violations=(
            ("minLength", {"id": "x", "value": "a"}),
            ("maxLength", {"id": "x", "value": "abcdefgh"}),
        ),
    ),
    Feature(
        "dropped_unique_items",
        **_both(_one({"type": "array", "items": {"type": "integer"}, "uniqueItems": True})),
        violations=(("uniqueItems", {"id": "x", "value": [1, 1]}),),
    ),
    Feature(
        "dropped_formats",
        **_both(
            {
                "type": "object",
                "properties": {fmt: {"type": "string", "format": fmt} for fmt in _FORMATS},
                "required": list(_FORMATS),
            }
        ),
        # valid values of each format (hypothesis-jsonschema draws no valid duration or uuid)
        violations=tuple(
            ("format", {**{f: v[0] for f, v in _FORMATS.items()}, fmt: bad})
            for fmt, bad in _NOT_FORMATS.items()
        ),
        draws={
            "type": "object",
            "properties": {
                fmt: {"type": "string", "format": fmt, "enum": values}
                for fmt, values in _FORMATS.items()
            },
            "required": list(_FORMATS),
            "additionalProperties": False,
        },
    ),
    Feature(
        "optionals_over_cap",
        **_both(
            {
                "type": "object",
                "properties": {f"o{i:02d}": {"type": "string"} for i in range(26)},
                "required": [],
            }
        ),
        note="more optional members than Anthropic's cap of 24",
    ),
    Feature("optional_without_null", **_both(_one({"type": "string"}, required=False))),
    Feature("nested_empty_object", **_both(_one({"type": "object", "properties": {}}))),
    Feature("nullable_object_without_properties", **_both(_one({"type": ["object", "null"]}))),
    Feature(
        "id_defs_ref_optional",
        **_both(_one({"$id": "urn:x", "$defs": {"T": _T}, "$ref": "#/$defs/T"}, required=False)),
        # the same schema with T inlined (hypothesis-jsonschema does not resolve the $id's base)
        draws={**_one(_T, required=False), "additionalProperties": False},
    ),
    Feature(
        "one_branch_any_of_beside_properties",
        **_both(
            _one(
                {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                    "anyOf": [{"required": ["a"]}],
                }
            )
        ),
    ),
    Feature(
        "all_of_disjoint_objects",
        **_both(
            _one(
                {
                    "allOf": [
                        {
                            "type": "object",
                            "properties": {"a": {"type": "string"}},
                            "required": ["a"],
                        },
                        {
                            "type": "object",
                            "properties": {"b": {"type": "integer"}},
                            "required": ["b"],
                        },
                    ]
                }
            )
        ),
        draws=_one(
            {
                "type": "object",
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
                "additionalProperties": False,
            }
        ),
    ),
    Feature(
        "all_of_string_min_length",
        **_both(_one({"allOf": [{"type": "string"}, {"minLength": 5}]})),
        violations=(("minLength", {"id": "x", "value": "abc"}),),
    ),
    Feature("array_const", **_both(_one({"const": [1, 2, 3]}))),
    Feature("root_map", **_both({"type": "object", "additionalProperties": {"type": "integer"}})),
)

FEATURES: dict[str, Feature] = {feature.name: feature for feature in _FEATURES}


# -- the profiles -------------------------------------------------------------------------------


#: Every provider profile with an API and every dialect: ``provider`` (its default dialect) or
#: ``provider:dialect``; a profile without APIs has no package module to round-trip through.
def _profiles() -> tuple[str, ...]:
    found = []
    for name, profile in PROFILES.items():
        if profile.apis:
            found.append(name)
            dialects = DIALECTS.get(name, {})
            found += [f"{name}:{d}" for d, other in dialects.items() if other is not profile]
    return tuple(found)


PROFILE_KEYS: tuple[str, ...] = _profiles()


def provider_of(profile: str) -> str:
    return profile.partition(":")[0]


def dialect_of(profile: str) -> str | None:
    return profile.partition(":")[2] or None


def _v(value: Any) -> dict[str, Any]:
    return {"id": "x", "value": value}


#: Payloads each feature's round trip also carries, every run, beside those hypothesis draws:
#: two drawn examples a pair start from the smallest ({} for a map, a tree without children),
#: which leave an encoding's inside untried. Each is valid under the feature's schemas (the
#: tool's and the output's: the same schema where the feature has both).
EXAMPLES: dict[str, tuple[Any, ...]] = {
    "map": (_v({"a": "1", "b": "2"}),),
    "map_of_any": (_v({"a": 1, "b": [True, None], "c": {"d": "e"}}),),
    "map_bounds": (_v({"a": 1, "b": 2, "c": 3}),),
    "pattern_map": (_v({"ab": 1, "cd": 2}),),
    "property_names_map": (_v({"A_B": "x", "C": "y"}),),
    "open_object_extras": (_v({"name": "n", "extra": 1, "more": 2}), _v({"name": "n"})),
    "any_value": (_v(1), _v("s"), _v(None), _v([1, {"a": True}]), _v({"k": 1.5})),
    "any_value_described": (_v(0), _v({"a": []}), _v(None)),
    "any_value_empty_properties": (_v(3), _v("s"), _v(None), _v({"a": 1})),
    "array_without_items": (_v([1, "a", None, {"b": False}]),),
    "tuple": (_v([1.5, "a"]),),
    "tuple_shorter": (_v([1]), _v([1, "a"]), _v([1, "a", True])),
    "recursion": (
        {"tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}},
    ),
    "optional_nullable": (_v(None), _v("s"), {"id": "x"}),
    "optional_default_null": (_v(None), _v("s"), {"id": "x"}),
    "member_of_no_one_type": (_v(0), _v("0")),
    "integer_enum": (_v(2),),
    "string_enum": (_v("Inactive"),),
    "member_names": (_v({"filter[id]": "x", "a b": 2}), _v({"filter[id]": "y"})),
    "output_root_array": (["a", "b"], []),
    "output_root_string": ("text",),
    "ref_with_siblings": (_v("Ana"),),
    "one_element_all_of": (_v("s"),),
    "one_of": (_v(7), _v("s")),
    "type_list": (_v(7), _v("7")),
    "nullable_enum_type_list": (_v(None), _v("inactive")),
    "const": (_v("fixed"),),
    "enum_without_type": (_v("green"),),
    "dropped_string_lengths": (_v("abcde"),),
    "dropped_unique_items": (_v([1, 2, 3]),),
    "dropped_formats": ({f: v[-1] for f, v in _FORMATS.items()},),
    "optionals_over_cap": ({"o00": "a", "o24": "y", "o25": "z"}, {}),
    "optional_without_null": (_v("s"), {"id": "x"}),
    "nested_empty_object": (_v({}),),
    "nullable_object_without_properties": (_v(None), _v({"a": 1})),
    "id_defs_ref_optional": (_v({"a": "s"}), {"id": "x"}),
    "one_branch_any_of_beside_properties": (_v({"a": "s", "b": 1}),),
    "all_of_disjoint_objects": (_v({"a": "s", "b": 1}),),
    "all_of_string_min_length": (_v("abcdef"),),
    "array_const": (_v([1, 2, 3]),),
    "root_map": ({"a": 1, "b": 2},),
}
