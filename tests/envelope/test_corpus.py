"""Every recorded success body and stream event passes; the stream decoders rebuild tool calls."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import (
    BODIES,
    NAMES,
    STREAMS,
    bodies,
    decoder,
    forms,
    sdk_object_maker,
    stream_events,
)

pytestmark = pytest.mark.corpus


@pytest.mark.parametrize("folder", sorted(BODIES))
def test_recorded_bodies_pass(folder: str, modules: dict[str, ModuleType]) -> None:
    provider, surface = BODIES[folder]
    validate = getattr(modules[provider], f"validate_{surface}")
    found = bodies(folder)
    assert found
    for name, body in found:
        assert validate(body) is body, name


@pytest.mark.parametrize("folder", sorted(STREAMS))
def test_recorded_stream_events_pass(folder: str, modules: dict[str, ModuleType]) -> None:
    provider, surface = STREAMS[folder]
    validate = getattr(modules[provider], f"validate_{surface}")
    streams = stream_events(folder)
    assert streams
    for name, events in streams:
        for event in events:
            validate(event), name


@pytest.mark.parametrize("folder", sorted(BODIES))
def test_tool_calls_of_recorded_bodies(folder: str, modules: dict[str, ModuleType]) -> None:
    provider, surface = BODIES[folder]
    parse = decoder(provider, surface).parse_tool_calls
    seen = 0
    for name, body in bodies(folder):
        calls = parse(body, canonical_names=NAMES)
        expected = _expected_calls(surface, body)
        assert [(c.id, c.name, c.arguments) for c in calls] == expected, name
        seen += len(calls)
    assert seen or folder == "cerebras/chat-completions"


def _expected_calls(surface: str, body: dict[str, Any]) -> list[tuple[str, str, Any]]:
    if surface == "chat_completion":
        message = body["choices"][0]["message"]
        return [
            (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
            for c in message.get("tool_calls") or ()
            if c["type"] == "function"
        ]
    if surface == "response":
        return [
            (i["call_id"], i["name"], json.loads(i["arguments"]))
            for i in body["output"]
            if i["type"] == "function_call"
        ]
    if surface == "converse":
        return [
            (b["toolUse"]["toolUseId"], b["toolUse"]["name"], b["toolUse"]["input"])
            for b in body["output"]["message"]["content"]
            if "toolUse" in b and b["toolUse"].get("type", "tool_use") == "tool_use"
        ]
    return [(b["id"], b["name"], b["input"]) for b in body["content"] if b["type"] == "tool_use"]


@pytest.mark.parametrize("folder", sorted(BODIES))
def test_recorded_bodies_as_sdk_objects(folder: str, modules: dict[str, ModuleType]) -> None:
    """Each body as the official client returns it decodes, in every form a user holds, to the
    calls of its raw JSON (model_dump() writes null for every member the wire left out)."""
    provider, surface = BODIES[folder]
    validate = getattr(modules[provider], f"validate_{surface}")
    parse = decoder(provider, surface).parse_tool_calls
    make = sdk_object_maker(surface)
    for name, body in bodies(folder):
        expected = _calls(parse(body, canonical_names=NAMES))
        for form, value in forms(make(body)).items():
            validate(value)
            assert _calls(parse(value, canonical_names=NAMES)) == expected, (name, form)


@pytest.mark.parametrize("folder", sorted(STREAMS))
def test_recorded_stream_events_as_sdk_objects(
    folder: str, modules: dict[str, ModuleType]
) -> None:
    provider, surface = STREAMS[folder]
    make = sdk_object_maker(surface)
    for name, events in stream_events(folder):
        reference = decoder(provider, surface).stream()
        for event in events:
            reference.add(event)
        expected = _calls(reference.tool_calls(canonical_names=NAMES))
        made = [make(event) for event in events]
        accumulators = {form: decoder(provider, surface).stream() for form in forms(made[0])}
        for event in made:
            for form, value in forms(event).items():
                accumulators[form].add(value)
        for form, accumulator in accumulators.items():
            assert _calls(accumulator.tool_calls(canonical_names=NAMES)) == expected, (name, form)



def _calls(calls: list[Any]) -> list[tuple[str, str, str, Any]]:
    return [(c.id, c.name, c.raw_arguments, c.arguments) for c in calls]



@pytest.mark.parametrize("folder", sorted(STREAMS))
def test_stream_accumulators_rebuild_tool_calls(
    folder: str, modules: dict[str, ModuleType]
) -> None:
    provider, surface = STREAMS[folder]
    streams = stream_events(folder)
    for name, events in streams:
        accumulator = decoder(provider, surface).stream()
        for event in events:
            accumulator.add(event)
        calls = accumulator.tool_calls(canonical_names=NAMES)
        expected = _reference_join(surface, events)
        assert [(c.id, c.name, c.raw_arguments) for c in calls] == expected, name
        for call in calls:
            assert call.arguments == (json.loads(call.raw_arguments) if call.raw_arguments else {})


def _reference_join(surface: str, events: list[Any]) -> list[tuple[str, str, str]]:
    """An independent join of the fragments (and, for Responses, the completed response's calls)."""
    calls: dict[int, dict[str, Any]] = {}
    if surface == "chat_completion_chunk":
        for chunk in events:
            for choice in chunk.get("choices", ()):
                for delta in choice["delta"].get("tool_calls") or ():
                    call = calls.setdefault(delta["index"], {"id": None, "name": None, "args": ""})
                    call["id"] = call["id"] or delta.get("id")
                    function = delta.get("function") or {}
                    call["name"] = call["name"] or function.get("name")
                    call["args"] += function.get("arguments") or ""
    elif surface == "response_stream_event":
        completed = [e["response"] for e in events if e["type"] == "response.completed"]
        if completed:  # some recordings hold several streams: the last one counts
            return [
                (i["call_id"], i["name"], i["arguments"])
                for i in completed[-1]["output"]
                if i["type"] == "function_call"
            ]
        for event in events:
            if (
                event["type"] == "response.output_item.done"
                and event["item"]["type"] == "function_call"
            ):
                item = event["item"]
                calls[event["output_index"]] = {
                    "id": item["call_id"],
                    "name": item["name"],
                    "args": item["arguments"],
                }
    elif surface == "converse_stream_event":
        for event in events:
            if "messageStart" in event:
                calls.clear()
            start = event.get("contentBlockStart", {})
            tool_use = start.get("start", {}).get("toolUse")
            if tool_use and tool_use.get("type", "tool_use") == "tool_use":
                calls[start["contentBlockIndex"]] = {
                    "id": tool_use["toolUseId"],
                    "name": tool_use["name"],
                    "args": "",
                }
            delta = event.get("contentBlockDelta", {})
            if delta.get("contentBlockIndex") in calls and "toolUse" in delta["delta"]:
                calls[delta["contentBlockIndex"]]["args"] += delta["delta"]["toolUse"]["input"]
        for call in calls.values():
            if not call["args"].strip():
                call["args"] = "{}"
    else:
        for event in events:
            if event["type"] == "message_start":
                calls.clear()
            elif (
                event["type"] == "content_block_start"
                and event["content_block"]["type"] == "tool_use"
            ):
                block = event["content_block"]
                calls[event["index"]] = {"id": block["id"], "name": block["name"], "args": ""}
            elif event["type"] == "content_block_delta" and event["index"] in calls:
                calls[event["index"]]["args"] += event["delta"].get("partial_json", "")
        for call in calls.values():
            if not call["args"].strip():
                call["args"] = "{}"
    return [(c["id"], c["name"], c["args"]) for _, c in sorted(calls.items())]
