"""Every recorded success body and stream event passes; the stream decoders rebuild tool calls."""

from __future__ import annotations

import copy
import json
import re
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
    raw_reader,
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
        for index, event in enumerate(events):
            assert validate(event) is event, f"{name} event {index}"


@pytest.mark.parametrize("folder", sorted(BODIES))
def test_tool_calls_of_recorded_bodies(folder: str, modules: dict[str, ModuleType]) -> None:
    provider, surface = BODIES[folder]
    parse = decoder(provider, surface).parse_tool_calls
    seen = 0
    for name, body in bodies(folder):
        calls = parse(body, raw_reader(parse, NAMES))
        expected = _expected_calls(surface, body)
        assert [(c.id, c.name, c.arguments) for c in calls] == expected, name
        seen += len(calls)
    assert seen or folder in WITHOUT_CALLS


#: Recordings in which no function is called (hosted tools, text, JSON outputs).
WITHOUT_CALLS = {
    "cerebras/chat-completions",
    "azure-openai/chat-completions",
    "xai/responses",
    "openrouter/responses",
}


def _expected_calls(surface: str, body: dict[str, Any]) -> list[tuple[str, str, Any]]:
    if surface == "chat_completion":
        message = body["choices"][0]["message"]
        return [
            (c["id"], c["function"]["name"], _arguments(c["function"].get("arguments")))
            for c in message.get("tool_calls") or ()
            if c.get("type", "function") == "function"  # Mistral leaves the type out
        ]
    if surface == "response":
        return [
            (i["call_id"], i["name"], json.loads(i["arguments"]))
            for i in body["output"]
            if i["type"] == "function_call"
        ]
    if surface == "generate_content":
        candidates = body.get("candidates") or [{}]
        parts = (candidates[0].get("content") or {}).get("parts") or []
        return [
            (
                p["functionCall"].get("id", ""),
                p["functionCall"]["name"],
                p["functionCall"].get("args", {}),
            )
            for p in parts
            if "functionCall" in p
        ]
    if surface == "converse":
        return [
            (b["toolUse"]["toolUseId"], b["toolUse"]["name"], b["toolUse"]["input"])
            for b in body["output"]["message"]["content"]
            if "toolUse" in b and b["toolUse"].get("type", "tool_use") == "tool_use"
        ]
    return [(b["id"], b["name"], b["input"]) for b in body["content"] if b["type"] == "tool_use"]


def _arguments(arguments: Any) -> Any:
    """JSON text, the object itself (Mistral may send it), or nothing (OpenRouter leaves it out
    of a call without arguments)."""
    if arguments is None:
        return {}
    return json.loads(arguments) if isinstance(arguments, str) else arguments


@pytest.mark.parametrize("folder", sorted(BODIES))
def test_recorded_bodies_as_sdk_objects(folder: str, modules: dict[str, ModuleType]) -> None:
    """Each body as the official client returns it decodes, in every form a user holds, to the
    calls of its raw JSON (model_dump() writes null for every member the wire left out)."""
    provider, surface = BODIES[folder]
    validate = getattr(modules[provider], f"validate_{surface}")
    parse = decoder(provider, surface).parse_tool_calls
    make = sdk_object_maker(surface)
    for name, body in bodies(folder):
        expected = _calls(parse(body, raw_reader(parse, NAMES)))
        for form, value in forms(make(body)).items():
            validate(value)
            assert _calls(parse(value, raw_reader(parse, NAMES))) == expected, (name, form)


@pytest.mark.parametrize("folder", sorted(STREAMS))
def test_recorded_stream_events_as_sdk_objects(folder: str, modules: dict[str, ModuleType]) -> None:
    provider, surface = STREAMS[folder]
    make = sdk_object_maker(surface)
    for name, events in stream_events(folder):
        reference = decoder(provider, surface).stream()
        for event in events:
            reference.add(event)
        expected = _calls(reference.tool_calls(raw_reader(reference, NAMES)))
        made = [make(event) for event in events]
        accumulators = {form: decoder(provider, surface).stream() for form in forms(made[0])}
        for event in made:
            for form, value in forms(event).items():
                accumulators[form].add(value)
        for form, accumulator in accumulators.items():
            assert _calls(accumulator.tool_calls(raw_reader(accumulator, NAMES))) == expected, (
                name,
                form,
            )


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
        calls = accumulator.tool_calls(raw_reader(accumulator, NAMES))
        expected = _reference_join(surface, events)
        assert [(c.id, c.name, c.raw_arguments) for c in calls] == expected, name
        for call in calls:
            assert call.arguments == (json.loads(call.raw_arguments) if call.raw_arguments else {})


def _reference_join(surface: str, events: list[Any]) -> list[tuple[str, str, str]]:
    """An independent join of the fragments (and, for Responses, the completed response's calls)."""
    calls: dict[int, dict[str, Any]] = {}
    if surface == "generate_content_chunk":
        return _reference_gemini_join(events)
    if surface == "chat_completion_chunk":
        for chunk in events:
            for choice in chunk.get("choices", ()):
                for delta in choice["delta"].get("tool_calls") or ():
                    # a call sent whole, without index (Mistral), is a call of its own
                    index = delta.get("index", len(calls))
                    call = calls.setdefault(index, {"id": None, "name": None, "args": ""})
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


def _reference_gemini_join(chunks: list[Any]) -> list[tuple[str, str, str]]:
    """Whole calls as they come; a call with ``willContinue`` takes the ``partialArgs`` of the
    parts after it (a string goes on while its ``willContinue`` holds) until a part without it."""
    found: list[dict[str, Any]] = []
    open_call: dict[str, Any] | None = None
    continued: str | None = None
    for chunk in chunks:
        for candidate in chunk.get("candidates", ()):
            for part in (candidate.get("content") or {}).get("parts", ()):
                call = part.get("functionCall")
                if call is None:
                    continue
                if "name" in call:
                    open_call = {"id": call.get("id", ""), "name": call["name"]}
                    open_call["args"] = copy.deepcopy(call.get("args", {}))
                    found.append(open_call)
                assert open_call is not None
                for arg in call.get("partialArgs", ()):
                    steps = [
                        int(index) if index else key
                        for key, index in re.findall(r"\.(\w+)|\[(\d+)\]", arg["jsonPath"])
                    ]
                    value = next(
                        (arg[k] for k in ("stringValue", "numberValue", "boolValue") if k in arg),
                        None,
                    )
                    node = open_call["args"]
                    for step, after in zip(steps, [*steps[1:], None], strict=True):
                        if after is None:
                            if continued == arg["jsonPath"]:
                                node[step] += value
                            elif isinstance(node, list) and step == len(node):
                                node.append(value)
                            else:
                                node[step] = value
                        elif isinstance(node, list) and step == len(node):
                            node.append({} if isinstance(after, str) else [])
                        elif isinstance(node, dict) and step not in node:
                            node[step] = {} if isinstance(after, str) else []
                        node = node[step] if after is not None else node
                    continued = arg["jsonPath"] if arg.get("willContinue") else None
                if not call.get("willContinue"):
                    open_call = None
    return [
        (c["id"], c["name"], json.dumps(c["args"], ensure_ascii=False, separators=(",", ":")))
        for c in found
    ]
