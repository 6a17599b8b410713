"""What ``toolgen canary record`` sends per wire API: the smallest requests that make it answer
with a forced tool call, a structured output, and a stream.

The tool definitions and output formats in them are not written here: they are what the generated
package's request builders give (the runtime class its provider module binds, built by
toolgen.package.request_builders), so the canary sends what the package sends, in the dialect the
design chose. What is here is the rest of each request: its path, the envelope around the
definition (the prompt, the forced tool choice, ``stream``, ``max_tokens``), and where each API puts
the text of a structured output (``output_text``). Where a provider's API is, and how its key is
sent, is its module's (``Registration.endpoint``); how a stream's body splits into event payloads
is the API's (``events``: server-sent events, or Bedrock's binary event stream). Workers AI (an
account in the URL, filled in from the environment: ``Endpoint.url``) is asked through
``ai/run`` and its OpenAI-compatible Chat Completions.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from toolgen.infra.canary_fixtures import sse_events
from toolgen.infra.eventstream import event_messages
from toolgen.providers.cloudflare import run_surfaces

PROMPT = "Call the tool now with plausible arguments."
OUTPUT_PROMPT = "Answer with a plausible example of the requested JSON."


def _for_api(method: Callable[..., Any], api: str, *args: Any, **keywords: Any) -> Any:
    """``method(*args, **keywords)`` of a request builder, for ``api`` when the builder serves
    several APIs and asks which (an ``api`` argument: ChatAndResponsesRequests)."""
    if "api" in inspect.signature(method).parameters:
        keywords["api"] = api
    return method(*args, **keywords)


def reports_error(answer: Any) -> bool:
    """An error in place of an answer or a stream's event: ``{"type": "error", ...}`` (Messages,
    Responses) or an ``error`` with nothing of an answer beside it (Chat Completions and the APIs
    compatible with it, generateContent; a Responses body has ``"error": null``)."""
    if not isinstance(answer, dict):
        return False
    return answer.get("type") == "error" or (
        bool(answer.get("error")) and not _ANSWER_MEMBERS & set(answer)
    )


#: Members of an answer (a body or an event) of some API: with them, an ``error`` is a part of it.
_ANSWER_MEMBERS = frozenset({"choices", "candidates", "response", "result", "output", "content"})


def _sse_events(body: bytes) -> list[Any]:
    """The event payloads of a server-sent event stream (ValueError when it is none, or when an
    event reports an error)."""
    events = sse_events(body.decode("utf-8"))
    for event in events:
        if reports_error(event):
            raise ValueError(f"the stream reports an error: {json.dumps(event)[:300]}")
    return events


@dataclass(frozen=True)
class WireApi:
    """The canary's requests of one wire API.

    ``path(model, stream)``; ``tool_request(model, tools, name, stream)``: the body forcing a call
    of the tool whose wire name is ``name``, ``tools`` the request's tools; ``output_request(model,
    format)``: the body asking for a structured output in ``format``; ``formats``: the request
    builders' methods that give this API's format, the first the builders have; ``output_text``:
    the structured output in a response (its text, or the JSON value an API puts there), or None;
    ``events``: a stream's body as the event payloads the SDKs yield (ValueError when it is
    unreadable or reports an error); ``parts(model, stream, answer)``: (path, envelope surface,
    value) of the parts of a body or event that envelope schemas declare, where the whole is not
    one surface's (else the API's first surface, or its last for a stream's events)."""

    path: Callable[[str, bool], str]
    tool_request: Callable[[str, Any, str, bool], dict[str, Any]]
    output_request: Callable[[str, Any], dict[str, Any]]
    formats: tuple[str, ...]
    output_text: Callable[[Any], Any]
    events: Callable[[bytes], list[Any]] = _sse_events
    parts: Callable[[str, bool, Any], list[tuple[str, str | None, Any]]] | None = None

    def tools(self, builders: Any, api: str, tool: str) -> Any:
        """The request's tools: the builders' ``tool_definitions`` of the canonical tool ``tool``
        alone (what an application sends for it)."""
        return _for_api(builders.tool_definitions, api, names=[tool])

    def output_format(self, builders: Any, api: str, output: str) -> Any:
        """The builders' format of the canonical structured output ``output``."""
        method = next(getattr(builders, name) for name in self.formats if hasattr(builders, name))
        return _for_api(method, api, output)


def _user() -> list[dict[str, Any]]:
    return [{"role": "user", "content": PROMPT}]


def _chat_tool(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "messages": _user(),
        "tools": tools,
        "tool_choice": {"type": "function", "function": {"name": name}},
    }
    return {**body, "stream": True} if stream else body


def _chat_output(model: str, response_format: Any) -> dict[str, Any]:
    return {
        "model": model,
        "messages": [{"role": "user", "content": OUTPUT_PROMPT}],
        "response_format": response_format,
    }


def _chat_text(body: Any) -> Any:
    try:
        return body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None


def _responses_tool(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "input": PROMPT,
        "tools": tools,
        "tool_choice": {"type": "function", "name": name},
    }
    return {**body, "stream": True} if stream else body


def _responses_output(model: str, text_format: Any) -> dict[str, Any]:
    return {"model": model, "input": OUTPUT_PROMPT, "text": {"format": text_format}}


def _responses_text(body: Any) -> Any:
    try:
        return next(
            part["text"]
            for item in body["output"]
            if item.get("type") == "message"
            for part in item["content"]
            if part.get("type") == "output_text"
        )
    except (KeyError, TypeError, AttributeError, StopIteration):
        return None


def _messages_tool(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": 1024,
        "messages": _user(),
        "tools": tools,
        "tool_choice": {"type": "tool", "name": name},
    }
    return {**body, "stream": True} if stream else body


def _messages_output(model: str, output_format: Any) -> dict[str, Any]:
    return {
        "model": model,
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": OUTPUT_PROMPT}],
        "output_config": {"format": output_format},
    }


def _messages_text(body: Any) -> Any:
    try:
        return next(block["text"] for block in body["content"] if block.get("type") == "text")
    except (KeyError, TypeError, AttributeError, StopIteration):
        return None


def _contents(prompt: str) -> list[dict[str, Any]]:
    return [{"role": "user", "parts": [{"text": prompt}]}]


def _generate_content_path(model: str, stream: bool) -> str:
    return (
        f"/models/{model}:streamGenerateContent?alt=sse"
        if stream
        else f"/models/{model}:generateContent"
    )


def _generate_content_tool(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    return {
        "contents": _contents(PROMPT),
        "tools": tools,
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [name]}},
    }


def _generate_content_output(model: str, generation_config: Any) -> dict[str, Any]:
    return {"contents": _contents(OUTPUT_PROMPT), "generationConfig": generation_config}


def _generate_content_text(body: Any) -> Any:
    try:
        parts = body["candidates"][0]["content"]["parts"]
        return next(part["text"] for part in parts if "text" in part)
    except (KeyError, IndexError, TypeError, StopIteration):
        return None


def _converse_path(model: str, stream: bool) -> str:
    # the model ID is one path segment: an ID such as "us.amazon.nova-micro-v1:0" goes with %3A
    return f"/model/{quote(model, safe='')}/{'converse-stream' if stream else 'converse'}"


def _converse_messages(prompt: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"text": prompt}]}]


def _converse_tool(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    # the model and streaming are in the path, not the body
    return {
        "messages": _converse_messages(PROMPT),
        "toolConfig": {"tools": tools, "toolChoice": {"tool": {"name": name}}},
        "inferenceConfig": {"maxTokens": 1024},
    }


def _converse_output(model: str, text_format: Any) -> dict[str, Any]:
    return {
        "messages": _converse_messages(OUTPUT_PROMPT),
        "outputConfig": {"textFormat": text_format},
        "inferenceConfig": {"maxTokens": 1024},
    }


def _converse_text(body: Any) -> Any:
    try:
        content = body["output"]["message"]["content"]
        return next(block["text"] for block in content if "text" in block)
    except (KeyError, TypeError, StopIteration):
        return None


def _converse_events(body: bytes) -> list[Any]:
    """The events of a ConverseStream body as boto3 yields them: ``{event type: payload}``.
    Bedrock pads each payload with a member ``p`` of varying length (every recorded stream of the
    corpus has it); boto3 reads a payload by its event's shape, which has no ``p``, so it never
    reaches an application and is left out here too."""
    events = []
    for message in event_messages(body):
        payload = json.loads(message.payload) if message.payload else {}
        if message.text(":message-type") != "event":
            kind = message.text(":exception-type") or message.text(":error-code") or "an error"
            text = message.text(":error-message") or (
                payload.get("message") if isinstance(payload, dict) else None
            )
            raise ValueError(f"the stream reports {kind}: {text}")
        if isinstance(payload, dict):
            payload.pop("p", None)
        events.append({message.text(":event-type"): payload})
    return events


def _run_path(model: str, stream: bool) -> str:
    return f"/run/{model}"  # the model's name keeps its slashes: /run/@cf/meta/...


def _run_tool(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    # ai/run takes no tool_choice: the prompt and the one tool ask for the call
    body: dict[str, Any] = {"messages": _user(), "tools": tools, "max_tokens": 1024}
    return {**body, "stream": True} if stream else body


def _run_output(model: str, response_format: Any) -> dict[str, Any]:
    return {
        "messages": [{"role": "user", "content": OUTPUT_PROMPT}],
        "response_format": response_format,
        "max_tokens": 1024,
    }


def _run_answer(body: Any) -> Any:
    """JSON mode's answer in ``result.response``: text, or already an object (or a number)."""
    try:
        return body["result"]["response"]
    except (KeyError, TypeError):
        return None


def _run_parts(model: str, stream: bool, answer: Any) -> list[tuple[str, str | None, Any]]:
    """A REST body is the wrapper (``rest_response``) around a ``result`` of the model family's
    shape; a stream's events are results or events of that shape, unwrapped."""
    surfaces = run_surfaces(model)
    if stream:
        return [("", surfaces[1] if surfaces else None, answer)]
    if not isinstance(answer, dict) or "result" not in answer:
        return [("", "rest_response", answer)]
    wrapper = {name: value for name, value in answer.items() if name != "result"}
    result = answer["result"]
    return [("", "rest_response", wrapper), ("result", surfaces[0] if surfaces else None, result)]


#: By the API's name (``Api.name``). The chat format of builders that also serve another API's
#: format under ``response_format`` is ``chat_response_format`` (WorkersAiRequests); a lone
#: ResponsesRequests names its format ``text_format``.
WIRE_APIS: dict[str, WireApi] = {
    "chat": WireApi(
        lambda _m, _s: "/chat/completions",
        _chat_tool,
        _chat_output,
        ("chat_response_format", "response_format"),
        _chat_text,
    ),
    "responses": WireApi(
        lambda _m, _s: "/responses",
        _responses_tool,
        _responses_output,
        ("response_format", "text_format"),
        _responses_text,
    ),
    "messages": WireApi(
        lambda _m, _s: "/messages",
        _messages_tool,
        _messages_output,
        ("output_format",),
        _messages_text,
    ),
    "generate_content": WireApi(
        _generate_content_path,
        _generate_content_tool,
        _generate_content_output,
        ("response_format",),
        _generate_content_text,
    ),
    "converse": WireApi(
        _converse_path,
        _converse_tool,
        _converse_output,
        ("output_format",),
        _converse_text,
        _converse_events,
    ),
    "run": WireApi(
        _run_path,
        _run_tool,
        _run_output,
        ("response_format",),
        _run_answer,
        parts=_run_parts,
    ),
}
