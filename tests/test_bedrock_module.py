"""The generated ``bedrock`` module, built from the example design with ``strict`` on (the default)
and off: the Converse request shapes, the per-request caps, and responses decoded end to end; and
the ``[providers.bedrock] strict`` setting as config loading reads it."""

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

from toolgen.build import build
from toolgen.load.loader import load_config
from toolgen.package.writer import write_package
from toolgen.providers import settings

REPO = Path(__file__).resolve().parents[1]
_PACKAGES = itertools.count(1)

REFUND = {"charge_id": "ch_9Kx2LmQ7", "reason": "duplicate"}
RESPONSE = {
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {"text": "I'll refund the duplicate charge."},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "billing_refund", "input": REFUND}},
            ],
        }
    },
    "stopReason": "tool_use",
    "usage": {"inputTokens": 512, "outputTokens": 61, "totalTokens": 573},
    "metrics": {"latencyMs": 900},
}


def _built(root: Path, strict: str | None) -> ModuleType:
    design = root / "design"
    shutil.copytree(REPO / "examples" / "design", design)
    config = '[toolgen]\nproviders = ["bedrock"]\n'
    if strict is not None:
        config += f"[providers.bedrock]\nstrict = {strict}\n"
    (design / "toolgen.toml").write_text(config, encoding="utf-8")
    result = build(design)
    assert result.ok, [d.format() for d in result.diagnostics]
    package = f"toolgen_bedrock_test_{next(_PACKAGES)}"
    write_package(root / "out" / package, result.files)
    sys.path.insert(0, str(root / "out"))
    return importlib.import_module(f"{package}.bedrock")


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _built(tmp_path_factory.mktemp("strict"), None)


@pytest.fixture(scope="module")
def loose(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _built(tmp_path_factory.mktemp("loose"), "false")


def test_tool_definitions_are_tool_specs(strict: ModuleType) -> None:
    (definition,) = strict.tool_definitions(["billing.refund"])
    spec = definition["toolSpec"]
    assert set(definition) == {"toolSpec"}
    assert spec["name"] == "billing_refund"
    assert spec["strict"] is True
    assert spec["inputSchema"] == {"json": strict.parameters("billing.refund")}
    assert spec["inputSchema"]["json"]["additionalProperties"] is False
    assert spec["description"]


def test_strict_selections_over_the_caps_raise(strict: ModuleType) -> None:
    assert (strict.MAX_STRICT_TOOLS, strict.MAX_OPTIONAL_MEMBERS, strict.MAX_UNION_MEMBERS) == (
        20,
        24,
        16,
    )
    with pytest.raises(ValueError, match="exceed one request's limits"):
        # the example's 7 tools hold more than 24 optional members
        strict.tool_definitions(strict=True)
    # "auto" (the default) marks strict as many as fit and sends the others without the flag
    definitions = strict.tool_definitions()
    assert [d["toolSpec"].get("strict") for d in definitions].count(True) == 5
    assert [d["toolSpec"]["name"] for d in definitions] == [
        strict.PROVIDER_NAMES[name] for name in strict.TOOLS
    ]
    assert not any("strict" in d["toolSpec"] for d in strict.tool_definitions(strict=False))


def test_a_design_of_25_tools_builds_and_its_definitions_go_out_under_auto(
    tmp_path: Path,
) -> None:
    design = tmp_path / "design"
    (design / "tools").mkdir(parents=True)
    (design / "toolgen.toml").write_text('[toolgen]\nproviders = ["bedrock"]\n', encoding="utf-8")
    for index in range(25):
        tool = {
            "name": f"tool_{index:02}",
            "description": f"Tool {index}.",
            "priority": 1 if index == 24 else 0,
            "parameters": {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
            },
        }
        (design / "tools" / f"tool_{index:02}.json").write_text(json.dumps(tool), encoding="utf-8")
    result = build(design)
    assert result.ok, [d.format() for d in result.diagnostics]
    package = f"toolgen_bedrock_test_{next(_PACKAGES)}"
    write_package(tmp_path / "out" / package, result.files)
    sys.path.insert(0, str(tmp_path / "out"))
    bedrock = importlib.import_module(f"{package}.bedrock")
    definitions = bedrock.tool_definitions()  # raised ValueError before strict="auto"
    marked = [d["toolSpec"]["name"] for d in definitions if d["toolSpec"].get("strict")]
    assert len(definitions) == 25 and len(marked) == bedrock.MAX_STRICT_TOOLS == 20
    assert "tool_24" in marked  # the highest priority goes strict first
    assert marked == ["tool_" + f"{i:02}" for i in (*range(19), 24)]
    assert all(
        set(d["toolSpec"]) <= {"name", "description", "inputSchema", "strict"} for d in definitions
    )
    with pytest.raises(ValueError, match="25 strict tools"):
        bedrock.tool_definitions(strict=True)


def test_strict_off_sends_no_strict_flag_and_the_canonical_schemas(
    strict: ModuleType, loose: ModuleType
) -> None:
    assert not any(loose.STRICT.values()) and all(strict.STRICT.values())
    definitions = loose.tool_definitions()  # non-strict tools do not count against the caps
    assert len(definitions) == len(loose.TOOLS)
    assert all("strict" not in d["toolSpec"] for d in definitions)
    refund = loose.parameters("billing.refund")
    assert "additionalProperties" not in refund  # as authored: strict mode would close it
    assert strict.parameters("billing.refund")["additionalProperties"] is False
    # structured outputs always go strict
    summary = {"type": "string"}
    assert loose.output_schema("ticket_triage")["properties"]["summary"] == summary
    assert strict.output_schema("ticket_triage")["properties"]["summary"] == summary


def test_output_format_carries_the_schema_as_json_text(strict: ModuleType) -> None:
    text_format = strict.output_format("ticket_triage")
    json_schema = text_format["structure"]["jsonSchema"]
    assert text_format["type"] == "json_schema"
    assert set(text_format) == {"type", "structure"}
    assert json.loads(json_schema["schema"]) == strict.output_schema("ticket_triage")
    assert json_schema["name"] == "ticket_triage"
    assert json_schema["description"] == "Triage of a customer support ticket."


def test_responses_decode_to_typed_calls(strict: ModuleType) -> None:
    (call,) = strict.parse_tool_calls(RESPONSE)
    assert call.name == "billing.refund"
    assert call.id == "tooluse_1"
    assert call.arguments.model_dump(mode="json", exclude_none=True) == REFUND
    stream = strict.ToolCallStream()
    events: list[dict[str, Any]] = [
        {"messageStart": {"role": "assistant"}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 1,
                "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "billing_refund"}},
            }
        },
        *(
            {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": part}}}}
            for part in ('{"charge_id": "ch_9Kx2LmQ7",', ' "reason": "duplicate"}')
        ),
        {"messageStop": {"stopReason": "tool_use"}},
    ]
    for event in events:
        stream.add(event)
    (streamed,) = stream.tool_calls()
    assert (streamed.name, streamed.arguments) == (call.name, call.arguments)
    drifted = json.loads(json.dumps(RESPONSE))
    drifted["output"]["message"]["content"][1]["toolUse"]["input"] = "{}"
    with pytest.raises(strict.SchemaDriftError):
        strict.parse_tool_calls(drifted)


def test_parse_output(strict: ModuleType) -> None:
    triage = {"category": "bug", "priority": "p2", "summary": "Crash on login", "entities": []}
    parsed = strict.parse_output("ticket_triage", json.dumps(triage))
    assert parsed.model_dump(mode="json", exclude_none=True) == triage


@pytest.mark.parametrize(
    "table, code",
    [
        ("[providers.bedrock]\nstrict = false\n", None),
        ("[providers.bedrock]\nstrict = true\n", None),
        ('[providers.bedrock]\nstrict = "no"\n', "INVALID_CONFIG"),
        ("[providers.cerebras]\nstrict = false\n", "UNKNOWN_FIELD"),
    ],
    ids=["off", "on", "not-a-boolean", "no-non-strict-mode"],
)
def test_the_strict_setting(tmp_path: Path, table: str, code: str | None) -> None:
    (tmp_path / "toolgen.toml").write_text(table, encoding="utf-8")
    config, diagnostics = load_config(tmp_path, settings())
    assert [d.code for d in diagnostics] == ([code] if code else [])
    if code is None:
        assert config.options_for("bedrock").strict is ("true" in table)
    if code == "INVALID_CONFIG":
        assert diagnostics[0].pointer == "/providers/bedrock/strict"
        assert config.options_for("bedrock").strict is None  # unsaid: strict, with the fallback
