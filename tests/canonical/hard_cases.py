"""Hand-written hard cases for the inverse: one design folder, one tool (or output) per case."""

from __future__ import annotations

from typing import Any

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NUM: dict[str, Any] = {"type": "number"}


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return {**schema, **extra}


TOOLS: dict[str, dict[str, Any]] = {
    "nested.optional_objects": obj(
        {
            "a": obj({"b": obj({"c": STR, "d": INT}, ["c"]), "e": STR}),
            "f": STR,
        },
        ["f"],
    ),
    "optional.arrays_of_optional_objects": obj(
        {
            "rows": {
                "type": "array",
                "items": obj({"x": INT, "y": {"type": "array", "items": obj({"z": STR})}}, ["x"]),
            },
            "matrix": {"type": "array", "items": {"type": "array", "items": obj({"v": NUM})}},
        }
    ),
    "optional.refs": obj(
        {
            "home": {"$ref": "#/$defs/Place"},
            "work": {"$ref": "../defs/place.yaml#/$defs/SharedPlace"},
            "labelled": {"$ref": "#/$defs/Place", "description": "a $ref with a sibling (inlined)"},
            "wrapped": {"allOf": [{"$ref": "#/$defs/Place"}], "description": "one-element allOf"},
        },
        [],
        **{"$defs": {"Place": obj({"city": STR, "zip": STR}, ["city"])}},
    ),
    "optional.const": obj(
        {
            "mode": {"const": "fast"},
            "answer": {"const": 42},
            "flag": {"const": True},
            "obj_const": {"const": {"k": None}},
            "kind": {"const": "x"},
            "array_const": {"const": [1, 2, 3]},
            "typed_array_const": {"type": "array", "const": ["a"]},
            "arrays": {"enum": [[1], ["a", None], None]},
        },
        ["kind", "array_const"],
    ),
    "enums": obj(
        {
            "plain": {"enum": ["a", "b"]},
            "typed": {"type": "string", "enum": ["a", "b"]},
            "with_null": {"enum": ["a", None]},
            "required_with_null": {"enum": ["a", None]},
            "mixed": {"enum": [1, "1", True, None, 1.5]},
        },
        ["required_with_null"],
    ),
    # numbers, booleans and null in enums and consts, through refs, arrays and a nullable union
    # (the OpenAPI dialect writes them as texts the inverse reads back)
    "enums.texts": {
        **obj(
            {
                "level": {"type": "integer", "enum": [1, 2, 3]},
                "ratio": {"type": ["number", "null"], "enum": [0.5, 1.5, None]},
                "answer": {"const": 42},
                "flag": {"type": "boolean", "const": True},
                "name": {"enum": ["1", "two", 3]},
                "levels": {"type": "array", "items": {"$ref": "#/$defs/Level"}},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Level"}, {"type": "null"}]},
            },
            ["level"],
        ),
        "$defs": {"Level": {"type": "integer", "enum": [10, 20]}},
    },
    "unions.shared_names": obj(
        {
            "filter": {
                "anyOf": [
                    obj({"field": STR, "equals": STR, "boost": NUM}, ["field", "equals"]),
                    obj(
                        {"field": STR, "gte": NUM, "boost": {"type": ["number", "null"]}},
                        ["field", "gte", "boost"],
                    ),
                ]
            },
            "choice": {
                "oneOf": [
                    obj({"kind": {"const": "a"}, "note": STR}, ["kind"]),
                    obj({"kind": {"const": "b"}, "note": STR, "extra": INT}, ["kind", "note"]),
                ]
            },
            "shape": {
                "anyOf": [
                    obj({"w": {"type": "integer", "minimum": 10}, "h": INT}, ["w"]),
                    obj({"w": {"type": "integer", "maximum": 9}, "h": STR}, ["w"]),
                    {
                        "type": "array",
                        "items": obj({"w": INT, "tag": {"type": "string", "pattern": "^t"}}),
                    },
                    STR,
                ]
            },
            "nested_union": {
                "anyOf": [
                    {"anyOf": [obj({"p": INT, "q": INT}, ["p"]), obj({"r": INT}, ["r"])]},
                    {"type": "integer", "multipleOf": 2},
                ]
            },
        }
    ),
    "all_of": obj(
        {
            "merged": {"allOf": [obj({"m": STR, "n": STR}, ["m"])], "description": "merged"},
        }
    ),
    # equivalent merges: an allOf of objects with disjoint members, of keywords that do not
    # conflict, and a union of one schema beside members
    "all_of.merged": obj(
        {
            "both": {"allOf": [obj({"a": STR}, ["a"]), obj({"b": INT}), {"required": ["b"]}]},
            "text": {"allOf": [STR, {"minLength": 2}]},
            "beside": {**obj({"x": STR}), "anyOf": [obj({"y": INT}, ["y"])]},
        },
        ["both"],
    ),
    "trees.recursive": obj(
        {
            "root": {"$ref": "#/$defs/Node"},
            "forest": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
        [],
        **{
            "$defs": {
                "Node": obj(
                    {
                        "label": STR,
                        "weight": NUM,
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                        "next": {"$ref": "#/$defs/Node"},
                        "other": {"$ref": "#/$defs/Other"},
                    },
                    ["label"],
                ),
                "Other": obj({"back": {"$ref": "#/$defs/Node"}, "tag": STR}),
            }
        },
    ),
    "trees.root_recursion": obj({"name": STR, "sub": {"$ref": "#"}}, ["name"]),
    "keyword_named": obj(
        {
            "type": STR,
            "properties": obj({"required": STR}),
            "$ref": STR,
            "default": INT,
            "anyOf": STR,
            "items": {"type": "array", "items": STR},
            "null": {"type": "null"},
            "None": STR,
            "class": STR,
            "def": obj({"value": STR}),
            "value": STR,
            "new_value": STR,
            "result": STR,
            "_ABSENT": STR,
            "json": STR,
            "re": STR,
            "isinstance": STR,
            "dict": STR,
            'with "quotes" and \\': STR,
            "": STR,
            "1st": STR,
        },
        ["type"],
    ),
    "unicode.名前": obj(
        {
            "名前": STR,
            "ñame": obj({"émoji🎉": STR}),
            "Ünïcode": {"type": "array", "items": STR},
        },
        ["名前"],
    ),
    "optional_nullable": obj(
        {
            "maybe": {"type": ["string", "null"]},
            "maybe_ref": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]},
            "required_null": {"type": ["integer", "null"]},
            "plain": STR,
        },
        ["required_null"],
        **{"$defs": {"P": obj({"q": STR})}},
    ),
    # pydantic's label: str | None = None: null is the default, so no box (DefaultNullRequired)
    "optional.default_null": obj(
        {
            "label": {"anyOf": [STR, {"type": "null"}], "default": None},
            "count": {"type": ["integer", "null"], "default": None, "title": "Count"},
            "ref": {"$ref": "#/$defs/L"},
            "boxed": {"type": ["string", "null"]},
            "plain": STR,
        },
        [],
        **{"$defs": {"L": {"anyOf": [INT, {"type": "null"}], "default": None}}},
    ),
    "numbers": obj(
        {
            "big": INT,
            "ratio": NUM,
            "bounded": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "banded": {
                "type": "integer",
                "anyOf": [{"type": "integer", "minimum": 5}, {"type": "integer", "maximum": 1}],
            },
        }
    ),
    # Over Anthropic's cap of 24 optional members (Bedrock keeps it): the last 4, in the order
    # of the projection's objects (inner's a, n and b, then tags), are written required and
    # nullable (OptionalsOverCap); inner's n accepts null, so it is boxed (NullableOptionalBoxed).
    "optional.over_cap": obj(
        {
            "id": STR,
            **{f"s{i}": STR for i in range(20)},
            "inner": obj({"a": STR, "n": {"type": ["string", "null"]}, "b": INT}),
            "count": INT,
            "when": {"type": "string", "format": "date"},
            "place": {"$ref": "#/$defs/Spot"},
            "tags": {"type": "array", "items": STR},
        },
        ["id"],
        **{"$defs": {"Spot": obj({"x": NUM}, ["x"], additionalProperties=False)}},
    ),
    "type_lists": obj(
        {
            "v": obj(
                {
                    "value": {"type": ["string", "number", "boolean"], "minLength": 1},
                    "either": {
                        "type": ["object", "array", "null"],
                        "properties": {"a": STR},
                        "items": obj({"b": INT}),
                    },
                    "count": {"type": ["integer", "string"], "minimum": 0},
                },
                ["value", "either"],
            )
        },
        ["v"],
    ),
    # Gemini's enums hold no null: the null goes to a branch of its own, the values stay
    "type_lists.nullable_enum": obj(
        {
            "status": {"type": ["string", "null"], "enum": ["active", "inactive", None]},
            "maybe": {"type": ["string", "null"], "enum": ["a", None]},
        },
        ["status"],
    ),
    # a root stays an object: a map there is written as its extra members (ExtraMembers)
    "encodings.root_map": {"type": "object", "additionalProperties": INT, "maxProperties": 4},
    "type_lists.enums": obj(
        {"v": obj({"choice": {"type": ["string", "integer"], "enum": ["a", "b", 3]}}, ["choice"])},
        ["v"],
    ),
}

OUTPUTS: dict[str, dict[str, Any]] = {
    "list.rows": {
        "type": "array",
        "items": {"$ref": "#/$defs/Row"},
        "$defs": {"Row": obj({"id": INT, "note": STR}, ["id"])},
    },
    "list.names": {"type": ["array", "string"], "items": STR},
    "triage.result": obj(
        {
            "severity": {"enum": ["low", "high"]},
            "labels": {"type": "array", "items": obj({"name": STR, "color": STR}, ["name"])},
            "owner": {"$ref": "../defs/place.yaml#/$defs/SharedPlace"},
        },
        ["severity"],
    ),
    "encodings.maps": obj(
        {
            "counts": {"type": "object", "additionalProperties": INT, "maxProperties": 5},
            "places": {"type": "object", "additionalProperties": obj({"city": STR}, ["city"])},
            "names": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
        },
        ["counts"],
    ),
    "encodings.open_objects": obj(
        {
            "labels": obj({"kind": STR}, ["kind"], additionalProperties=True),
            "scores": obj({"total": NUM}, additionalProperties=NUM),
        },
        ["labels"],
    ),
    "encodings.tuples": obj(
        {
            "point": {
                "type": "array",
                "prefixItems": [NUM, NUM],
                "minItems": 2,
                "maxItems": 2,
            },
            "range": {"type": "array", "prefixItems": [STR, INT, obj({"a": STR})], "items": False},
        },
        ["point"],
    ),
    "encodings.pattern_maps": obj(
        {
            "codes": {
                "type": "object",
                "patternProperties": {"^[a-z]+$": INT},
                "additionalProperties": False,
                "maxProperties": 3,
            },
        },
        ["codes"],
    ),
    "encodings.required_only": obj(
        {
            "population": {"type": "object", "required": ["adults", "children"]},
            "counts": {"type": "object", "required": ["a"], "additionalProperties": INT},
        },
        ["population"],
    ),
    # properties: {} declares no member: a map of any values, never closed to every member
    "encodings.empty_properties": obj(
        {
            "free": {"type": "object", "properties": {}},
            "maybe_free": {"type": "object", "properties": {}, "description": "d"},
        },
        ["free"],
    ),
    # a map in a type list is split into one branch per type: the map's is an array of entries
    "encodings.nullable_maps": obj(
        {
            "any": {"type": ["object", "null"]},
            "counts": {"type": ["null", "object"], "additionalProperties": INT},
            "or_text": {"type": ["object", "string"], "properties": {}},
        },
        ["any"],
    ),
    "encodings.any_values": obj(
        {
            "value": {"description": "any JSON value"},
            "maybe": {},
            "list": {"type": "array"},
            "either": {"anyOf": [INT, {"type": "array", "items": {}}]},
        },
        ["value"],
    ),
}

DEFS = {
    "$defs": {
        "SharedPlace": obj(
            {"street": STR, "country": {"type": "string", "pattern": "^[A-Z]{2}$"}}, ["street"]
        )
    }
}


def design_files() -> dict[str, Any]:
    files: dict[str, Any] = {"defs/place.yaml": DEFS}
    for index, (name, parameters) in enumerate(TOOLS.items()):
        files[f"tools/t{index:02d}.json"] = {
            "name": name,
            "description": "A hard case.",
            "parameters": parameters,
        }
    for index, (name, schema) in enumerate(OUTPUTS.items()):
        files[f"outputs/o{index:02d}.json"] = {
            "name": name,
            "description": "A hard case.",
            "schema": schema,
        }
    return files
