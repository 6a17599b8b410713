"""The Responses API: its runtime module toolgen/runtime/_responses.py (request builders,
decoders, the tool loop, fakes) and its canary requests; and the builders of a provider that
speaks both Chat Completions and the Responses API (toolgen/runtime/_chat_and_responses.py)."""

from __future__ import annotations

from typing import Any

from toolgen.apis.api import Api, Canary, Fakes, Loop, Requests
from toolgen.apis.canary_requests import OUTPUT_PROMPT, PROMPT, sse_payloads
from toolgen.runtime import _chat_and_responses as both
from toolgen.runtime import _responses as responses

_REQUESTS = responses.ResponsesRequests


def _tool_request(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "input": PROMPT,
        "tools": tools,
        "tool_choice": {"type": "function", "name": name},
    }
    return {**body, "stream": True} if stream else body


def _output_request(model: str, text_format: Any) -> dict[str, Any]:
    return {"model": model, "input": OUTPUT_PROMPT, "text": {"format": text_format}}


def _output_text(body: Any) -> Any:
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


RESPONSES = Api(
    "responses",
    "Responses API",
    responses.ResponsesDecoder,
    responses.READS,
    Requests(
        _REQUESTS,
        (
            _REQUESTS.tool_definition,
            _REQUESTS.tool_definitions,
            _REQUESTS.text_format,
            _REQUESTS.plan_request,
            _REQUESTS.request,
        ),
    ),
    (
        responses.FunctionToolParam,
        responses.ResponseFormatTextJSONSchemaConfigParam,
        responses.ResponseTextConfigParam,
        responses.ResponsesRequest,
        responses.ToolChoiceFunctionParam,
    ),
    Fakes.of(responses),
    # a lone ResponsesRequests names its format ``text_format``
    Canary(
        lambda _m, _s: "/responses",
        _tool_request,
        _output_request,
        ("response_format", "text_format"),
        _output_text,
        sse_payloads,
    ),
    sdk_models=True,
    loop=Loop(responses.ResponsesLoop, "validate_response"),
    readers=("response", "response_stream_event"),
)

APIS = (RESPONSES,)

_BOTH = both.ChatAndResponsesRequests
#: The request builders of a provider that speaks several APIs, by their names in order.
COMBINED = {
    ("chat", "responses"): Requests(
        _BOTH,
        (
            _BOTH.tool_definition,
            _BOTH.tool_definitions,
            _BOTH.response_format,
            _BOTH.plan_request,
            _BOTH.request,
        ),
    ),
}
