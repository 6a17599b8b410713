"""Chat Completions: its runtime module toolgen/runtime/_chat_completions.py (request builders,
decoders, the tool loop, fakes), the lenient variant some compatible APIs need, and its canary
requests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolgen.apis.api import Api, Canary, Fakes, Loop, Requests
from toolgen.apis.canary_requests import OUTPUT_PROMPT, sse_payloads, user_messages
from toolgen.runtime import _chat_completions as chat

_REQUESTS = chat.ChatCompletionsRequests


def _tool_request(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "messages": user_messages(),
        "tools": tools,
        "tool_choice": {"type": "function", "function": {"name": name}},
    }
    return {**body, "stream": True} if stream else body


def _output_request(model: str, response_format: Any) -> dict[str, Any]:
    return {
        "model": model,
        "messages": user_messages(OUTPUT_PROMPT),
        "response_format": response_format,
    }


def _output_text(body: Any) -> Any:
    try:
        return body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None


CHAT = Api(
    "chat",
    "Chat Completions",
    chat.ChatCompletionsDecoder,
    chat.READS,
    Requests(
        _REQUESTS,
        (
            _REQUESTS.tool_definition,
            _REQUESTS.tool_definitions,
            _REQUESTS.response_format,
            _REQUESTS.plan_request,
            _REQUESTS.request,
        ),
    ),
    (
        chat.ChatCompletionFunctionToolParam,
        chat.ChatCompletionNamedToolChoiceParam,
        chat.ChatRequest,
        chat.FunctionDefinition,
        chat.JSONSchema,
        chat.NamedFunction,
        chat.ResponseFormatJSONObject,
        chat.ResponseFormatJSONSchema,
    ),
    Fakes.of(chat),
    # the chat format of builders that also serve another API's format under
    # ``response_format`` is ``chat_response_format``
    Canary(
        lambda _m, _s: "/chat/completions",
        _tool_request,
        _output_request,
        ("chat_response_format", "response_format"),
        _output_text,
        sse_payloads,
    ),
    sdk_models=True,
    loop=Loop(chat.ChatLoop, "validate_chat_completion"),
    readers=("chat_completion", "chat_completion_chunk"),
)
#: Chat Completions read leniently (untyped calls, arguments as text, object or absent, whole
#: streamed calls without index): for compatible APIs whose recordings show those shapes.
LENIENT_CHAT = replace(
    CHAT, decoder_class=chat.LenientChatCompletionsDecoder, reads=chat.LENIENT_READS
)
_JSON_OBJECT = chat.JsonObjectChatCompletionsRequests
#: Chat Completions whose structured output is JSON mode (``response_format: {"type":
#: "json_object"}``), the output's schema in ``output_instructions`` for the messages: for
#: compatible APIs that take no ``json_schema`` format.
JSON_OBJECT_CHAT = replace(
    CHAT,
    requests=Requests(
        _JSON_OBJECT,
        (
            _JSON_OBJECT.tool_definition,
            _JSON_OBJECT.tool_definitions,
            _JSON_OBJECT.response_format,
            _JSON_OBJECT.output_instructions,
            _JSON_OBJECT.plan_request,
            _JSON_OBJECT.request,
        ),
    ),
)

APIS = (CHAT, LENIENT_CHAT, JSON_OBJECT_CHAT)
