"""Typed decode benchmark: toolgen's ``parse_tool_calls`` against the path a user of the SDK writes.

A 4-call response of the example design (refund, contact, forecast, email; strict-mode payloads,
so the nulls strict mode forces are in the arguments), decoded to model instances:

* from raw JSON (the dict a response's body parses to): toolgen's ``parse_tool_calls(body)``
  (envelope, names, JSON, inverse, model) against the SDK path: ``ChatCompletion.model_validate``
  of the body, then per call ``json.loads`` of the arguments, nulls stripped, the model's
  ``model_validate``;
* from the SDK object (what the client returns, built with the SDK's own ``construct_type``):
  ``parse_tool_calls(completion)`` against the user's own path from that object: read
  ``tool_calls``, ``json.loads``, strip nulls, ``model_validate``;
* the same two for Anthropic's Messages API (``input`` arrives parsed and without forced nulls:
  the user's path is ``model_validate`` of each ``tool_use`` block's ``input``);
* streams: the chunks of a streamed chat completion and the events of a streamed Anthropic
  message carrying the same calls (written by the package's own ``testing`` fakes, then made the
  clients' objects), joined by ``ToolCallStream`` against the user's own join of the deltas;
* the envelope check of each SDK object alone against the same user's path: the user's path
  checks no envelope, so this is the part of the user's time that the drift check alone takes,
  the floor under the SDK-object ratios;
* "Checks included": toolgen from the SDK objects against the same user's paths with the checks
  toolgen makes written in (the envelope's drift check, and the JSON reading and limits of
  ``_json`` in place of ``json.loads``): what toolgen's own decoding adds above those checks;
* the lenient Chat Completions decoder (OpenRouter's module) given the OpenAI client's object,
  against the same decoder given the object's dump (what it did before);
* Gemini's generateContent as google-genai's object (``GenerateContentResponse``, built by the
  SDK's own ``_from_response`` from the body the package's testing fakes write): toolgen's
  ``parse_tool_calls(response)`` against the user's path from it (``function_calls``, strip
  nulls, ``model_validate``), and against toolgen given the object's dump (what toolgen did
  before it read google-genai's objects through their attributes: ``json_value``'s
  ``model_dump`` then the checks of the JSON); the same for the stream's chunk.

Both contenders produce the same model instances (checked before timing). Each round runs every
contender over the same response, in a shuffled order (interleaved, one process); the report
gives the ratio of the minima and of the medians.

    python -m bench.decode    # writes the "## Typed decode" section of bench/RESULTS.md
    python -m bench.decode 41 Gemini,validate_,Lenient    # those comparisons alone, in a section of their own
    python -m bench.decode 41 "Checks included"
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.results import write_section

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "design"
COMMAND = "python -m bench.decode"
ROUNDS = 41
PACKAGE = "toolgen_bench_decode"

REFUND = {"charge_id": "ch_12345678", "amount": None, "reason": "duplicate", "note": None}
CONTACT = {
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "phone": None,
    "address": {
        "street": "1 Analytical Way",
        "city": "London",
        "postal_code": None,
        "country": "GB",
    },
    "company": {"name": "Engines Ltd", "domain": None},
    "tags": ["vip", "uk"],
    "status": None,
}
FORECAST = {"city": "Lyon", "days": 5, "units": "celsius"}
EMAIL = {
    "to": ["ada@example.com"],
    "cc": None,
    "subject": "Your refund",
    "body": "The duplicate charge was refunded.",
    "priority": "normal",
}
#: provider name, canonical name, strict-mode arguments
CALLS = (
    ("billing_refund", "billing.refund", REFUND),
    ("crm_upsert_contact", "crm.upsert_contact", CONTACT),
    ("weather_get_forecast", "weather.get_forecast", FORECAST),
    ("send_email", "send_email", EMAIL),
)


def chat_completion() -> dict[str, Any]:
    """A recorded-shape chat completion with the four calls (arguments as compact JSON text)."""
    return {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 1764806400,
        "model": "gpt-5-2025-08-07",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "refusal": None,
                    "annotations": [],
                    "tool_calls": [
                        {
                            "id": f"call_{index}",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                        for index, (name, _, arguments) in enumerate(CALLS)
                    ],
                },
                "finish_reason": "tool_calls",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": 512,
            "completion_tokens": 160,
            "total_tokens": 672,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 64, "audio_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": None,
    }


def message() -> dict[str, Any]:
    """An Anthropic message with the four calls as ``tool_use`` blocks (``input`` parsed)."""
    return {
        "id": "msg_bench",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "text", "text": "Doing all four."},
            *(
                {
                    "type": "tool_use",
                    "id": f"toolu_{index}",
                    "name": name,
                    "input": strip_nulls(arguments),  # optional members stay optional
                }
                for index, (name, _, arguments) in enumerate(CALLS)
            ),
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 512,
            "output_tokens": 160,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }


def strip_nulls(value: Any) -> Any:
    """What a user writes to drop the nulls strict mode forced (members only, recursively)."""
    if type(value) is dict:
        return {k: strip_nulls(v) for k, v in value.items() if v is not None}
    if type(value) is list:
        return [strip_nulls(v) for v in value]
    return value


def build_package(folder: Path) -> Any:
    """The example design built with the toolgen of this checkout, imported."""
    subprocess.run(
        [sys.executable, "-c", "from toolgen.cli import run; run()", "build", str(EXAMPLE)]
        + ["-o", str(folder / PACKAGE), "-q"]
        + ["--provider", "openai", "--provider", "anthropic", "--provider", "gemini"]
        + ["--provider", "openrouter"],
        check=True,
    )
    sys.path.insert(0, str(folder))
    return importlib.import_module(PACKAGE)


def contenders(gen: Any) -> dict[str, dict[str, Callable[[], Any]]]:
    """Per comparison, its two contenders (toolgen first), each a call that decodes one response."""
    from anthropic._models import construct_type as anthropic_construct
    from anthropic.types import Message, RawMessageStreamEvent
    from openai._models import construct_type as openai_construct
    from openai.types.chat import ChatCompletion, ChatCompletionChunk

    oai = importlib.import_module(f"{gen.__name__}.openai")
    claude = importlib.import_module(f"{gen.__name__}.anthropic")
    model_for = importlib.import_module(f"{gen.__name__}.models").model_for
    openai_envelopes = importlib.import_module(f"{gen.__name__}._envelopes_openai")
    anthropic_envelopes = importlib.import_module(f"{gen.__name__}._envelopes_anthropic")
    models = {provider: model_for("tool", canonical) for provider, canonical, _ in CALLS}
    body, anthropic_body = chat_completion(), message()
    completion = openai_construct(type_=ChatCompletion, value=copy.deepcopy(body))
    anthropic_message = anthropic_construct(type_=Message, value=copy.deepcopy(anthropic_body))

    def user_from_completion(completion: Any) -> list[Any]:
        return [
            models[call.function.name].model_validate(
                strip_nulls(json.loads(call.function.arguments))
            )
            for call in completion.choices[0].message.tool_calls or ()
            if call.type == "function"
        ]

    def user_from_message(message: Any) -> list[Any]:
        return [
            models[block.name].model_validate(block.input)
            for block in message.content
            if block.type == "tool_use"
        ]

    testing = importlib.import_module(f"{gen.__name__}.testing")
    canonical_calls = [(canonical, strip_nulls(arguments)) for _, canonical, arguments in CALLS]
    chunks = [
        openai_construct(type_=ChatCompletionChunk, value=chunk)
        for chunk in testing.openai.stream(canonical_calls)
    ]
    events = [
        anthropic_construct(type_=RawMessageStreamEvent, value=event)
        for event in testing.anthropic.stream(canonical_calls)
    ]

    gemini = importlib.import_module(f"{gen.__name__}.gemini")
    openrouter = importlib.import_module(f"{gen.__name__}.openrouter")
    gemini_envelopes = importlib.import_module(f"{gen.__name__}._envelopes_gemini")
    runtime = importlib.import_module(f"{gen.__name__}._runtime")
    from google.genai.types import GenerateContentResponse

    def genai_object(value: dict[str, Any]) -> Any:
        return GenerateContentResponse._from_response(response=copy.deepcopy(value), kwargs={})

    gemini_models = {gemini.PROVIDER_NAMES[canonical]: models[p] for p, canonical, _ in CALLS}
    gemini_response = genai_object(testing.gemini.response(canonical_calls))
    gemini_chunks = [genai_object(chunk) for chunk in testing.gemini.stream(canonical_calls)]

    def user_from_genai(response: Any) -> list[Any]:
        return [
            gemini_models[call.name].model_validate(strip_nulls(call.args or {}))
            for call in response.function_calls or ()
        ]

    def user_from_genai_chunks(chunks: list[Any]) -> list[Any]:
        return [model for chunk in chunks for model in user_from_genai(chunk)]

    def ours_from_dumps(chunks: list[Any]) -> list[Any]:
        joiner = gemini.ToolCallStream("generate_content")
        for chunk in chunks:
            joiner.add(runtime.json_value(chunk))
        return joiner.tool_calls()  # type: ignore[no-any-return]

    def ours_from_stream(module: Any, api: str, stream: list[Any]) -> list[Any]:
        joiner = module.ToolCallStream(api)
        for event in stream:
            joiner.add(event)
        return joiner.tool_calls()  # type: ignore[no-any-return]

    def user_from_chunks(
        chunks: list[Any], check: Callable[[Any], Any] | None = None, loads: Any = json.loads
    ) -> list[Any]:
        calls: dict[int, tuple[list[str], list[str]]] = {}
        for chunk in chunks:
            if check is not None:
                check(chunk)
            for choice in chunk.choices:
                if choice.index != 0:
                    continue
                for delta in choice.delta.tool_calls or ():
                    name, parts = calls.setdefault(delta.index, ([], []))
                    if delta.function is not None:
                        if delta.function.name:
                            name.append(delta.function.name)
                        if delta.function.arguments:
                            parts.append(delta.function.arguments)
        return [
            models[name[0]].model_validate(strip_nulls(loads("".join(parts))))
            for _, (name, parts) in sorted(calls.items())
        ]

    def user_from_events(
        events: list[Any], check: Callable[[Any], Any] | None = None, loads: Any = json.loads
    ) -> list[Any]:
        calls: dict[int, tuple[str, list[str]]] = {}
        for event in events:
            if check is not None:
                check(event)
            if event.type == "content_block_start" and event.content_block.type == "tool_use":
                calls[event.index] = (event.content_block.name, [])
            elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
                calls[event.index][1].append(event.delta.partial_json)
        return [
            models[name].model_validate(loads("".join(parts) or "{}"))
            for _, (name, parts) in sorted(calls.items())
        ]

    # the user's paths above with the checks toolgen makes (the envelope's drift check and the
    # JSON limits of the arguments) written in: what toolgen's own decoding adds is above these
    wire_json = importlib.import_module(f"{gen.__name__}._json")

    def checked_completion(completion: Any) -> list[Any]:
        openai_envelopes.read_chat_completion(completion)
        return [
            models[call.function.name].model_validate(
                strip_nulls(wire_json.loads(call.function.arguments))
            )
            for call in completion.choices[0].message.tool_calls or ()
            if call.type == "function"
        ]

    def checked_message(message: Any) -> list[Any]:
        anthropic_envelopes.read_message(message)
        return [
            models[block.name].model_validate(wire_json.checked(block.input))
            for block in message.content
            if block.type == "tool_use"
        ]

    def checked_genai(response: Any) -> list[Any]:
        gemini_envelopes.read_generate_content(response)
        return [
            gemini_models[call.name].model_validate(strip_nulls(wire_json.checked(call.args or {})))
            for call in response.function_calls or ()
        ]

    return {
        "OpenAI chat completion, raw JSON": {
            "toolgen parse_tool_calls(body)": lambda: oai.parse_tool_calls(body),
            "SDK path: ChatCompletion.model_validate + per call json.loads, strip nulls, "
            "model_validate": lambda: user_from_completion(ChatCompletion.model_validate(body)),
        },
        "OpenAI chat completion, SDK object": {
            "toolgen parse_tool_calls(completion)": lambda: oai.parse_tool_calls(completion),
            "user's path from the object: tool_calls, json.loads, strip nulls, model_validate": (
                lambda: user_from_completion(completion)
            ),
        },
        "Anthropic message, raw JSON": {
            "toolgen parse_tool_calls(body)": lambda: claude.parse_tool_calls(anthropic_body),
            "SDK path: Message.model_validate + per block model_validate": (
                lambda: user_from_message(Message.model_validate(anthropic_body))
            ),
        },
        "Anthropic message, SDK object": {
            "toolgen parse_tool_calls(message)": lambda: claude.parse_tool_calls(anthropic_message),
            "user's path from the object: content, model_validate": (
                lambda: user_from_message(anthropic_message)
            ),
        },
        "OpenAI chat completion stream, SDK chunk objects": {
            "toolgen ToolCallStream: add(chunk) each, tool_calls()": lambda: ours_from_stream(
                oai, "chat", chunks
            ),
            "user's path from the chunks: join deltas by index, json.loads, strip nulls, "
            "model_validate": lambda: user_from_chunks(chunks),
        },
        "Anthropic message stream, SDK event objects": {
            "toolgen ToolCallStream: add(event) each, tool_calls()": lambda: ours_from_stream(
                claude, "messages", events
            ),
            "user's path from the events: join input_json_delta by index, json.loads, "
            "model_validate": lambda: user_from_events(events),
        },
        "Gemini generateContent, google-genai object": {
            "toolgen parse_tool_calls(response)": lambda: gemini.parse_tool_calls(gemini_response),
            "user's path from the object: function_calls, strip nulls, model_validate": (
                lambda: user_from_genai(gemini_response)
            ),
        },
        "Gemini generateContent, google-genai object, read as it is against dumped (before)": {
            "toolgen parse_tool_calls(response)": lambda: gemini.parse_tool_calls(gemini_response),
            "toolgen parse_tool_calls of its dump (json_value: model_dump, then the JSON checks)": (
                lambda: gemini.parse_tool_calls(runtime.json_value(gemini_response))
            ),
        },
        "Gemini stream, google-genai chunk objects": {
            "toolgen ToolCallStream: add(chunk) each, tool_calls()": lambda: ours_from_stream(
                gemini, "generate_content", gemini_chunks
            ),
            "user's path from the chunks: function_calls of each, strip nulls, model_validate": (
                lambda: user_from_genai_chunks(gemini_chunks)
            ),
        },
        "Gemini stream, google-genai chunk objects, read as they are against dumped (before)": {
            "toolgen ToolCallStream: add(chunk) each, tool_calls()": lambda: ours_from_stream(
                gemini, "generate_content", gemini_chunks
            ),
            "toolgen ToolCallStream: add(dump of each chunk), tool_calls()": lambda: (
                ours_from_dumps(gemini_chunks)
            ),
        },
        "Gemini generateContent, google-genai object, the envelope check alone": {
            "toolgen's envelope check of the object": lambda: (
                gemini_envelopes.read_generate_content(gemini_response)
            ),
            "user's path from the object (as above)": lambda: user_from_genai(gemini_response),
        },
        "Lenient chat completion (OpenRouter), openai SDK object, read as it is against dumped "
        "(before)": {
            "toolgen parse_tool_calls(completion)": lambda: openrouter.parse_tool_calls(completion),
            "toolgen parse_tool_calls of its dump (json_value: model_dump, then the JSON checks)": (
                lambda: openrouter.parse_tool_calls(runtime.json_value(completion))
            ),
        },
        # validate_<surface> of the clients' objects, which returns them as given, against the
        # compiled JSON checks it ran before (_wire_<surface>: the object's dump, checked)
        "validate_ of an SDK object, given back against dumped (before): OpenAI ChatCompletion": {
            "validate_chat_completion(completion)": lambda: (
                openai_envelopes.validate_chat_completion(completion)
            ),
            "_wire_chat_completion(completion) (validate_ before)": lambda: (
                openai_envelopes._wire_chat_completion(completion)
            ),
        },
        "validate_ of an SDK object, given back against dumped (before): Anthropic Message": {
            "validate_message(message)": lambda: anthropic_envelopes.validate_message(
                anthropic_message
            ),
            "_wire_message(message) (validate_ before)": lambda: anthropic_envelopes._wire_message(
                anthropic_message
            ),
        },
        "validate_ of an SDK object, given back against dumped (before): google-genai response": {
            "validate_generate_content(response)": lambda: (
                gemini_envelopes.validate_generate_content(gemini_response)
            ),
            "_wire_generate_content(response) (validate_ before)": lambda: (
                gemini_envelopes._wire_generate_content(gemini_response)
            ),
        },
        # what the drift check alone costs, against the same user's paths: the floor of the two
        # comparisons above (the user's path checks no envelope)
        "OpenAI chat completion, SDK object, the envelope check alone": {
            "toolgen's envelope check of the object": lambda: openai_envelopes.read_chat_completion(
                completion
            ),
            "user's path from the object (as above)": lambda: user_from_completion(completion),
        },
        "OpenAI chat completion stream, SDK chunk objects, the envelope checks alone": {
            "toolgen's envelope check of each chunk": lambda: [
                openai_envelopes.read_chat_completion_chunk(chunk) for chunk in chunks
            ],
            "user's path from the chunks (as above)": lambda: user_from_chunks(chunks),
        },
        "Anthropic message stream, SDK event objects, the envelope checks alone": {
            "toolgen's envelope check of each event": lambda: [
                anthropic_envelopes.read_message_stream_event(event) for event in events
            ],
            "user's path from the events (as above)": lambda: user_from_events(events),
        },
        "Anthropic message, SDK object, the envelope check alone": {
            "toolgen's envelope check of the object": lambda: anthropic_envelopes.read_message(
                anthropic_message
            ),
            "user's path from the object (as above)": lambda: user_from_message(anthropic_message),
        },
        # toolgen against the user's paths with the same checks written in (see checked_completion)
        "Checks included: OpenAI chat completion, SDK object": {
            "toolgen parse_tool_calls(completion)": lambda: oai.parse_tool_calls(completion),
            "user's path from the object with toolgen's envelope check and JSON reading": (
                lambda: checked_completion(completion)
            ),
        },
        "Checks included: Anthropic message, SDK object": {
            "toolgen parse_tool_calls(message)": lambda: claude.parse_tool_calls(anthropic_message),
            "user's path from the object with toolgen's envelope check and JSON limits": (
                lambda: checked_message(anthropic_message)
            ),
        },
        "Checks included: Gemini generateContent, google-genai object": {
            "toolgen parse_tool_calls(response)": lambda: gemini.parse_tool_calls(gemini_response),
            "user's path from the object with toolgen's envelope check and JSON limits": (
                lambda: checked_genai(gemini_response)
            ),
        },
        "Checks included: OpenAI chat completion stream, SDK chunk objects": {
            "toolgen ToolCallStream: add(chunk) each, tool_calls()": lambda: ours_from_stream(
                oai, "chat", chunks
            ),
            "user's join with toolgen's envelope check of each chunk and JSON reading": (
                lambda: user_from_chunks(
                    chunks, openai_envelopes.read_chat_completion_chunk, wire_json.loads
                )
            ),
        },
        "Checks included: Anthropic message stream, SDK event objects": {
            "toolgen ToolCallStream: add(event) each, tool_calls()": lambda: ours_from_stream(
                claude, "messages", events
            ),
            "user's join with toolgen's envelope check of each event and JSON reading": (
                lambda: user_from_events(
                    events, anthropic_envelopes.read_message_stream_event, wire_json.loads
                )
            ),
        },
    }


def same_results(pair: dict[str, Callable[[], Any]]) -> None:
    """Both contenders give the same models (toolgen's wrapped in ToolCall); an envelope check
    alone gives back the object it checked."""
    ours, theirs = (function() for function in pair.values())
    if not isinstance(ours, list) or not hasattr(ours[0], "arguments"):
        return
    if theirs and hasattr(theirs[0], "arguments"):  # toolgen against toolgen (before and after)
        theirs = [call.arguments for call in theirs]
    assert [call.arguments for call in ours] == theirs, "the contenders disagree"


def per_response(function: Callable[[], Any], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


def race(pair: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    """Interleaved rounds, the contenders in a shuffled order each round; seconds per response."""
    repeat = max(1, int(0.02 / per_response(next(iter(pair.values())), 20)))
    times: dict[str, list[float]] = {name: [] for name in pair}
    order = list(pair)
    rng = random.Random(7)
    for _ in range(rounds):
        rng.shuffle(order)
        for name in order:
            times[name].append(per_response(pair[name], repeat))
    return times


def table(times: dict[str, list[float]]) -> list[str]:
    ours, theirs = times
    lines = [
        "| contender | µs per response (min) | µs per response (median) |",
        "|---|---|---|",
    ]
    for name, values in times.items():
        lines.append(
            f"| {name} | {min(values) * 1e6:.2f} | {statistics.median(values) * 1e6:.2f} |"
        )
    ratio_min = min(times[ours]) / min(times[theirs])
    ratios = [a / b for a, b in zip(times[ours], times[theirs], strict=True)]
    lines += [
        "",
        f"toolgen / the other: {ratio_min:.2f} (min), {statistics.median(ratios):.2f} "
        "(median of the per-round ratios).",
    ]
    return lines


def main(rounds: int = ROUNDS, only: str | None = None) -> None:
    """Every comparison into the "Typed decode" section, or with ``only`` (title prefixes,
    comma-separated) those whose title starts with one, into a section of their own ("Typed
    decode: <only>")."""
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        gen = build_package(Path(tmp))
        comparisons = {
            title: pair
            for title, pair in contenders(gen).items()
            if only is None or title.startswith(tuple(only.split(",")))
        }
        sections = []
        for title, pair in comparisons.items():
            same_results(pair)
            times = race(pair, rounds)
            sections += [f"### {title}: 4 calls", "", *table(times), ""]
            print(f"{title}: " + "; ".join(sections[-2:-1]), flush=True)
    name = "Typed decode" if only is None else f"Typed decode: {only}"
    command = COMMAND if only is None else f"{COMMAND} {rounds} {shlex.quote(only)}"
    section = [
        f"## {name}",
        "",
        f"Command: `{command}` ({rounds} rounds, the two contenders of each comparison "
        "interleaved in a shuffled order each round, one process; a 4-call response of the "
        f"example design; Python {platform.python_version()}; load average {load:.1f} on "
        f"{os.cpu_count()} cores at the start: the machine is shared, only the ratios of one run "
        "mean anything).",
        "",
        *sections,
    ]
    write_section(name, "\n".join(section).rstrip("\n") + "\n")


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS,
        sys.argv[2] if len(sys.argv) > 2 else None,
    )
