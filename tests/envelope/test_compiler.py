"""Schema subset, overrides, determinism and lint of the generated code."""

from __future__ import annotations

import copy
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.envelope.support import write_package
from tests.lint_support import RUFF_CONFIGS, assert_ruff_clean
from toolgen.compile.validators import (
    EnvelopeSchemaError,
    load_envelope_schemas,
    render_envelope_module,
)
from toolgen.providers import PROFILES
from toolgen.render.runtime_files import copied

REPO = Path(__file__).resolve().parents[2]
OBJECT = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
#: Arrays of arrays: a loop in a loop, deeper than Python can indent in one function.
ARRAYS_95_DEEP: dict[str, Any] = {"type": "string"}
for _ in range(95):
    ARRAYS_95_DEEP = {"type": "array", "items": ARRAYS_95_DEEP}


def schema_error(
    schema: Any, provider: str = "openai", surface: str = "extra"
) -> EnvelopeSchemaError:
    with pytest.raises(EnvelopeSchemaError) as raised:
        load_envelope_schemas(provider, {f"{provider}/{surface}": schema}, PROFILES[provider].apis)
    return raised.value


@pytest.mark.parametrize(
    ("schema", "pointer", "words"),
    [
        ({**OBJECT, "additionalProperties": False}, "/additionalProperties", "not supported"),
        (
            {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}},
            "/properties/n/minimum",
            "not supported",
        ),
        (
            {"type": "object", "properties": {"n": {"type": ["string", "null"]}}},
            "/properties/n/type",
            "anyOf",
        ),
        (
            {
                "type": "object",
                "properties": {"n": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            },
            "/properties/n/anyOf",
            "nullable",
        ),
        (
            {"type": "object", "properties": {"n": {"enum": [1, 2]}}},
            "/properties/n/enum",
            "strings",
        ),
        (
            {
                "type": "object",
                "properties": {"n": {"$ref": "#/$defs/N"}},
                "$defs": {
                    "N": {"$ref": "#/$defs/M"},
                    "M": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]},
                },
            },
            "/$defs/N/$ref",
            "recursive",
        ),
        (
            {"type": "object", "properties": {"n": {"$ref": "other.json#/N"}}},
            "/properties/n/$ref",
            "local",
        ),
        ({"properties": {"id": {"type": "string"}}}, "", "root"),
        (5, "", "root"),
        ({"type": "object", "properties": [1]}, "/properties", "an object"),
        ({"type": "object", "properties": {}, "required": 5}, "/required", "member names"),
        ({"type": "object", "required": [["k"]]}, "/required", "member names"),
        (
            {"type": "object", "properties": {"a": {"type": "array", "minItems": True}}},
            "/properties/a/minItems",
            "non-negative integer",
        ),
        ({"type": "object", "properties": {"a": {"enum": 5}}}, "/properties/a/enum", "array"),
        ({"type": "object", "properties": {"a": {"anyOf": 5}}}, "/properties/a/anyOf", "array"),
        ({**OBJECT, "allOf": 5}, "/allOf", "array"),
        ({"type": "object", "properties": {"a": ARRAYS_95_DEEP}}, "", "$defs"),
        (
            {**OBJECT, "allOf": [{"if": {"properties": [1], "required": ["id"]}, "then": {}}]},
            "/allOf/0",
            "discriminator",
        ),
        (
            {"type": "object", "properties": {"a": {"properties": {}}}},
            "/properties/a/properties",
            "needs",
        ),
        (
            {**OBJECT, "allOf": [{"if": {"properties": {"id": {"const": "x"}}}, "then": {}}]},
            "/allOf/0",
            "discriminator",
        ),
        (
            {
                "type": "object",
                "properties": {"kind": {"type": "string"}},
                "allOf": [
                    {
                        "if": {"properties": {"kind": {"const": "x"}}, "required": ["kind"]},
                        "then": {},
                    }
                ],
            },
            "/allOf",
            "required string",
        ),
    ],
)
def test_unsupported_keywords_are_clear_errors(schema: Any, pointer: str, words: str) -> None:
    error = schema_error(schema)
    assert (error.provider, error.surface, error.pointer) == ("openai", "extra", pointer)
    assert words in error.message


def test_overrides_replace_and_add_surfaces() -> None:
    builtin = load_envelope_schemas("groq", {}, PROFILES["groq"].apis)
    assert set(builtin) == {"chat_completion", "chat_completion_chunk"}
    replaced = copy.deepcopy(builtin["chat_completion"])
    replaced["properties"]["x_gateway"] = {"type": "string"}
    schemas = load_envelope_schemas(
        "groq",
        {"groq/chat_completion": replaced, "groq/embedding": OBJECT, "openai/other": OBJECT},
        PROFILES["groq"].apis,
    )
    assert list(schemas) == ["chat_completion", "chat_completion_chunk", "embedding"]
    assert schemas["chat_completion"] is replaced
    source = render_envelope_module("groq", schemas, "# header")
    assert "def _wire_embedding(data: object) -> dict[str, Any]:" in source
    assert "def validate_embedding(data: _T) -> _T:" in source
    assert '"x_gateway"' in source
    assert schema_error(OBJECT, "groq", "not-an-identifier").pointer == ""


def test_an_override_may_not_drop_what_the_decoder_reads() -> None:
    schema = copy.deepcopy(
        load_envelope_schemas("openai", {}, PROFILES["openai"].apis)["chat_completion"]
    )
    schema["$defs"]["FunctionToolCall"]["required"].remove("id")
    error = schema_error(schema, "openai", "chat_completion")
    assert "tool_calls" in error.message and "'id' must be required" in error.message
    schema = copy.deepcopy(
        load_envelope_schemas("openai", {}, PROFILES["openai"].apis)["chat_completion"]
    )
    del schema["properties"]["choices"]["minItems"]
    assert "minItems" in schema_error(schema, "openai", "chat_completion").message


def test_only_what_a_decoder_reads_as_optional_may_be_null() -> None:
    """A decoder takes null for absent where it reads with ``.get``; never where it subscripts."""
    builtin = load_envelope_schemas("openai", {}, PROFILES["openai"].apis)["chat_completion_chunk"]
    delta = builtin["$defs"]["ToolCallDelta"]["properties"]
    assert delta["id"]["anyOf"][1] == {"type": "null"}  # read as id? by the stream decoder
    schema = copy.deepcopy(
        load_envelope_schemas("openai", {}, PROFILES["openai"].apis)["chat_completion"]
    )
    arguments = schema["$defs"]["FunctionToolCall"]["properties"]["function"]["properties"]
    arguments["arguments"] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    error = schema_error(schema, "openai", "chat_completion")
    assert "'arguments' must not be nullable" in error.message
    schema = copy.deepcopy(builtin)
    schema["$defs"]["ToolCallDelta"]["properties"]["id"] = {
        "anyOf": [{"type": "integer"}, {"type": "null"}]
    }
    error = schema_error(schema, "openai", "chat_completion_chunk")
    assert "the schema says integer" in error.message


TREE = {
    "type": "object",
    "required": ["root"],
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "$defs": {
        "Node": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
        }
    },
}


def test_a_recursive_schema_is_a_function_that_calls_itself(tmp_path: Path) -> None:
    schemas = load_envelope_schemas("openai", {"openai/tree": TREE}, PROFILES["openai"].apis)
    source = render_envelope_module("openai", {"tree": schemas["tree"]}, "# header")
    check = source[source.index("def _check_node(") :].split("\n\n\n")[0]
    assert "_check_node(" in check.partition("\n")[2]  # the body calls the function itself
    package = tmp_path / "recursive_envelope_out"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for fixed in ("_runtime", "_json", "_explain", "_attributes"):
        (package / f"{fixed}.py").write_text(copied(fixed, "# header"))
    (package / "_envelopes_openai.py").write_text(source)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("recursive_envelope_out._envelopes_openai")
        runtime = importlib.import_module("recursive_envelope_out._runtime")
    finally:
        sys.path.remove(str(tmp_path))
    leaves = [{"name": "c", "children": []}, {"name": "d"}]
    good = {"root": {"name": "a", "children": [{"name": "b", "children": leaves}]}}
    assert module.validate_tree(good) is good
    bad = copy.deepcopy(good)
    bad["root"]["children"][0]["children"][1]["name"] = 7
    with pytest.raises(runtime.SchemaDriftError) as raised:
        module.validate_tree(bad)
    drift = raised.value
    assert (drift.api, drift.path, drift.expected, drift.actual) == (
        "tree",
        "root.children[0].children[1].name",
        "string",
        "integer",
    )
    del bad["root"]["children"][0]["children"][1]["name"]
    with pytest.raises(runtime.SchemaDriftError) as raised:
        module.validate_tree(bad)
    assert (raised.value.path, raised.value.actual) == (
        "root.children[0].children[1].name",
        "missing",
    )


def test_output_is_deterministic(tmp_path: Path) -> None:
    first = write_package(tmp_path / "a")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; "
        "from tests.envelope.support import write_package; write_package(Path(sys.argv[2]))"
    )
    # one other process, under a hash seed other than this one's (random, unless it was set)
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    env = {**os.environ, "PYTHONHASHSEED": seed}
    subprocess.run(
        [sys.executable, "-c", script, str(REPO), str(tmp_path / seed)], check=True, env=env
    )
    for name, source in first.items():
        assert (tmp_path / seed / name).read_text() == source, name


@pytest.mark.parametrize("config", [c for _, c in RUFF_CONFIGS], ids=[i for i, _ in RUFF_CONFIGS])
def test_generated_code_is_clean_under_ruff(package_dir: Path, config: list[str]) -> None:
    assert_ruff_clean(package_dir, config)


def test_the_generated_code_is_what_the_mypy_strict_run_checks(
    tmp_path: Path, suite_cache: Path
) -> None:
    """tests/test_sdk_typing.py runs mypy --strict on the example design's package built for
    every provider (one run: type-checking the SDKs is what costs); each envelope module here is
    in that package, the same bytes (the fixed modules are checked as toolgen's own code)."""
    from tests.test_sdk_typing import EXAMPLE_PROVIDERS
    from toolgen.build import build

    checked = build(REPO / "examples" / "design", EXAMPLE_PROVIDERS, cache_dir=suite_cache).files
    files = write_package(tmp_path)
    for name, source in files.items():
        if name.startswith("_envelopes_"):
            assert checked.get(name) == source, name


def test_a_sub_schema_checked_in_several_places_is_one_function_unless_a_use_is_in_a_loop() -> None:
    usage = {"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}
    item = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}

    def surface(name: str) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["usage", "items"],
            "properties": {
                "usage": {"$ref": "#/$defs/Usage"},
                "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
                name: {"type": "string"},
            },
            "$defs": {"Usage": usage, "Item": item},
        }

    source = render_envelope_module("openai", {"one": surface("a"), "two": surface("b")}, "# h")
    assert source.count("def _check_usage(") == 1  # one function for both surfaces
    assert source.count('_check_usage(data["usage"])') == 2
    assert "def _check_item(" not in source  # checked in place: a call per item costs more
    assert source.count('type(item["id"]) is not str') == 2
    alone = render_envelope_module("openai", {"one": surface("a")}, "# h")
    assert "def _check_" not in alone  # used once in the module: in place
