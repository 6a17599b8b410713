"""The runtime under a hostile endpoint (issue 23): every case of the issue gives a documented
error (SchemaDriftError, PayloadError, TypeError) naming the rule or limit, never a crash, a
non-finite number in a model, or a value from the response in an error."""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import math
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from tests.envelope.support import PACKAGE, decoder, raw_reader
from tests.envelope.test_runtime import chat_completion

SECRET = "sk-SECRET-hostile-7731"
NAMES = {"get_weather": "weather.get"}

#: the generated package these tests import (tests/envelope/conftest.py writes it)
pytestmark = pytest.mark.usefixtures("modules")


def _json(package_dir: Any) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}._json")


def message(tool_input: Any, name: str = "get_weather") -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": name, "input": tool_input}],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 2},
    }


def chat_chunks(arguments: str, index: Any = 0) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"tool_calls": [delta]}, "finish_reason": None}],
        }

    half = len(arguments) // 2
    return [
        chunk(
            {
                "index": index,
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": arguments[:half]},
            }
        ),
        chunk({"index": index, "function": {"arguments": arguments[half:]}}),
    ]


def nested(levels: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


def nested_text(levels: int) -> str:
    return '{"a": ' + "[" * levels + "1" + "]" * levels + "}"


class Output(BaseModel):
    value: Any = None
    gte: float = 0.0


def parse_output(data: Any) -> Any:
    decode = importlib.import_module(f"{PACKAGE}._decode")
    return decode.decode_output("openai", "out", data, lambda payload: payload, Output)


def payload_error(modules: dict[str, ModuleType], run: Callable[[], Any]) -> Any:
    """The PayloadError ``run`` raises, checked for values: no SECRET in any of its texts."""
    with pytest.raises(modules["_runtime"].PayloadError) as raised:
        run()
    error = raised.value
    for text in (str(error), repr(error), json.dumps(error.to_dict()), repr(error.args)):
        assert SECRET not in text
    return error


def parse_chat(arguments: str) -> Callable[[], Any]:
    return lambda: decoder("openai", "chat_completion").parse_tool_calls(
        chat_completion(arguments), raw_reader("openai", NAMES)
    )


def parse_chat_stream(arguments: str, index: Any = 0) -> Callable[[], Any]:
    def run() -> Any:
        stream = decoder("openai", "chat_completion_chunk").stream()
        for chunk in chat_chunks(arguments, index):
            stream.add(chunk)
        return stream.tool_calls(raw_reader(stream, NAMES))

    return run


def parse_message(tool_input: Any) -> Callable[[], Any]:
    return lambda: decoder("anthropic", "message").parse_tool_calls(
        message(tool_input), raw_reader("anthropic", NAMES)
    )


@pytest.mark.parametrize("levels", [129, 300, 990, 100_000])
def test_deep_arguments_text_is_a_payload_error_naming_the_limit(
    modules: dict[str, ModuleType], levels: int
) -> None:
    for run in (
        parse_chat(nested_text(levels)),
        parse_chat_stream(nested_text(levels)),
        lambda: parse_output(nested_text(levels)),
    ):
        error = payload_error(modules, run)
        assert "nested deeper than 128" in error.reason


def test_128_levels_decode_and_dump(modules: dict[str, ModuleType]) -> None:
    """The limit counts the arguments object itself: 128 levels in all are read, and the model
    writes them back (pydantic refuses about 255)."""
    [call] = parse_chat(nested_text(127))()
    assert call.raw_arguments == nested_text(127)
    assert parse_output(nested_text(127)).model_dump_json()


@pytest.mark.parametrize("levels", [129, 990])
def test_deep_parsed_input_is_a_payload_error(modules: dict[str, ModuleType], levels: int) -> None:
    """Anthropic's ``input`` arrives parsed (the body's json.loads accepted it): re-serializing it
    raised RecursionError."""
    error = payload_error(modules, parse_message({"a": nested(levels)}))
    assert (error.location, error.code) == ("arguments", "INVALID_ARGUMENTS")
    assert "nested deeper than 128" in error.reason
    error = payload_error(modules, lambda: parse_output({"value": nested(levels)}))
    assert "nested deeper than 128" in error.reason


def test_huge_integers_are_payload_errors(modules: dict[str, ModuleType]) -> None:
    huge = 10**5000
    error = payload_error(modules, parse_message({"n": huge}))
    assert "more than 4300 digits" in error.reason
    text = '{"n": ' + "9" * 5000 + "}"
    for run in (parse_chat(text), parse_chat_stream(text), lambda: parse_output(text)):
        assert "more than 4300 digits" in payload_error(modules, run).reason
    [call] = parse_message({"n": 10**4299})()  # within the limit
    assert call.arguments == {"n": 10**4299}


@pytest.mark.parametrize(
    "text", ['{"gte": 1e999}', '{"gte": -1e999}', '{"gte": NaN}', '{"gte": Infinity}']
)
def test_non_finite_numbers_in_text_are_payload_errors(
    modules: dict[str, ModuleType], text: str
) -> None:
    for run in (parse_chat(text), parse_chat_stream(text), lambda: parse_output(text)):
        error = payload_error(modules, run)
        assert "float range" in error.reason or "NaN" in error.reason


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_non_finite_numbers_in_parsed_values_are_payload_errors(
    modules: dict[str, ModuleType], number: float
) -> None:
    """What json.loads yields for the NaN and Infinity literals, in Anthropic's ``input``, an
    output given parsed, or an SDK object's dump."""
    error = payload_error(modules, parse_message({"gte": number, "boost": [number]}))
    assert "NaN or an infinity" in error.reason
    payload_error(modules, lambda: parse_output({"gte": number}))

    class SdkOutput:
        def model_dump(self, **_: Any) -> Any:
            return {"gte": number}

    payload_error(modules, lambda: parse_output(SdkOutput()))


def test_lone_surrogates_are_payload_errors(modules: dict[str, ModuleType]) -> None:
    for text in (
        '{"city": "\\ud800"}',
        '{"city": "x\\udfff"}',
        '{"\\udbff": 1}',
        '{"c": "\ud800"}',
    ):
        for run in (parse_chat(text), lambda text=text: parse_output(text)):
            assert "lone surrogate" in payload_error(modules, run).reason
    assert "lone surrogate" in payload_error(modules, parse_message({"c": "\udc00"})).reason
    [call] = parse_chat('{"city": "\\ud83d\\ude00 \\u00e9"}')()  # a pair is one character
    assert call.arguments == {"city": "\U0001f600 \u00e9"}


def test_non_utf8_bytes_are_payload_errors(modules: dict[str, ModuleType]) -> None:
    for data in (b'{"c": "\xed\xa0\x80"}', b'{"c": "\xff"}'):
        assert "UTF-8" in payload_error(modules, lambda data=data: parse_output(data)).reason


def test_duplicate_keys_are_payload_errors(modules: dict[str, ModuleType]) -> None:
    text = '{"city": "Paris", "city": "' + SECRET + '"}'
    for run in (parse_chat(text), parse_chat_stream(text), lambda: parse_output(text)):
        assert "two members of the same name" in payload_error(modules, run).reason
    nested_twice = '{"a": {"b": 1, "b": 2}}'
    assert "same name" in payload_error(modules, parse_chat(nested_twice)).reason


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "x:y", "a": "z"}',  # the dropped member's colon makes up for the name twice
        '{"a": "z", "a": "x:y"}',
        '{"a:b": 1, "a:b": 2}',
        '{"a": "\\u003a", "a": "x"}',  # a colon written as an escape
        '{"a": "\\u003a:", "b": 1, "a": ":"}',
        '{"b": "\\u003a", "a": 1, "a": 2}',  # the escaped colon would pay for the name twice
        '{"a": ["x:y"], "a": 1}',
        '{"a": ["x"], "b": "y:", "a": 1}',
        '[{"a": 1, "a": 2}]',  # one object, not at the top
        '["{", {"a": 1, "a": 2}]',
        ' {"a": 1, "a": 2} ',
    ],
)
def test_a_name_twice_in_one_object_is_refused_whatever_its_strings_hold(
    package_dir: Any, text: str
) -> None:
    """Text with one object is read without the per-object check of names, then its colons
    counted: no count lets a member written twice through."""
    with pytest.raises(ValueError, match="two members of the same name"):
        _json(package_dir).loads(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"url": "https://x.test:8080/a", "at": "10:30", "n": 1}',
        '{"a:b": "c:d", "e": ["f:g", {"h": "i:j"}]}',
        '{"a": "\\u003a", "b": ":"}',
        '{"a": [":", ["::"]], "b": ""}',
        '[{"a": 1}, "{"]',
        '"{:}"',
    ],
)
def test_colons_in_strings_read_as_the_standard_library_reads_them(
    package_dir: Any, text: str
) -> None:
    assert _json(package_dir).loads(text) == json.loads(text)


def test_too_long_text_is_a_payload_error(modules: dict[str, ModuleType]) -> None:
    limit = _json(modules).MAX_CHARS
    text = '{"city": "' + "x" * limit + '"}'
    for run in (parse_chat(text), lambda: parse_output(text)):
        assert f"longer than {limit} characters" in payload_error(modules, run).reason
    too_big = {"city": "x" * limit}
    assert "longer than" in payload_error(modules, parse_message(too_big)).reason


def test_non_json_values_in_parsed_input_are_payload_errors(modules: dict[str, ModuleType]) -> None:
    for value in ({1: "a"}, {"a": (1, 2)}, {"a": {1, 2}}, {"a": b"x"}):
        assert "JSON" in payload_error(modules, parse_message(value)).reason


def test_a_self_containing_input_is_refused_not_looped(modules: dict[str, ModuleType]) -> None:
    looped: dict[str, Any] = {}
    looped["self"] = looped
    assert "nested deeper" in payload_error(modules, parse_message(looped)).reason


@pytest.mark.parametrize("surface", ["chat_completion_chunk", "response_stream_event"])
@pytest.mark.parametrize("index", [0.0, 1.0, 1e300, -0.0])
def test_an_integral_float_stream_index_drifts_with_a_path(surface: str, index: float) -> None:
    """The envelope accepts ``0.0`` as an integer; the drift path then called ``.isidentifier()``
    on the float (AttributeError)."""
    runtime = importlib.import_module(f"{PACKAGE}._runtime")
    stream = decoder("openai", surface).stream()
    if surface == "chat_completion_chunk":
        chunk = chat_chunks("{}", index)[1]  # arguments without the call's id or name
        stream.add(chunk)
        expected = "choices[0].delta.tool_calls[{}].id"
    else:
        stream.add(
            {
                "type": "response.function_call_arguments.delta",
                "output_index": index,
                "item_id": "i",
                "delta": "{}",
                "sequence_number": 1,
            }
        )
        expected = "output[{}].item"
    with pytest.raises(runtime.SchemaDriftError) as raised:
        stream.tool_calls(raw_reader(stream, NAMES))
    shown = str(int(index)) if abs(index) <= 2**53 else "?"
    assert raised.value.path == expected.format(shown)


def test_format_path_shows_no_value_it_cannot_show() -> None:
    runtime = importlib.import_module(f"{PACKAGE}._runtime")
    assert runtime.format_path(("a", 0.0, 2, "b c", 1.5, True, 10**5000, None)) == (
        'a[0][2]["b c"][?][?][?][?]'
    )


def test_an_unknown_tool_is_named_by_length_and_hash(modules: dict[str, ModuleType]) -> None:
    runtime = modules["_runtime"]
    body = chat_completion()
    body["choices"][0]["message"]["tool_calls"][0]["function"]["name"] = SECRET
    error = payload_error(
        modules,
        lambda: decoder("openai", "chat_completion").parse_tool_calls(
            body, raw_reader("openai", NAMES)
        ),
    )
    assert (error.code, error.location) == ("UNKNOWN_TOOL", "name")
    assert error.tool == runtime.value_digest(SECRET)
    assert error.tool.startswith(f"<{len(SECRET)} characters, sha256 ")
    assert SECRET not in repr(error.__dict__)
    error = payload_error(modules, lambda: parse_message_named(SECRET))
    assert error.tool == runtime.value_digest(SECRET)


def parse_message_named(name: str) -> Any:
    return decoder("anthropic", "message").parse_tool_calls(
        message({"city": "Paris"}, name), raw_reader("anthropic", NAMES)
    )


def test_a_hook_that_decodes_drifted_data_itself_runs_once(
    modules: dict[str, ModuleType], caplog: pytest.LogCaptureFixture
) -> None:
    """The hook re-validates the body it was told about: that drift reaches no hook again (it
    recursed about 120 levels, logging each)."""
    runtime = modules["_runtime"]
    drifted = chat_completion(content=5)
    seen: list[Any] = []
    inner: list[Any] = []

    def hook(error: Any) -> None:
        seen.append(error)
        try:
            decoder("openai", "chat_completion").parse_tool_calls(
                drifted, raw_reader("openai", NAMES)
            )
        except runtime.SchemaDriftError as again:
            inner.append(again)

    runtime.on_schema_drift(hook)
    try:
        with caplog.at_level(logging.WARNING), pytest.raises(runtime.SchemaDriftError):
            decoder("openai", "chat_completion").parse_tool_calls(
                drifted, raw_reader("openai", NAMES)
            )
    finally:
        runtime.remove_schema_drift_hook(hook)
    assert len(seen) == 1 and len(inner) == 1
    assert inner[0].path == seen[0].path == "choices[0].message.content"
    assert not caplog.records


def test_the_hook_guard_is_per_thread(modules: dict[str, ModuleType]) -> None:
    """A hook running in one thread does not silence drift in another."""
    runtime = modules["_runtime"]
    entered, release = threading.Event(), threading.Event()
    seen: list[str] = []

    def hook(error: Any) -> None:
        seen.append(threading.current_thread().name)
        if threading.current_thread().name == "slow":
            entered.set()
            release.wait(5)

    def drift() -> None:
        with contextlib.suppress(runtime.SchemaDriftError):
            modules["openai"].validate_chat_completion(chat_completion(content=5))

    runtime.on_schema_drift(hook)
    try:
        slow = threading.Thread(target=drift, name="slow")
        slow.start()
        assert entered.wait(5)
        other = threading.Thread(target=drift, name="other")
        other.start()
        other.join(5)
        release.set()
        slow.join(5)
    finally:
        runtime.remove_schema_drift_hook(hook)
    assert sorted(seen) == ["other", "slow"]


def test_deep_sdk_objects_are_type_errors(modules: dict[str, ModuleType]) -> None:
    """An SDK object whose own dump fails (pydantic refuses deep values) is no usable SDK object:
    TypeError, as for any value that is neither JSON nor an SDK object."""
    runtime = modules["_runtime"]

    class Refusing:
        def model_dump(self, **_: Any) -> Any:
            raise ValueError(f"Maximum serialization depth exceeded {SECRET}")

    with pytest.raises(TypeError) as raised:
        modules["openai"].validate_chat_completion(Refusing())
    assert SECRET not in str(raised.value) and raised.value.__cause__ is None
    with pytest.raises(TypeError):
        runtime.json_value(Refusing())


def test_concurrent_decoding_gives_identical_results(modules: dict[str, ModuleType]) -> None:
    texts = [json.dumps({"i": i, "xs": [i * 1.5, "é" * i, None, {"k": True}]}) for i in range(64)]
    expected = [parse_chat(text)()[0].arguments for text in texts]
    results: dict[int, list[Any]] = {}

    def work(worker: int) -> None:
        results[worker] = [parse_chat(text)()[0].arguments for text in texts for _ in range(5)]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for found in results.values():
        assert found == [arguments for arguments in expected for _ in range(5)]
