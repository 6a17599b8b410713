"""The lenient Chat Completions decoder (Mistral, OpenRouter) and the envelope schemas' type lists
that let a call's arguments be JSON text or the object itself."""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.envelope.support import (
    NAMES,
    bodies,
    decoder,
    raw_reader,
    sdk_object_maker,
    stream_events,
)
from toolgen.apis.chat import CHAT, LENIENT_CHAT
from toolgen.compile.validators import (
    EnvelopeSchemaError,
    load_envelope_schemas,
    render_envelope_module,
)
from toolgen.render.runtime_files import copied, runtime_modules
from toolgen.render.templating import header


def completion(*calls: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": "", "tool_calls": list(calls)},
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chunk(*calls: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {"index": 0, "delta": {"tool_calls": list(calls)}, "finish_reason": None},
        ],
    }


def calls_of(found: list[Any]) -> list[tuple[str, str, Any, str]]:
    return [(c.id, c.name, c.arguments, c.raw_arguments) for c in found]


def test_arguments_as_text_or_object_decode_alike(modules: dict[str, ModuleType]) -> None:
    mistral = decoder("mistral", "chat_completion")
    as_text = {"id": "a", "function": {"name": "weather", "arguments": '{"city": "Paris"}'}}
    as_object = {"id": "a", "function": {"name": "weather", "arguments": {"city": "Paris"}}}
    text_calls = mistral.parse_tool_calls(completion(as_text), raw_reader(mistral, NAMES))
    object_calls = mistral.parse_tool_calls(completion(as_object), raw_reader(mistral, NAMES))
    assert [(c.id, c.name, c.arguments) for c in text_calls] == [
        ("a", "weather", {"city": "Paris"})
    ]
    assert [(c.id, c.name, c.arguments) for c in object_calls] == [
        ("a", "weather", {"city": "Paris"})
    ]
    assert object_calls[0].raw_arguments == '{"city":"Paris"}'


def test_canonicalize_runs_on_object_arguments(modules: dict[str, ModuleType]) -> None:
    seen = []

    def canonicalize(name: str, arguments: Any) -> Any:
        seen.append((name, arguments))
        return {"canonical": True}

    call = {"id": "a", "function": {"name": "weather", "arguments": {"city": None}}}
    (found,) = decoder("mistral", "chat_completion").parse_tool_calls(
        completion(call), raw_reader("mistral", NAMES, canonicalize)
    )
    assert seen == [("weather", {"city": None})]
    assert found.arguments == {"canonical": True}


@pytest.mark.parametrize("arguments", [12, ["x"], True, None])
def test_other_argument_types_drift_only_for_mistral(
    modules: dict[str, ModuleType], arguments: Any
) -> None:
    body = completion({"id": "a", "function": {"name": "weather", "arguments": arguments}})
    runtime = modules["_runtime"]
    with pytest.raises(runtime.SchemaDriftError) as raised:
        modules["mistral"].validate_chat_completion(body)
    assert raised.value.path == "choices[0].message.tool_calls[0].function.arguments"
    assert raised.value.expected == "string or object"


def test_openai_keeps_arguments_a_string(modules: dict[str, ModuleType]) -> None:
    call = {"id": "a", "type": "function", "function": {"name": "f", "arguments": {"x": 1}}}
    runtime = modules["_runtime"]
    with pytest.raises(runtime.SchemaDriftError) as raised:
        modules["openai"].validate_chat_completion(completion(call))
    assert raised.value.expected == "string"


def test_untyped_calls_are_function_calls_and_other_types_are_skipped(
    modules: dict[str, ModuleType],
) -> None:
    calls = [
        {"id": "a", "function": {"name": "f", "arguments": "{}"}},
        {"id": "b", "type": "custom", "function": {"name": "g", "arguments": "{}"}},
        {"id": "c", "type": "function", "function": {"name": "h", "arguments": "{}"}},
    ]
    found = decoder("mistral", "chat_completion").parse_tool_calls(
        completion(*calls), raw_reader("mistral", NAMES)
    )
    assert [c.id for c in found] == ["a", "c"]


def test_openrouter_call_without_arguments_has_none(modules: dict[str, ModuleType]) -> None:
    call = {"id": "a", "type": "function", "function": {"name": "f"}}
    (found,) = decoder("openrouter", "chat_completion").parse_tool_calls(
        completion(call), raw_reader("openrouter", NAMES)
    )
    assert (found.arguments, found.raw_arguments) == ({}, "{}")


def test_whole_streamed_calls_without_index_stay_apart(modules: dict[str, ModuleType]) -> None:
    stream = decoder("mistral", "chat_completion").stream()
    stream.add(chunk({"id": "a", "function": {"name": "f", "arguments": '{"n": 1}'}}))
    stream.add(
        chunk(
            {"id": "b", "function": {"name": "g", "arguments": {"n": 2}}},
            {"id": "c", "function": {"name": "h", "arguments": '{"n": 3}'}},
        )
    )
    assert calls_of(stream.tool_calls(raw_reader(stream, NAMES))) == [
        ("a", "f", {"n": 1}, '{"n": 1}'),
        ("b", "g", {"n": 2}, '{"n":2}'),
        ("c", "h", {"n": 3}, '{"n": 3}'),
    ]


def test_indexed_fragments_still_join(modules: dict[str, ModuleType]) -> None:
    stream = decoder("mistral", "chat_completion").stream()
    stream.add(chunk({"index": 0, "id": "a", "function": {"name": "f", "arguments": '{"n"'}}))
    stream.add(chunk({"index": 0, "function": {"name": "", "arguments": ": 1}"}}))
    assert calls_of(stream.tool_calls(raw_reader(stream, NAMES))) == [
        ("a", "f", {"n": 1}, '{"n": 1}')
    ]


def test_openai_streams_still_need_an_index(modules: dict[str, ModuleType]) -> None:
    runtime = modules["_runtime"]
    with pytest.raises(runtime.SchemaDriftError) as raised:
        decoder("openai", "chat_completion").stream().add(
            chunk({"id": "a", "function": {"name": "f", "arguments": "{}"}})
        )
    assert raised.value.path == "choices[0].delta.tool_calls[0].index"


TYPE_LIST = {
    "type": "object",
    "required": ["value"],
    "properties": {"value": {"type": ["string", "object", "integer"]}},
}


@pytest.fixture(scope="module")
def typed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ModuleType, ModuleType]]:
    """A package with the runtime and OpenAI's envelope module plus a surface ``typed``."""
    root = tmp_path_factory.mktemp("typelist")
    folder = root / "typelist_pkg"
    folder.mkdir()
    head = header()
    schemas = load_envelope_schemas("openai", {"openai/typed": TYPE_LIST}, ())
    (folder / "__init__.py").write_text("")
    for module in runtime_modules():
        (folder / f"{module}.py").write_text(copied(module, head))
    (folder / "_envelopes_openai.py").write_text(render_envelope_module("openai", schemas, head))
    sys.path.insert(0, str(root))
    try:
        yield (
            importlib.import_module("typelist_pkg._envelopes_openai"),
            importlib.import_module("typelist_pkg._runtime"),
        )
    finally:
        sys.path.remove(str(root))


@pytest.mark.parametrize("value", ["x", {}, {"a": 1}, 3, 3.0, 3.5, True, None, [], float("nan")])
def test_a_type_list_decides_as_jsonschema(
    typed: tuple[ModuleType, ModuleType], value: Any
) -> None:
    """The compiled check of ``"type": [...]`` agrees with jsonschema (bool is no integer; NaN
    is no number in envelopes)."""
    module, runtime = typed
    try:
        module.validate_typed({"value": value})
        valid = True
    except runtime.SchemaDriftError as error:
        assert error.expected == "string or object or integer"
        valid = False
    expected = value == value and Draft202012Validator(TYPE_LIST).is_valid({"value": value})
    assert valid == expected


@pytest.mark.parametrize(
    ("types", "words"),
    [(["string", "null"], "anyOf"), (["string", "string"], "one type"), ([], "one type")],
)
def test_type_lists_with_null_or_repeats_are_refused(types: list[Any], words: str) -> None:
    schema = {"type": "object", "properties": {"n": {"type": types}}}
    with pytest.raises(EnvelopeSchemaError) as raised:
        load_envelope_schemas("openai", {"openai/extra": schema}, (CHAT,))
    assert raised.value.pointer == "/properties/n/type"
    assert words in raised.value.message


def test_keywords_that_need_one_type_refuse_a_type_list() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": ["object", "string"], "properties": {}}},
    }
    with pytest.raises(EnvelopeSchemaError) as raised:
        load_envelope_schemas("openai", {"openai/extra": schema}, (CHAT,))
    assert raised.value.pointer == "/properties/n/properties"


def test_mistral_schema_must_keep_what_the_lenient_decoder_reads() -> None:
    schemas = load_envelope_schemas("mistral", {}, (LENIENT_CHAT,))
    broken = copy.deepcopy(schemas["chat_completion"])
    broken["$defs"]["ToolCall"]["properties"]["function"]["properties"]["arguments"] = {
        "type": "array"
    }
    with pytest.raises(EnvelopeSchemaError) as raised:
        load_envelope_schemas("mistral", {"mistral/chat_completion": broken}, (LENIENT_CHAT,))
    assert "string or object" in raised.value.message


def test_lenient_objects_whose_arguments_are_no_json_are_read_as_their_dump(
    modules: dict[str, ModuleType],
) -> None:
    """A call's ``arguments`` given as an object holding NaN, in the client's object of a body
    and of a chunk (the lenient decoders read objects through their attributes): read as the
    object's dump (NaN written as null), not refused as the raw JSON is."""
    from tests.envelope.test_sdk_objects import dump, joined, outcome

    runtime = modules["_runtime"]
    arguments = {"x": float("nan")}
    for surface, folder in (
        ("chat_completion", "mistral/chat-completions"),
        ("chat_completion_chunk", "mistral/chat-completions-stream-chunks"),
    ):
        make = sdk_object_maker(surface)
        reader = decoder("mistral", surface)
        if surface == "chat_completion":
            name, body = next(
                (n, b) for n, b in bodies(folder) if b["choices"][0]["message"].get("tool_calls")
            )
            body = copy.deepcopy(body)
            body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = arguments
            sdk_object = make(copy.deepcopy(body))
            got = outcome(reader.parse_tool_calls, sdk_object, runtime)
            assert got == outcome(reader.parse_tool_calls, dump(sdk_object, runtime), runtime)
            assert got != outcome(reader.parse_tool_calls, body, runtime), name
            assert got[0][3] == {"x": None}
            continue
        name, events = next(
            (n, e)
            for n, e in stream_events(folder)
            if any(c["choices"] and c["choices"][0]["delta"].get("tool_calls") for c in e)
        )
        events = copy.deepcopy(events)
        first = next(
            c for c in events if c["choices"] and c["choices"][0]["delta"].get("tool_calls")
        )
        first["choices"][0]["delta"]["tool_calls"][0]["function"] = {
            **first["choices"][0]["delta"]["tool_calls"][0].get("function", {}),
            "arguments": arguments,
        }
        objects = [make(copy.deepcopy(e)) for e in events]
        got = joined(reader, objects, runtime)
        assert got == joined(reader, [dump(o, runtime) for o in objects], runtime), name
        assert got != joined(reader, events, runtime), name
