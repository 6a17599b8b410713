"""Recorded provider responses (../shared/corpus/envelopes) through the official clients: a sample of
each surface's bodies and streams decodes in every form a user holds, without drift, to the calls
the raw JSON gives. (Every recording's raw JSON and SDK forms: tests/envelope/test_corpus.py.)"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import (
    BODIES,
    ENVELOPES,
    NAMES,
    STREAMS,
    bodies,
    decoder,
    forms,
    raw_reader,
    spread,
    stream_events,
)
from tests.sdk.loopback import STREAM_APIS, Loopback, ask

pytestmark = pytest.mark.corpus

BODIES_PER_FOLDER = 8
STREAMS_PER_FOLDER = 3
#: The surfaces the openai and anthropic clients serve.
CLIENT_SURFACES = frozenset({"chat_completion", "response", "message"})
CLIENT_STREAM_SURFACES = frozenset(
    {"chat_completion_chunk", "response_stream_event", "message_stream_event"}
)


def envelopes(gen: ModuleType, provider: str) -> ModuleType:
    return importlib.import_module(f"{gen.__name__}._envelopes_{provider}")


def raw_calls(calls: list[Any]) -> list[tuple[str, str, str, Any]]:
    return [(c.id, c.name, c.raw_arguments, c.arguments) for c in calls]


#: The folders whose surfaces the openai and anthropic clients serve (boto3, Bedrock's client,
#: hands out plain dicts: its recordings are tested as raw JSON in tests/envelope).
CLIENT_BODIES = [folder for folder in sorted(BODIES) if BODIES[folder][1] in CLIENT_SURFACES]
CLIENT_STREAMS = [
    folder for folder in sorted(STREAMS) if STREAMS[folder][1] in CLIENT_STREAM_SURFACES
]


@pytest.mark.parametrize("folder", CLIENT_BODIES)
def test_recorded_bodies_through_the_clients(
    gen: ModuleType, server: Loopback, openai_client: Any, anthropic_client: Any, folder: str
) -> None:
    provider, surface = BODIES[folder]
    module = envelopes(gen, provider)
    validate = getattr(module, f"validate_{surface}")
    parse = decoder(provider, surface, gen.__name__).parse_tool_calls
    for name, body in spread(bodies(folder), BODIES_PER_FOLDER):
        server.reply_json(body)
        received = ask((openai_client, anthropic_client), surface)
        expected = raw_calls(parse(body, raw_reader(parse, NAMES)))
        for form, value in forms(received, body).items():
            validate(value)
            assert raw_calls(parse(value, raw_reader(parse, NAMES))) == expected, (name, form)


def _reply(server: Loopback, path: Path, surface: str, events: list[Any]) -> None:
    """The recorded stream's own bytes, or its recorded events in their API's framing."""
    if path.suffix == ".txt":
        server.reply_sse(path.read_text())
    else:
        server.reply_stream(STREAM_APIS[surface], events)


def _usable(path: Path, events: list[Any]) -> bool:
    """Streams the clients read to the end: no error events (a client raises on those)."""
    if path.suffix == ".txt" and "event: error" in path.read_text():
        return False
    return bool(events) and not any(
        isinstance(e, dict) and (e.get("error") or e.get("type") == "error") for e in events
    )


@pytest.mark.parametrize("folder", CLIENT_STREAMS)
def test_recorded_streams_through_the_clients(
    gen: ModuleType, server: Loopback, openai_client: Any, anthropic_client: Any, folder: str
) -> None:
    provider, surface = STREAMS[folder]
    module = envelopes(gen, provider)
    validate = getattr(module, f"validate_{surface}")
    accumulator = decoder(provider, surface, gen.__name__).stream
    usable = [
        (name, events)
        for name, events in stream_events(folder)
        if _usable(ENVELOPES / folder / name, events)
    ]
    assert usable
    for name, events in spread(usable, STREAMS_PER_FOLDER):
        _reply(server, ENVELOPES / folder / name, surface, events)
        received = ask((openai_client, anthropic_client), surface, stream=True)
        assert received, name
        reference = accumulator()
        for event in events:
            reference.add(event)
        expected = raw_calls(reference.tool_calls(raw_reader(reference, NAMES)))
        streams = {form: accumulator() for form in forms(received[0])}
        for event in received:
            for form, value in forms(event).items():
                validate(value)
                streams[form].add(value)
        for form, stream in streams.items():
            got = raw_calls(stream.tool_calls(raw_reader(stream, NAMES)))
            assert got == expected, (name, form, json.dumps(got)[:200])
