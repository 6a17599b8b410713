"""The Gemini projection in both dialects, rule by rule (issue 9, item 5, projection side).

Every case goes through the real loading path (a one-tool design in ``tools/t.json`` with
``[providers.gemini] dialect`` in toolgen.toml), so diagnostics carry the file, the pointer, the
provider and a stable code. Every accepted projection also passes the independent Gemini checker
(tests/gemini_checker.py), written from ../shared/PROVIDERS.md alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_design
from tests.gemini_checker import violations
from toolgen.build import analyze, build
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.providers import BUILT_BY_DEFAULT, PROFILES
from toolgen.schema.names import provider_name

S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741 - the integer schema, beside S


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> Any:
    node: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        node["required"] = required
    return {**node, **extra}


def closed(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> Any:
    """The JSON Schema dialect's object: closed, optional members left optional."""
    node = obj(properties, required)
    return {**node, "additionalProperties": False, **extra}


def wire_obj(properties: dict[str, Any], required: list[str] | None = None) -> Any:
    """The OpenAPI dialect's object: no additionalProperties, upper-case type."""
    node: dict[str, Any] = {"type": "OBJECT", "properties": properties}
    if required is not None:
        node["required"] = required
    return node


NODE = {"$defs": {"Node": obj({"label": S, "next": {"$ref": "#/$defs/Node"}}, ["label"])}}
NODE_REQUIRED_NEXT = {
    "$defs": {"Node": obj({"label": S, "next": {"$ref": "#/$defs/Node"}}, ["label", "next"])}
}
SEVERAL_TYPES = {"type": ["string", "number", "null"], "description": "d", "maximum": 9}
ADDRESS = {"$defs": {"Address": obj({"city": S}, ["city"])}}
NULL = {"type": "null"}


@pytest.fixture
def project(tmp_path: Path) -> Callable[..., tuple[Any, Any, list[Any]]]:
    """``project(parameters, dialect)``: (wire schema or None, the projected contract, every
    diagnostic) for a one-tool design."""
    counter = iter(range(1_000_000))

    def run(parameters: Any, dialect: str, name: str = "t") -> tuple[Any, Any, list[Any]]:
        root = write_design(
            tmp_path / f"design{next(counter)}",
            {
                "toolgen.toml": f'[providers.gemini]\ndialect = "{dialect}"\n',
                "tools/t.json": {"name": name, "description": "A tool.", "parameters": parameters},
            },
        )
        result = analyze(root, ("gemini",))
        if not result.projections or not result.projections[0].tools:
            return None, None, list(result.diagnostics)
        projected = result.projections[0].tools[0]
        return projected.schema, projected, list(result.diagnostics)

    return run


def errors(diagnostics: list[Any]) -> list[tuple[str, str]]:
    return [(d.code, d.pointer) for d in diagnostics if d.level == "error"]


# -- accepted: the exact wire form ---------------------------------------------------------------

JSON_SCHEMA_ACCEPTED: dict[str, tuple[Any, Any]] = {
    "optional members stay optional, objects closed": (
        obj({"a": S, "b": I}, ["a"]),
        closed({"a": S, "b": I}, ["a"]),
    ),
    "a type list with null is split into anyOf": (
        obj({"n": {"type": ["string", "null"]}}),
        closed({"n": {"anyOf": [S, {"type": "null"}]}}),
    ),
    "an enum of a type list with null keeps its values in the split branch": (
        obj({"e": {"type": ["string", "null"], "enum": ["active", "inactive", None]}}),
        closed({"e": {"anyOf": [{"type": "string", "enum": ["active", "inactive"]}, NULL]}}),
    ),
    "an enum of several types keeps each type's values in its branch": (
        obj({"e": {"type": ["string", "integer", "null"], "enum": ["a", 3, None]}}),
        closed(
            {
                "e": {
                    "anyOf": [
                        {"type": "string", "enum": ["a"]},
                        {"type": "integer", "enum": [3]},
                        NULL,
                    ]
                }
            }
        ),
    ),
    "a type list of several types is split into one branch per type": (
        obj({"t": SEVERAL_TYPES}),
        closed(
            {
                "t": {
                    "description": "d",
                    "anyOf": [S, {"type": "number", "maximum": 9}, {"type": "null"}],
                }
            }
        ),
    ),
    "const becomes a one-value enum": (
        obj({"c": {"type": "string", "const": "x"}}),
        closed({"c": {"type": "string", "enum": ["x"]}}),
    ),
    "numbers stay in enums": (
        obj({"e": {"type": "integer", "enum": [1, 2]}}),
        closed({"e": {"type": "integer", "enum": [1, 2]}}),
    ),
    "keywords off the whitelist are dropped, date-time kept": (
        obj(
            {
                "s": {"type": "string", "minLength": 1, "pattern": "^a", "format": "email"},
                "d": {"type": "string", "format": "date-time", "default": "x"},
                "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 5, "multipleOf": 0.5},
            }
        ),
        closed(
            {
                "s": S,
                "d": {"type": "string", "format": "date-time"},
                "n": {"type": "number", "minimum": 0},
            }
        ),
    ),
    "oneOf is folded into anyOf": (
        obj({"u": {"oneOf": [S, I]}}),
        closed({"u": {"anyOf": [S, I]}}),
    ),
    "a bare $ref is kept with its $defs": (
        {**obj({"a": {"$ref": "#/$defs/Address"}}), **ADDRESS},
        {
            **closed({"a": {"$ref": "#/$defs/Address"}}),
            "$defs": {"Address": closed({"city": S}, ["city"])},
        },
    ),
    "a $ref with a sibling that is no $-keyword is inlined": (
        {**obj({"a": {"$ref": "#/$defs/Address", "description": "d"}}), **ADDRESS},
        closed({"a": closed({"city": S}, ["city"], description="d")}),  # Address: not sent
    ),
    "a reference into definitions (a container Gemini does not take) is inlined": (
        {**obj({"a": {"$ref": "#/definitions/A"}}), "definitions": {"A": obj({"x": S})}},
        closed({"a": closed({"x": S})}),
    ),
    "recursion under an optional member is kept": (
        {**obj({"root": {"$ref": "#/$defs/Node"}}, ["root"]), **NODE},
        {
            **closed({"root": {"$ref": "#/$defs/Node"}}, ["root"]),
            "$defs": {"Node": closed({"label": S, "next": {"$ref": "#/$defs/Node"}}, ["label"])},
        },
    ),
}

OPENAPI_ACCEPTED: dict[str, tuple[Any, Any]] = {
    "upper-case types, no additionalProperties, optional members stay optional": (
        obj({"a": S, "b": I}, ["a"]),
        wire_obj({"a": {"type": "STRING"}, "b": {"type": "INTEGER"}}, ["a"]),
    ),
    "a type list with null is nullable": (
        obj({"n": {"type": ["string", "null"]}}),
        wire_obj({"n": {"type": "STRING", "nullable": True}}),
    ),
    "a type list of several types is a nullable anyOf of one branch per type": (
        obj({"t": SEVERAL_TYPES}),
        wire_obj(
            {
                "t": {
                    "description": "d",
                    "anyOf": [{"type": "STRING"}, {"type": "NUMBER", "maximum": 9}],
                    "nullable": True,
                }
            }
        ),
    ),
    "a null branch beside one branch is nullable": (
        obj({"o": {"anyOf": [obj({"x": S}), {"type": "null"}], "description": "d"}}),
        wire_obj(
            {
                "o": {
                    "type": "OBJECT",
                    "properties": {"x": {"type": "STRING"}},
                    "description": "d",
                    "nullable": True,
                }
            }
        ),
    ),
    "a null branch beside several branches is nullable": (
        obj({"u": {"anyOf": [S, I, {"type": "null"}]}}),
        wire_obj({"u": {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}], "nullable": True}}),
    ),
    "an enum with null is nullable": (
        obj({"e": {"type": ["string", "null"], "enum": ["a", None]}}),
        wire_obj({"e": {"type": "STRING", "enum": ["a"], "nullable": True}}),
    ),
    "const becomes a one-value enum": (
        obj({"c": {"type": "string", "const": "x"}}),
        wire_obj({"c": {"type": "STRING", "enum": ["x"]}}),
    ),
    "a number const becomes a string enum": (
        obj({"c": {"const": 3}}),
        wire_obj({"c": {"type": "STRING", "enum": ["3"]}}),
    ),
    "an integer enum becomes a string enum (its bounds go)": (
        obj({"e": {"type": "integer", "enum": [1, 2], "minimum": 0}}),
        wire_obj({"e": {"type": "STRING", "enum": ["1", "2"]}}),
    ),
    "booleans and null in an enum": (
        obj({"e": {"enum": [True, False, None]}}),
        wire_obj({"e": {"type": "STRING", "enum": ["true", "false"], "nullable": True}}),
    ),
    "an untyped string enum is written on a STRING": (
        obj({"k": {"const": "a"}}),
        wire_obj({"k": {"type": "STRING", "enum": ["a"]}}),
    ),
    "string enums inside a union are fine (nothing to read back)": (
        obj({"u": {"anyOf": [obj({"k": {"const": "a"}}), obj({"k": {"const": "b"}})]}}),
        wire_obj(
            {
                "u": {
                    "anyOf": [
                        wire_obj({"k": {"type": "STRING", "enum": ["a"]}}),
                        wire_obj({"k": {"type": "STRING", "enum": ["b"]}}),
                    ]
                }
            }
        ),
    ),
    "references are inlined and $defs go": (
        {**obj({"a": {"$ref": "#/$defs/Address"}}), **ADDRESS},
        wire_obj({"a": wire_obj({"city": {"type": "STRING"}}, ["city"])}),
    ),
    "exclusive bounds and const-less keywords off the list are dropped": (
        obj({"n": {"type": "number", "exclusiveMinimum": 0, "maximum": 9, "multipleOf": 3}}),
        wire_obj({"n": {"type": "NUMBER", "maximum": 9}}),
    ),
    "a reference that closes a cycle is written as JSON text (no references to recurse with)": (
        {**obj({"root": {"$ref": "#/$defs/Node"}}), **NODE},
        wire_obj(
            {
                "root": wire_obj(
                    {
                        "label": {"type": "STRING"},
                        "next": {
                            "type": "STRING",
                            "description": "a value of the shape of Node, written as JSON text",
                        },
                    },
                    ["label"],
                )
            }
        ),
    ),
}


@pytest.mark.parametrize(
    "canonical, expected", JSON_SCHEMA_ACCEPTED.values(), ids=JSON_SCHEMA_ACCEPTED.keys()
)
def test_json_schema_dialect(project, canonical, expected):
    wire, projected, diagnostics = project(canonical, "json_schema")
    assert errors(diagnostics) == []
    assert wire == expected
    assert projected.meaning is wire  # JSON Schema on the wire: nothing respelled
    assert violations(wire, "json_schema", name="t") == []


@pytest.mark.parametrize(
    "canonical, expected", OPENAPI_ACCEPTED.values(), ids=OPENAPI_ACCEPTED.keys()
)
def test_openapi_dialect(project, canonical, expected):
    wire, _, diagnostics = project(canonical, "openapi")
    assert errors(diagnostics) == []
    assert wire == expected
    assert violations(wire, "openapi", name="t") == []


def test_the_default_dialect_is_json_schema(make_design, tool):
    root = make_design({"tools/t.yaml": tool("t", obj({"n": {"type": ["string", "null"]}}))})
    projected = analyze(root, ("gemini",)).projections[0].tools[0]
    assert projected.schema == closed({"n": {"anyOf": [S, {"type": "null"}]}})


# -- the inverse of the OpenAPI dialect's enum texts ---------------------------------------------


def test_enum_texts_come_back_as_the_canonical_values(project):
    canonical = obj(
        {
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "ratio": {"enum": [0.5, 1.5, None]},
            "flag": {"const": True},
            "name": {"enum": ["1", "two"]},
        },
        ["level"],
    )
    _, projected, diagnostics = project(canonical, "openapi")
    assert errors(diagnostics) == []
    payload = {"level": "2", "ratio": "1.5", "flag": "true", "name": "1"}
    assert reference_inverse(payload, projected) == {
        "level": 2,
        "ratio": 1.5,
        "flag": True,
        "name": "1",
    }
    assert reference_inverse({"level": "3", "ratio": None}, projected) == {
        "level": 3,
        "ratio": None,
    }
    canonical_payload = {"level": 1, "flag": True}
    assert reference_inverse(canonical_payload, projected) is canonical_payload


@pytest.mark.parametrize("dialect", ["json_schema", "openapi"])
def test_an_enum_of_arrays_or_objects_is_the_json_text_of_its_values(project, dialect):
    """Gemini's enums hold strings (and numbers): ``const: [1, 2, 3]`` is a one-value string
    enum of its JSON text, which the model writes and the inverse parses (EnumAsJsonText)."""
    canonical = obj(
        {"c": {"const": [1, 2, 3]}, "e": {"enum": [{"a": 1}, ["x"], None], "description": "d"}},
        ["c"],
    )
    wire, projected, diagnostics = project(canonical, dialect)
    assert errors(diagnostics) == []
    string = "string" if dialect == "json_schema" else "STRING"
    assert wire["properties"]["c"] == {"type": string, "enum": ["[1, 2, 3]"]}
    assert wire["properties"]["e"] == {
        "description": "d",
        "type": string,
        "enum": ['{"a": 1}', '["x"]', "null"],
    }
    assert violations(wire, dialect, name="t") == []
    payload = {"c": "[1, 2, 3]", "e": '{"a": 1}'}
    assert reference_inverse(payload, projected) == {"c": [1, 2, 3], "e": {"a": 1}}
    assert reference_inverse({"c": "[1, 2, 3]", "e": "null"}, projected) == {
        "c": [1, 2, 3],
        "e": None,
    }


# -- rejected: the code and the pointer ------------------------------------------------------

BOTH = ("json_schema", "openapi")

REJECTED: dict[str, tuple[tuple[str, ...], Any, list[tuple[str, str]]]] = {
    "a cycle through required members only": (
        ("json_schema",),
        {**obj({"root": {"$ref": "#/$defs/Node"}}), **NODE_REQUIRED_NEXT},
        [("RECURSION_THROUGH_REQUIRED", "/parameters/$defs/Node/properties/next/$ref")],
    ),
    "recursion through definitions (inlined, so it never ends)": (
        ("json_schema",),
        {
            **obj({"root": {"$ref": "#/definitions/Node"}}),
            "definitions": {"Node": obj({"next": {"$ref": "#/definitions/Node"}})},
        },
        [("UNSUPPORTED_RECURSION", "/parameters/definitions/Node/properties/next/$ref")],
    ),
    "recursion inside a union (its JSON text could be the other branch's string)": (
        ("openapi",),
        {
            **obj({"root": {"$ref": "#/$defs/Node"}}),
            "$defs": {"Node": obj({"label": S, "next": {"anyOf": [{"$ref": "#/$defs/Node"}, S]}})},
        },
        [("UNSUPPORTED_RECURSION", "/parameters/$defs/Node/properties/next/anyOf/0/$ref")],
    ),
    "not": (BOTH, obj({"x": {"not": S}}), [("UNSUPPORTED_NOT", "/parameters/properties/x/not")]),
    "a tuple": (
        BOTH,
        obj({"x": {"type": "array", "prefixItems": [S]}}),
        [("UNSUPPORTED_TUPLE", "/parameters/properties/x/prefixItems")],
    ),
    "two enum values with one text": (
        ("openapi",),
        obj({"e": {"enum": [1, "1"]}}),
        [("ENUM_NOT_TEXT", "/parameters/properties/e/enum")],
    ),
    "an array const inside a union (its JSON text could be the other branch's string)": (
        BOTH,
        obj({"u": {"anyOf": [{"const": [1, 2]}, S]}}),
        [("ENUM_TEXT_IN_UNION", "/parameters/properties/u/anyOf/0/const")],
    ),
    "an enum text inside a union": (
        ("openapi",),
        obj({"u": {"anyOf": [{"type": "integer", "enum": [1]}, S]}}),
        [("ENUM_TEXT_IN_UNION", "/parameters/properties/u/anyOf/0/enum")],
    ),
    "a non-object root": (BOTH, S, [("NON_OBJECT_ROOT", "/parameters/type")]),
}


@pytest.mark.parametrize("dialects, canonical, expected", REJECTED.values(), ids=REJECTED.keys())
def test_rejection(project, dialects, canonical, expected):
    for dialect in dialects:
        wire, _, diagnostics = project(canonical, dialect)
        assert wire is None, dialect
        assert errors(diagnostics) == expected, dialect
        assert {d.provider for d in diagnostics if d.level == "error"} == {"gemini"}


# -- the checker is no rubber stamp ------------------------------------------------------------


@pytest.mark.parametrize(
    "dialect, schema, rule",
    [
        ("openapi", {"type": "OBJECT", "properties": {"a": {"type": ["STRING", "NULL"]}}}, "type"),
        ("openapi", {"type": "OBJECT", "additionalProperties": False}, "keyword"),
        ("openapi", {"type": "OBJECT", "properties": {"a": {"type": "INTEGER", "enum": [1]}}}, "enum"),
        ("openapi", {"type": "object"}, "root"),
        ("json_schema", {"type": "object", "properties": {"a": {"const": "x"}}}, "keyword"),
        ("json_schema", {**obj({"a": {"$ref": "#/$defs/A", "title": "t"}}), "$defs": {"A": S}}, "ref-siblings"),
        ("json_schema", {**NODE_REQUIRED_NEXT, **obj({"r": {"$ref": "#/$defs/Node"}})}, "cycle"),
        ("json_schema", {"type": "object", "properties": {"a": {"enum": [True]}}}, "enum"),
        ("json_schema", {"type": "object", "properties": {"a": {"type": "string", "format": "email"}}}, "format"),
    ],
)  # fmt: skip
def test_the_checker_refuses(dialect, schema, rule):
    assert rule in {found[1] for found in violations(schema, dialect)}


# -- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "canonical, wire",
    [("crm.upsert_contact", "crm.upsert_contact"), ("ns:tool-v1", "ns:tool-v1"),
     ("1st tool", "_1st_tool"), ("a/b c", "a_b_c"), ("x" * 70, None)],
)  # fmt: skip
def test_names(canonical, wire):
    name = provider_name(canonical, PROFILES["gemini"].names)
    assert PROFILES["gemini"].names.is_valid(name)
    assert violations({"type": "object"}, "json_schema", name=name) == []
    if wire is not None:
        assert name == wire
    else:
        assert len(name) == 64


# -- configuration and building ------------------------------------------------------------------


@pytest.mark.parametrize(
    "provider, dialect, expected",
    [
        ("gemini", "openapi3", [("INVALID_CONFIG", "/providers/gemini/dialect")]),
        ("gemini", 3, [("INVALID_CONFIG", "/providers/gemini/dialect")]),
        ("openai", "openapi", [("UNKNOWN_FIELD", "/providers/openai/dialect")]),  # no dialects
        ("gemini", "openapi", []),
    ],
)
def test_the_dialect_setting(make_design, tool, provider, dialect, expected):
    toml = f"[providers.{provider}]\ndialect = {json.dumps(dialect)}\n"
    root = make_design(
        {"toolgen.toml": toml, "tools/t.yaml": tool("t", obj({}, additionalProperties=False))}
    )
    result = analyze(root, (provider,))
    assert [(d.code, d.pointer) for d in result.diagnostics] == expected


def test_gemini_is_built_by_default_with_its_module(make_design, tool):
    """The default build writes the Gemini module (and its stub of types) beside the projected
    schemas; the OpenAPI dialect adds its own canonicalizers only when an enum goes out as text."""
    assert "gemini" in BUILT_BY_DEFAULT
    root = make_design({"tools/t.yaml": tool("crm.find", obj({"q": S}, ["q"]))})
    default = build(root)
    assert default.ok, default.diagnostics
    gemini = sorted(path for path in default.files if "gemini" in path or "generate" in path)
    assert gemini == [
        "_envelopes_gemini.py",
        "_generate_content.py",
        "_tables_gemini.py",
        "_types_gemini.pyi",
        "gemini.py",
        "schemas/gemini/names.json",
        "schemas/gemini/tools/crm.find.json",
        "testing/_plans_gemini.py",
        "testing/gemini.py",
    ]
    openapi = '[providers.gemini]\ndialect = "openapi"\n'
    strings_only = build(make_design({"toolgen.toml": openapi}), ("gemini",))
    assert strings_only.ok and "_canonical_gemini.py" not in strings_only.files
    texts = tool("v", obj({"n": {"type": "integer", "enum": [1, 2]}}, ["n"]))
    with_texts = build(make_design({"tools/v.yaml": texts}), ("gemini",))
    assert with_texts.ok and "_canonical_gemini.py" in with_texts.files
    assert "_canonical_support.py" in with_texts.files  # the helpers its canonicalizers import


def test_show_prints_the_wire_form_of_the_dialect(make_design, tool):
    from click.testing import CliRunner

    from toolgen.cli import main

    root = make_design(
        {
            "toolgen.toml": '[providers.gemini]\ndialect = "openapi"\n',
            "tools/t.yaml": tool("t", obj({"n": {"type": ["integer", "null"]}})),
        }
    )
    result = CliRunner().invoke(main, ["show", str(root), "t", "--provider", "gemini"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == wire_obj({"n": {"type": "INTEGER", "nullable": True}})


# -- the OpenAPI spelling says what the JSON Schema says -----------------------------------------


def _open(schema: Any) -> Any:
    """``schema`` without additionalProperties (the one thing the OpenAPI spelling leaves out)."""
    from tests.canonical.support import transform

    return transform(schema, lambda n: {k: v for k, v in n.items() if k != "additionalProperties"})


@pytest.fixture(scope="module")
def openapi_hard_cases(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    from tests.canonical import hard_cases
    from tests.canonical.conftest import write_files
    from tests.canonical.support import load_and_project

    root = write_files(tmp_path_factory.mktemp("hard") / "design", hard_cases.design_files())
    _, projection = load_and_project(root, "gemini", "openapi")
    return [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]


def _agree(one: Any, two: Any) -> None:
    """Instances of either schema are valid under both or under neither."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from jsonschema import Draft202012Validator

    from tests.canonical.support import PROPERTY, instances

    first, second = Draft202012Validator(one), Draft202012Validator(two)

    @settings(PROPERTY, max_examples=3)
    @given(st.data())
    def agree(data: st.DataObject) -> None:
        for schema in (one, two):
            value = data.draw(instances(schema))
            assert first.is_valid(value) == second.is_valid(value), value

    agree()


def test_the_openapi_spelling_reads_back_as_the_projection(openapi_hard_cases):
    """toolgen import's reader of the OpenAPI dialect (written apart from the projection) reads
    every written hard case back into a schema that admits the same values as the projection's
    JSON Schema without additionalProperties, on both sides' instances."""
    from toolgen.formats.gemini_tools import openapi_to_json_schema

    assert len(openapi_hard_cases) > 10
    for projected in openapi_hard_cases:
        read_back, _ = openapi_to_json_schema(projected.schema, "")
        assert violations(projected.schema, "openapi") == [], projected.contract.name
        _agree(_open(projected.meaning), read_back)
