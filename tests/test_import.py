"""``toolgen import``: formats read, what strict mode added undone, files written safely, and the
round trip: importing a build's provider output gives a design that projects to the same bytes."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.canonical.hard_cases import design_files as hard_case_files
from toolgen.build import analyze, build
from toolgen.commands.importing import ImportResult, file_stem, import_sources, write_tools
from toolgen.formats import IMPORT_FORMATS
from toolgen.formats.gemini_tools import openapi_to_json_schema
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.load.design import load_design
from toolgen.package.schema_texts import json_text as schema_json
from toolgen.providers import PROVIDER_NAMES, settings

# -- helpers --------------------------------------------------------------------------------------


def write_source(folder: Path, name: str, value: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(value, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def run_import(
    sources: list[Path], design: Path, *, forced: str | None = None, force: bool = False
) -> ImportResult:
    """Import and write, as the CLI does."""
    result = import_sources(
        [(p, str(p)) for p in sources], design, IMPORT_FORMATS, forced=forced, force=force
    )
    write_tools(design, result.tools)
    return result


def imported_parameters(design: Path) -> dict[str, Any]:
    """Canonical name -> parameters of every tool file in ``design``."""
    found = {}
    for path in sorted((design / "tools").iterdir()):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        found[document["name"]] = document["parameters"]
    return found


def codes(diagnostics: list[Diagnostic]) -> list[tuple[str, str]]:
    return sorted((d.pointer, d.code) for d in diagnostics)


def errors(diagnostics: list[Diagnostic]) -> list[tuple[str, str]]:
    return codes([d for d in diagnostics if d.level is Level.ERROR])


def strict_tool(parameters: dict[str, Any], name: str = "t") -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": "A tool.",
            "parameters": parameters,
            "strict": True,
        },
    }


def projected_files(design: Path, provider: str) -> dict[str, str]:
    """OUT/schemas/<provider>/tools/* as a build would write them, from the projection alone."""
    result = analyze(design, (provider,))
    errors = [d for d in result.diagnostics if d.level is Level.ERROR]
    assert not errors, errors
    return {
        f"{p.provider_name}.json": schema_json(p.schema)
        for p in result.projections[0].tools
        if p.schema is not None
    }


# -- round trip of a real build ---------------------------------------------------------------

#: (provider, API of tool_definitions) of every tool list toolgen generates.
WIRE_FORMS = [
    ("openai", "chat"),
    ("openai", "responses"),
    ("groq", None),
    ("cerebras", None),
    ("anthropic", None),
]


@pytest.fixture(scope="module")
def built_example(example_design, tmp_path_factory, suite_cache) -> Path:
    """The example design built for every provider; beside each provider's names.json the
    generated module's tool_definitions() are saved as JSON, as a user would save them."""
    root = tmp_path_factory.mktemp("built")
    result = build(example_design, PROVIDER_NAMES, cache_dir=suite_cache)
    assert result.ok, result.diagnostics
    package = root / "toolgen_import_example"
    for relative, text in result.files.items():
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        importlib.invalidate_caches()
        for provider, api in WIRE_FORMS:
            module = importlib.import_module(f"{package.name}.{provider}")
            if provider == "anthropic":  # one request takes 20 strict tools at most: one by one
                definitions = [d for name in module.TOOLS for d in module.tool_definitions([name])]
            else:
                definitions = module.tool_definitions(api=api) if api else module.tool_definitions()
            write_source(
                package / "schemas" / provider, f"definitions-{api or 'chat'}.json", definitions
            )
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith(package.name)]:
            del sys.modules[name]
    return package


@pytest.mark.parametrize(("provider", "api"), WIRE_FORMS)
def test_round_trip_of_the_example_build(built_example, example_design, tmp_path, provider, api):
    schemas = built_example / "schemas" / provider
    result = run_import([schemas / f"definitions-{api or 'chat'}.json"], tmp_path / "design")
    assert result.ok, result.diagnostics
    # names.json beside the source restored the canonical names and their files
    original, _ = load_design(example_design, settings())
    assert original is not None
    assert {t.name for t in result.tools} == {c.name for c in original.tools}
    assert {t.path for t in result.tools} == {f"tools/{c.name}.yaml" for c in original.tools}
    again, diagnostics = load_design(tmp_path / "design", settings())
    assert diagnostics == []
    assert again is not None
    descriptions = {c.name: c.description for c in original.tools}
    assert {c.name: c.description for c in again.tools} == descriptions
    expected = {p.name: p.read_text(encoding="utf-8") for p in (schemas / "tools").iterdir()}
    assert projected_files(tmp_path / "design", provider) == expected


# -- strict nulls ---------------------------------------------------------------------------------


def test_strict_nulls_become_optional_members(tmp_path):
    parameters = {
        "type": "object",
        "properties": {
            "q": {"type": "string"},
            "limit": {"type": ["integer", "null"], "minimum": 1},
            "mode": {"type": ["string", "null"], "enum": ["a", "b", None]},
            "where": {"anyOf": [{"$ref": "#/$defs/Place"}, {"type": "null"}]},
            "nothing": {"type": "null"},
        },
        "required": ["q", "limit", "mode", "where", "nothing"],
        "$defs": {
            "Place": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"type": ["string", "null"]}},
                "required": ["city", "zip"],
                "additionalProperties": False,
            }
        },
        "additionalProperties": False,
    }
    source = write_source(tmp_path, "tools.json", [strict_tool(parameters)])
    result = run_import([source], tmp_path / "design")
    assert result.ok
    assert imported_parameters(tmp_path / "design")["t"] == {
        "type": "object",
        "properties": {
            "q": {"type": "string"},
            "limit": {"type": "integer", "minimum": 1},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "where": {"$ref": "#/$defs/Place"},
            "nothing": {"type": "null"},
        },
        "required": ["q", "nothing"],
        "$defs": {
            "Place": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            }
        },
        "additionalProperties": False,
    }
    base = "/0/function/parameters"
    assert codes(result.diagnostics) == [
        (f"{base}/$defs/Place/properties/zip", "STRICT_NULL_UNDONE"),
        (f"{base}/properties/limit", "STRICT_NULL_UNDONE"),
        (f"{base}/properties/mode", "STRICT_NULL_UNDONE"),
        (f"{base}/properties/nothing", "STRICT_NULL_KEPT"),
        (f"{base}/properties/where", "STRICT_NULL_UNDONE"),
    ]
    assert all(d.level is Level.INFO and d.file == str(source) for d in result.diagnostics)
    assert all(d.provider == "openai-chat" for d in result.diagnostics)


def test_a_member_whose_null_strict_mode_did_not_add_stays_required(tmp_path):
    """A $ref to a definition that accepts null: strict mode would have kept it as it is, so it
    cannot be an optional member made nullable."""
    parameters = {
        "type": "object",
        "properties": {"note": {"$ref": "#/$defs/Note"}},
        "required": ["note"],
        "$defs": {"Note": {"type": ["string", "null"]}},
        "additionalProperties": False,
    }
    source = write_source(tmp_path, "tools.json", [strict_tool(parameters)])
    result = run_import([source], tmp_path / "design")
    assert imported_parameters(tmp_path / "design")["t"] == parameters
    assert codes(result.diagnostics) == [
        ("/0/function/parameters/properties/note", "STRICT_NULL_KEPT")
    ]


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"additionalProperties": True}, "/0/function/parameters"),
        ({"required": ["a", "b"]}, "/0/function/parameters"),  # c is optional
        ({"strict": False}, "/0/function/parameters"),
    ],
)
def test_no_strict_undo_unless_the_definition_is_strict_shaped(tmp_path, change, pointer):
    parameters = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": ["string", "null"]},
            "c": {"type": "string"},
        },
        "required": ["a", "b", "c"],
        "additionalProperties": False,
    }
    definition = strict_tool(parameters)
    if "strict" in change:
        definition["function"]["strict"] = False
    else:
        parameters.update(change)
    source = write_source(tmp_path, "tools.json", [definition])
    result = run_import([source], tmp_path / "design")
    assert imported_parameters(tmp_path / "design")["t"] == parameters  # nulls kept as written
    kept = [("/0", "STRICT_FALSE_KEPT")] if "strict" in change else []  # and the flag with them
    assert codes(result.diagnostics) == [*kept, (pointer, "NOT_STRICT")]


OPTIONAL_NULLABLE_PARAMETERS = {
    "type": "object",
    "properties": {
        "a": {"type": "string"},
        "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "c": {"type": ["integer", "null"]},
    },
    "required": ["a"],
}


def test_an_optional_member_that_accepts_null_is_unboxed(tmp_path, make_design, tool):
    """Canonically optional *and* nullable: strict mode sends it boxed (null, or {"value": X});
    the import reads the box back as the optional member X (and says so), so the imported design
    is the authored one (Cerebras splits the type list) and projects to the same strict schema."""
    authored = json.loads(json.dumps(OPTIONAL_NULLABLE_PARAMETERS))
    authored["properties"]["c"]["description"] = "null clears it"
    design = make_design({"tools/t.yaml": tool("t", authored)})
    for provider in ("openai", "cerebras"):
        result = analyze(design, (provider,))
        assert result.diagnostics == []
        schema = result.projections[0].tools[0].schema
        source = write_source(tmp_path / provider, "tools.json", [_definition(provider, schema)])
        imported = run_import([source], tmp_path / f"imported-{provider}")
        assert imported.ok
        parameters = imported_parameters(tmp_path / f"imported-{provider}")["t"]
        assert parameters["required"] == ["a"]
        assert parameters["properties"]["b"] == OPTIONAL_NULLABLE_PARAMETERS["properties"]["b"]
        c = (
            {"type": ["integer", "null"]}
            if provider == "openai"
            else {"anyOf": [{"type": "integer"}, {"type": "null"}]}
        )
        assert parameters["properties"]["c"] == {**c, "description": "null clears it"}
        unboxed = [p for p, code in codes(imported.diagnostics) if code == "STRICT_BOX_UNDONE"]
        assert [p.rsplit("/", 1)[1] for p in unboxed] == ["b", "c"]
        assert analyze(tmp_path / f"imported-{provider}", (provider,)).diagnostics == []
        assert projected_files(tmp_path / f"imported-{provider}", provider) == projected_files(
            design, provider
        )


def test_an_optional_member_that_accepts_null_kept_as_it_is(tmp_path, make_design, tool):
    """With ``optional_nullable = "keep"`` (OPTIONAL_NULLABLE): strict mode sends it as it is,
    like a required nullable member or an optional non-null one. The import reads it as the
    latter (and says so); the design it writes projects to the same strict schema, but without
    the warning, and its inverse now drops the null. The Anthropic output keeps the member as
    authored."""
    keep = '[providers.openai]\noptional_nullable = "keep"\n'
    keep += '[providers.cerebras]\noptional_nullable = "keep"\n'
    design = make_design(
        {"tools/t.yaml": tool("t", OPTIONAL_NULLABLE_PARAMETERS), "toolgen.toml": keep}
    )
    for provider in ("openai", "cerebras", "anthropic"):
        result = analyze(design, (provider,))
        schema = result.projections[0].tools[0].schema
        source = write_source(tmp_path / provider, "tools.json", [_definition(provider, schema)])
        imported = run_import([source], tmp_path / f"imported-{provider}")
        assert imported.ok
        parameters = imported_parameters(tmp_path / f"imported-{provider}")["t"]
        if provider == "anthropic":
            assert parameters == schema  # optional members stay optional, with their nulls
            assert codes(imported.diagnostics) == []
        else:
            assert parameters["required"] == ["a"]
            assert parameters["properties"]["c"] == {"type": "integer"}
            undone = [p for p, code in codes(imported.diagnostics) if code == "STRICT_NULL_UNDONE"]
            assert [p.rsplit("/", 1)[1] for p in undone] == ["b", "c"]
            assert [d.code for d in analyze(design, (provider,)).diagnostics] == [
                "OPTIONAL_NULLABLE",
                "OPTIONAL_NULLABLE",
            ]
            assert analyze(tmp_path / f"imported-{provider}", (provider,)).diagnostics == []
        assert projected_files(tmp_path / f"imported-{provider}", provider) == projected_files(
            design, provider
        )


def _definition(provider: str, schema: Any) -> dict[str, Any]:
    if provider == "anthropic":
        return {"name": "t", "description": "A tool.", "input_schema": schema, "strict": True}
    return strict_tool(schema)


# -- Gemini's legacy dialect ----------------------------------------------------------------------


def test_gemini_openapi_parameters_become_json_schema():
    schema = {
        "type": "OBJECT",
        "properties": {
            "city": {"type": "STRING", "description": "City.", "nullable": True},
            "days": {"type": "INTEGER", "enum": ["1", "3", "7"]},
            "ratio": {"type": "NUMBER", "enum": ["0.5", "2"], "nullable": False},
            "unit": {"type": "STRING", "format": "enum", "enum": ["c", "f"], "nullable": True},
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "example": ["a"]},
            "when": {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}], "nullable": True},
        },
        "required": ["city"],
        "propertyOrdering": ["city", "days", "ratio", "unit", "tags", "when"],
    }
    converted, findings = openapi_to_json_schema(schema, "/0/parameters")
    assert converted == {
        "type": "object",
        "properties": {
            "city": {"type": ["string", "null"], "description": "City."},
            "days": {"type": "integer", "enum": [1, 3, 7]},
            "ratio": {"type": "number", "enum": [0.5, 2]},
            "unit": {"type": ["string", "null"], "enum": ["c", "f", None]},
            "tags": {"type": "array", "items": {"type": "string"}, "examples": [["a"]]},
            "when": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
        },
        "required": ["city"],
    }
    assert codes(findings) == [
        ("/0/parameters", "OPENAPI_TYPE"),
        ("/0/parameters/properties/city/nullable", "OPENAPI_NULLABLE"),
        ("/0/parameters/properties/days/enum", "OPENAPI_ENUM"),
        ("/0/parameters/properties/ratio/enum", "OPENAPI_ENUM"),
        ("/0/parameters/properties/unit/format", "GEMINI_ONLY"),
        ("/0/parameters/properties/unit/nullable", "OPENAPI_NULLABLE"),
        ("/0/parameters/properties/when/nullable", "OPENAPI_NULLABLE"),
        ("/0/parameters/propertyOrdering", "GEMINI_ONLY"),
    ]
    assert "9 OpenAPI type name(s)" in findings[-1].message


def test_gemini_enum_text_that_is_no_number_is_a_warning():
    converted, findings = openapi_to_json_schema(
        {"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "enum": ["1", "x"]}}}, ""
    )
    assert converted["properties"]["n"] == {"type": "integer", "enum": ["1", "x"]}
    assert [(d.code, d.level) for d in findings if d.code != "OPENAPI_TYPE"] == [
        ("ENUM_NOT_NUMBERS", Level.WARNING)
    ]


# -- formats and detection ----------------------------------------------------------------------

PARAMETERS = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}

SOURCES: dict[str, Any] = {
    "openai-chat": {"model": "m", "tools": [strict_tool(PARAMETERS, "get_x")]},
    "openai-responses": [
        {"type": "web_search"},
        {"type": "function", "name": "get_x", "description": "A tool.", "parameters": PARAMETERS},
    ],
    "anthropic": [
        {"type": "web_search_20250305", "name": "web_search"},
        {"name": "get_x", "description": "A tool.", "input_schema": PARAMETERS},
    ],
    "mcp": {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "tools": [{"name": "get_x", "description": "A tool.", "inputSchema": PARAMETERS}]
        },
    },
    "gemini": {
        "tools": [
            {"googleSearch": {}},
            {
                "functionDeclarations": [
                    {"name": "get_x", "description": "A tool.", "parametersJsonSchema": PARAMETERS}
                ]
            },
        ]
    },
    "bedrock": {
        "toolConfig": {
            "tools": [
                {
                    "toolSpec": {
                        "name": "get_x",
                        "description": "A tool.",
                        "inputSchema": {"json": PARAMETERS},
                    }
                },
                {"cachePoint": {"type": "default"}},
            ]
        }
    },
}


@pytest.mark.parametrize("form", sorted(SOURCES))
def test_each_format_is_detected_and_read(tmp_path, form):
    source = write_source(tmp_path, "source.json", SOURCES[form])
    result = run_import([source], tmp_path / "design")
    assert result.ok
    assert {d.provider for d in result.diagnostics} <= {form}
    # not strict-shaped, but nothing nullable either: no decision to report
    assert {d.code for d in result.diagnostics} <= {"SKIPPED_TOOL"}
    assert [t.path for t in result.tools] == ["tools/get_x.yaml"]
    text = (tmp_path / "design" / "tools" / "get_x.yaml").read_text(encoding="utf-8")
    assert text == (
        "name: get_x\ndescription: A tool.\nparameters:\n  type: object\n  properties:\n"
        "    x:\n      type: string\n  required:\n  - x\n"
    )


def test_a_forced_format_that_does_not_fit_is_an_error(tmp_path):
    source = write_source(tmp_path, "source.json", SOURCES["anthropic"])
    result = run_import([source], tmp_path / "design", forced="mcp")
    assert codes(result.diagnostics) == [("", "NOT_THIS_FORMAT")]
    assert (
        not result.ok
        and not (tmp_path / "design" / "tools").exists()
        or not any((tmp_path / "design" / "tools").iterdir())
    )


def test_gemini_legacy_declarations_in_a_bare_list(tmp_path):
    source = write_source(
        tmp_path,
        "declarations.json",
        [
            {
                "name": "get_capital",
                "description": "Get the capital of a country.",
                "parameters": {
                    "type": "OBJECT",
                    "properties": {"country": {"type": "STRING", "nullable": True}},
                    "required": ["country"],
                },
            },
            {"name": "ping", "description": "No arguments."},
        ],
    )
    result = run_import([source], tmp_path / "design")
    assert result.ok
    assert imported_parameters(tmp_path / "design") == {
        "get_capital": {
            "type": "object",
            "properties": {"country": {"type": ["string", "null"]}},
            "required": ["country"],
        },
        "ping": {"type": "object", "properties": {}},
    }


def test_bfcl_type_names_become_json_schema_types(tmp_path):
    source = write_source(
        tmp_path,
        "bfcl.json",
        [
            {
                "name": "math.hypot",
                "description": "Hypotenuse.",
                "parameters": {
                    "type": "dict",
                    "properties": {
                        "sides": {"type": "tuple", "items": {"type": "float"}},
                        "extra": {"type": "any", "description": "Anything."},
                        "label": {"type": "String", "default": "h"},
                    },
                    "required": ["sides"],
                },
            }
        ],
    )
    result = run_import([source], tmp_path / "design")
    assert result.ok
    assert codes(result.diagnostics) == [("/0/parameters", "BFCL_TYPE")]
    assert "5 BFCL type name(s)" in result.diagnostics[0].message
    assert imported_parameters(tmp_path / "design")["math.hypot"] == {
        "type": "object",
        "properties": {
            "sides": {"type": "array", "items": {"type": "number"}},
            "extra": {"description": "Anything."},
            "label": {"type": "string", "default": "h"},
        },
        "required": ["sides"],
    }


# -- files: names, safety, overwriting ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("billing.refund", "billing.refund"),
        ("../../x", "_.._x"),
        ("..", "_"),
        ("a/b\\c:d", "a_b_c_d"),
        ("mcp__github__list", "mcp__github__list"),
        (".hidden", "hidden"),
    ],
)
def test_file_stems_stay_inside_the_tools_folder(name, stem):
    assert file_stem(name) == stem


def test_hostile_names_are_written_inside_the_design(tmp_path):
    tools = [
        {"name": n, "description": "", "input_schema": PARAMETERS}
        for n in ("../../escape", "/etc/passwd", "a/b", "a_b", "A_B")
    ]
    source = write_source(tmp_path, "tools.json", tools)
    result = run_import([source], tmp_path / "out" / "design")
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.yaml"))
    assert written == [
        "out/design/tools/_.._escape.yaml",
        "out/design/tools/_etc_passwd.yaml",
        "out/design/tools/a_b.yaml",
    ]
    assert imported_parameters(tmp_path / "out" / "design").keys() == {
        "../../escape",
        "/etc/passwd",
        "a/b",
    }
    # a_b and A_B map to a_b.yaml too (case-insensitive disks): errors, not overwrites
    assert codes(result.diagnostics) == [("/3", "DUPLICATE_FILE"), ("/4", "DUPLICATE_FILE")]
    _, diagnostics = load_design(tmp_path / "out" / "design", settings())
    assert diagnostics == []


def test_existing_files_are_kept_unless_forced(tmp_path):
    design = tmp_path / "design"
    (design / "tools").mkdir(parents=True)
    (design / "tools" / "get_x.yaml").write_text("# mine\n", encoding="utf-8")
    (design / "tools" / "other.json").write_text("{}", encoding="utf-8")
    source = write_source(tmp_path, "source.json", SOURCES["anthropic"])
    result = run_import([source], design)
    assert errors(result.diagnostics) == [("/1", "FILE_EXISTS")]
    assert (design / "tools" / "get_x.yaml").read_text(encoding="utf-8") == "# mine\n"
    result = run_import([source], design, force=True)
    assert result.ok
    assert "name: get_x" in (design / "tools" / "get_x.yaml").read_text(encoding="utf-8")
    assert (design / "tools" / "other.json").read_text(encoding="utf-8") == "{}"


def test_a_file_of_the_same_stem_and_another_suffix_blocks_even_with_force(tmp_path):
    design = tmp_path / "design"
    (design / "tools").mkdir(parents=True)
    (design / "tools" / "get_x.json").write_text("{}", encoding="utf-8")
    source = write_source(tmp_path, "source.json", SOURCES["anthropic"])
    result = run_import([source], design, force=True)
    assert errors(result.diagnostics) == [("/1", "FILE_EXISTS")]
    assert not (design / "tools" / "get_x.yaml").exists()


def test_output_is_deterministic_and_keeps_the_source_order(tmp_path):
    parameters = {
        "type": "object",
        "properties": {
            "zeta": {"type": "string"},
            "alpha": {"type": "integer"},
            "on": {"enum": ["yes", "no"]},
        },
        "required": ["zeta"],
    }
    tools = [
        {"name": "z", "description": "Last: " + "long words " * 20, "input_schema": parameters},
        {"name": "a", "input_schema": parameters},
    ]
    source = write_source(tmp_path, "tools.json", tools)
    run_import([source], tmp_path / "one")
    run_import([source], tmp_path / "two")
    one = {p.name: p.read_bytes() for p in (tmp_path / "one" / "tools").iterdir()}
    two = {p.name: p.read_bytes() for p in (tmp_path / "two" / "tools").iterdir()}
    assert one == two
    text = one["z.yaml"].decode()
    assert text.index("name:") < text.index("description:") < text.index("parameters:")
    assert text.index("\n    zeta:") < text.index("\n    alpha:") < text.index("\n    'on':")
    assert imported_parameters(tmp_path / "one")["z"] == parameters  # yes/no stay strings
    assert yaml.safe_load(one["a.yaml"])["description"] == ""


def test_a_tool_that_would_not_load_is_reported_and_the_others_written(tmp_path):
    tools = [
        {"name": "bad", "input_schema": {"type": "object", "properties": {"x": {"type": "dict"}}}},
        {"name": "good", "input_schema": PARAMETERS},
        {"name": "", "input_schema": PARAMETERS},
        {
            "name": "ref",
            "input_schema": {"type": "object", "properties": {"x": {"$ref": "#/nowhere"}}},
        },
    ]
    source = write_source(tmp_path, "tools.json", tools)
    result = run_import([source], tmp_path / "design")
    assert [t.name for t in result.tools] == ["good"]
    assert codes(result.diagnostics) == [
        ("/0/input_schema/properties/x/type", "INVALID_SCHEMA"),
        ("/2", "INVALID_NAME"),
        ("/3/input_schema/properties/x/$ref", "REF_NOT_FOUND"),
    ]
    assert all(d.level is Level.ERROR for d in result.diagnostics)


# -- the command line -----------------------------------------------------------------------------


def test_cli_exit_codes(cli, tmp_path):
    good = write_source(tmp_path, "good.json", SOURCES["mcp"])
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    unknown = write_source(tmp_path, "unknown.json", {"hello": "world"})

    result = cli("import", good, "-o", tmp_path / "design")
    assert result.exit_code == 0, result.stderr
    assert "imported 1 tool(s)" in result.stderr
    again = cli("import", good, "-o", tmp_path / "design")
    assert again.exit_code == 1
    assert "FILE_EXISTS" in again.stderr
    assert cli("import", good, "-o", tmp_path / "design", "--force").exit_code == 0

    for source, code in ((broken, "UNREADABLE_SOURCE"), (unknown, "UNKNOWN_FORMAT")):
        result = cli("import", source, good, "-o", tmp_path / "other")
        assert result.exit_code == 1
        assert f"{source}:: import: {code}" in result.stderr
        assert (tmp_path / "other" / "tools" / "get_x.yaml").is_file()  # the good source still is

    forced = cli("import", good, "-o", tmp_path / "third", "--format", "anthropic")
    assert forced.exit_code == 1 and "NOT_THIS_FORMAT" in forced.stderr

    assert cli("import", "-o", tmp_path / "design").exit_code == 2  # no SOURCE
    assert cli("import", tmp_path / "missing.json", "-o", tmp_path / "d").exit_code == 2
    assert cli("import", good).exit_code == 2  # no -o
    assert cli("import", good, "-o", tmp_path / "d", "--format", "xml").exit_code == 2
    assert cli("import", good, "-o", good).exit_code == 2  # DESIGN is a file


# -- the real-world corpus ------------------------------------------------------------------------

#: pydantic-ai's recorded wire format -> how a list of its raw tool objects is sent.
PYDANTIC_AI_WIRE: dict[str, Any] = {
    "openai-chat-function": lambda tools: {"model": "m", "tools": tools},
    "openai-responses-function": lambda tools: tools,
    "anthropic-tool": lambda tools: {"model": "m", "tools": tools},
    "gemini-functionDeclaration(parametersJsonSchema)": lambda tools: {
        "tools": [{"functionDeclarations": tools}]
    },
    "gemini-functionDeclaration(parameters)": lambda tools: [{"functionDeclarations": tools}],
    "bedrock-converse-toolSpec": lambda tools: {"toolConfig": {"tools": tools}},
}
BFCL_SAMPLE = 300


def corpus_lines(corpus: Path, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (corpus / "tools" / name).read_text("utf-8").splitlines()]


def in_rounds(tools: list[dict[str, Any]], name: Any) -> list[list[dict[str, Any]]]:
    """The corpus records one tool many times: the n-th record of each name goes to round n, so
    that no source holds a name twice (that is a DUPLICATE_FILE error, tested on its own)."""
    rounds: list[list[dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for tool in tools:
        index = seen[name(tool)] = seen.get(name(tool), -1) + 1
        if index == len(rounds):
            rounds.append([])
        rounds[index].append(tool)
    return rounds


def corpus_sources(corpus: Path) -> dict[str, Any]:
    """Source documents in each real wire format, from the corpus (file name -> document)."""
    sources: dict[str, Any] = {}
    recorded = corpus_lines(corpus, "pydantic_ai_request_tools.jsonl")
    for wire, send in PYDANTIC_AI_WIRE.items():
        raws = [r["raw"] for r in recorded if r["wire_format"] == wire]
        assert raws, wire
        name = (
            (lambda raw: raw["toolSpec"]["name"])
            if "bedrock" in wire
            else (lambda raw: raw.get("name") or raw["function"]["name"])
        )
        for index, tools in enumerate(in_rounds(raws, name)):
            sources[f"pydantic-ai-{wire}-{index}.json"] = send(tools)
    sdk = [r["raw"] for r in corpus_lines(corpus, "anthropic_sdk_request_tools.jsonl")]
    for index, tools in enumerate(in_rounds(sdk, lambda raw: raw["name"])):
        sources[f"anthropic-sdk-{index}.json"] = tools
    for server in ("mcp_github_mcp_server", "mcp_proxy_snapshots", "mcp_deepwiki"):
        records = corpus_lines(corpus, f"{server}.jsonl")
        for index, tools in enumerate(in_rounds(records, lambda r: r["name"])):
            listed = [
                {"name": r["name"], "description": r["description"], "inputSchema": r["parameters"]}
                for r in tools
            ]
            sources[f"{server}-{index}.json"] = {
                "jsonrpc": "2.0",
                "id": 2,
                "result": {"tools": listed},
            }
    # BFCL's function docs: bare declarations with Python and Java type names (dict, float ...)
    bfcl = corpus_lines(corpus, "bfcl_functions.jsonl")[:BFCL_SAMPLE]
    for index, tools in enumerate(in_rounds(bfcl, lambda r: r["name"])):
        sources[f"bfcl-{index}.json"] = [
            {"name": r["name"], "description": r["description"], "parameters": r["parameters"]}
            for r in tools
        ]
    return sources


@pytest.mark.corpus
def test_corpus_tool_lists_import_cleanly_or_say_why_per_tool(corpus_dir, tmp_path):
    imported: dict[str, int] = {}
    for file, document in corpus_sources(corpus_dir).items():
        source = write_source(tmp_path / "sources", file, document)
        design = tmp_path / "designs" / file.removesuffix(".json")
        result = run_import([source], design)
        # every tool entry is written, or skipped or refused with a diagnostic on it
        form = next(f for f in IMPORT_FORMATS if f.find(document) is not None)
        written = {t.source.rsplit(":", 1)[1] for t in result.tools}
        for pointer, _ in form.find(document) or []:
            reasons = [
                d
                for d in result.diagnostics
                if (d.pointer == pointer or d.pointer.startswith(pointer + "/"))
                and (d.level is Level.ERROR or d.code == "SKIPPED_TOOL")
            ]
            assert (pointer in written) != bool(reasons), (file, pointer, reasons)
        assert {d.file for d in result.diagnostics} <= {str(source)}
        if result.tools:
            _, diagnostics = load_design(design, settings())
            assert diagnostics == [], (file, diagnostics[:3])
        kind = file.rsplit("-", 1)[0].split("-", 1)[0]  # pydantic, anthropic, mcp_..., bfcl
        imported[kind] = imported.get(kind, 0) + len(result.tools)
    assert imported == {
        "pydantic": 251,  # every recorded tool but xAI's 13 (gRPC, no JSON wire format)
        "anthropic": 4,
        "mcp_github_mcp_server": 117,
        "mcp_proxy_snapshots": 83,
        "mcp_deepwiki": 3,
        "bfcl": BFCL_SAMPLE,
    }


def assert_round_trip(canonical: Path, provider: str, folder: Path) -> int:
    """``canonical`` projected for ``provider``, sent as that provider's tool list (the shape
    tool_definitions() writes, checked on the example build above) beside its names.json, and
    imported again: the new design projects to the same bytes. Returns how many tools were sent."""
    projection = analyze(canonical, (provider,)).projections[0]
    sent = [p for p in projection.tools if p.schema is not None]
    wire = [
        (
            {
                "name": p.provider_name,
                "description": p.contract.description,
                "input_schema": p.schema,
            }
            if provider == "anthropic"
            else strict_tool(p.schema, p.provider_name)
        )
        for p in sent
    ]
    source = write_source(folder / provider, "tools.json", wire)
    write_source(folder / provider, "names.json", {"tools": projection.name_map("tool")})
    result = run_import([source], folder / "imported")
    assert result.ok, [d for d in result.diagnostics if d.level is Level.ERROR]
    assert sorted(t.name for t in result.tools) == sorted(p.contract.name for p in sent)
    expected = {f"{p.provider_name}.json": schema_json(p.schema) for p in sent}
    assert projected_files(folder / "imported", provider) == expected
    return len(sent)


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_round_trip_of_the_hard_cases(make_design, tmp_path, provider):
    """The canonicalizer's hand-written hard cases: nested optionals, $refs with siblings, one-element
    allOf, const and enum members, unions, recursion, nullable members."""
    design = make_design(hard_case_files(), name="canonical")
    # cloudflare rejects top-level members without one JSON type (nullable ones, unions)
    assert assert_round_trip(design, provider, tmp_path) >= (7 if provider == "cloudflare" else 11)


@pytest.mark.corpus
@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_corpus_round_trip(corpus_dir, tmp_path, provider):
    """The GitHub MCP server's tools as a design, round-tripped through each provider."""
    records = corpus_lines(corpus_dir, "mcp_github_mcp_server.jsonl")
    listed = [
        {"name": r["name"], "description": r["description"], "inputSchema": r["parameters"]}
        for r in records
    ]
    canonical = tmp_path / "canonical"
    assert run_import([write_source(tmp_path, "mcp.json", {"tools": listed})], canonical).ok
    assert assert_round_trip(canonical, provider, tmp_path) > 100


HOSTILE: list[tuple[Any, list[tuple[str, str]]]] = [
    (
        [
            1,
            {"type": "function", "function": "text"},
            {"type": "function", "function": {"name": 5, "parameters": []}},
            {"type": "function", "function": {"name": "a", "parameters": {"properties": [1]}}},
        ],
        [
            ("/0", "SKIPPED_TOOL"),
            ("/1", "SKIPPED_TOOL"),
            ("/2", "INVALID_NAME"),
            ("/3/function/parameters/properties", "INVALID_SCHEMA"),
        ],
    ),
    (
        {"tools": [{"name": "m", "inputSchema": "{not json"}, {"inputSchema": {}}]},
        [("/tools/0/inputSchema", "INVALID_SCHEMA_TEXT"), ("/tools/1", "INVALID_NAME")],
    ),
    (
        {"toolConfig": {"tools": [{"toolSpec": {"name": "b"}}, {"toolSpec": 3}]}},
        [
            ("/toolConfig/tools/0/toolSpec", "MISSING_SCHEMA"),
            ("/toolConfig/tools/1", "SKIPPED_TOOL"),
        ],
    ),
    (
        [
            {"name": "a", "input_schema": True},
            {"name": " b", "input_schema": {}},
            {"name": "c", "input_schema": {"type": "object"}, "description": 7},
        ],
        [
            ("/0/input_schema", "NON_OBJECT_ROOT"),
            ("/1", "INVALID_NAME"),
            ("/2", "INVALID_DESCRIPTION"),
        ],
    ),
    (
        [
            strict_tool(
                {
                    "type": "object",
                    "properties": {
                        "x": {"type": ["null"]},
                        "y": {"anyOf": [{"type": "null"}]},
                        "z": {"enum": [None]},
                        "r": {"anyOf": [{"$ref": "#/nowhere"}, {"type": "null"}]},
                    },
                    "required": ["x", "y", "z", "r"],
                    "additionalProperties": False,
                }
            )
        ],
        [
            ("/0/function/parameters/properties/r/anyOf/0/$ref", "REF_NOT_FOUND"),
            ("/0/function/parameters/properties/x", "STRICT_NULL_KEPT"),
            ("/0/function/parameters/properties/y", "STRICT_NULL_KEPT"),
            ("/0/function/parameters/properties/z", "STRICT_NULL_KEPT"),
        ],
    ),
    ({"jsonrpc": "2.0", "id": 1, "result": None}, [("", "UNKNOWN_FORMAT")]),
    (None, [("", "UNKNOWN_FORMAT")]),
    ({"tools": {}}, [("", "UNKNOWN_FORMAT")]),
    ([], [("", "NO_TOOLS")]),
    ({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}, [("", "NO_TOOLS")]),
    ({"toolConfig": {"tools": []}}, [("", "NO_TOOLS")]),
]


@pytest.mark.parametrize(("document", "expected"), HOSTILE)
def test_hostile_sources_get_diagnostics_not_tracebacks(tmp_path, document, expected):
    source = write_source(tmp_path, "source.json", document)
    result = run_import([source], tmp_path / "design")
    assert codes(result.diagnostics) == expected
    if result.tools:
        assert load_design(tmp_path / "design", settings())[1] == []


def test_text_yaml_cannot_carry_is_written_as_json(tmp_path):
    tools = [{"name": "odd", "description": "line one\x85line two", "input_schema": PARAMETERS}]
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(tools), encoding="ascii")
    result = run_import([source], tmp_path / "design")
    assert [t.path for t in result.tools] == ["tools/odd.json"]
    design, diagnostics = load_design(tmp_path / "design", settings())
    assert diagnostics == [] and design is not None
    assert design.tools[0].description == "line one\x85line two"  # YAML reads NEL as a break


def test_a_lone_surrogate_is_not_imported(tmp_path):
    """JSON text may escape one (\\ud800); no UTF-8 file and no provider's JSON can hold it, and
    the design loader refuses it: the source is refused, naming why, and nothing is written."""
    tools = [
        {"name": "odd", "description": "a lone surrogate: \ud800", "input_schema": PARAMETERS},
        {"name": "fine", "description": "a pair: \U0001f600", "input_schema": PARAMETERS},
    ]
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(tools), encoding="ascii")
    result = run_import([source], tmp_path / "design")
    assert result.tools == []
    assert [(d.code, "lone surrogate" in d.message) for d in result.diagnostics] == [
        ("UNREADABLE_SOURCE", True)
    ]


# -- strict: false carried into the tool file ------------------------------------------------------

CLOSED = {
    "type": "object",
    "properties": {"q": {"type": "string"}},
    "required": ["q"],
    "additionalProperties": False,
}


def entry_of(form: str, name: str, strict: bool | None) -> dict[str, Any]:
    """A tool entry of ``form`` with its strict flag (None: no ``strict`` key)."""
    flag = {} if strict is None else {"strict": strict}
    if form == "openai-chat":
        return {"type": "function", "function": {"name": name, "parameters": CLOSED, **flag}}
    if form == "openai-responses":
        return {"type": "function", "name": name, "parameters": CLOSED, **flag}
    if form == "anthropic":
        return {"name": name, "input_schema": CLOSED, **flag}
    assert form == "bedrock"
    return {"toolSpec": {"name": name, "inputSchema": {"json": CLOSED}, **flag}}


def sent_strict(design: Path, provider: str) -> dict[str, bool]:
    """Canonical tool name -> whether a build sends it with the provider's strict flag on."""
    result = analyze(design, (provider,))
    assert not [d for d in result.diagnostics if d.level is Level.ERROR], result.diagnostics
    return {p.contract.name: p.strict for p in result.projections[0].tools}


#: Every provider with both modes sends a tool non-strict on strict: false; the others send it
#: strict (the flag is theirs to ignore). A build for all of them must emit every tool.
BOTH_MODES = ("openai", "anthropic", "bedrock", "groq")
ONE_MODE = ("gemini", "xai")


@pytest.mark.parametrize("form", ["openai-chat", "openai-responses", "anthropic", "bedrock"])
def test_an_explicit_strict_false_is_kept_for_every_provider(tmp_path, form):
    entries = [entry_of(form, "loose", False), entry_of(form, "tight", True)]
    entries.append(entry_of(form, "unsaid", None))
    document = {"toolConfig": {"tools": entries}} if form == "bedrock" else entries
    source = write_source(tmp_path, "tools.json", document)
    result = run_import([source], tmp_path / "design", forced=form)
    assert result.ok, result.diagnostics
    files = {
        path.stem: yaml.safe_load(path.read_text(encoding="utf-8"))
        for path in (tmp_path / "design" / "tools").iterdir()
    }
    assert files["loose"]["strict"] is False
    assert "providers" not in files["loose"]  # emission is not restricted
    assert "strict" not in files["tight"]  # strict: true is the default: nothing to say
    assert "strict" not in files["unsaid"]  # nothing invented where the source says nothing
    kept = [d for d in result.diagnostics if d.code == "STRICT_FALSE_KEPT"]
    first = "/toolConfig/tools/0" if form == "bedrock" else "/0"
    assert [(d.pointer, d.level, d.provider) for d in kept] == [(first, Level.INFO, form)]
    assert "strict: false" in kept[0].message
    for provider in (*BOTH_MODES, *ONE_MODE):
        loose = provider in ONE_MODE
        expected = {"loose": loose, "tight": True, "unsaid": True}
        assert sent_strict(tmp_path / "design", provider) == expected, provider


def test_strict_false_from_a_build_folder_is_kept_for_every_provider(tmp_path):
    """A Chat-form list saved in OUT/schemas/groq/ beside its names.json: the flag is the tool's,
    whichever provider's build it came from."""
    folder = tmp_path / "out" / "schemas" / "groq"
    write_source(folder, "names.json", {"tools": {"loose": "loose"}})
    source = write_source(folder, "tools.json", [entry_of("openai-chat", "loose", False)])
    result = run_import([source], tmp_path / "design")
    assert result.ok, result.diagnostics
    document = yaml.safe_load((tmp_path / "design" / "tools" / "loose.yaml").read_text())
    assert document["strict"] is False and "providers" not in document
    assert sent_strict(tmp_path / "design", "groq") == {"loose": False}
    assert sent_strict(tmp_path / "design", "openai") == {"loose": False}


def test_a_format_without_a_strict_flag_writes_no_providers(tmp_path):
    tools = {"tools": [{"name": "t", "inputSchema": CLOSED, "strict": False}]}  # not MCP's field
    result = run_import([write_source(tmp_path, "mcp.json", tools)], tmp_path / "design")
    assert result.ok, result.diagnostics
    document = yaml.safe_load((tmp_path / "design" / "tools" / "t.yaml").read_text())
    assert "strict" not in document and "providers" not in document
    assert "STRICT_FALSE_KEPT" not in {d.code for d in result.diagnostics}
