"""Workers AI's ``ai/run/{model}``: its runtime module toolgen/runtime/_workers_ai.py (the REST
wrapper, the result shapes of the model families, read with the Chat Completions and Responses
decoders; request builders that serve Chat Completions too; the tool loop; fakes) and its canary
requests. Which family a model is in is the provider's (its profile's ``module_data["families"]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolgen.apis.api import Api, Canary, Fakes, Loop, Requests
from toolgen.apis.canary_requests import OUTPUT_PROMPT, sse_payloads, user_messages
from toolgen.runtime import _workers_ai as workers

_REQUESTS = workers.WorkersAiRequests

#: the envelope surfaces of a result and of a stream's event, by the one result shape of a family
_SURFACES = {
    "native": ("native_output", "native_output"),
    "chat": ("chat_completion", "chat_completion_chunk"),
    "responses": ("responses_result", "responses_stream_event"),
}


def run_surfaces(
    model: str, families: Mapping[str, tuple[str, tuple[str, ...]]]
) -> tuple[str, str] | None:
    """The envelope surfaces (of a result, of a stream's event) of ``model``: the longest prefix
    of ``families`` (model-name prefix -> (family, shapes)) chooses the family, as the generated
    decoder does; None when its family answers in several shapes, or is unknown."""
    prefixes = sorted(families.items(), key=lambda item: -len(item[0]))
    shapes = next((found[1] for prefix, found in prefixes if model.startswith(prefix)), ())
    return _SURFACES.get(shapes[0]) if len(shapes) == 1 else None


def _path(model: str, stream: bool) -> str:
    return f"/run/{model}"  # the model's name keeps its slashes: /run/@cf/meta/...


def _tool_request(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    # ai/run takes no tool_choice: the prompt and the one tool ask for the call
    body: dict[str, Any] = {"messages": user_messages(), "tools": tools, "max_tokens": 1024}
    return {**body, "stream": True} if stream else body


def _output_request(model: str, response_format: Any) -> dict[str, Any]:
    return {
        "messages": user_messages(OUTPUT_PROMPT),
        "response_format": response_format,
        "max_tokens": 1024,
    }


def _answer(body: Any) -> Any:
    """JSON mode's answer in ``result.response``: text, or already an object (or a number)."""
    try:
        return body["result"]["response"]
    except (KeyError, TypeError):
        return None


def _parts(
    model: str, stream: bool, answer: Any, module_data: Mapping[str, Any]
) -> list[tuple[str, str | None, Any]]:
    """A REST body is the wrapper (``rest_response``) around a ``result`` of the model family's
    shape; a stream's events are results or events of that shape, unwrapped."""
    surfaces = run_surfaces(model, module_data.get("families", {}))
    if stream:
        return [("", surfaces[1] if surfaces else None, answer)]
    if not isinstance(answer, dict) or "result" not in answer:
        return [("", "rest_response", answer)]
    wrapper = {name: value for name, value in answer.items() if name != "result"}
    result = answer["result"]
    return [("", "rest_response", wrapper), ("result", surfaces[0] if surfaces else None, result)]


WORKERS_AI = Api(
    "run",
    "Workers AI ai/run",
    workers.WorkersAiDecoder,
    workers.READS,
    Requests(
        _REQUESTS,
        (
            _REQUESTS.tool_definition,
            _REQUESTS.tool_definitions,
            _REQUESTS.response_format,
            _REQUESTS.chat_response_format,
            _REQUESTS.plan_request,
            _REQUESTS.request,
        ),
    ),
    (
        workers.ChatResponseFormat,
        workers.FunctionTool,
        workers.NativeResponseFormat,
        workers.ToolFunction,
        workers.WorkersAiError,
        workers.WorkersAiRequest,
        workers.sse_events,
    ),
    Fakes.of(workers),
    Canary(
        _path, _tool_request, _output_request, ("response_format",), _answer, sse_payloads, _parts
    ),
    combines=("chat",),
    loop=Loop(workers.WorkersRunLoop, "_READER.result"),
)

APIS = (WORKERS_AI,)
