"""The Responses API: request builders and their params, and the tool-call decoders.

``ResponsesRequests`` writes ``tools`` entries, ``text.format`` and whole requests (``request``:
``tools``, ``text`` and ``tool_choice``, planned together) from a provider module's tables, typed
with TypedDicts shaped like the SDK's param types (``responses/function_tool_param.py``,
``responses/response_format_text_json_schema_config_param.py``,
``response_text_config_param.py``, ``tool_choice_function_param.py``; see _chat_completions).

The decoders take the provider name and the generated validators of the two surfaces
(``response``, ``response_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from ._attributes import members_of
from ._chat_completions import ResponseFormatJSONObject, ResponseFormatText
from ._contracts import (
    NO_LIMITS,
    Contracts,
    RequestPlan,
    Strict,
    StrictToolLimits,
    only_api,
)
from ._runtime import (
    MISSING,
    CallReader,
    Decoded,
    FragmentJoiner,
    ValidatingDecoder,
    Validator,
    schema_drift,
    wire_form,
)
from ._tool_results import Answer, _checked_ids, _marked_text

if TYPE_CHECKING:
    from ._fakes import Fake

__all__ = [
    "FAKE_MODEL",
    "READS",
    "STREAM_CONTENT_TYPE",
    "FunctionCallOutput",
    "FunctionToolParam",
    "ResponseFormatTextJSONSchemaConfigParam",
    "ResponseTextConfigParam",
    "ResponseToolCallStream",
    "ResponsesDecoder",
    "ResponsesLoop",
    "ResponsesRequest",
    "ResponsesRequests",
    "ToolChoiceFunctionParam",
    "fake_response",
    "fake_stream",
    "output_text",
    "stream_body",
]

# "async" is a keyword: only the functional syntax can declare it.
_FunctionToolParamReservedKeywords = TypedDict(
    "_FunctionToolParamReservedKeywords", {"async": bool}, total=False
)


class FunctionToolParam(_FunctionToolParamReservedKeywords):
    """One function entry of ``tools``."""

    type: Literal["function"]
    name: str
    parameters: dict[str, object] | None
    strict: bool | None
    description: NotRequired[str | None]
    allowed_callers: NotRequired[list[Literal["direct", "programmatic"]] | None]
    defer_loading: NotRequired[bool]
    output_schema: NotRequired[dict[str, object] | None]


class ResponseFormatTextJSONSchemaConfigParam(TypedDict):
    """``text.format``."""

    type: Literal["json_schema"]
    name: str
    schema: dict[str, object]
    description: NotRequired[str]
    strict: NotRequired[bool | None]


class ResponseTextConfigParam(TypedDict, total=False):
    """``text``: its ``format`` takes the SDK's three formats (a TypedDict member's type is
    compared as it is written)."""

    format: ResponseFormatText | ResponseFormatTextJSONSchemaConfigParam | ResponseFormatJSONObject
    verbosity: Literal["low", "medium", "high"] | None


class ToolChoiceFunctionParam(TypedDict):
    """``tool_choice`` naming the one function the model must call."""

    name: str
    type: Literal["function"]


class ResponsesRequest(TypedDict, total=False):
    """The tools-and-output members of one ``responses.create`` request."""

    tools: list[FunctionToolParam]
    text: ResponseTextConfigParam
    tool_choice: ToolChoiceFunctionParam


class ResponsesRequests:
    """The request side of the Responses API for one provider module's tools and outputs."""

    def __init__(
        self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits = NO_LIMITS
    ) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def tool_definition(
        self, name: str, api: Literal["responses"] = "responses", *, strict: Strict = "auto"
    ) -> FunctionToolParam:
        """The function-tool definition of canonical tool ``name``: an entry of ``tools``
        (``strict=False``: the strict flag off, the same schema)."""
        only_api(api, "responses")
        return {
            "type": "function",
            "name": self._tools.provider_name(name),
            "description": self._tools.descriptions[name],
            "parameters": self._tools.schema(name),
            "strict": strict is not False and self._tools.is_strict(name),
        }

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["responses"] = "responses",
        strict: Strict = "auto",
    ) -> list[FunctionToolParam]:
        """Definitions of the tools ``names`` (all tools when None), for ``tools``;
        ``strict=False`` sends them with the strict flag off."""
        only_api(api, "responses")
        chosen = self._tools.chosen(names, ("chat", "responses"))
        marked = self._limits.marked(self._tools, chosen, strict)
        return [self.tool_definition(name, strict=name in marked) for name in chosen]

    def text_format(
        self, name: str, api: Literal["responses"] = "responses"
    ) -> ResponseFormatTextJSONSchemaConfigParam:
        """``text.format`` for the canonical structured output ``name``."""
        only_api(api, "responses")
        return {
            "type": "json_schema",
            "name": self._outputs.provider_name(name),
            "description": self._outputs.descriptions[name],
            "schema": self._outputs.schema(name),
            "strict": True,
        }

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["responses"] = "responses",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[ResponsesRequest]:
        """The plan of one request of the tools ``names`` (all tools when None) and the
        structured output ``output`` (see ``ChatCompletionsRequests.plan_request``)."""
        only_api(api, "responses")

        def members(
            chosen: list[str], strict_tools: frozenset[str], nullable: Mapping[str, tuple[str, ...]]
        ) -> ResponsesRequest:
            request: ResponsesRequest = {}
            if chosen:
                request["tools"] = [
                    self.tool_definition(n, strict=n in strict_tools) for n in chosen
                ]
            if output is not None:
                request["text"] = {"format": self.text_format(output)}
            if tool_choice is not None:
                forced = self._tools.forced(tool_choice, chosen)
                request["tool_choice"] = {"type": "function", "name": forced}
            return request

        return self._limits.plan(api, self._tools, names, strict, self._outputs, output, members)

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["responses"] = "responses",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> ResponsesRequest:
        """The tools-and-output members of one request (``plan_request(...).members``):
        ``client.responses.create(model=..., input=..., **request(...))``."""
        return self.plan_request(
            names, output=output, api=api, strict=strict, tool_choice=tool_choice
        ).members


_ADDED = "{type=response.output_item.added}"
_DONE = "{type=response.output_item.done}"
_DELTA = "{type=response.function_call_arguments.delta}"
_ARGUMENTS_DONE = "{type=response.function_call_arguments.done}"
READS: tuple[tuple[str, str, str], ...] = (
    ("response", "output.[].type", "string"),
    ("response", "output.[].{type=function_call}.call_id", "string"),
    ("response", "output.[].{type=function_call}.name", "string"),
    ("response", "output.[].{type=function_call}.arguments", "string"),
    ("response_stream_event", "type", "string"),
    ("response_stream_event", f"{_ADDED}.output_index", "integer"),
    ("response_stream_event", f"{_DONE}.output_index", "integer"),
    ("response_stream_event", f"{_ADDED}.item.type", "string"),
    ("response_stream_event", f"{_ADDED}.item.{{type=function_call}}.call_id", "string"),
    ("response_stream_event", f"{_ADDED}.item.{{type=function_call}}.name", "string"),
    ("response_stream_event", f"{_DONE}.item.type", "string"),
    ("response_stream_event", f"{_DONE}.item.{{type=function_call}}.call_id", "string"),
    ("response_stream_event", f"{_DONE}.item.{{type=function_call}}.name", "string"),
    ("response_stream_event", f"{_DONE}.item.{{type=function_call}}.arguments", "string"),
    ("response_stream_event", f"{_DELTA}.output_index", "integer"),
    ("response_stream_event", f"{_DELTA}.delta", "string"),
    ("response_stream_event", f"{_ARGUMENTS_DONE}.output_index", "integer"),
    ("response_stream_event", f"{_ARGUMENTS_DONE}.arguments", "string"),
)


class ResponsesDecoder(ValidatingDecoder):
    """The function calls of Responses API responses and of their event streams."""

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded]) -> list[Decoded]:
        """The function calls of a response, decoded; validates ``data`` first.

        Output items of other types are skipped; malformed arguments raise PayloadError.
        """
        valid = self._validate(data)
        from_text = calls.from_text
        seen: set[str] = set()  # the ids of the calls so far: each is answered once
        if type(valid) is not dict:  # an SDK object its reader checked through its attributes
            response: Any = valid
            return [
                from_text(item.call_id, item.name, item.arguments, seen)
                for item in response.output
                if item.type == "function_call"
            ]
        return [
            from_text(item["call_id"], item["name"], item["arguments"], seen)
            for item in valid["output"]
            if item["type"] == "function_call"
        ]

    def stream(self) -> ResponseToolCallStream:
        return ResponseToolCallStream(self.provider, self._validate_event)


class ResponseToolCallStream(FragmentJoiner):
    """Joins ``response.function_call_arguments.delta`` events into whole function calls.

    Give every event to ``add`` (it validates the event and returns it), then call ``tool_calls``.
    The ``.done`` events, when they come, are authoritative over the joined deltas; a
    ``response.created`` event starts a new response (the calls gathered so far are dropped).
    """

    def add(self, event: object) -> None:
        # raw JSON, or an SDK object its reader checked, read through ``members_of``
        valid = members_of(self._validate(event))
        kind = valid["type"]
        if kind == "response.created":
            self._calls.clear()
        elif kind in ("response.output_item.added", "response.output_item.done"):
            item = members_of(valid["item"])
            if item["type"] == "function_call":
                call = self._call_at(valid["output_index"])
                call.id = item["call_id"]
                call.name = item["name"]
                if kind == "response.output_item.done":
                    call.final_arguments = item["arguments"]
        elif kind == "response.function_call_arguments.delta":
            self._call_at(valid["output_index"]).parts.append(valid["delta"])
        elif kind == "response.function_call_arguments.done":
            self._call_at(valid["output_index"]).final_arguments = valid["arguments"]

    def tool_calls(self, calls: CallReader[Decoded]) -> list[Decoded]:
        """The joined calls in output order; arguments without their output item are drift."""
        joined = []
        seen: set[str] = set()
        for index, call in sorted(self._calls.items()):
            if call.id is None or call.name is None:
                raise schema_drift(
                    self.provider,
                    "response_stream_event",
                    ("output", index, "item"),
                    "object",
                    MISSING,
                )
            joined.append(calls.from_text(call.id, call.name, call.arguments(), seen))
        return joined


# -- the tool loop: the turn to replay and the results that answer its calls --------------------


class FunctionCallOutput(TypedDict):
    """The SDK's ``response_input_item_param.FunctionCallOutput``."""

    output: str | list[Any]
    type: Literal["function_call_output"]
    id: NotRequired[str | None]
    call_id: NotRequired[str | None]
    caller: NotRequired[Any]
    name: NotRequired[str | None]
    namespace: NotRequired[str | None]
    status: NotRequired[Literal["in_progress", "completed", "incomplete"] | None]


class ResponsesLoop:
    """The Responses API: every ``output`` item replayed as received (reasoning items included,
    for when nothing is stored); one ``function_call_output`` item per call."""

    def __init__(self, provider: str, validate: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON

    def assistant_turn(self, data: object) -> list[Any]:
        return [dict(item) for item in self._validate(data)["output"]]

    def result(self, answer: Answer) -> FunctionCallOutput:
        return {
            "type": "function_call_output",
            "call_id": answer.call_id,
            "output": _marked_text(answer),
        }

    def results(self, answers: Sequence[Answer]) -> list[FunctionCallOutput]:
        return [self.result(answer) for answer in _checked_ids(answers)]


def output_text(items: Iterable[Any]) -> str:
    """The text of Responses-style ``output`` items: their ``output_text`` parts, joined."""
    return "".join(
        part.get("text", "")
        for item in items
        if item.get("type") == "message"
        for part in item.get("content") or ()
        if part.get("type") == "output_text"
    )


# -- fakes: the bodies and streams it answers with, for tests ------------------------------

#: The model its fakes name unless ``model`` is given.
FAKE_MODEL = "gpt-4.1-2025-04-14"


def fake_response(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """A completed ``response`` whose ``output`` is a ``message`` item (the assistant ``text``,
    when given) then ``function_call`` items (``fc_...``, ``call_...``), in order."""
    return _responses_response(_fake(calls, text, model))


def fake_stream(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> list[dict[str, Any]]:
    """The events of the streamed answer: ``response.created``, ``response.in_progress``, per
    output item ``response.output_item.added``, its text or
    ``response.function_call_arguments.delta``/``.done`` events and
    ``response.output_item.done``, then ``response.completed`` with the whole response."""
    return _responses_stream(_fake(calls, text, model))


#: The ``Content-Type`` of a streamed answer.
STREAM_CONTENT_TYPE = "text/event-stream"


def stream_body(
    events: Iterable[Mapping[str, Any]], *, named: bool = True, done: bool = False
) -> bytes:
    """The HTTP body of a streamed answer made of ``events`` (``fake_stream``'s, or any):
    per event an ``event:`` line naming its ``type`` and a ``data:`` line of JSON, then an empty
    line; no end marker (the API's guide "Streaming API responses"; recorded streams, which
    toolgen's tests/sdk/test_sse.py compares). A provider that relays the API may frame it its
    own way: without the ``event:`` lines (``named=False``), ending with ``data: [DONE]``
    (``done``)."""
    from ._fakes import server_sent_events

    return server_sent_events(events, named=named, done=done)


def _fake(calls: Sequence[tuple[str, Any]], text: str | None, model: str | None) -> Fake:
    from ._fakes import Fake

    return Fake("responses", calls, text, FAKE_MODEL if model is None else model)


def _responses_items(fake: Fake) -> list[dict[str, Any]]:
    """The output items of a completed response: the message, then the function calls."""
    items: list[dict[str, Any]] = []
    if fake.text is not None:
        items.append(_message_item(fake, [_output_text(fake.text)], "completed"))
    for index, (name, arguments) in enumerate(fake.calls):
        items.append(_function_call_item(fake, index, name, fake.json_text(arguments), "completed"))
    return items


def _output_text(text: str) -> dict[str, Any]:
    return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}


def _message_item(fake: Fake, content: list[Any], status: str) -> dict[str, Any]:
    return {
        "id": f"msg_{fake.hex('message', 50)}",
        "type": "message",
        "status": status,
        "content": content,
        "role": "assistant",
    }


def _function_call_item(
    fake: Fake, index: int, name: str, arguments: str, status: str
) -> dict[str, Any]:
    return {
        "id": f"fc_{fake.hex(f'item{index}', 50)}",
        "type": "function_call",
        "status": status,
        "arguments": arguments,
        "call_id": fake.call_id(index, "call_", 24),
        "name": name,
    }


def _responses_response(fake: Fake, *, completed: bool = True) -> dict[str, Any]:
    usage = {
        "input_tokens": fake.PROMPT_TOKENS,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": fake.output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": fake.PROMPT_TOKENS + fake.output_tokens,
    }
    return {
        "id": f"resp_{fake.hex('response', 50)}",
        "object": "response",
        "created_at": fake.CREATED,
        "status": "completed" if completed else "in_progress",
        "background": False,
        "completed_at": fake.CREATED + 1 if completed else None,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "max_tool_calls": None,
        "model": fake.model,
        "output": _responses_items(fake) if completed else [],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "prompt_cache_key": None,
        "reasoning": {"effort": None, "summary": None},
        "safety_identifier": None,
        "service_tier": "default",
        "store": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": [],
        "top_logprobs": 0,
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage if completed else None,
        "user": None,
        "metadata": {},
    }


def _responses_stream(fake: Fake) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def emit(kind: str, **members: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **members})

    pending = _responses_response(fake, completed=False)
    emit("response.created", response=pending)
    emit("response.in_progress", response=pending)
    output_index = 0
    if fake.text is not None:
        item = _message_item(fake, [], "in_progress")
        place = {"item_id": item["id"], "output_index": output_index}
        emit("response.output_item.added", item=item, output_index=output_index)
        emit("response.content_part.added", content_index=0, **place, part=_output_text(""))
        for piece in fake.words(fake.text):
            emit("response.output_text.delta", content_index=0, delta=piece, logprobs=[], **place)
        emit("response.output_text.done", content_index=0, logprobs=[], text=fake.text, **place)
        part = _output_text(fake.text)
        emit("response.content_part.done", content_index=0, **place, part=part)
        done = _message_item(fake, [part], "completed")
        emit("response.output_item.done", item=done, output_index=output_index)
        output_index += 1
    for index, (name, arguments) in enumerate(fake.calls):
        text = fake.json_text(arguments)
        item = _function_call_item(fake, index, name, "", "in_progress")
        place = {"item_id": item["id"], "output_index": output_index}
        emit("response.output_item.added", item=item, output_index=output_index)
        for piece in fake.pieces(text):
            emit("response.function_call_arguments.delta", delta=piece, **place)
        emit("response.function_call_arguments.done", arguments=text, **place)
        done = _function_call_item(fake, index, name, text, "completed")
        emit("response.output_item.done", item=done, output_index=output_index)
        output_index += 1
    emit("response.completed", response=_responses_response(fake))
    return events
