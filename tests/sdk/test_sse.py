"""``gen.testing.<provider>.sse(...)``: the fakes as the bytes the provider's HTTP API sends.

For every provider profile and API, the official SDK (openai, anthropic, google-genai; the suite
has no boto3, so ConverseStream and Workers AI are read from the loopback server as bytes) reads
``sse(...)`` from the loopback server, and the generated package decodes what it yields back into
the canonical payloads given. Each API's framing (its runtime module's ``stream_body``) is checked
against the provider's recorded streams of ../shared/corpus: the same lines, line ends, event
names and end marker around the same JSON, and for ConverseStream the same bytes, message for
message, CRCs included."""

from __future__ import annotations

import importlib
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests import fake_builders
from tests.sdk.loopback import USER, Loopback
from toolgen.apis import by_name
from toolgen.apis.converse import event_messages, stream_events
from toolgen.providers import ENDPOINTS, PROFILES, PROVIDER_NAMES
from toolgen.runtime import _converse, _responses

#: (provider, api) for every API of every provider with a module
CASES = [(p, api) for p in PROVIDER_NAMES for api in PROFILES[p].api_names]
#: canonical calls, with members the projections encode or box (billing.refund leaves its
#: optional members out; they come back absent) and text beyond ASCII
CALLS = [
    ("weather.get_forecast", {"city": "Lyon", "days": 5, "units": "celsius"}),
    ("billing.refund", {"charge_id": "ch_9Kx2LmQ7", "reason": "duplicate"}),
    ("files.list_directory", {"path": "docs/ü", "recursive": True}),
]
TEXT = "Checking that for you — now."
FIXTURES = Path(__file__).parents[1] / "fixtures" / "cloudflare" / "streams"


def _post(server: Loopback) -> tuple[str, bytes]:
    """(content type, body) of a plain POST to the loopback server (no proxy)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(server.url + "/stream", data=b"{}", method="POST")
    with opener.open(request) as answer:
        return answer.headers["Content-Type"], answer.read()


def _received(api: str, server: Loopback, clients: dict[str, Any]) -> list[Any]:
    """What the API's official SDK yields for the stream the server answers with (or, for the APIs
    it has none of here, the events toolgen's framing readers find in the bytes)."""
    if api == "chat":
        return list(
            clients["openai"].chat.completions.create(model="m", messages=USER, stream=True)
        )
    if api == "responses":
        return list(clients["openai"].responses.create(model="m", input="hi", stream=True))
    if api == "messages":
        request = {"model": "m", "max_tokens": 1024, "messages": USER, "stream": True}
        return list(clients["anthropic"].messages.create(**request))
    if api == "generate_content":
        return list(clients["genai"].models.generate_content_stream(model="m", contents="hi"))
    content_type, body = _post(server)
    assert content_type == fake_builders.content_type(api)
    return stream_events(body) if api == "converse" else by_name(api).canary.events(body)


@pytest.mark.parametrize(("provider", "api"), CASES, ids=[f"{p}-{a}" for p, a in CASES])
def test_the_sdk_reads_sse_and_the_package_decodes_the_canonical_payloads(
    gen: Any,
    server: Loopback,
    openai_client: Any,
    anthropic_client: Any,
    genai_client: Any,
    provider: str,
    api: str,
) -> None:
    module = importlib.import_module(f"{gen.__name__}.{provider}")
    fakes = importlib.import_module(f"{gen.__name__}.testing.{provider}")
    body = fakes.sse(CALLS, api=api, text=TEXT)
    assert isinstance(body, bytes)
    assert body.content_type == fake_builders.content_type(api)
    server.reply_served(body)
    clients = {"openai": openai_client, "anthropic": anthropic_client, "genai": genai_client}
    received = _received(api, server, clients)
    # Workers AI's decoders read by model: the one its fakes name
    model = {"model": ENDPOINTS[provider].model} if provider == "cloudflare" else {}
    stream = module.ToolCallStream(api=api, **model)
    for event in received:
        stream.add(event)
    decoded = [(c.name, c.arguments.model_dump(mode="json")) for c in stream.tool_calls()]
    assert decoded == CALLS


# -- each API's framing against the recorded streams ------------------------------------------

#: API -> globs of its recorded server-sent event streams (under the corpus's envelopes, or the
#: Workers AI fixtures), the provider's own API
RECORDED = {
    "chat": ("openai/chat-completions-stream/*.txt", "mistral/chat-completions-stream/*.txt"),
    "responses": ("openai/responses-stream/*.txt",),
    "messages": ("anthropic/messages-stream/*.txt",),
    "generate_content": (
        "google-gla/generate-content-stream/*.txt",
        "google-vertex/generate-content-stream/*.txt",
    ),
}


def _skeleton(body: bytes) -> list[str]:
    """The lines of a server-sent event stream, ends kept, with each ``data:`` line's JSON written
    one way (the recordings space and pad theirs as they like)."""
    lines = []
    for line in body.decode("utf-8").splitlines(keepends=True):
        text = line.rstrip("\r\n")
        if text.startswith("data: ") and text != "data: [DONE]":
            value = json.loads(text.removeprefix("data: "))
            line = f"data: {json.dumps(value, sort_keys=True)}{line[len(text) :]}"
        lines.append(line)
    return lines


def _recorded_events(body: bytes) -> list[Any]:
    return [
        json.loads(line.removeprefix("data: "))
        for line in body.decode("utf-8").splitlines()
        if line.startswith("data: ") and line != "data: [DONE]"
    ]


def _recorded(corpus: Path, api: str) -> list[Path]:
    if api == "run":
        return sorted(FIXTURES.glob("*.sse"))
    return sorted(p for glob in RECORDED[api] for p in (corpus / "envelopes").glob(glob))


@pytest.mark.parametrize("api", [*RECORDED, "run"])
def test_the_framing_is_the_recorded_streams(corpus_dir: Path, api: str) -> None:
    recordings = _recorded(corpus_dir, api)
    assert recordings
    for path in recordings:
        recorded = path.read_bytes()
        framed = fake_builders.framed(api, _recorded_events(recorded))
        assert _skeleton(framed) == _skeleton(recorded), path.name


def test_openrouter_frames_a_responses_stream_as_recorded(corpus_dir: Path, gen: Any) -> None:
    """OpenRouter relays the Responses API in a framing of its own (no event names, an end
    marker): its profile says so, its recordings show it, and its fakes' ``sse`` writes it."""
    options = PROFILES["openrouter"].module_data["stream_framing"]["responses"]
    bodies = sorted((corpus_dir / "envelopes" / "openrouter" / "responses-stream").glob("*.txt"))
    assert bodies
    for path in bodies:
        recorded = path.read_bytes()
        # its keep-alive comments (": OPENROUTER PROCESSING") carry no event
        events_only = re.sub(rb"(?m)^:[^\n]*\n\n", b"", recorded)
        framed = _responses.stream_body(_recorded_events(recorded), **options)
        assert _skeleton(framed) == _skeleton(events_only), path.name
    fakes = importlib.import_module(f"{gen.__name__}.testing.openrouter")
    events = fakes.stream(CALLS, api="responses", text=TEXT)
    body = fakes.sse(CALLS, api="responses", text=TEXT)
    assert body == _responses.stream_body(events, **options)
    assert body != _responses.stream_body(events)


def test_converse_stream_is_the_recorded_bytes(corpus_dir: Path) -> None:
    """Each recorded message, its event and payload framed again, is the same bytes: lengths,
    header order and types, both CRCs (the payloads are compact JSON, as Bedrock writes them)."""
    bodies = sorted((corpus_dir / "envelopes" / "bedrock" / "converse-stream").glob("*.bin"))
    assert bodies
    for path in bodies:
        recorded = path.read_bytes()
        messages = event_messages(recorded)
        events = [{m.headers[":event-type"]: json.loads(m.payload)} for m in messages]
        assert _converse.stream_body(events) == recorded, path.name


@pytest.mark.parametrize("api", fake_builders.APIS)
def test_the_framing_reads_back_as_the_events(api: str) -> None:
    """What the canary's framing readers (toolgen.apis) find in a fake stream's bytes is its
    events, however many calls and whatever text."""
    for calls, text in (([], None), ([("get_weather", {"city": "Zürich"})] * 2, "A\nB — C")):
        events = fake_builders.stream(api, calls, text=text)
        read = by_name(api).canary.events(fake_builders.framed(api, events))
        assert read == events
