"""Schema subset, overrides, determinism and lint of the generated code."""

from __future__ import annotations

import copy
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.envelope.support import write_package
from toolgen.envelope import (
    ENVELOPE_PROVIDERS,
    EnvelopeSchemaError,
    load_envelope_schemas,
    render_envelope_module,
)

REPO = Path(__file__).resolve().parents[2]
OBJECT = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}


def schema_error(
    schema: Any, provider: str = "openai", surface: str = "extra"
) -> EnvelopeSchemaError:
    with pytest.raises(EnvelopeSchemaError) as raised:
        load_envelope_schemas(provider, {f"{provider}/{surface}": schema})
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
                "$defs": {"N": {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}}},
            },
            "/$defs/N/properties/n/$ref",
            "recursive",
        ),
        (
            {"type": "object", "properties": {"n": {"$ref": "other.json#/N"}}},
            "/properties/n/$ref",
            "local",
        ),
        ({"properties": {"id": {"type": "string"}}}, "", "root"),
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
    builtin = load_envelope_schemas("groq", {})
    assert set(builtin) == {"chat_completion", "chat_completion_chunk"}
    replaced = copy.deepcopy(builtin["chat_completion"])
    replaced["properties"]["x_gateway"] = {"type": "string"}
    schemas = load_envelope_schemas(
        "groq", {"groq/chat_completion": replaced, "groq/embedding": OBJECT, "openai/other": OBJECT}
    )
    assert list(schemas) == ["chat_completion", "chat_completion_chunk", "embedding"]
    assert schemas["chat_completion"] is replaced
    source = render_envelope_module("groq", schemas, "# header")
    assert "def validate_embedding(data: object) -> dict[str, Any]:" in source
    assert '"x_gateway"' in source
    assert schema_error(OBJECT, "groq", "not-an-identifier").pointer == ""


def test_an_override_may_not_drop_what_the_decoder_reads() -> None:
    schema = copy.deepcopy(load_envelope_schemas("openai", {})["chat_completion"])
    schema["$defs"]["FunctionToolCall"]["required"].remove("id")
    error = schema_error(schema, "openai", "chat_completion")
    assert "tool_calls" in error.message and "'id' must be required" in error.message
    schema = copy.deepcopy(load_envelope_schemas("openai", {})["chat_completion"])
    del schema["properties"]["choices"]["minItems"]
    assert "minItems" in schema_error(schema, "openai", "chat_completion").message


def test_output_is_deterministic(tmp_path: Path) -> None:
    first = write_package(tmp_path / "a")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; "
        "from tests.envelope.support import write_package; write_package(Path(sys.argv[2]))"
    )
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run(
            [sys.executable, "-c", script, str(REPO), str(tmp_path / seed)], check=True, env=env
        )
        for name, source in first.items():
            assert (tmp_path / seed / name).read_text() == source, name


def test_generated_code_is_clean_under_ruff_and_mypy(package_dir: Path, tmp_path: Path) -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists() or importlib.util.find_spec("mypy") is None:
        pytest.skip("ruff or mypy is not installed")
    files = [
        str(package_dir / name)
        for name in ("_runtime.py", *(f"_envelopes_{p}.py" for p in ENVELOPE_PROVIDERS))
    ]
    lint = subprocess.run(
        [
            ruff,
            "check",
            "--isolated",
            "--select",
            "E,F,W,I,B,UP,SIM",
            "--line-length",
            "100",
            "--target-version",
            "py311",
            *files,
        ],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    types = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(package_dir),
        ],
        capture_output=True,
        text=True,
        cwd=package_dir.parent,
    )
    assert types.returncode == 0, types.stdout + types.stderr
