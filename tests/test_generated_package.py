"""The package built from the example design, for every provider: importable on its own, and
decoding the recorded example responses end to end (its ruff and mypy --strict checks are in
tests/test_sdk_typing.py, whose one mypy run holds every typing check of that package)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.providers import PROVIDER_NAMES

REPO = Path(__file__).resolve().parents[1]
RECORDED = REPO / "examples" / "recorded"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, suite_cache: Path) -> Path:
    result = build(REPO / "examples" / "design", PROVIDER_NAMES, cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("generated")
    write_package(root / "examplegen", result.files)
    return root


def _run(built: Path, code: str) -> str:
    """Run ``code`` in a fresh interpreter that sees only the generated package (and pydantic)."""
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(built)!r})\n{code}"],
        cwd=built,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_imports_without_toolgen_and_decodes_recorded_responses(built: Path) -> None:
    code = f"""
import json, sys
from examplegen import openai, anthropic
assert "toolgen" not in sys.modules
assert "openai" not in sys.modules and "anthropic" not in sys.modules  # SDK objects: duck typing
chat = json.loads(open({str(RECORDED / "chat_tool_calls.json")!r}).read())
calls = openai.parse_tool_calls(chat)
print(json.dumps([[c.id, c.name, c.arguments.model_dump(mode="json")] for c in calls]))
message = json.loads(open({str(RECORDED / "anthropic_tool_use.json")!r}).read())
print(json.dumps([[c.name, c.arguments.model_dump(mode="json")] for c in anthropic.parse_tool_calls(message)]))
stream = openai.ToolCallStream("chat")
for line in open({str(RECORDED / "chat_stream.jsonl")!r}):
    stream.add(json.loads(line))
print(json.dumps([[c.name, c.arguments.model_dump(mode="json")] for c in stream.tool_calls()]))
"""
    chat, anthropic, streamed = (json.loads(line) for line in _run(built, code).splitlines())
    recorded = json.loads((RECORDED / "chat_tool_calls.json").read_text())
    raw = [
        json.loads(c["function"]["arguments"])
        for c in recorded["choices"][0]["message"]["tool_calls"]
    ]
    # the canonical payloads: the recorded arguments without the nulls strict mode forced
    assert chat == [
        ["call_refund_1", "billing.refund", {k: v for k, v in raw[0].items() if v is not None}],
        [
            "call_contact_1",
            "crm.upsert_contact",
            {
                **{k: v for k, v in raw[1].items() if v is not None},
                "address": {k: v for k, v in raw[1]["address"].items() if v is not None},
            },
        ],
    ]
    assert anthropic == [["billing.refund", {"charge_id": "ch_9Kx2LmQ7", "reason": "duplicate"}]]
    assert streamed == [["weather.get_forecast", {"city": "Paris, FR", "units": "celsius"}]]


def test_decoding_loads_only_the_modules_of_the_contracts_it_meets(built: Path) -> None:
    code = f"""
import json, sys
from examplegen import openai
def loaded(prefix):
    return sorted(m.removeprefix(prefix) for m in sys.modules if m.startswith(prefix))
assert not loaded("examplegen._tables_") and not loaded("examplegen._canonical_openai_parts.")
calls = openai.parse_tool_calls(json.loads(open({str(RECORDED / "chat_tool_calls.json")!r}).read()))
print(json.dumps([loaded("examplegen._canonical_openai_parts."), loaded("examplegen._tables_")]))
openai.parameters(calls[0].name)
print(json.dumps(loaded("examplegen._tables_")))
"""
    decoded, requested = (json.loads(line) for line in _run(built, code).splitlines())
    assert decoded == [["tool_billing_refund", "tool_crm_upsert_contact"], []]
    assert requested == ["openai"]


def test_drift_is_typed_and_falls_back(built: Path) -> None:
    recorded = json.loads((RECORDED / "chat_tool_calls.json").read_text())
    drifted = copy.deepcopy(recorded)
    drifted["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = {
        "secret": "s3cr3t"
    }
    code = f"""
import json
from examplegen import openai, anthropic
from examplegen._runtime import first_valid
drifted = json.loads({json.dumps(drifted)!r})
try:
    openai.parse_tool_calls(drifted)
except openai.SchemaDriftError as error:
    print(json.dumps(error.to_dict()))
    assert "s3cr3t" not in str(error) + repr(error)
message = json.loads(open({str(RECORDED / "anthropic_tool_use.json")!r}).read())
calls = first_valid([lambda: openai.parse_tool_calls(drifted), lambda: anthropic.parse_tool_calls(message)])
print(json.dumps([c.name for c in calls]))
"""
    drift, names = (json.loads(line) for line in _run(built, code).splitlines())
    assert drift == {
        "code": "SCHEMA_DRIFT",
        "provider": "openai",
        "api": "chat_completion",
        "path": "choices[0].message.tool_calls[0].function.arguments",
        "expected": "string",
        "actual": "object",
    }
    assert names == ["billing.refund"]


def test_compatible_providers_decode_the_recorded_calls_alike(built: Path) -> None:
    """The recorded chat completion, as each OpenAI-compatible provider would send it, decodes
    to OpenAI's canonical calls: Mistral's form (no ``type``, arguments as an object) through its
    lenient decoder, and xAI's (optional members left out rather than null) through its
    identity inverse."""
    code = f"""
import json
from examplegen import openai, mistral, xai, azure_openai, openrouter, deepseek
chat = json.loads(open({str(RECORDED / "chat_tool_calls.json")!r}).read())
def canonical(calls):
    return [[c.id, c.name, c.arguments.model_dump(mode="json")] for c in calls]
def without_nulls(value):
    if isinstance(value, dict):
        return {{k: without_nulls(v) for k, v in value.items() if v is not None}}
    return value
expected = canonical(openai.parse_tool_calls(chat))
for module in (azure_openai, openrouter, deepseek):
    assert canonical(module.parse_tool_calls(chat)) == expected, module.__name__
as_mistral = json.loads(json.dumps(chat))
for call in as_mistral["choices"][0]["message"]["tool_calls"]:
    del call["type"]
    call["function"]["arguments"] = json.loads(call["function"]["arguments"])
assert canonical(mistral.parse_tool_calls(as_mistral)) == expected
as_xai = json.loads(json.dumps(chat))
for call in as_xai["choices"][0]["message"]["tool_calls"]:
    call["function"]["arguments"] = json.dumps(without_nulls(json.loads(call["function"]["arguments"])))
assert canonical(xai.parse_tool_calls(as_xai)) == expected
print("ok")
"""
    assert _run(built, code).strip() == "ok"
