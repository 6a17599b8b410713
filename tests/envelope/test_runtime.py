"""The runtime: drift errors without values, hooks, first_valid, payload errors, random JSON."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import importlib
import json
import math
import pickle
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import RootModel

from tests.envelope.support import PACKAGE, decoder, raw_reader

SECRET = "sk-SECRET-do-not-leak-4242"
SURFACES = [
    ("openai", "chat_completion"),
    ("openai", "chat_completion_chunk"),
    ("openai", "response"),
    ("openai", "response_stream_event"),
    ("groq", "chat_completion"),
    ("groq", "chat_completion_chunk"),
    ("cerebras", "chat_completion"),
    ("cerebras", "chat_completion_chunk"),
    ("anthropic", "message"),
    ("anthropic", "message_stream_event"),
]


def chat_completion(arguments: Any = '{"city": "Paris"}', content: Any = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": content,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": arguments},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3},
    }


def drift_of(module: ModuleType, runtime: ModuleType, data: Any) -> Any:
    with pytest.raises(runtime.SchemaDriftError) as raised:
        module.validate_chat_completion(data)
    return raised.value


def test_drift_error_names_path_and_types_never_values(modules: dict[str, ModuleType]) -> None:
    runtime, openai = modules["_runtime"], modules["openai"]
    error = drift_of(openai, runtime, chat_completion(arguments={"secret": SECRET}))
    assert error.provider == "openai" and error.api == "chat_completion"
    assert error.path == "choices[0].message.tool_calls[0].function.arguments"
    assert (error.expected, error.actual, error.code) == ("string", "object", "SCHEMA_DRIFT")
    assert error.to_dict() == {
        "code": "SCHEMA_DRIFT",
        "provider": "openai",
        "api": "chat_completion",
        "path": "choices[0].message.tool_calls[0].function.arguments",
        "expected": "string",
        "actual": "object",
    }
    for secret_holder in ({"x": SECRET}, 12345.678, [SECRET]):
        error = drift_of(openai, runtime, chat_completion(content=secret_holder))
        for text in (str(error), repr(error), json.dumps(error.to_dict()), str(error.args)):
            assert SECRET not in text and "12345" not in text
        assert error.__cause__ is None and (error.__suppress_context__ or error.__context__ is None)


@pytest.mark.parametrize(
    ("value", "actual"),
    [
        (True, "boolean"),
        (math.nan, "NaN"),
        (math.inf, "Infinity"),
        (-math.inf, "Infinity"),
        ("1", "string"),
    ],
)
def test_bool_nan_and_infinities_are_not_numbers(
    modules: dict[str, ModuleType], value: Any, actual: str
) -> None:
    runtime, groq = modules["_runtime"], modules["groq"]
    body = chat_completion()
    body["object"] = "chat.completion"
    body["usage"]["queue_time"] = value
    with pytest.raises(runtime.SchemaDriftError) as raised:
        groq.validate_chat_completion(body)
    assert (raised.value.path, raised.value.expected, raised.value.actual) == (
        "usage.queue_time",
        "number",
        actual,
    )
    body["usage"]["queue_time"] = 0.25
    groq.validate_chat_completion(body)


def test_integer_follows_json_schema(modules: dict[str, ModuleType]) -> None:
    runtime, openai = modules["_runtime"], modules["openai"]
    body = chat_completion()
    body["created"] = 2.0
    openai.validate_chat_completion(body)
    for value, actual in ((2.5, "number"), (True, "boolean"), (math.nan, "NaN")):
        body["created"] = value
        assert drift_of(openai, runtime, body).actual == actual


def test_non_json_roots(modules: dict[str, ModuleType]) -> None:
    runtime = modules["_runtime"]
    for value, actual in ((None, "null"), ([], "array"), ("{}", "string"), (1.5, "number")):
        error = drift_of(modules["openai"], runtime, value)
        assert (error.path, error.expected, error.actual) == ("", "object", actual)


class Dumps:
    """A pydantic-style object: ``model_dump`` gives its JSON (and records how it was asked)."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.asked: list[dict[str, Any]] = []

    def model_dump(self, **options: Any) -> Any:
        self.asked.append(options)
        return self.value


class HasToDict:
    def __init__(self, value: Any) -> None:
        self.value = value

    def to_dict(self) -> Any:
        return self.value


def test_sdk_style_objects_are_read_as_their_json(modules: dict[str, ModuleType]) -> None:
    """An object that is no pydantic model of an admitted class is checked as its dump, and
    ``validate_<surface>`` returns it as given (``read_<surface>`` the dump it read)."""
    runtime, openai = modules["_runtime"], modules["openai"]
    body = chat_completion()
    dumps = Dumps(body)
    assert openai.validate_chat_completion(dumps) is dumps
    assert dumps.asked == [
        {"mode": "json", "by_alias": True, "exclude_unset": True, "warnings": False}
    ]
    assert openai.read_chat_completion(dumps) is body
    holder = HasToDict(body)
    assert openai.validate_chat_completion(holder) is holder
    assert openai.read_chat_completion(holder) is body
    [call] = decoder("openai", "chat_completion").parse_tool_calls(
        HasToDict(body), raw_reader("openai", {"get_weather": "weather.get"})
    )
    assert call.arguments == {"city": "Paris"}
    drifted = chat_completion(arguments={"city": "Paris"})
    for holder in (Dumps(drifted), HasToDict(drifted)):
        error = drift_of(openai, runtime, holder)
        assert (error.path, error.actual) == (
            "choices[0].message.tool_calls[0].function.arguments",
            "object",
        )


def test_values_neither_json_nor_sdk_objects_are_type_errors_not_drift(
    modules: dict[str, ModuleType],
) -> None:
    runtime, openai = modules["_runtime"], modules["openai"]
    seen: list[Any] = []
    runtime.on_schema_drift(seen.append)
    try:
        for value in ((1,), b"{}", object(), {1, 2}, Dumps(object()), HasToDict((1, 2))):
            with pytest.raises(TypeError):
                openai.validate_chat_completion(value)
            with pytest.raises(TypeError):
                decoder("openai", "chat_completion_chunk").stream().add(value)
        tried: list[str] = []

        def wrong_type() -> Any:
            tried.append("wrong")
            return openai.validate_chat_completion(object())

        def fallback() -> Any:
            tried.append("fallback")
            return openai.validate_chat_completion(chat_completion())

        with pytest.raises(TypeError):
            runtime.first_valid([wrong_type, fallback])
        assert tried == ["wrong"]
    finally:
        runtime.remove_schema_drift_hook(seen.append)
    assert seen == []
    assert runtime.json_value(chat_completion()) == chat_completion()


def test_hooks_see_every_drift_and_a_failing_hook_is_ignored(
    modules: dict[str, ModuleType],
) -> None:
    runtime, openai = modules["_runtime"], modules["openai"]
    seen: list[Any] = []

    def broken(error: Any) -> None:
        raise RuntimeError("hook bug")

    runtime.on_schema_drift(broken)
    runtime.on_schema_drift(seen.append)
    try:
        error = drift_of(openai, runtime, {"id": 1})
        assert seen == [error]
        openai.validate_chat_completion(chat_completion())
        assert seen == [error]
    finally:
        runtime.remove_schema_drift_hook(broken)
        runtime.remove_schema_drift_hook(seen.append)
    drift_of(openai, runtime, {"id": 1})
    assert len(seen) == 1


def test_first_valid(modules: dict[str, ModuleType]) -> None:
    runtime, openai = modules["_runtime"], modules["openai"]
    calls: list[str] = []

    def attempt(name: str, body: Any) -> Any:
        def call() -> Any:
            calls.append(name)
            return openai.validate_chat_completion(body)

        return call

    good = chat_completion()
    drifted: list[Any] = []
    result = runtime.first_valid(
        [attempt("a", {"id": 1}), attempt("b", good), attempt("c", good)], on_drift=drifted.append
    )
    assert result is good and calls == ["a", "b"] and [d.path for d in drifted] == ["id"]
    with pytest.raises(runtime.SchemaDriftError) as raised:
        runtime.first_valid([attempt("d", {"id": 1}), attempt("e", {"id": "x"})])
    assert raised.value.path == "object"
    with pytest.raises(ZeroDivisionError):
        runtime.first_valid([lambda: 1 / 0, attempt("f", good)])

    async def coroutine() -> Any:
        return openai.validate_chat_completion({})

    async def fine() -> str:
        return "ok"

    assert asyncio.run(runtime.first_valid_async([coroutine, fine])) == "ok"


def test_tool_calls_payload_errors(modules: dict[str, ModuleType]) -> None:
    runtime = modules["_runtime"]
    names = {"get_weather": "weather.get"}
    [call] = decoder("openai", "chat_completion").parse_tool_calls(
        chat_completion(),
        raw_reader("openai", names, lambda name, args: {**args, "by": name}),
    )
    assert (call.id, call.name, call.provider_name) == ("call_1", "weather.get", "get_weather")
    assert call.arguments == {"city": "Paris", "by": "weather.get"}
    assert call.raw_arguments == '{"city": "Paris"}'
    for raw, reason in (
        (f'{{"city": "{SECRET}"', "not valid JSON"),
        (f'["{SECRET}"]', "not a JSON object"),
        ('{"x": NaN}', "not valid JSON"),
    ):
        with pytest.raises(runtime.PayloadError) as raised:
            decoder("openai", "chat_completion").parse_tool_calls(
                chat_completion(raw), raw_reader("openai", names)
            )
        error = raised.value
        assert (error.tool, error.call_id, error.location) == ("weather.get", "call_1", "arguments")
        assert error.reason.startswith(reason) and error.code == "INVALID_ARGUMENTS"
        for text in (str(error), repr(error), json.dumps(error.to_dict())):
            assert SECRET not in text
        assert error.__cause__ is None and (error.__suppress_context__ or error.__context__ is None)
    with pytest.raises(runtime.PayloadError) as raised:
        decoder("openai", "chat_completion").parse_tool_calls(
            chat_completion(), raw_reader("openai", {})
        )
    assert (raised.value.code, raised.value.location) == ("UNKNOWN_TOOL", "name")


def test_raw_arguments_of_a_parsed_input_are_written_on_first_read(
    modules: dict[str, ModuleType],
) -> None:
    """An ``input`` that arrives parsed is checked against the limits at once, but written as
    JSON text only when ``raw_arguments`` is read (most calls are never replayed); the call then
    behaves as one built with its text: equality, copies, pickling, ``dataclasses.replace``."""
    runtime = importlib.import_module(f"{PACKAGE}._runtime")
    typing_module = importlib.import_module(f"{PACKAGE}._decode")
    sent = {"city": "Zürich", "days": [1, 2.5], "units": {"deep": None, "ok": True}}
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": sent}],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    calls = [
        decoder("anthropic", "message").parse_tool_calls(
            copy.deepcopy(message), raw_reader("anthropic", {"get_weather": "weather.get"})
        )[0]
        for _ in range(2)
    ]
    typed = typing_module.TypedCalls("anthropic", {}, None, lambda kind, name: AnyObject).typed(
        calls[1]
    )
    text = json.dumps(sent, ensure_ascii=False, separators=(",", ":"))
    assert "raw_arguments" not in vars(calls[0]) and "raw_arguments" not in vars(typed)
    eager = runtime.RawToolCall("toolu_1", "weather.get", "get_weather", sent, text)
    assert calls[0] == eager  # equality reads (and writes) raw_arguments
    assert calls[0].raw_arguments == text and vars(calls[0])["raw_arguments"] == text
    assert typed.raw_arguments == text and typed.arguments.root == sent
    for call in (calls[1], typed):
        assert pickle.loads(pickle.dumps(call)) == call
        assert copy.deepcopy(call) == call
        assert dataclasses.replace(call, id="other").raw_arguments == text
        assert dataclasses.asdict(call)["raw_arguments"] == text
        assert not hasattr(call, "nope")
    assert runtime.RawToolCall("a", "b", "c", {}, "{}").raw_arguments == "{}"
    assert not hasattr(runtime.RawToolCall("a", "b", "c", {}, "{}"), "_sent")


VOCABULARY = [
    "type",
    "id",
    "object",
    "created",
    "model",
    "choices",
    "message",
    "content",
    "role",
    "index",
    "delta",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "usage",
    "finish_reason",
    "output",
    "status",
    "text",
    "input",
    "stop_reason",
    "item",
    "response",
    "output_index",
    "created_at",
    "function_call",
    "tool_use",
    "message_start",
    "content_block_start",
    "content_block",
    "chat.completion",
    "response.output_item.added",
    "input_tokens",
    "output_tokens",
    "prompt_tokens",
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(VOCABULARY)
    | st.text(max_size=4),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(VOCABULARY) | st.text(max_size=3), children, max_size=6)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=json_values, which=st.sampled_from(SURFACES))
def test_random_json_only_drifts_and_agrees_with_jsonschema(
    modules: dict[str, ModuleType],
    schemas: dict[str, dict[str, Any]],
    value: Any,
    which: tuple[str, str],
) -> None:
    provider, surface = which
    validate = getattr(modules[provider], f"validate_{surface}")
    try:
        validate(value)
        valid = True
    except modules["_runtime"].SchemaDriftError:
        valid = False
    assert valid == Draft202012Validator(schemas[provider][surface]).is_valid(value)
    # and the explainer finds a mismatch exactly when the compiled check fails
    document = json.loads(modules[provider]._SCHEMAS)
    explain = importlib.import_module(f"{PACKAGE}._explain")
    assert (explain.first_mismatch(document[surface], value, document) is None) == valid


class AnyObject(RootModel[dict[str, Any]]):
    """A model that holds any JSON object as it is (the typed call of a plain dict; module level,
    so that it pickles)."""
