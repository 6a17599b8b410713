"""The Messages API: its runtime module toolgen/runtime/_messages.py (request builders within
strict tool use's per-request limits, decoders, the tool loop, fakes) and its canary requests."""

from __future__ import annotations

from typing import Any

from toolgen.apis.api import Api, Canary, Fakes, Loop, Requests
from toolgen.apis.canary_requests import OUTPUT_PROMPT, sse_payloads, user_messages
from toolgen.runtime import _messages as messages

_REQUESTS = messages.MessagesRequests


def _tool_request(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": 1024,
        "messages": user_messages(),
        "tools": tools,
        "tool_choice": {"type": "tool", "name": name},
    }
    return {**body, "stream": True} if stream else body


def _output_request(model: str, output_format: Any) -> dict[str, Any]:
    return {
        "model": model,
        "max_tokens": 1024,
        "messages": user_messages(OUTPUT_PROMPT),
        "output_config": {"format": output_format},
    }


def _output_text(body: Any) -> Any:
    try:
        return next(block["text"] for block in body["content"] if block.get("type") == "text")
    except (KeyError, TypeError, AttributeError, StopIteration):
        return None


MESSAGES = Api(
    "messages",
    "Messages API",
    messages.MessagesDecoder,
    messages.READS,
    Requests(
        _REQUESTS,
        (
            _REQUESTS.tool_definition,
            _REQUESTS.tool_definitions,
            _REQUESTS.output_format,
            _REQUESTS.plan_request,
            _REQUESTS.request,
        ),
    ),
    (
        messages.CacheControlEphemeralParam,
        messages.InputSchemaTyped,
        messages.JSONOutputFormatParam,
        messages.MessagesRequest,
        messages.OutputConfigParam,
        messages.ToolChoiceToolParam,
        messages.ToolParam,
    ),
    Fakes.of(messages),
    Canary(
        lambda _m, _s: "/messages",
        _tool_request,
        _output_request,
        ("output_format",),
        _output_text,
        sse_payloads,
    ),
    loop=Loop(messages.MessagesLoop, "validate_message"),
    readers=("message", "message_stream_event"),
)

APIS = (MESSAGES,)
