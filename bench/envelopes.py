"""Envelope validators benchmark: the compiled validators against their peers, side by side.

Contenders, all checking the same envelope schema
(toolgen/providers/envelopes/<provider>/<surface>.json) on the recorded success bodies of
../shared/corpus/envelopes:
  * toolgen's compiled ``validate_<surface>`` (generated into a temporary package),
  * a hand-written function checking the same fields with bare ``type(...) is`` tests
    (the practical limit for pure Python),
  * fastjsonschema's compiled code, jsonschema's Draft202012Validator (``is_valid``),
  * the provider SDK's Pydantic model (``openai.types.chat.ChatCompletion.model_validate``,
    ``anthropic.types.Message.model_validate``),
  * toolgen's validator given the SDK object instead of the raw body (what it costs SDK users).
Each round runs every contender once over all bodies, in a shuffled order (interleaved, one
process); the report gives min and median per contender over the rounds, as ratios to the
hand-written check.

    python -m bench.envelopes    # writes the "## Envelope validators" section of bench/RESULTS.md
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator

from bench.results import write_section
from toolgen.compile.validators import (
    load_envelope_schemas,
    render_envelope_module,
)
from toolgen.providers import PROFILES
from toolgen.render.runtime_files import copied, runtime_modules
from toolgen.render.templating import header

REPO = Path(__file__).resolve().parents[1]

CORPUS = REPO.parent / "shared" / "corpus" / "envelopes"
RESULTS = REPO / "bench" / "RESULTS.md"
COMMAND = "python -m bench.envelopes"
ROUNDS = 25


class Invalid(Exception):
    pass


def hand_chat_completion(d: Any) -> Any:
    """The OpenAI chat completion envelope, written by hand: what a careful engineer would write."""
    try:
        if (
            type(d) is not dict
            or type(d["id"]) is not str
            or d["object"] != "chat.completion"
            or type(d["created"]) is not int
            or type(d["model"]) is not str
        ):
            raise Invalid
        choices = d["choices"]
        if type(choices) is not list or not choices:
            raise Invalid
        for choice in choices:
            if (
                type(choice) is not dict
                or type(choice["index"]) is not int
                or type(choice["finish_reason"]) is not str
            ):
                raise Invalid
            message = choice["message"]
            if type(message) is not dict or type(message["role"]) is not str:
                raise Invalid
            content = message["content"]
            if content is not None and type(content) is not str:
                raise Invalid
            if "refusal" in message:
                refusal = message["refusal"]
                if refusal is not None and type(refusal) is not str:
                    raise Invalid
            calls = message.get("tool_calls")
            if calls is not None:
                if type(calls) is not list:
                    raise Invalid
                for call in calls:
                    if type(call) is not dict:
                        raise Invalid
                    kind = call["type"]
                    if type(kind) is not str:
                        raise Invalid
                    if kind == "function":
                        function = call["function"]
                        if (
                            type(call["id"]) is not str
                            or type(function) is not dict
                            or type(function["name"]) is not str
                            or type(function["arguments"]) is not str
                        ):
                            raise Invalid
        usage = d["usage"]
        if (
            type(usage) is not dict
            or type(usage["prompt_tokens"]) is not int
            or type(usage["completion_tokens"]) is not int
            or type(usage["total_tokens"]) is not int
        ):
            raise Invalid
        for key, count in (
            ("prompt_tokens_details", "cached_tokens"),
            ("completion_tokens_details", "reasoning_tokens"),
        ):
            details = usage.get(key)
            if details is not None:
                if type(details) is not dict:
                    raise Invalid
                tokens = details.get(count)
                if tokens is not None and type(tokens) is not int:
                    raise Invalid
    except KeyError:
        raise Invalid from None
    return d


def hand_message(d: Any) -> Any:
    """The Anthropic message envelope, written by hand."""
    try:
        if (
            type(d) is not dict
            or type(d["id"]) is not str
            or d["type"] != "message"
            or d["role"] != "assistant"
            or type(d["model"]) is not str
        ):
            raise Invalid
        content = d["content"]
        if type(content) is not list:
            raise Invalid
        for block in content:
            if type(block) is not dict:
                raise Invalid
            kind = block["type"]
            if type(kind) is not str:
                raise Invalid
            if kind == "text":
                if type(block["text"]) is not str:
                    raise Invalid
            elif kind == "tool_use":
                if (
                    type(block["id"]) is not str
                    or type(block["name"]) is not str
                    or type(block["input"]) is not dict
                ):
                    raise Invalid
            elif kind == "thinking":
                if type(block["thinking"]) is not str:
                    raise Invalid
                signature = block.get("signature")
                if signature is not None and type(signature) is not str:
                    raise Invalid
        if type(d["stop_reason"]) is not str:
            raise Invalid
        if "stop_sequence" in d:
            stop = d["stop_sequence"]
            if stop is not None and type(stop) is not str:
                raise Invalid
        usage = d["usage"]
        if (
            type(usage) is not dict
            or type(usage["input_tokens"]) is not int
            or type(usage["output_tokens"]) is not int
        ):
            raise Invalid
        for key in ("cache_creation_input_tokens", "cache_read_input_tokens"):
            tokens = usage.get(key)
            if tokens is not None and type(tokens) is not int:
                raise Invalid
    except KeyError:
        raise Invalid from None
    return d


def generated_modules(providers: tuple[str, ...]) -> dict[str, Any]:
    """The generated envelope modules of ``providers``, written to a temporary package."""
    folder = Path(tempfile.mkdtemp(prefix="toolgen-bench-")) / "bench_envelopes_out"
    folder.mkdir()
    head = header()
    (folder / "__init__.py").write_text("")
    for fixed in runtime_modules():
        (folder / f"{fixed}.py").write_text(copied(fixed, head))
    for provider in providers:
        schemas = load_envelope_schemas(provider, {}, PROFILES[provider].apis)
        source = render_envelope_module(provider, schemas, head)
        (folder / f"_envelopes_{provider}.py").write_text(source)
    sys.path.insert(0, str(folder.parent))
    return {p: importlib.import_module(f"bench_envelopes_out._envelopes_{p}") for p in providers}


def contenders(provider: str, surface: str, module: Any) -> dict[str, Callable[[Any], Any]]:
    schema = load_envelope_schemas(provider, {}, PROFILES[provider].apis)[surface]
    if provider == "openai":
        from openai.types.chat import ChatCompletion

        sdk_name, sdk = "openai ChatCompletion.model_validate", ChatCompletion.model_validate
        hand = hand_chat_completion
    else:
        from anthropic.types import Message

        sdk_name, sdk = "anthropic Message.model_validate", Message.model_validate
        hand = hand_message
    return {
        "hand-written type(...) is": hand,
        "toolgen compiled": getattr(module, f"validate_{surface}"),
        "fastjsonschema": fastjsonschema.compile(schema),
        sdk_name: sdk,
        "jsonschema Draft202012Validator": Draft202012Validator(schema).is_valid,
    }


SDK_OBJECT = "toolgen compiled, given the SDK object"


def given_sdk_objects(
    validate: Callable[[Any], Any], model_validate: Callable[[Any], Any], bodies: list[Any]
) -> Callable[[Any], Any]:
    """toolgen's validator given each body's SDK object, as SDK users hold it (it converts the
    object with ``model_dump`` first; the SDK's own parsing is not timed)."""
    objects = {id(body): model_validate(body) for body in bodies}
    return lambda body: validate(objects[id(body)])


def accepted_by_all(bodies: list[Any], functions: dict[str, Callable[[Any], Any]]) -> list[Any]:
    """The bodies every contender accepts (the SDK models reject some recorded content blocks)."""
    kept = []
    for body in bodies:
        try:
            if all(function(body) is not False for function in functions.values()):
                kept.append(body)
        except Exception:
            continue
    return kept


def measure(
    bodies: list[Any], functions: dict[str, Callable[[Any], Any]]
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in functions}
    order = list(functions)
    shuffle = random.Random(0)
    for _ in range(ROUNDS):
        shuffle.shuffle(order)
        for name in order:
            function = functions[name]
            start = time.perf_counter()
            for body in bodies:
                function(body)
            times[name].append(time.perf_counter() - start)
    return times


def report(
    title: str, recorded: int, bodies: list[Any], times: dict[str, list[float]]
) -> list[str]:
    hand = "hand-written type(...) is"
    hand_min, hand_median = min(times[hand]), statistics.median(times[hand])
    lines = [
        f"### {title}: {len(bodies)} recorded bodies"
        + (
            f" ({recorded - len(bodies)} more rejected by the SDK model left out)"
            if recorded > len(bodies)
            else ""
        ),
        "",
        "| contender | µs per body (min) | µs per body (median) | × hand-written (min) "
        "| × hand-written (median) |",
        "|---|---|---|---|---|",
    ]
    for name, series in times.items():
        low, mid = min(series), statistics.median(series)
        lines.append(
            f"| {name} | {low / len(bodies) * 1e6:.2f} | {mid / len(bodies) * 1e6:.2f} "
            f"| {low / hand_min:.2f} | {mid / hand_median:.2f} |"
        )
    compiled = times["toolgen compiled"]
    lines += [
        "",
        f"toolgen compiled / hand-written: {min(compiled) / hand_min:.2f} (min), "
        f"{statistics.median(compiled) / hand_median:.2f} (median).",
        "",
    ]
    return lines


def load(folder: str) -> list[Any]:
    return [json.loads(p.read_text()) for p in sorted((CORPUS / folder).glob("*.json"))]


def main() -> None:
    if not CORPUS.is_dir():
        raise SystemExit(f"corpus not found at {CORPUS}")
    lines = [
        "## Envelope validators",
        "",
        f"Command: `{COMMAND}` ({ROUNDS} rounds, contenders interleaved in a shuffled order each "
        f"round, same envelope schema for every contender; Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start: on a busy "
        "machine only the ratios of one run mean anything).",
        "",
    ]
    modules = generated_modules(("openai", "anthropic"))
    for title, provider, surface, folder in (
        ("OpenAI chat completion", "openai", "chat_completion", "openai/chat-completions"),
        ("Anthropic message", "anthropic", "message", "anthropic/messages"),
    ):
        functions = contenders(provider, surface, modules[provider])
        recorded = load(folder)
        bodies = accepted_by_all(recorded, functions)
        sdk = next(f for name, f in functions.items() if name.endswith("model_validate"))
        functions[SDK_OBJECT] = given_sdk_objects(functions["toolgen compiled"], sdk, bodies)
        lines += report(title, len(recorded), bodies, measure(bodies, functions))
    section = "\n".join(lines)
    print(section)
    write_section("Envelope validators", section)


if __name__ == "__main__":
    main()
