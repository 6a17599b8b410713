"""The fake responses of each API's runtime module, in the package built from the example design
for every provider and API: bodies and streams with 0, 1 and 3 calls, with and without text, pass
the provider's envelope validators, decode back through the package's decoders (parse_tool_calls,
ToolCallStream, assistant_turn) to the wire names and arguments given, and parse into the official
SDKs' types with the calls intact (which the decoders then read too)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests import fake_builders
from tests.sdk.loopback import USER, Loopback
from toolgen.providers import PROFILES, PROVIDER_NAMES


def _variants_of(provider: str, api: Any) -> tuple[str, ...]:
    """The variants of the fakes an API's decoders read: Workers AI's result shapes, and the
    lenient Chat Completions beside the plain one where the envelope takes it (OpenRouter's
    decoders read leniently, but its envelope, as recorded, has typed calls)."""
    if api.name == "run":
        return ("native", "chat", "responses")
    return ("", "lenient") if provider == "mistral" else ("",)


#: (provider, api, variant) for every API of every provider built
CASES = [
    (provider, api.name, variant)
    for provider in PROVIDER_NAMES
    for api in PROFILES[provider].apis
    for variant in _variants_of(provider, api)
]
CASE_IDS = [f"{p}-{a}{'-' + s if s else ''}" for p, a, s in CASES]

#: Canonical tool -> arguments whose wire form is the canonical form for every provider (every
#: member present and not null, no renamed members or encoded values).
ARGUMENTS = {
    "weather.get_forecast": [
        {"city": "Lyon", "days": 5, "units": "celsius"},
        {"city": 'Paris, "FR"', "days": 14, "units": "fahrenheit"},
    ],
    "files.list_directory": [
        {"path": "docs/ü", "recursive": True, "page": {"cursor": "c1", "size": 10}}
    ],
}
#: Workers AI result shape -> a model of a family that answers with it
WORKERS_MODELS = {
    "native": "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
    "chat": "@cf/qwen/qwen3-30b-a3b-fp8",
    "responses": "@cf/openai/gpt-oss-120b",
}
TEXTS = [None, "Checking the forecast for you now.", '{"answer": "Lyon"}']


def _module(gen: Any, name: str) -> Any:
    return importlib.import_module(f"{gen.__name__}.{name}")


def _calls(module: Any, count: int) -> list[tuple[str, Any]]:
    """``count`` calls in the wire form of ``module``'s provider."""
    wire = {canonical: name for name, canonical in module.CANONICAL_NAMES.items()}
    every = [(wire[tool], args) for tool, values in ARGUMENTS.items() for args in values]
    return every[:count]


def _variants(module: Any) -> Iterator[tuple[list[tuple[str, Any]], str | None]]:
    for count in (0, 1, 3):
        for text in TEXTS:
            yield _calls(module, count), text


class Reader:
    """The decoding side of one provider and API in the generated package."""

    def __init__(self, gen: Any, provider: str, api: str, variant: str) -> None:
        self.module = _module(gen, provider)
        self.envelopes = _module(gen, f"_envelopes_{provider}")
        self.gen = gen
        self.api = api
        shape = variant if api == "run" else ""
        self.options: dict[str, Any] = {"shape": shape} if shape else {}
        if variant == "lenient":
            self.options["lenient"] = True
        # Workers AI's decoders read by model (its chat endpoint too): a model of the family
        self.model = WORKERS_MODELS[shape or "chat"] if provider == "cloudflare" else None
        self.decode: dict[str, Any] = {"model": self.model} if self.model else {}
        if self.model:
            self.options["model"] = self.model

    def response(self, calls: list[tuple[str, Any]], text: str | None) -> Any:
        return fake_builders.response(self.api, calls, package=self.gen, text=text, **self.options)

    def stream(self, calls: list[tuple[str, Any]], text: str | None) -> Any:
        return fake_builders.stream(self.api, calls, package=self.gen, text=text, **self.options)

    def validate(self, body: Any, events: list[Any]) -> None:
        if self.api == "run":
            self.module.validate_response(body, model=self.model, api="run")
            return  # the stream's events are validated by ToolCallStream.add
        body_surface, event_surface = {
            "chat": ("chat_completion", "chat_completion_chunk"),
            "responses": ("response", "response_stream_event"),
            "messages": ("message", "message_stream_event"),
            "converse": ("converse", "converse_stream_event"),
            "generate_content": ("generate_content", "generate_content_chunk"),
        }[self.api]
        getattr(self.envelopes, f"validate_{body_surface}")(body)
        for event in events:
            getattr(self.envelopes, f"validate_{event_surface}")(event)

    def parsed(self, body: Any) -> list[tuple[str, Any]]:
        calls = self.module.parse_tool_calls(body, api=self.api, **self.decode)
        return [(call.wire_name, json.loads(call.raw_arguments)) for call in calls]

    def streamed(self, events: list[Any]) -> list[tuple[str, Any]]:
        joiner = self.module.ToolCallStream(api=self.api, **self.decode)
        for event in events:
            joiner.add(event)
        return [(call.wire_name, json.loads(call.raw_arguments)) for call in joiner.tool_calls()]

    def turn(self, body: Any) -> Any:
        return self.module.assistant_turn(body, api=self.api, **self.decode)


def _turn_calls(api: str, turn: Any) -> list[tuple[str, Any]]:
    """The calls an assistant turn replays, as (wire name, arguments)."""
    if api in ("chat", "run"):  # Workers AI replays every shape in Chat Completions form
        calls = turn.get("tool_calls") or ()
        return [(c["function"]["name"], _value(c["function"]["arguments"])) for c in calls]
    if api == "responses":
        calls = [item for item in turn if item["type"] == "function_call"]
        return [(item["name"], json.loads(item["arguments"])) for item in calls]
    if api == "messages":
        return [(b["name"], b["input"]) for b in turn["content"] if b["type"] == "tool_use"]
    if api == "converse":
        uses = [b["toolUse"] for b in turn["content"] if "toolUse" in b]
        return [(use["name"], use["input"]) for use in uses]
    calls = [part["functionCall"] for part in turn["parts"] if "functionCall" in part]
    return [(call["name"], call["args"]) for call in calls]


def _value(arguments: Any) -> Any:
    return json.loads(arguments) if isinstance(arguments, str) else arguments


@pytest.mark.parametrize(("provider", "api", "variant"), CASES, ids=CASE_IDS)
def test_fakes_pass_the_validators_and_decode_to_the_calls_given(
    gen: Any, provider: str, api: str, variant: str
) -> None:
    reader = Reader(gen, provider, api, variant)
    for calls, text in _variants(reader.module):
        body, events = reader.response(calls, text), reader.stream(calls, text)
        reader.validate(body, events)
        assert reader.parsed(body) == calls
        assert reader.streamed(events) == calls
        assert _turn_calls(api, reader.turn(body)) == calls
        if api in ("converse", "generate_content"):  # their loops replay a stream's turn too
            assert _turn_calls(api, reader.turn(events)) == calls


def _sdk_types(api: str) -> tuple[Any, Any] | None:
    """(validate a body, validate an event) into the official SDK's types of ``api``."""
    if api == "chat":
        chat = pytest.importorskip("openai.types.chat")
        return chat.ChatCompletion.model_validate, chat.ChatCompletionChunk.model_validate
    if api == "responses":
        pydantic = pytest.importorskip("pydantic")
        responses = pytest.importorskip("openai.types.responses")
        events = pydantic.TypeAdapter(responses.ResponseStreamEvent)
        return responses.Response.model_validate, events.validate_python
    if api == "messages":
        pydantic = pytest.importorskip("pydantic")
        anthropic = pytest.importorskip("anthropic.types")
        events = pydantic.TypeAdapter(anthropic.RawMessageStreamEvent)
        return anthropic.Message.model_validate, events.validate_python
    if api == "generate_content":
        genai = pytest.importorskip("google.genai.types")
        validate = genai.GenerateContentResponse.model_validate
        return validate, validate
    return None  # Converse (boto3 yields dicts) and Workers AI have no typed SDK


def _sdk_calls(api: str, body: Any) -> list[tuple[str, Any]]:
    """The calls of an SDK object, as (wire name, arguments)."""
    if api == "chat":
        calls = body.choices[0].message.tool_calls or ()
        return [(c.function.name, json.loads(c.function.arguments)) for c in calls]
    if api == "responses":
        items = [item for item in body.output if item.type == "function_call"]
        return [(item.name, json.loads(item.arguments)) for item in items]
    if api == "messages":
        return [(b.name, b.input) for b in body.content if b.type == "tool_use"]
    return [(c.name, c.args) for c in body.function_calls or ()]


SDK_CASES = [
    (p, a, v)
    for p, a, v in CASES
    if a in ("chat", "responses", "messages", "generate_content") and v != "lenient"
]


@pytest.mark.parametrize(
    ("provider", "api", "variant"), SDK_CASES, ids=[f"{p}-{a}" for p, a, _ in SDK_CASES]
)
def test_sdks_parse_the_fakes_and_the_decoders_read_the_sdk_objects(
    gen: Any, provider: str, api: str, variant: str
) -> None:
    reader = Reader(gen, provider, api, variant)
    types = _sdk_types(api)
    assert types is not None
    as_body, as_event = types
    for calls, text in _variants(reader.module):
        body = as_body(reader.response(calls, text))
        # the SDKs drop the keep-alive events (Anthropic's ping) rather than yield them
        wire = [event for event in reader.stream(calls, text) if event.get("type") != "ping"]
        events = [as_event(event) for event in wire]
        assert _sdk_calls(api, body) == calls
        assert reader.parsed(body) == calls
        assert reader.streamed(events) == calls


@pytest.mark.parametrize(
    ("provider", "api"),
    [
        ("openai", "chat"),
        ("openai", "responses"),
        ("anthropic", "messages"),
        ("gemini", "generate_content"),
    ],
)
def test_the_clients_put_the_streamed_fakes_together_into_the_calls_given(
    gen: Any,
    server: Loopback,
    openai_client: Any,
    anthropic_client: Any,
    genai_client: Any,
    provider: str,
    api: str,
) -> None:
    """Served over HTTP, the fakes go through the official clients: their streaming helpers join
    the argument fragments into the calls given, and the decoders read what the helpers built."""
    reader = Reader(gen, provider, api, "")
    calls = _calls(reader.module, 3)
    events = reader.stream(calls, TEXTS[1])
    if api == "generate_content":
        server.reply_stream(api, events)
        chunks = list(genai_client.models.generate_content_stream(model="m", contents="hi"))
        final = [call for chunk in chunks for call in chunk.function_calls or ()]
        assert [(c.name, c.args) for c in final] == calls
        assert reader.streamed(chunks) == calls
        assert "".join(chunk.text or "" for chunk in chunks) == TEXTS[1]
        return
    server.reply_stream(api, events)
    if api == "chat":
        with openai_client.chat.completions.stream(model="m", messages=USER) as stream:
            body = stream.get_final_completion()
        assert body.choices[0].message.content == TEXTS[1]
    elif api == "responses":
        with openai_client.responses.stream(model="m", input="hi") as stream:
            body = stream.get_final_response()
        assert body.output_text == TEXTS[1]
    else:
        request = {"model": "m", "max_tokens": 1024, "messages": USER}
        with anthropic_client.messages.stream(**request) as stream:
            body = stream.get_final_message()
        assert body.content[0].text == TEXTS[1]
    assert _sdk_calls(api, body) == calls
    assert reader.parsed(body) == calls


def _fragments(api: str, events: list[Any]) -> list[str]:
    """The argument fragments of a stream's first call."""
    if api == "chat":
        deltas = [
            d for e in events for c in e["choices"] for d in c["delta"].get("tool_calls") or ()
        ]
        return [d["function"]["arguments"] for d in deltas if d["index"] == 0]
    if api == "responses":
        return [e["delta"] for e in events if e["type"] == "response.function_call_arguments.delta"]
    if api == "messages":
        deltas = [e["delta"] for e in events if e["type"] == "content_block_delta"]
        return [d["partial_json"] for d in deltas if d["type"] == "input_json_delta"]
    deltas = [e["contentBlockDelta"]["delta"] for e in events if "contentBlockDelta" in e]
    return [d["toolUse"]["input"] for d in deltas if "toolUse" in d]


@pytest.mark.parametrize("api", ["chat", "responses", "messages", "converse"])
def test_streamed_arguments_come_in_several_fragments(gen: Any, api: str) -> None:
    [(name, arguments)] = _calls(_module(gen, "openai"), 1)
    events = fake_builders.stream(api, [(name, arguments)], package=gen)
    fragments = [f for f in _fragments(api, events) if f]
    assert len(fragments) > 1
    assert json.loads("".join(fragments)) == arguments
