"""The generated package written to a folder, and the recorded envelopes of ../shared/corpus."""

from __future__ import annotations

import copy
import importlib
import json
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import skip_without_corpus
from toolgen.apis import sdk_objects
from toolgen.compile.validators import load_envelope_schemas, render_envelope_module
from toolgen.providers import PROFILES, envelope_providers
from toolgen.render.runtime_files import copied, runtime_modules
from toolgen.render.templating import header

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"
ENVELOPES = CORPUS / "envelopes"
PACKAGE = "toolgen_envelope_test_out"

#: a value of another JSON type, per type
RETYPED: dict[type, Any] = {
    str: 12345,
    int: "12",
    float: "1.5",
    bool: "true",
    dict: ["x"],
    list: {"x": 1},
    type(None): 0,
}

#: corpus folder -> (provider, surface); streams are read event by event
BODIES = {
    "openai/chat-completions": ("openai", "chat_completion"),
    "openai/responses": ("openai", "response"),
    "groq/chat-completions": ("groq", "chat_completion"),
    "cerebras/chat-completions": ("cerebras", "chat_completion"),
    "anthropic/messages": ("anthropic", "message"),
    "bedrock/converse": ("bedrock", "converse"),
    "google-gla/generate-content": ("gemini", "generate_content"),
    "google-vertex/generate-content": ("gemini", "generate_content"),
    "mistral/chat-completions": ("mistral", "chat_completion"),
    "xai/chat-completions": ("xai", "chat_completion"),
    "xai/responses": ("xai", "response"),
    "azure-openai/chat-completions": ("azure_openai", "chat_completion"),
    "azure-openai/responses": ("azure_openai", "response"),
    "openrouter/chat-completions": ("openrouter", "chat_completion"),
    "openrouter/responses": ("openrouter", "response"),
    "deepseek/chat-completions": ("deepseek", "chat_completion"),
}
STREAMS = {
    "openai/chat-completions-stream": ("openai", "chat_completion_chunk"),
    "openai/chat-completions-stream-chunks": ("openai", "chat_completion_chunk"),
    "openai/responses-stream": ("openai", "response_stream_event"),
    "openai/responses-stream-chunks": ("openai", "response_stream_event"),
    "groq/chat-completions-stream": ("groq", "chat_completion_chunk"),
    "groq/chat-completions-stream-chunks": ("groq", "chat_completion_chunk"),
    "anthropic/messages-stream": ("anthropic", "message_stream_event"),
    "anthropic/messages-stream-chunks": ("anthropic", "message_stream_event"),
    "bedrock/converse-stream": ("bedrock", "converse_stream_event"),
    "bedrock/converse-stream-chunks": ("bedrock", "converse_stream_event"),
    "google-gla/generate-content-stream": ("gemini", "generate_content_chunk"),
    "google-gla/generate-content-stream-chunks": ("gemini", "generate_content_chunk"),
    "google-vertex/generate-content-stream": ("gemini", "generate_content_chunk"),
    "google-vertex/generate-content-stream-chunks": ("gemini", "generate_content_chunk"),
    "mistral/chat-completions-stream": ("mistral", "chat_completion_chunk"),
    "mistral/chat-completions-stream-chunks": ("mistral", "chat_completion_chunk"),
    "xai/chat-completions-stream-chunks": ("xai", "chat_completion_chunk"),
    "xai/responses-stream-chunks": ("xai", "response_stream_event"),
    "azure-openai/chat-completions-stream-chunks": ("azure_openai", "chat_completion_chunk"),
    "azure-openai/responses-stream-chunks": ("azure_openai", "response_stream_event"),
    "openrouter/chat-completions-stream": ("openrouter", "chat_completion_chunk"),
    "openrouter/responses-stream": ("openrouter", "response_stream_event"),
    "deepseek/chat-completions-stream": ("deepseek", "chat_completion_chunk"),
    "deepseek/chat-completions-stream-chunks": ("deepseek", "chat_completion_chunk"),
}


class Names(dict[str, str]):
    """Every provider name maps to itself: the corpus tools are not in a design."""

    def __missing__(self, key: str) -> str:
        return key

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return key


NAMES = Names()


def write_package(folder: Path, overrides: dict[str, Any] | None = None) -> dict[str, str]:
    """The fixed modules and every ``_envelopes_<provider>.py``, written into ``folder``."""
    head = header()
    files = {"__init__.py": "", **{f"{m}.py": copied(m, head) for m in runtime_modules()}}
    for provider in envelope_providers():
        schemas = load_envelope_schemas(provider, overrides or {}, PROFILES[provider].apis)
        files[f"_envelopes_{provider}.py"] = render_envelope_module(
            provider, schemas, head, sdk_objects=sdk_objects(PROFILES[provider].apis)
        )
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in files.items():
        (folder / name).write_text(source, encoding="utf-8")
    return files


def decoder(provider: str, surface: str, package: str = PACKAGE) -> Any:
    """The tool-call decoder of the API that reads ``surface``, built as a generated provider
    module builds it: from the fixed API module and ``provider``'s generated checks
    (``read_<surface>`` for the surfaces it reads objects of, else ``validate_<surface>``)."""
    api = next(a for a in PROFILES[provider].apis if surface in a.surfaces)
    envelopes = importlib.import_module(f"{package}._envelopes_{provider}")
    decoder_class = getattr(importlib.import_module(f"{package}.{api.module}"), api.decoder)
    checks = (
        getattr(envelopes, f"{'read' if s in api.readers else 'validate'}_{s}")
        for s in api.surfaces
    )
    return decoder_class(provider, *checks)


def raw_reader(
    owner: Any, names: Mapping[str, str], canonicalize: Callable[[str, Any], Any] | None = None
) -> Any:
    """The RawCalls a decoder reads calls with, from the runtime of the decoder's own package:
    ``owner`` is a decoder, a stream, a bound method of one, or a provider's name (a decoder of
    the generated test package)."""
    if isinstance(owner, str):
        provider, package = owner, PACKAGE
    else:
        owner = getattr(owner, "__self__", owner)
        provider, package = owner.provider, type(owner).__module__.rpartition(".")[0]
    runtime = importlib.import_module(f"{package}._runtime")
    return runtime.RawCalls(provider, names, canonicalize)


def require_corpus() -> None:
    if not ENVELOPES.is_dir():
        skip_without_corpus(f"corpus not found at {ENVELOPES} (the shared folder beside the repo)")


def bodies(folder: str) -> list[tuple[str, Any]]:
    require_corpus()
    return [
        (p.name, json.loads(p.read_text())) for p in sorted((ENVELOPES / folder).glob("*.json"))
    ]


def stream_events(folder: str) -> list[tuple[str, list[Any]]]:
    """Per stream file, its event payloads.

    SSE ``data:`` lines (not ``[DONE]``, not those of ``event: error``) or one JSON value per line;
    lines that are not JSON (a few hand-made fixtures) are left out.
    """
    require_corpus()
    streams = []
    for path in sorted((ENVELOPES / folder).iterdir()):
        events: list[Any] = []
        if path.suffix == ".txt":
            event_name = None
            for line in path.read_text().splitlines():
                if line.startswith("event:"):
                    event_name = line[6:].strip()
                elif line.startswith("data:"):
                    payload = line[5:].strip()
                    if payload != "[DONE]" and event_name != "error":
                        events += _json_or_nothing(payload)
                elif not line.strip():
                    event_name = None
        elif path.suffix == ".jsonl":
            for line in path.read_text().splitlines():
                events += [_sdk_event(value) for value in _json_or_nothing(line)]
        else:
            continue
        streams.append((path.name, events))
    return streams


def _sdk_event(value: Any) -> Any:
    """A decoded AWS eventstream frame (``{"headers", "payload"}``) as the SDKs yield it:
    ``{<:event-type>: payload}``; any other value as it is."""
    if isinstance(value, dict) and set(value) == {"headers", "payload"}:
        return {value["headers"][":event-type"]: value["payload"]}
    return value


def _json_or_nothing(text: str) -> list[Any]:
    try:
        return [json.loads(text)] if text.strip() else []
    except ValueError:
        return []


Path_ = tuple[str | int, ...]


def format_path(path: Path_) -> str:
    """The generated code's path text (``choices[0].message``), written independently here."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def covered(root: Any, schema: Any, value: Any, path: Path_ = ()) -> list[tuple[Path_, Any]]:
    """The paths in ``value`` that ``schema`` describes, each with its (ref-resolved) schema."""
    schema = _resolve(root, schema)
    if not isinstance(schema, dict):
        return []
    if "anyOf" in schema:
        if value is None:
            return []
        inner = next(b for b in schema["anyOf"] if b != {"type": "null"})
        return covered(root, inner, value, path)
    found: list[tuple[Path_, Any]] = []
    if isinstance(value, dict):
        for key, child in schema.get("properties", {}).items():
            if key in value:
                found.append(((*path, key), _resolve(root, child)))
                found += covered(root, child, value[key], (*path, key))
        for case in schema.get("allOf", ()):
            ((key, test),) = case["if"]["properties"].items()
            if value.get(key) == test["const"]:
                found += covered(root, case["then"], value, path)
    elif isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value[:2]):
            found += covered(root, schema["items"], item, (*path, index))
    return found


def _resolve(root: Any, schema: Any) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        node = root
        for token in schema["$ref"][2:].split("/"):
            node = node[token]
        schema = node
    return schema


def parent_of(document: Any, path: Path_) -> Any:
    node = document
    for part in path[:-1]:
        node = node[part]
    return node


def spread(items: list[Any], count: int) -> list[Any]:
    """At most ``count`` items taken evenly from ``items`` (deterministic)."""
    if len(items) <= count:
        return items
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def _quiet(dump: Callable[[], Any]) -> Any:
    """``dump()`` without pydantic's serializer warnings (the SDKs build unknown union members
    as the first variant, which pydantic then warns about)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dump()


NO_RAW = object()


def forms(sdk_object: Any, raw: Any = NO_RAW) -> dict[str, Any]:
    """Every form a user may hold of one response, chunk or event (the raw JSON when given).
    A google-genai object's own dumps use the SDK's snake_case names, no wire form (the README
    says to pass the object itself): its forms are the object and its dump by alias."""
    if type(sdk_object).__module__.startswith("google.genai"):
        held = {
            "SDK object": sdk_object,
            "model_dump(mode='json', by_alias=True, exclude_none=True)": _quiet(
                lambda: sdk_object.model_dump(mode="json", by_alias=True, exclude_none=True)
            ),
        }
        if raw is not NO_RAW:
            held["raw JSON"] = copy.deepcopy(raw)
        return held
    held = {
        "SDK object": sdk_object,
        "model_dump()": _quiet(sdk_object.model_dump),
        "model_dump(mode='json')": _quiet(lambda: sdk_object.model_dump(mode="json")),
        "to_dict()": _quiet(sdk_object.to_dict),
    }
    if raw is not NO_RAW:
        held["raw JSON"] = copy.deepcopy(raw)
    return held


def sdk_object_maker(surface: str) -> Callable[[Any], Any]:
    """What the official client makes of a body or event of ``surface``: its object, built with the
    SDK's own (private) ``construct_type``, the lenient path every response goes through (for
    google-genai, ``GenerateContentResponse._from_response``). Skips when the SDKs are not
    installed, and for Bedrock, whose SDKs hand out plain dicts."""
    if surface.startswith("converse"):
        pytest.skip("boto3 returns Converse responses and events as plain dicts: the raw JSON")
    if surface.startswith("generate_content"):
        genai = pytest.importorskip(
            "google.genai.types", reason="google-genai is in the dev extras"
        )
        # what the client returns for each body and each SSE chunk: the SDK's own lenient path,
        # members it does not know removed (it mutates its input), then model_validate
        response = genai.GenerateContentResponse
        return lambda value: response._from_response(response=copy.deepcopy(value), kwargs={})
    if surface.startswith("message"):
        sdk = pytest.importorskip("anthropic", reason="the anthropic SDK is in the dev extras")
        from anthropic._models import construct_type

        types = {
            "message": sdk.types.Message,
            "message_stream_event": sdk.types.RawMessageStreamEvent,
        }
    else:
        pytest.importorskip("openai", reason="the openai SDK is in the dev extras")
        from openai._models import construct_type
        from openai.types.chat import ChatCompletion, ChatCompletionChunk
        from openai.types.responses import Response, ResponseStreamEvent

        types = {
            "chat_completion": ChatCompletion,
            "chat_completion_chunk": ChatCompletionChunk,
            "response": Response,
            "response_stream_event": ResponseStreamEvent,
        }
    kind = types[surface]
    return lambda value: construct_type(type_=kind, value=value)
