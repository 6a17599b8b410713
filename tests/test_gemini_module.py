"""The generated ``gemini`` module in both dialects, built from the example design plus a tool
whose enum holds numbers: the generateContent request shapes, responses and streams decoded end
to end, and the OpenAPI dialect's enum texts read back into canonical values."""

from __future__ import annotations

import importlib
import itertools
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.lint_support import RUFF_CONFIGS, assert_mypy_strict_clean, assert_ruff_clean
from toolgen.build import build
from toolgen.package.writer import write_package

REPO = Path(__file__).resolve().parents[1]
_PACKAGES = itertools.count(1)

#: A tool whose enums the OpenAPI dialect can only send as text.
SET_VOLUME = """\
name: device.set_volume
description: Set the speaker volume.
parameters:
  type: object
  properties:
    level: {type: integer, enum: [0, 5, 11]}
    muted: {type: boolean, enum: [true, false]}
    room: {type: string}
  required: [level]
"""

REFUND = {"charge_id": "ch_9Kx2LmQ7", "reason": "duplicate"}


def _response(*parts: dict[str, Any]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": list(parts)}, "finishReason": "STOP"}
        ],
        "usageMetadata": {"promptTokenCount": 10, "totalTokenCount": 20},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1",
    }


def _built(root: Path, dialect: str) -> ModuleType:
    design = root / "design"
    shutil.copytree(REPO / "examples" / "design", design)
    (design / "tools" / "set_volume.yaml").write_text(SET_VOLUME, encoding="utf-8")
    config = f'[toolgen]\nproviders = ["gemini"]\n[providers.gemini]\ndialect = "{dialect}"\n'
    (design / "toolgen.toml").write_text(config, encoding="utf-8")
    result = build(design)
    assert result.ok, [d.format() for d in result.diagnostics]
    package = f"toolgen_gemini_test_{next(_PACKAGES)}"
    write_package(root / "out" / package, result.files)
    sys.path.insert(0, str(root / "out"))
    return importlib.import_module(f"{package}.gemini")


@pytest.fixture(scope="module", params=["json_schema", "openapi"])
def built(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, ModuleType]:
    """(the dialect, the gemini module built for it)"""
    return request.param, _built(tmp_path_factory.mktemp(request.param), request.param)


def _schema_members(dialect: str) -> tuple[str, str]:
    if dialect == "openapi":
        return "parameters", "responseSchema"
    return "parametersJsonSchema", "responseJsonSchema"


def test_tool_definitions_are_one_tool_of_function_declarations(
    built: tuple[str, ModuleType],
) -> None:
    dialect, gemini = built
    parameters_member, _ = _schema_members(dialect)
    definitions = gemini.tool_definitions()
    assert [set(d) for d in definitions] == [{"functionDeclarations"}]
    declarations = definitions[0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == [gemini.PROVIDER_NAMES[n] for n in gemini.TOOLS]
    (refund,) = gemini.tool_definitions(["billing.refund"])[0]["functionDeclarations"]
    assert set(refund) == {"name", "description", parameters_member}
    assert refund["name"] == "billing.refund"  # Gemini names may hold dots
    assert refund[parameters_member] == gemini.parameters("billing.refund")
    assert gemini.tool_definitions([]) == []


def test_the_dialects_write_their_own_schemas(built: tuple[str, ModuleType]) -> None:
    dialect, gemini = built
    volume = gemini.parameters("device.set_volume")
    if dialect == "openapi":
        assert volume["type"] == "OBJECT" and "additionalProperties" not in volume
        assert volume["properties"]["level"] == {"type": "STRING", "enum": ["0", "5", "11"]}
    else:
        assert volume["additionalProperties"] is False
        assert volume["properties"]["level"] == {"type": "integer", "enum": [0, 5, 11]}
        assert volume["required"] == ["level"]  # optionals stay optional


def test_response_format_is_generation_config(built: tuple[str, ModuleType]) -> None:
    dialect, gemini = built
    _, schema_member = _schema_members(dialect)
    assert gemini.response_format("ticket_triage") == {
        "responseMimeType": "application/json",
        schema_member: gemini.output_schema("ticket_triage"),
    }


def test_responses_decode_to_typed_calls(built: tuple[str, ModuleType]) -> None:
    _, gemini = built
    body = _response(
        {"text": "Refunding.", "thoughtSignature": "c2ln"},
        {"functionCall": {"name": "billing.refund", "args": REFUND}},
    )
    (call,) = gemini.parse_tool_calls(body)
    assert (call.id, call.name) == ("", "billing.refund")
    assert call.arguments.model_dump(mode="json", exclude_none=True) == REFUND
    assert gemini.validate_generate_content(body) is body
    drifted = json.loads(json.dumps(body))
    drifted["candidates"][0]["content"]["parts"][1]["functionCall"]["args"] = "{}"
    with pytest.raises(gemini.SchemaDriftError) as raised:
        gemini.parse_tool_calls(drifted)
    assert raised.value.path == "candidates[0].content.parts[1].functionCall.args"


def test_blocked_prompts_have_no_calls(built: tuple[str, ModuleType]) -> None:
    _, gemini = built
    blocked = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": {"promptTokenCount": 5},
        "modelVersion": "gemini-2.5-flash",
    }
    assert gemini.parse_tool_calls(blocked) == []


def test_enum_texts_come_back_as_canonical_values(built: tuple[str, ModuleType]) -> None:
    """The OpenAPI dialect sends 11 as "11" and true as "true"; the call decodes to the
    canonical values either way (the JSON Schema dialect sends the values themselves)."""
    dialect, gemini = built
    if dialect == "openapi":
        sent: dict[str, Any] = {"level": "11", "muted": "true"}
    else:
        sent = {"level": 11, "muted": True}
    body = _response({"functionCall": {"name": "device.set_volume", "args": sent, "id": "c1"}})
    (call,) = gemini.parse_tool_calls(body)
    assert call.id == "c1"
    assert call.arguments.model_dump(mode="json", exclude_none=True) == {
        "level": 11,
        "muted": True,
    }
    assert gemini.canonicalize("device.set_volume", sent) == {"level": 11, "muted": True}
    unchanged = {"level": 5, "room": "kitchen"}
    if dialect == "json_schema":
        assert gemini.canonicalize("device.set_volume", unchanged) is unchanged


def test_streamed_calls_decode_whole_and_in_pieces(built: tuple[str, ModuleType]) -> None:
    _, gemini = built

    def chunk(call: dict[str, Any]) -> dict[str, Any]:
        return {
            "candidates": [{"content": {"role": "model", "parts": [{"functionCall": call}]}}],
            "usageMetadata": {},
            "modelVersion": "gemini-2.5-flash",
        }

    stream = gemini.ToolCallStream()
    for event in (
        chunk({"name": "billing.refund", "args": REFUND}),
        chunk({"name": "billing.refund", "willContinue": True}),
        chunk(
            {
                "partialArgs": [
                    {"jsonPath": "$.charge_id", "stringValue": "ch_", "willContinue": True},
                    {"jsonPath": "$.charge_id", "stringValue": "9Kx2LmQ7"},
                    {"jsonPath": "$.reason", "stringValue": "duplicate"},
                ],
                "willContinue": True,
            }
        ),
        chunk({}),
    ):
        assert stream.add(event) is event
    calls = stream.tool_calls()
    assert [c.name for c in calls] == ["billing.refund", "billing.refund"]
    assert calls[0].arguments == calls[1].arguments
    assert calls[1].raw_arguments == json.dumps(REFUND, separators=(",", ":"))


def test_parse_output(built: tuple[str, ModuleType]) -> None:
    _, gemini = built
    triage = {"category": "bug", "priority": "p2", "summary": "Crash on login", "entities": []}
    parsed = gemini.parse_output("ticket_triage", json.dumps(triage))
    assert parsed.model_dump(mode="json", exclude_none=True) == triage


def test_the_openapi_package_is_clean_under_ruff_and_mypy_strict(
    built: tuple[str, ModuleType],
) -> None:
    """The OpenAPI dialect's package, with its own ``_canonical_gemini.py`` (the default dialect
    is in the package tests/test_generated_package.py checks)."""
    dialect, gemini = built
    if dialect != "openapi":
        pytest.skip("tests/test_generated_package.py checks the default dialect")
    out = Path(gemini.__file__).parents[1]
    assert (out / gemini.__name__.split(".")[0] / "_canonical_gemini.py").is_file()
    for _, config in RUFF_CONFIGS:
        assert_ruff_clean(out, config)
    assert_mypy_strict_clean(out, gemini.__name__.split(".")[0])
