"""The fakes of each API's runtime module look like what the providers send: every member path
they write (beside the arguments, which are the caller's) and every kind they name (``type``,
``object``, ``role``, ``status`` and the stop reasons) appear in recorded responses of the same API
(../shared/corpus/envelopes; Workers AI: tests/fixtures/cloudflare)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import fake_builders as _fakes

FIXTURES = Path(__file__).parent / "fixtures" / "cloudflare"
#: members whose value is the caller's (the arguments), not the provider's envelope
ARGUMENT_MEMBERS = {"input", "args", "arguments"}
KIND_MEMBERS = {"type", "object", "role", "status", "finish_reason", "stop_reason"}
KIND_MEMBERS |= {"stopReason", "finishReason"}
CALLS = [
    ("get_weather", {"city": "Lyon", "days": 5}),
    ("list_directory", {"path": "docs", "page": {"size": 10}}),
]
#: name -> (api, options, recorded bodies, recorded streams): globs under the corpus envelopes, or
#: under tests/fixtures/cloudflare for the Workers AI shapes
RECORDED: dict[str, tuple[str, dict[str, Any], tuple[str, ...], tuple[str, ...]]] = {
    "chat": (
        "chat",
        {},
        ("openai/chat-completions/*.json",),
        ("openai/chat-completions-stream/*.txt", "openai/chat-completions-stream-chunks/*"),
    ),
    "lenient chat": (
        "chat",
        {"lenient": True},
        ("mistral/chat-completions/*.json",),
        ("mistral/chat-completions-stream/*.txt", "mistral/chat-completions-stream-chunks/*"),
    ),
    "responses": (
        "responses",
        {},
        ("openai/responses/*.json",),
        ("openai/responses-stream/*.txt", "openai/responses-stream-chunks/*"),
    ),
    "messages": (
        "messages",
        {},
        ("anthropic/messages/*.json",),
        ("anthropic/messages-stream/*.txt", "anthropic/messages-stream-chunks/*"),
    ),
    "converse": (
        "converse",
        {},
        ("bedrock/converse/*.json",),
        ("bedrock/converse-stream-chunks/*", "bedrock/converse-stream/*.decoded.jsonl"),
    ),
    "generate_content": (
        "generate_content",
        {},
        ("google-gla/generate-content/*.json", "google-vertex/generate-content/*.json"),
        (
            "google-gla/generate-content-stream/*.txt",
            "google-gla/generate-content-stream-chunks/*",
            "google-vertex/generate-content-stream/*.txt",
            "google-vertex/generate-content-stream-chunks/*",
        ),
    ),
    "run native": ("run", {}, ("bodies/meta_*.json",), ("streams/meta_*.sse",)),
    "run chat": ("run", {"shape": "chat"}, ("bodies/*_chat_*.json",), ("streams/*_chat_*.sse",)),
    "run responses": (
        "run",
        {"shape": "responses"},
        ("bodies/*_responses_*.json",),
        ("streams/*_responses_*.sse",),
    ),
}


def _members(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every member below ``value`` (``a.b[].c``), not entering arguments."""
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else key
            yield inner, item
            if key not in ARGUMENT_MEMBERS:
                yield from _members(item, inner)
    elif isinstance(value, list):
        for item in value:
            yield from _members(item, f"{path}[]")


def _seen(values: list[Any]) -> tuple[set[str], set[tuple[str, str]]]:
    """(member paths, (path, kind) pairs) of JSON values; an event's paths are under its type."""
    paths: set[str] = set()
    kinds: set[tuple[str, str]] = set()
    for value in values:
        event = value.get("type") if isinstance(value, dict) else None
        prefix = f"{event}:" if isinstance(event, str) else ""
        for path, item in _members(value):
            paths.add(prefix + path)
            if path.rsplit(".", 1)[-1] in KIND_MEMBERS and isinstance(item, str):
                kinds.add((prefix + path, item))
    return paths, kinds


def _events(file: Path) -> Iterator[Any]:
    """The JSON events of a recorded stream: SSE ``data:`` lines, or one event a line; a decoded
    Bedrock eventstream frame as the SDK yields it (``{event type: payload}``)."""
    for line in file.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        text = text[5:].strip() if text.startswith("data:") else text
        if not text.startswith("{"):
            continue
        try:
            event = json.loads(text)
        except ValueError:
            continue
        if file.name.endswith(".decoded.jsonl"):
            payload = {k: v for k, v in event["payload"].items() if k != "p"}  # "p": padding
            event = {event["headers"][":event-type"]: payload}
        yield event


def _recorded(root: Path, patterns: tuple[str, ...], stream: bool) -> list[Any]:
    files = sorted(file for pattern in patterns for file in root.glob(pattern))
    if stream:
        return [event for file in files for event in _events(file)]
    return [json.loads(file.read_text(encoding="utf-8")) for file in files]


def _fakes_of(api: str, options: dict[str, Any], stream: bool) -> list[Any]:
    """Bodies, or the events of streams, with and without calls and text."""
    build = _fakes.stream if stream else _fakes.response
    made = [build(api, c, text=t, **options) for c in (CALLS, []) for t in ("Hi there", None)]
    return [event for events in made for event in events] if stream else made


@pytest.mark.parametrize("name", list(RECORDED))
def test_the_fakes_write_only_what_the_providers_were_recorded_sending(
    name: str, corpus_dir: Path
) -> None:
    api, options, body_patterns, stream_patterns = RECORDED[name]
    root = corpus_dir / "envelopes"
    if api == "run":
        root, options = FIXTURES, {**options, "model": "@cf/test/model"}
    for patterns, stream in ((body_patterns, False), (stream_patterns, True)):
        recorded = _recorded(root, patterns, stream)
        assert recorded, patterns
        paths, kinds = _seen(recorded)
        fakes = _fakes_of(api, options, stream)
        if api == "run" and stream:
            # the Workers AI streams at hand (built by hand from its types) are one tool-call
            # stream per shape: only the fake's events of the types they show are compared, but
            # the result objects of the lifecycle events (compared as bodies); the events they
            # lack are compared with the recorded Responses streams
            shown = {event.get("type") for event in recorded}
            fakes = [
                {key: value for key, value in event.items() if key != "response"}
                for event in _fakes.stream(api, CALLS, **options)
                if event.get("type") in shown
            ]
        fake_paths, fake_kinds = _seen(fakes)
        assert sorted(fake_paths - paths) == []
        assert sorted(fake_kinds - kinds) == []
