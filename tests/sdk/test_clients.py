"""The example design's bindings through the official clients, against a loopback server.

Requests: what the clients send is toolgen's definitions, unchanged, inside OpenAI's strict subset.
Responses: every response, chunk and event decodes to the same typed calls in every form a user
holds (the SDK object, model_dump(), model_dump(mode="json"), to_dict(), the raw JSON).
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

import pytest
from strict_checker import violations

from tests.envelope.support import forms
from tests.sdk.bodies import (
    OUTPUT,
    OUTPUT_PAYLOAD,
    PAYLOADS,
    Call,
    chat_chunks,
    chat_completion,
    message,
    message_events,
    response,
    response_events,
    strict_arguments,
)
from tests.sdk.loopback import Loopback

USER = [{"role": "user", "content": "Do the things."}]


def openai_calls(gen: ModuleType, provider: str = "openai") -> list[Call]:
    """One call of every tool, its arguments as strict mode writes them."""
    openai = getattr(gen, provider)
    calls = []
    for number, name in enumerate(openai.TOOLS):
        schema = openai.parameters(name)
        arguments = strict_arguments(PAYLOADS[name], schema, schema)
        calls.append((f"call_{number}", openai.PROVIDER_NAMES[name], json.dumps(arguments)))
    return calls


def anthropic_selection(gen: ModuleType) -> list[str]:
    """As many tools as one request's strict caps allow, in the design's order."""
    chosen: list[str] = []
    for name in gen.anthropic.TOOLS:
        try:
            gen.anthropic.tool_definitions([*chosen, name])
        except ValueError:
            continue
        chosen.append(name)
    return chosen


def anthropic_calls(gen: ModuleType, names: list[str]) -> list[Call]:
    return [
        (f"toolu_{n}", gen.anthropic.PROVIDER_NAMES[name], json.dumps(PAYLOADS[name]))
        for n, name in enumerate(names)
    ]


def decoded(calls: list[Any]) -> list[tuple[str, str, Any]]:
    return [(c.id, c.name, c.arguments.model_dump(mode="json")) for c in calls]


def expected(calls: list[Call], names: list[str]) -> list[tuple[str, str, Any]]:
    return [(call[0], name, PAYLOADS[name]) for call, name in zip(calls, names, strict=True)]


def assert_strict_subset(schema: Any, where: str) -> None:
    assert violations(schema) == [], where


CHAT_PROVIDERS = ["openai", "groq", "cerebras"]  # Groq and Cerebras: through the openai SDK


@pytest.mark.parametrize("provider", CHAT_PROVIDERS)
def test_chat_completions(
    gen: ModuleType, server: Loopback, openai_client: Any, provider: str
) -> None:
    openai = getattr(gen, provider)
    calls = openai_calls(gen, provider)
    body = chat_completion(calls)
    server.reply_json(body)
    completion = openai_client.chat.completions.create(
        model="gpt-test",
        messages=USER,
        tools=openai.tool_definitions(api="chat"),
        response_format=openai.response_format(OUTPUT),
    )
    [(path, sent)] = server.requests
    assert path == "/v1/chat/completions"
    assert sent["tools"] == openai.tool_definitions(api="chat")
    assert sent["response_format"] == openai.response_format(OUTPUT)
    for tool in sent["tools"]:
        assert_strict_subset(tool["function"]["parameters"], tool["function"]["name"])
    assert_strict_subset(sent["response_format"]["json_schema"]["schema"], OUTPUT)
    for form, value in forms(completion, body).items():
        assert decoded(openai.parse_tool_calls(value)) == expected(calls, list(openai.TOOLS)), form


def test_chat_completion_without_tool_calls_and_an_output(
    gen: ModuleType, server: Loopback, openai_client: Any
) -> None:
    """98 of 165 recorded completions have no tool calls: model_dump() writes tool_calls null."""
    openai = gen.openai
    text = json.dumps(strict_arguments(OUTPUT_PAYLOAD, *[openai.output_schema(OUTPUT)] * 2))
    body = chat_completion([], content=text)
    server.reply_json(body)
    completion = openai_client.chat.completions.create(model="gpt-test", messages=USER)
    assert completion.model_dump()["choices"][0]["message"]["tool_calls"] is None
    for form, value in forms(completion, body).items():
        assert openai.parse_tool_calls(value) == [], form
    output = openai.parse_output(OUTPUT, completion.choices[0].message.content)
    assert output.model_dump(mode="json") == OUTPUT_PAYLOAD
    assert openai.parse_output(OUTPUT, json.loads(text)) == output
    assert openai.parse_output(OUTPUT, output) == output  # a model instance is read as its JSON


@pytest.mark.parametrize("provider", CHAT_PROVIDERS)
def test_chat_completions_stream(
    gen: ModuleType, server: Loopback, openai_client: Any, provider: str
) -> None:
    openai = getattr(gen, provider)
    calls = openai_calls(gen, provider)
    chunks = chat_chunks(calls)
    server.reply_stream("chat", chunks)
    received = list(
        openai_client.chat.completions.create(
            model="gpt-test", messages=USER, tools=openai.tool_definitions(api="chat"), stream=True
        )
    )
    assert server.requests[0][1]["stream"] is True
    assert len(received) == len(chunks)
    streams = {form: openai.ToolCallStream("chat") for form in forms(received[0], chunks[0])}
    for chunk, raw in zip(received, chunks, strict=True):
        for form, value in forms(chunk, raw).items():
            streams[form].add(value)
    for form, stream in streams.items():
        assert decoded(stream.tool_calls()) == expected(calls, list(openai.TOOLS)), form


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_openai_streaming_helpers(
    gen: ModuleType, server: Loopback, openai_client: Any, api: str
) -> None:
    """``.stream()`` helpers: the raw chunks inside their events, and what they put together."""
    openai = gen.openai
    calls = openai_calls(gen)
    tools = openai.tool_definitions(api=api)
    stream = openai.ToolCallStream(api)
    if api == "chat":
        server.reply_stream("chat", chat_chunks(calls))
        helper = openai_client.chat.completions.stream(model="m", messages=USER, tools=tools)
        with helper as events:
            for event in events:
                if event.type == "chunk":
                    stream.add(event.chunk)
            final = events.get_final_completion()
    else:
        server.reply_stream("responses", response_events(calls))
        helper = openai_client.responses.stream(model="m", input="hi", tools=tools)
        with helper as events:
            for event in events:
                stream.add(event)
            final = events.get_final_response()
    assert decoded(stream.tool_calls()) == expected(calls, list(openai.TOOLS))
    for form, value in forms(final).items():
        got = decoded(openai.parse_tool_calls(value, api))
        assert got == expected(calls, list(openai.TOOLS)), form


def test_responses(gen: ModuleType, server: Loopback, openai_client: Any) -> None:
    openai = gen.openai
    calls = openai_calls(gen)
    text = json.dumps(strict_arguments(OUTPUT_PAYLOAD, *[openai.output_schema(OUTPUT)] * 2))
    body = response(calls, text=text)
    server.reply_json(body)
    result = openai_client.responses.create(
        model="gpt-test",
        input="Do the things.",
        tools=openai.tool_definitions(api="responses"),
        text={"format": openai.response_format(OUTPUT, api="responses")},
    )
    [(path, sent)] = server.requests
    assert path == "/v1/responses"
    assert sent["tools"] == openai.tool_definitions(api="responses")
    for tool in sent["tools"]:
        assert_strict_subset(tool["parameters"], tool["name"])
    assert_strict_subset(sent["text"]["format"]["schema"], OUTPUT)
    for form, value in forms(result, body).items():
        got = decoded(openai.parse_tool_calls(value, "responses"))
        assert got == expected(calls, list(openai.TOOLS)), form
    assert openai.parse_output(OUTPUT, result.output_text).model_dump(mode="json") == OUTPUT_PAYLOAD


def test_responses_stream(gen: ModuleType, server: Loopback, openai_client: Any) -> None:
    openai = gen.openai
    calls = openai_calls(gen)
    events = response_events(calls)
    server.reply_stream("responses", events)
    received = list(
        openai_client.responses.create(
            model="gpt-test",
            input="Do the things.",
            tools=openai.tool_definitions(api="responses"),
            stream=True,
        )
    )
    assert len(received) == len(events)
    streams = {form: openai.ToolCallStream("responses") for form in forms(received[0], events[0])}
    for event, raw in zip(received, events, strict=True):
        for form, value in forms(event, raw).items():
            streams[form].add(value)
    for form, stream in streams.items():
        assert decoded(stream.tool_calls()) == expected(calls, list(openai.TOOLS)), form


def test_messages(gen: ModuleType, server: Loopback, anthropic_client: Any) -> None:
    anthropic = gen.anthropic
    names = anthropic_selection(gen)
    assert len(names) >= 2
    calls = anthropic_calls(gen, names)
    body = message(calls)
    server.reply_json(body)
    result = anthropic_client.messages.create(
        model="claude-test",
        max_tokens=1024,
        messages=USER,
        tools=anthropic.tool_definitions(names),
        output_config={"format": anthropic.output_format(OUTPUT)},
    )
    [(path, sent)] = server.requests
    assert path == "/v1/messages"
    assert sent["tools"] == anthropic.tool_definitions(names)
    assert sent["output_config"] == {"format": anthropic.output_format(OUTPUT)}
    for form, value in forms(result, body).items():
        assert decoded(anthropic.parse_tool_calls(value)) == expected(calls, names), form


@pytest.mark.parametrize("helper", [False, True], ids=["create(stream=True)", "stream()"])
def test_messages_stream(
    gen: ModuleType, server: Loopback, anthropic_client: Any, helper: bool
) -> None:
    anthropic = gen.anthropic
    names = anthropic_selection(gen)
    calls = anthropic_calls(gen, names)
    events = message_events(calls)
    server.reply_stream("messages", events)
    request = {
        "model": "claude-test",
        "max_tokens": 1024,
        "messages": USER,
        "tools": anthropic.tool_definitions(names),
    }
    if helper:
        # the helper's own events (text, input_json, ...) come between the raw ones
        with anthropic_client.messages.stream(**request) as stream:
            received = [e for e in stream if e.type in {e["type"] for e in events}]
            final = stream.get_final_message()  # the message the helper put together
        for form, value in forms(final).items():
            assert decoded(anthropic.parse_tool_calls(value)) == expected(calls, names), form
    else:
        received = list(anthropic_client.messages.create(**request, stream=True))
    assert [e.type for e in received] == [e["type"] for e in events]
    streams = {form: anthropic.ToolCallStream("messages") for form in forms(received[0], events[0])}
    for event, raw in zip(received, events, strict=True):
        for form, value in forms(event, raw).items():
            streams[form].add(value)
    for form, stream in streams.items():
        assert decoded(stream.tool_calls()) == expected(calls, names), form


def test_first_valid_keeps_a_healthy_primary_in_every_form(
    gen: ModuleType, server: Loopback, openai_client: Any, anthropic_client: Any
) -> None:
    """The issue's worst case: a healthy answer, held as model_dump(), fell back and raised alarms."""
    runtime = importlib.import_module(f"{gen.__name__}._runtime")
    drifts: list[Any] = []
    runtime.on_schema_drift(drifts.append)
    try:
        for form in ("SDK object", "model_dump()", "model_dump(mode='json')", "to_dict()"):
            server.reply_json(chat_completion([], content="Nothing to call."))
            server.reply_json(message([]))

            def primary(form: str = form) -> Any:
                held = forms(openai_client.chat.completions.create(model="m", messages=USER))
                return "primary", gen.openai.parse_tool_calls(held[form])

            def fallback() -> Any:
                answer = anthropic_client.messages.create(model="m", max_tokens=1, messages=USER)
                return "fallback", gen.anthropic.parse_tool_calls(answer)

            assert runtime.first_valid([primary, fallback]) == ("primary", []), form
            server.reset()
    finally:
        runtime.remove_schema_drift_hook(drifts.append)
    assert drifts == []
