"""Drift stays drift through the clients: a mutated body drifts at the mutated path in every form a
user holds, and nothing else drifts. (model_dump() writes null for a member the SDK type declares
and the wire left out, so a removed member shows as null there and as missing elsewhere.)"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import forms
from tests.sdk.bodies import (
    chat_chunks,
    chat_completion,
    message,
    message_events,
    response,
    response_events,
)
from tests.sdk.loopback import STREAM_APIS, Loopback, ask

CALLS = [("call_1", "billing_refund", json.dumps({"charge_id": "ch_9Kx2LmQ7"}))]


def _set(*path: Any, value: Any) -> Callable[[Any], None]:
    def mutate(document: Any) -> None:
        for part in path[:-1]:
            document = document[part]
        document[path[-1]] = value

    return mutate


def _delete(*path: Any) -> Callable[[Any], None]:
    def mutate(document: Any) -> None:
        for part in path[:-1]:
            document = document[part]
        del document[path[-1]]

    return mutate


CALL = ("choices", 0, "message", "tool_calls", 0)
#: surface -> (mutation id, mutate, the drift path)
BODY_MUTATIONS = {
    "chat_completion": [
        ("arguments object", _set(*CALL, "function", "arguments", value={"a": 1}),
         "choices[0].message.tool_calls[0].function.arguments"),
        ("type a number", _set(*CALL, "type", value=7), "choices[0].message.tool_calls[0].type"),
        ("id removed", _delete(*CALL, "id"), "choices[0].message.tool_calls[0].id"),
        ("role removed", _delete("choices", 0, "message", "role"), "choices[0].message.role"),
    ],
    "response": [
        ("arguments object", _set("output", 0, "arguments", value={"a": 1}), "output[0].arguments"),
        ("type a number", _set("output", 0, "type", value=7), "output[0].type"),
        ("call_id removed", _delete("output", 0, "call_id"), "output[0].call_id"),
    ],
    "message": [
        ("input a string", _set("content", 0, "input", value="{}"), "content[0].input"),
        ("type a number", _set("content", 0, "type", value=7), "content[0].type"),
        ("id removed", _delete("content", 0, "id"), "content[0].id"),
    ],
}  # fmt: skip
DELTA = ("choices", 0, "delta", "tool_calls", 0)
#: surface -> (mutation id, index of the mutated event, mutate, the drift path)
EVENT_MUTATIONS = {
    "chat_completion_chunk": [
        ("arguments object", 1, _set(*DELTA, "function", "arguments", value={"a": 1}),
         "choices[0].delta.tool_calls[0].function.arguments"),
        ("index removed", 2, _delete(*DELTA, "index"), "choices[0].delta.tool_calls[0].index"),
    ],
    "response_stream_event": [
        ("delta an object", 2, _set("delta", value={"a": 1}), "delta"),
        ("item type a number", 1, _set("item", "type", value=7), "item.type"),
        ("call_id removed", 1, _delete("item", "call_id"), "item.call_id"),
    ],
    "message_stream_event": [
        ("partial_json an object", 2, _set("delta", "partial_json", value={"a": 1}),
         "delta.partial_json"),
        ("block type a number", 1, _set("content_block", "type", value=7), "content_block.type"),
        ("id removed", 1, _delete("content_block", "id"), "content_block.id"),
    ],
}  # fmt: skip


def _fetch(surface: str, body: Any, server: Loopback, clients: tuple[Any, Any]) -> Any:
    if surface in BODY_MUTATIONS:
        server.reply_json(body)
        return ask(clients, surface)
    server.reply_stream(STREAM_APIS[surface], body)
    return ask(clients, surface, stream=True)


BODIES: dict[str, Callable[[], Any]] = {
    "chat_completion": lambda: chat_completion(CALLS),
    "response": lambda: response(CALLS),
    "message": lambda: message(CALLS),
    "chat_completion_chunk": lambda: chat_chunks(CALLS),
    "response_stream_event": lambda: response_events(CALLS),
    "message_stream_event": lambda: message_events(CALLS),
}
PROVIDER = {"message": "anthropic", "message_stream_event": "anthropic"}


def _drift_paths(gen: ModuleType, surface: str, sdk_object: Any, raw: Any) -> dict[str, str | None]:
    module = getattr(gen, PROVIDER.get(surface, "openai"))
    validate = getattr(module, f"validate_{surface}")
    paths: dict[str, str | None] = {}
    for form, value in forms(sdk_object, raw).items():
        try:
            validate(value)
            paths[form] = None
        except module.SchemaDriftError as drift:
            paths[form] = drift.path
    return paths


@pytest.mark.parametrize(
    ("surface", "mutate", "path"),
    [
        pytest.param(surface, mutate, path, id=f"{surface}: {name}")
        for surface, cases in BODY_MUTATIONS.items()
        for name, mutate, path in cases
    ],
)
def test_mutated_bodies_drift_in_every_form(
    gen: ModuleType,
    server: Loopback,
    openai_client: Any,
    anthropic_client: Any,
    surface: str,
    mutate: Callable[[Any], None],
    path: str,
) -> None:
    body = BODIES[surface]()
    mutate(body)
    received = _fetch(surface, body, server, (openai_client, anthropic_client))
    paths = _drift_paths(gen, surface, received, body)
    assert paths == dict.fromkeys(paths, path)


@pytest.mark.parametrize(
    ("surface", "index", "mutate", "path"),
    [
        pytest.param(surface, index, mutate, path, id=f"{surface}: {name}")
        for surface, cases in EVENT_MUTATIONS.items()
        for name, index, mutate, path in cases
    ],
)
def test_mutated_events_drift_in_every_form_and_only_there(
    gen: ModuleType,
    server: Loopback,
    openai_client: Any,
    anthropic_client: Any,
    surface: str,
    index: int,
    mutate: Callable[[Any], None],
    path: str,
) -> None:
    events = BODIES[surface]()
    original = copy.deepcopy(events[index])
    mutate(events[index])
    assert events[index] != original
    received = _fetch(surface, events, server, (openai_client, anthropic_client))
    assert len(received) == len(events)
    for position, (event, raw) in enumerate(zip(received, events, strict=True)):
        paths = _drift_paths(gen, surface, event, raw)
        assert paths == dict.fromkeys(paths, path if position == index else None), position
