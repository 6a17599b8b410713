"""The generated ``cloudflare`` module (Workers AI), built from tests/fixtures/cloudflare/design:
the request shapes, every fixture (bodies and SSE streams of each model family) decoded end to
end, mutations of the fixtures drifting at the mutated path exactly when jsonschema rejects them,
the model families (an unknown one read tolerantly with a warning-level drift event, a known one
refusing a shape it does not answer with), failed requests, and the fields the fixed module
reads checked against the envelope schemas."""

from __future__ import annotations

import copy
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.envelope.support import RETYPED
from toolgen.build import build
from toolgen.compile.validators import EnvelopeSchemaError, load_envelope_schemas
from toolgen.compile.validators.decoders import check_decoder_read
from toolgen.package.writer import write_package
from toolgen.providers.cloudflare import CLOUDFLARE
from toolgen.runtime import _workers_ai

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "cloudflare"
MODELS: dict[str, str] = json.loads((FIXTURES / "models.json").read_text(encoding="utf-8"))
BODIES = sorted(name for name in MODELS if name.startswith("bodies/"))
STREAMS = sorted(name for name in MODELS if name.startswith("streams/"))
#: the OpenAI-compatible endpoint's body (no REST wrapper)
COMPATIBLE = "bodies/openai_compatible_chat_tool_calls.json"
FAILED = "bodies/rest_error.json"
WRAPPED = [name for name in BODIES if name not in (COMPATIBLE, FAILED)]
WEATHER = {"latitude": "51.5074", "longitude": "-0.1278"}
SCHEMAS = load_envelope_schemas("cloudflare", {}, CLOUDFLARE.apis)


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    result = build(FIXTURES / "design")
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("cloudflare")
    write_package(root / "toolgen_cloudflare_test", result.files)
    sys.path.insert(0, str(root))
    try:
        yield "toolgen_cloudflare_test"
    finally:
        sys.path.remove(str(root))


@pytest.fixture(scope="module")
def cf(package: str) -> ModuleType:
    return importlib.import_module(f"{package}.cloudflare")


@pytest.fixture()
def drift_events(package: str) -> Iterator[list[Any]]:
    runtime = importlib.import_module(f"{package}._runtime")
    seen: list[Any] = []
    runtime.on_schema_drift(seen.append)
    try:
        yield seen
    finally:
        runtime.remove_schema_drift_hook(seen.append)


# -- requests -----------------------------------------------------------------------------------
#: The two tool forms and JSON mode as @cloudflare/workers-types 5.20261117.1 declares them
#: (AiTextGenerationToolInput, AiTextGenerationToolLegacyInput, ..._JSON_Mode,
#: ResponseFormatJSONSchema), written as JSON Schema by hand.
_PARAMETERS = {
    "type": "object",
    "required": ["type", "properties"],
    "properties": {
        "type": {"type": "string"},
        "required": {"type": "array", "items": {"type": "string"}},
        "properties": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["type", "description"],
                "properties": {"type": {"type": "string"}, "description": {"type": "string"}},
            },
        },
    },
}
_NATIVE_TOOL = {
    "type": "object",
    "required": ["name", "description", "parameters"],
    "properties": {
        "name": {"type": "string"},
        "description": {"type": "string"},
        "parameters": _PARAMETERS,
    },
}
TOOL_FORMS = {
    "native": _NATIVE_TOOL,
    "function": {
        "type": "object",
        "required": ["type", "function"],
        "properties": {"type": {"const": "function"}, "function": _NATIVE_TOOL},
    },
}
NATIVE_JSON_MODE = {
    "type": "object",
    "properties": {"type": {"enum": ["json_object", "json_schema"]}, "json_schema": {}},
}
OPENAI_JSON_MODE = {
    "type": "object",
    "required": ["type", "json_schema"],
    "properties": {
        "type": {"const": "json_schema"},
        "json_schema": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "description": {"type": "string"},
                "schema": {"type": "object"},
            },
        },
    },
}


@pytest.mark.parametrize("form", sorted(TOOL_FORMS))
def test_tool_definitions_take_the_declared_tool_forms(cf: ModuleType, form: str) -> None:
    (definition,) = cf.tool_definitions(form=form)
    Draft202012Validator(TOOL_FORMS[form]).validate(definition)
    function = definition["function"] if form == "function" else definition
    assert function["name"] == "getWeather"
    assert function["parameters"] == cf.parameters("getWeather")
    assert "strict" not in function  # no strict mode on Workers AI


def test_response_formats(cf: ModuleType) -> None:
    native = cf.response_format("country")
    Draft202012Validator(NATIVE_JSON_MODE).validate(native)
    assert native == {"type": "json_schema", "json_schema": cf.output_schema("country")}
    compatible = cf.chat_response_format("country")
    Draft202012Validator(OPENAI_JSON_MODE).validate(compatible)
    assert compatible["json_schema"]["schema"] == cf.output_schema("country")


# -- fixtures, end to end -----------------------------------------------------------------------
@pytest.mark.parametrize("name", [n for n in BODIES if n != FAILED])
def test_every_body_validates_and_its_calls_decode(cf: ModuleType, name: str) -> None:
    api = "chat" if name == COMPATIBLE else "run"
    body = _load(name)
    assert cf.validate_response(body, model=MODELS[name], api=api) is body
    calls = cf.parse_tool_calls(body, model=MODELS[name], api=api)
    if "tool_calls" in name:
        (call,) = calls
        assert call.name == "getWeather"
        assert call.arguments.model_dump() == WEATHER
        assert json.loads(call.raw_arguments) == WEATHER
    else:
        assert calls == []


@pytest.mark.parametrize("name", STREAMS)
def test_every_stream_joins_its_calls(cf: ModuleType, name: str) -> None:
    stream = cf.ToolCallStream(model=MODELS[name])
    events = list(cf.sse_events(_lines(name)))
    assert events and all(stream.add(event) == event for event in events)
    calls = stream.tool_calls()
    if "tool_calls" in name:
        (call,) = calls
        assert (call.name, call.arguments.model_dump()) == ("getWeather", WEATHER)
    else:
        assert calls == []


def test_json_mode_answers_parse_as_outputs(cf: ModuleType) -> None:
    name = "bodies/meta_llama-3.3_json_object.json"
    answer = cf.answer(_load(name), model=MODELS[name])
    assert answer == _load(name)["result"]["response"]
    assert cf.parse_output("country", answer).capital == "New Delhi"
    number = "bodies/meta_llama-3.3_json_number.json"
    assert cf.answer(_load(number), model=MODELS[number]) == 42
    text = "bodies/openai_gpt-oss-120b_responses_text.json"
    assert cf.answer(_load(text), model=MODELS[text]) == "It is 14 degrees in London."


def test_a_failed_request_is_an_error_not_drift(cf: ModuleType) -> None:
    body = _load(FAILED)
    assert cf.validate_response(body, model=MODELS[FAILED]) is body
    with pytest.raises(cf.WorkersAiError) as caught:
        cf.parse_tool_calls(body, model=MODELS[FAILED])
    assert caught.value.codes == (5006,)
    assert "required properties" not in str(caught.value)  # codes only in the message


# -- model families -----------------------------------------------------------------------------
def test_families_come_from_the_longest_prefix(cf: ModuleType) -> None:
    assert cf.model_family("@cf/meta/llama-3.3-70b-instruct-fp8-fast") == "meta"
    assert cf.model_family("@hf/nousresearch/hermes-2-pro-mistral-7b") == "huggingface"
    assert cf.model_family("@hf/mistral/mistral-7b-instruct-v0.2") == "mistral"
    assert cf.model_family("@hf/thebloke/deepseek-coder-6.7b-instruct-awq") == "deepseek"
    assert cf.model_family("@cf/openai/gpt-oss-120b") == "openai"


@pytest.mark.parametrize(
    "name",
    [
        "bodies/meta_llama-3.3_tool_calls.json",
        "bodies/qwen_qwen3-30b_chat_tool_calls.json",
        "bodies/openai_gpt-oss-120b_responses_tool_calls.json",
    ],
)
def test_an_unknown_family_warns_and_still_finds_the_calls(
    cf: ModuleType, drift_events: list[Any], name: str
) -> None:
    (call,) = cf.parse_tool_calls(_load(name), model="@cf/acme/brand-new-model")
    assert call.arguments.model_dump() == WEATHER
    (event,) = drift_events
    assert (event.level, event.api, event.path) == ("warning", "model_family", "model")
    assert "acme" not in str(event)


def test_known_models_raise_no_event(cf: ModuleType, drift_events: list[Any]) -> None:
    for name in WRAPPED:
        cf.parse_tool_calls(_load(name), model=MODELS[name])
    assert drift_events == []


@pytest.mark.parametrize(
    ("name", "model", "path"),
    [
        ("bodies/qwen_qwen3-30b_chat_tool_calls.json", "@cf/meta/llama-3.3-70b", "result.choices"),
        ("bodies/meta_llama-3.3_tool_calls.json", "@cf/openai/gpt-oss-20b", "result.response"),
        ("bodies/openai_gpt-oss-120b_responses_text.json", "@cf/zai-org/glm-5.3", "result.output"),
    ],
)
def test_a_family_answering_with_a_shape_it_never_uses_drifts(
    cf: ModuleType, name: str, model: str, path: str
) -> None:
    with pytest.raises(cf.SchemaDriftError) as caught:
        cf.validate_response(_load(name), model=model)
    assert (caught.value.level, caught.value.path) == ("error", path)
    assert caught.value.api.endswith(" family")


def test_a_native_call_without_a_name_drifts(cf: ModuleType) -> None:
    name = "bodies/hf_hermes-2-pro_tool_calls.json"
    body = _load(name)
    del body["result"]["tool_calls"][0]["name"]
    with pytest.raises(cf.SchemaDriftError) as caught:
        cf.parse_tool_calls(body, model=MODELS[name])
    assert (caught.value.api, caught.value.path) == ("native_output", "tool_calls[0].name")


def test_native_arguments_as_json_text_are_read_and_malformed_ones_refused(cf: ModuleType) -> None:
    name = "bodies/mistral_small-3.1_tool_calls.json"
    body = _load(name)
    body["result"]["tool_calls"][0]["arguments"] = json.dumps(WEATHER)
    (call,) = cf.parse_tool_calls(body, model=MODELS[name])
    assert call.arguments.model_dump() == WEATHER
    body["result"]["tool_calls"][0]["arguments"] = 7
    with pytest.raises(cf.PayloadError) as caught:
        cf.parse_tool_calls(body, model=MODELS[name])
    assert caught.value.code == "INVALID_ARGUMENTS"


# -- mutations ----------------------------------------------------------------------------------
_RESULT_SURFACE = {"choices": "chat_completion", "output": "responses_result"}


def _paths(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if isinstance(value, dict):
        for key, child in value.items():
            yield (*path, key)
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield (*path, index)
            yield from _paths(child, (*path, index))


def _text(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _mutations() -> list[tuple[str, tuple[str | int, ...]]]:
    return [(name, path) for name in WRAPPED for path in _paths(_load(name))]


@pytest.mark.parametrize(
    ("name", "path"), _mutations(), ids=lambda v: _text(v) if isinstance(v, tuple) else v
)
def test_a_retyped_member_drifts_at_its_path_when_the_schema_rejects_it(
    cf: ModuleType, name: str, path: tuple[str | int, ...]
) -> None:
    """Shape members (``choices``, ``output``) keep their shape; whether the envelope should
    reject the mutation is asked of jsonschema, on the wrapper and on the result's surface, and of
    the one rule the subset cannot write: a result is an object or text."""
    body = copy.deepcopy(_load(name))
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = RETYPED[type(parent[path[-1]])]
    result = body.get("result")
    surface = next((s for k, s in _RESULT_SURFACE.items() if k in result), "native_output")
    valid = (
        Draft202012Validator(SCHEMAS["rest_response"]).is_valid(body)
        and type(result) in (dict, str)
        and (type(result) is not dict or Draft202012Validator(SCHEMAS[surface]).is_valid(result))
    )
    if valid:
        cf.validate_response(body, model=MODELS[name])
        return
    with pytest.raises(cf.SchemaDriftError) as caught:
        cf.validate_response(body, model=MODELS[name])
    inside = path[0] == "result" and len(path) > 1  # a shape's paths start at result
    assert caught.value.path == _text(path[1:] if inside else path)
    assert caught.value.api == (surface if inside else "rest_response")


def test_the_mutations_reach_every_surface() -> None:
    """The mutation test is not vacuous: each result surface is among the fixtures."""
    shapes = {
        next((s for k, s in _RESULT_SURFACE.items() if k in _load(n)["result"]), "native_output")
        for n in WRAPPED
    }
    assert shapes == {"native_output", "chat_completion", "responses_result"}


# -- what the fixed module reads ------------------------------------------------------------------
def test_the_fixed_module_reads_only_what_the_envelopes_guarantee() -> None:
    """The build checks it too (check_api_reads); here each read is also seen failing on a
    schema that does not guarantee it."""
    assert _workers_ai.READS
    for surface, path, json_type in _workers_ai.READS:
        check_decoder_read("cloudflare", surface, SCHEMAS[surface], path, json_type)
        with pytest.raises(EnvelopeSchemaError):
            check_decoder_read("cloudflare", surface, {"type": "object"}, path, json_type)
    surfaces = [surface for surface, _, _ in _workers_ai.READS]
    assert set(surfaces) == set(SCHEMAS)  # every surface is read (and so checked by the build)


_STREAM_SURFACE = {"choices": "chat_completion_chunk", "type": "responses_stream_event"}


def _stream_mutations() -> list[tuple[str, int, tuple[str | int, ...]]]:
    return [
        (name, index, path)
        for name in STREAMS
        for index, event in enumerate(cf_events(name))
        for path in _paths(event)
    ]


def cf_events(name: str) -> list[Any]:
    """The events of a stream fixture (parsed the way ``sse_events`` does)."""
    return [
        json.loads(line[5:])
        for line in _lines(name)
        if line.startswith("data:") and line[5:].strip() != "[DONE]"
    ]


@pytest.mark.parametrize(
    ("name", "index", "path"),
    _stream_mutations(),
    ids=lambda v: _text(v) if isinstance(v, tuple) else str(v),
)
def test_a_retyped_stream_member_drifts_at_its_path_when_the_schema_rejects_it(
    cf: ModuleType, name: str, index: int, path: tuple[str | int, ...]
) -> None:
    events = copy.deepcopy(cf_events(name))
    parent = events[index]
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = RETYPED[type(parent[path[-1]])]
    surface = next((s for k, s in _STREAM_SURFACE.items() if k in events[0]), "native_output")
    valid = Draft202012Validator(SCHEMAS[surface]).is_valid(events[index])
    stream = cf.ToolCallStream(model=MODELS[name])
    for event in events[:index]:
        stream.add(event)
    if valid:
        stream.add(events[index])
        return
    with pytest.raises(cf.SchemaDriftError) as caught:
        stream.add(events[index])
    assert (caught.value.api, caught.value.path) == (surface, _text(path))
