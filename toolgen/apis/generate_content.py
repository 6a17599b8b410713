"""generateContent: its runtime module toolgen/runtime/_generate_content.py (request builders in
its two schema dialects, decoders, the tool loop, fakes) and its canary requests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolgen.apis.api import Api, Canary, Fakes, Loop, Requests
from toolgen.apis.canary_requests import OUTPUT_PROMPT, PROMPT, sse_payloads
from toolgen.runtime import _generate_content as generate

_REQUESTS = generate.GenerateContentRequests
_OPENAPI_REQUESTS = generate.GenerateContentOpenApiRequests


def _contents(prompt: str) -> list[dict[str, Any]]:
    return [{"role": "user", "parts": [{"text": prompt}]}]


def _path(model: str, stream: bool) -> str:
    return (
        f"/models/{model}:streamGenerateContent?alt=sse"
        if stream
        else f"/models/{model}:generateContent"
    )


def _tool_request(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    return {
        "contents": _contents(PROMPT),
        "tools": tools,
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [name]}},
    }


def _output_request(model: str, generation_config: Any) -> dict[str, Any]:
    return {"contents": _contents(OUTPUT_PROMPT), "generationConfig": generation_config}


def _output_text(body: Any) -> Any:
    try:
        parts = body["candidates"][0]["content"]["parts"]
        return next(part["text"] for part in parts if "text" in part)
    except (KeyError, IndexError, TypeError, StopIteration):
        return None


GENERATE_CONTENT = Api(
    "generate_content",
    "generateContent",
    generate.GenerateContentDecoder,
    generate.READS,
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
        generate.FunctionCallingConfig,
        generate.FunctionDeclaration,
        generate.GenerateContentRequest,
        generate.ResponseFormat,
        generate.Tool,
        generate.ToolConfig,
    ),
    Fakes.of(generate),
    Canary(_path, _tool_request, _output_request, ("response_format",), _output_text, sse_payloads),
    loop=Loop(
        generate.GenerateContentLoop,
        "validate_generate_content, validate_chunk=validate_generate_content_chunk",
    ),
    readers=("generate_content", "generate_content_chunk"),
    sdk_objects="genai",
    # as the docstring writes it, indented and wrapped
    turn_note=(
        "A streamed turn is the list of the stream's chunks (one content: every part of every "
        "chunk,\n    in order)."
    ),
)
#: The same API with its OpenAPI Schema objects (``parameters``, ``responseSchema``) for schemas.
GENERATE_CONTENT_OPENAPI = replace(
    GENERATE_CONTENT,
    requests=Requests(
        _OPENAPI_REQUESTS,
        (
            _OPENAPI_REQUESTS.tool_definition,
            _OPENAPI_REQUESTS.tool_definitions,
            _OPENAPI_REQUESTS.response_format,
            _OPENAPI_REQUESTS.plan_request,
            _OPENAPI_REQUESTS.request,
        ),
    ),
)

APIS = (GENERATE_CONTENT, GENERATE_CONTENT_OPENAPI)
