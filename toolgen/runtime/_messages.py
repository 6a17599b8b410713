"""The Messages API: request builders and their params, and the tool-call decoders.

``MessagesRequests`` writes ``tools`` entries (strict tool use, within its per-request limits),
``output_config.format`` and whole requests (``request``: ``tools``, ``output_config`` and
``tool_choice``, planned together), typed with TypedDicts shaped like the SDK's param types
(``types/tool_param.py``, ``cache_control_ephemeral_param.py``, ``json_output_format_param.py``,
``output_config_param.py``, ``tool_choice_tool_param.py``), so passing them to
``messages.create(tools=..., output_config={"format": ...})`` or ``messages.create(...,
**request)`` type-checks without a cast (see _chat_completions).

The decoders take the provider name and the generated validators of the two surfaces
(``message``, ``message_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from ._attributes import members_of
from ._contracts import Contracts, RequestPlan, Strict, StrictToolLimits, only_api
from ._json import JsonRefused, checked
from ._runtime import (
    CallReader,
    Decoded,
    FragmentJoiner,
    ToolCallFragments,
    ValidatingDecoder,
    Validator,
    json_value,
    wire_form,
)
from ._tool_results import Answer, _checked_ids

if TYPE_CHECKING:
    from ._fakes import Fake

__all__ = [
    "FAKE_MODEL",
    "READS",
    "STREAM_CONTENT_TYPE",
    "AssistantMessageParam",
    "CacheControlEphemeralParam",
    "InputSchemaTyped",
    "JSONOutputFormatParam",
    "MessageToolCallStream",
    "MessagesDecoder",
    "MessagesLoop",
    "MessagesRequest",
    "MessagesRequests",
    "OutputConfigParam",
    "ToolChoiceToolParam",
    "ToolParam",
    "ToolResultBlockParam",
    "UserMessageParam",
    "fake_response",
    "fake_stream",
    "stream_body",
]


class InputSchemaTyped(TypedDict):
    """The typed form of ``tools[].input_schema``."""

    type: Literal["object"]
    properties: NotRequired[dict[str, object] | None]
    # the SDK types it with a protocol of its own (SequenceNotStr); a TypedDict member is
    # invariant, and pyright holds a protocol equal only to itself, so Any is what both checkers
    # accept for the SDK's parameter (mypy compares protocols by shape)
    required: NotRequired[Any]


class CacheControlEphemeralParam(TypedDict):
    """``tools[].cache_control``."""

    type: Literal["ephemeral"]
    ttl: NotRequired[Literal["5m", "1h"]]


class ToolParam(TypedDict):
    """One custom tool of ``tools``."""

    name: str
    input_schema: InputSchemaTyped | dict[str, object]
    allowed_callers: NotRequired[
        list[
            Literal[
                "direct",
                "code_execution_20250825",
                "code_execution_20260120",
                "code_execution_20260521",
            ]
        ]
    ]
    cache_control: NotRequired[CacheControlEphemeralParam | None]
    defer_loading: NotRequired[bool]
    description: NotRequired[str]
    eager_input_streaming: NotRequired[bool | None]
    input_examples: NotRequired[Iterable[dict[str, object]]]
    strict: NotRequired[bool]
    type: NotRequired[Literal["custom"] | None]


class JSONOutputFormatParam(TypedDict):
    """``output_config.format``."""

    type: Literal["json_schema"]
    schema: dict[str, object]


class OutputConfigParam(TypedDict, total=False):
    """``output_config``."""

    effort: Literal["low", "medium", "high", "xhigh", "max"] | None
    format: JSONOutputFormatParam | None


class ToolChoiceToolParam(TypedDict):
    """``tool_choice`` naming the one tool the model must call."""

    name: str
    type: Literal["tool"]
    disable_parallel_tool_use: NotRequired[bool]


class MessagesRequest(TypedDict, total=False):
    """The tools-and-output members of one ``messages.create`` request."""

    tools: list[ToolParam]
    output_config: OutputConfigParam
    tool_choice: ToolChoiceToolParam


class MessagesRequests:
    """The request side of the Messages API for one provider module's tools and outputs."""

    def __init__(self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def tool_definition(
        self, name: str, api: Literal["messages"] = "messages", *, strict: Strict = "auto"
    ) -> ToolParam:
        """The tool definition of canonical tool ``name`` for the ``tools`` request field, marked
        strict unless ``strict`` is False, when the tool may go strict (``STRICT`` of the
        provider module). A strict tool sent with ``strict=False`` keeps its closed schema;
        either way its input is validated on the way back."""
        only_api(api, "messages")
        return self._definition(name, strict is not False)

    def _definition(self, name: str, strict: bool, nullable: tuple[str, ...] = ()) -> ToolParam:
        """The definition of ``name``, its root's optional members ``nullable`` written
        required and nullable (``Contracts.schema``)."""
        return {
            "name": self._tools.provider_name(name),
            "description": self._tools.descriptions[name],
            "input_schema": self._tools.schema(name, nullable),
            "strict": strict and self._tools.is_strict(name),
        }

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["messages"] = "messages",
        strict: Strict = "auto",
    ) -> list[ToolParam]:
        """Definitions of the tools ``names`` (all tools when None), in that order.

        Strict tool use has per-request limits (``MAX_STRICT_TOOLS`` strict tools,
        ``MAX_OPTIONAL_MEMBERS`` optional and ``MAX_UNION_MEMBERS`` union-typed members across
        them, in the provider module). ``strict="auto"`` marks strict as many tools as fit, by
        priority then in order, and sends the others non-strict with the same closed schemas;
        ``strict=True`` marks every tool strict and raises ValueError when they exceed the limits
        (the API would answer 400); ``strict=False`` marks none. A tool the design sends
        non-strict is never marked and never counts. These count the tools alone: a request with
        a structured output too is planned by ``request``.
        """
        only_api(api, "messages")
        chosen = self._tools.chosen(names)
        marked = self._limits.marked(self._tools, chosen, strict)
        return [self.tool_definition(name, strict=name in marked) for name in chosen]

    def output_format(
        self, name: str, api: Literal["messages"] = "messages"
    ) -> JSONOutputFormatParam:
        """``output_config.format`` for the canonical structured output ``name``."""
        only_api(api, "messages")
        return {"type": "json_schema", "schema": self._outputs.schema(name)}

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["messages"] = "messages",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[MessagesRequest]:
        """The plan of one request of the tools ``names`` (all tools when None) and the
        structured output ``output``: the per-request limits of strict tool use (strict tools,
        optional and union-typed members) are counted over the strict tools and the output
        together, as the API counts them. ``strict`` as ``tool_definitions`` has it; the output
        always counts first. ``tool_choice``: a canonical tool of the request the model must
        call. Its ``members`` are what ``request`` returns; ``explain()`` says which tools went
        non-strict and which budget bound."""
        only_api(api, "messages")

        def members(
            chosen: list[str], strict_tools: frozenset[str], nullable: Mapping[str, tuple[str, ...]]
        ) -> MessagesRequest:
            request: MessagesRequest = {}
            if chosen:
                request["tools"] = [
                    self._definition(n, n in strict_tools, nullable.get(n, ())) for n in chosen
                ]
            if output is not None:
                request["output_config"] = {"format": self.output_format(output)}
            if tool_choice is not None:
                forced = self._tools.forced(tool_choice, chosen)
                request["tool_choice"] = {"type": "tool", "name": forced}
            return request

        return self._limits.plan(api, self._tools, names, strict, self._outputs, output, members)

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["messages"] = "messages",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> MessagesRequest:
        """The tools-and-output members of one request (``plan_request(...).members``):
        ``client.messages.create(model=..., max_tokens=..., messages=..., **request(...))``."""
        return self.plan_request(
            names, output=output, api=api, strict=strict, tool_choice=tool_choice
        ).members


_START = "{type=content_block_start}"
_DELTA = "{type=content_block_delta}"
READS: tuple[tuple[str, str, str], ...] = (
    ("message", "content.[].type", "string"),
    ("message", "content.[].{type=tool_use}.id", "string"),
    ("message", "content.[].{type=tool_use}.name", "string"),
    ("message", "content.[].{type=tool_use}.input", "object"),
    ("message_stream_event", "type", "string"),
    ("message_stream_event", f"{_START}.index", "integer"),
    ("message_stream_event", f"{_START}.content_block.type", "string"),
    ("message_stream_event", f"{_START}.content_block.{{type=tool_use}}.id", "string"),
    ("message_stream_event", f"{_START}.content_block.{{type=tool_use}}.name", "string"),
    ("message_stream_event", f"{_START}.content_block.{{type=tool_use}}.input", "object"),
    ("message_stream_event", f"{_DELTA}.index", "integer"),
    ("message_stream_event", f"{_DELTA}.delta.type", "string"),
    ("message_stream_event", f"{_DELTA}.delta.{{type=input_json_delta}}.partial_json", "string"),
)


class MessagesDecoder(ValidatingDecoder):
    """The ``tool_use`` blocks of messages and of their event streams."""

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded]) -> list[Decoded]:
        """The ``tool_use`` blocks of a message, canonicalized; validates ``data`` first.

        Their ``raw_arguments`` is ``input`` written as compact JSON (when first read).
        """
        valid = self._validate(data)
        seen: set[str] = set()  # the ids of the calls so far: each is answered once
        if type(valid) is not dict:  # an SDK object its reader checked through its attributes
            message: Any = valid
            blocks = [block for block in message.content if block.type == "tool_use"]
            try:
                for block in blocks:
                    checked(block.input)
            except JsonRefused:  # an input its dump may write otherwise (NaN...): read the dump
                valid = self._validate(json_value(data))
            else:
                return [
                    calls.from_object(b.id, b.name, b.input, seen, checked_already=True)
                    for b in blocks
                ]
        from_object = calls.from_object
        return [
            from_object(block["id"], block["name"], block["input"], seen)
            for block in valid["content"]
            if block["type"] == "tool_use"
        ]

    def stream(self) -> MessageToolCallStream:
        return MessageToolCallStream(self.provider, self._validate_event)


class MessageToolCallStream(FragmentJoiner):
    """Joins the ``input_json_delta`` fragments of streamed ``tool_use`` blocks into whole calls.

    Give every event to ``add`` (it validates the event and returns it), then call ``tool_calls``.
    A ``message_start`` event starts a new message (the calls gathered so far are dropped).
    """

    def __init__(self, provider: str, validate_event: Validator) -> None:
        super().__init__(provider, validate_event)
        self._inputs: dict[int, dict[str, Any]] = {}

    def add(self, event: object) -> None:
        # raw JSON, or an SDK object its reader checked, read as ``members_of`` reads it (written
        # out, and the deltas first: this runs for every event)
        valid = self._validate(event)
        valid = valid if type(valid) is dict else valid.__dict__
        kind = valid["type"]
        if kind == "content_block_delta":
            call = self._calls.get(valid["index"])
            if call is not None:
                delta = valid["delta"]
                delta = delta if type(delta) is dict else delta.__dict__
                if delta["type"] == "input_json_delta":
                    call.parts.append(delta["partial_json"])
        elif kind == "content_block_start":
            block = members_of(valid["content_block"])
            if block["type"] == "tool_use":
                self._calls[valid["index"]] = ToolCallFragments(block["id"], block["name"])
                self._inputs[valid["index"]] = block["input"]
        elif kind == "message_start":
            self._calls.clear()
            self._inputs.clear()

    def tool_calls(self, calls: CallReader[Decoded]) -> list[Decoded]:
        """The joined calls in block order (a block without fragments keeps its start ``input``)."""
        seen: set[str] = set()
        return [
            calls.joined(call, self._inputs[index], seen)
            for index, call in sorted(self._calls.items())
        ]


# -- the tool loop: the turn to replay and the results that answer its calls --------------------


class ToolResultBlockParam(TypedDict):
    """The SDK's ``ToolResultBlockParam``."""

    tool_use_id: str
    type: Literal["tool_result"]
    cache_control: NotRequired[Any]
    content: NotRequired[str | Iterable[Any]]
    is_error: NotRequired[bool]
    toolset_name: NotRequired[str | None]


class AssistantMessageParam(TypedDict):
    """The SDK's ``AssistantMessageParam``: ``content`` holds the response's blocks."""

    content: str | Iterable[Any]
    role: Literal["assistant"]


class UserMessageParam(TypedDict):
    """The SDK's ``UserMessageParam``: ``content`` holds ``ToolResultBlockParam``
    blocks, one per ``tool_use`` block of the turn before, in its order."""

    content: str | Iterable[Any]
    role: Literal["user"]


class MessagesLoop:
    """Messages API: the response's blocks replayed as received (thinking blocks with their
    signatures); one user message beginning with one ``tool_result`` block per ``tool_use``
    (``is_error`` on a failure)."""

    def __init__(self, provider: str, validate: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON

    def assistant_turn(self, data: object) -> AssistantMessageParam:
        return {"role": "assistant", "content": list(self._validate(data)["content"])}

    def result(self, answer: Answer) -> ToolResultBlockParam:
        block: ToolResultBlockParam = {
            "type": "tool_result",
            "tool_use_id": answer.call_id,
            "content": answer.text(),
        }
        if answer.is_error:
            block["is_error"] = True
        return block

    def results(self, answers: Sequence[Answer]) -> UserMessageParam:
        return {"role": "user", "content": [self.result(a) for a in _checked_ids(answers)]}


# -- fakes: the bodies and streams it answers with, for tests ------------------------------

#: The model its fakes name unless ``model`` is given.
FAKE_MODEL = "claude-sonnet-4-5-20250929"


def fake_response(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """A ``message`` with a ``text`` block (the assistant ``text``, when given) then ``tool_use``
    blocks (``toolu_...``), stop reason ``tool_use`` or ``end_turn``."""
    return _messages_response(_fake(calls, text, model))


def fake_stream(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> list[dict[str, Any]]:
    """The events of the streamed answer: ``message_start``, per block ``content_block_start``,
    ``content_block_delta`` (``text_delta`` or ``input_json_delta``) and ``content_block_stop``
    (a ``ping`` after the first start), ``message_delta`` with the stop reason,
    ``message_stop``."""
    return _messages_stream(_fake(calls, text, model))


#: The ``Content-Type`` of a streamed answer.
STREAM_CONTENT_TYPE = "text/event-stream"


def stream_body(events: Iterable[Mapping[str, Any]]) -> bytes:
    """The HTTP body of a streamed answer made of ``events`` (``fake_stream``'s, or any):
    per event an ``event:`` line naming its ``type`` and a ``data:`` line of JSON, then an empty
    line (the API's "Streaming Messages" page: every event is named; the SDK's ``_streaming.py``
    skips an event without a name)."""
    from ._fakes import server_sent_events

    return server_sent_events(events, named=True)


def _fake(calls: Sequence[tuple[str, Any]], text: str | None, model: str | None) -> Fake:
    from ._fakes import Fake

    return Fake("messages", calls, text, FAKE_MODEL if model is None else model)


def _messages_stop(fake: Fake) -> str:
    return "tool_use" if fake.calls else "end_turn"


def _messages_usage(fake: Fake, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": fake.PROMPT_TOKENS,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": output_tokens,
        "service_tier": "standard",
    }


def _messages_message(fake: Fake, content: list[Any], done: bool) -> dict[str, Any]:
    return {
        "id": f"msg_01{fake.token('message', 22)}",
        "type": "message",
        "role": "assistant",
        "model": fake.model,
        "content": content,
        "stop_reason": _messages_stop(fake) if done else None,
        "stop_sequence": None,
        "usage": _messages_usage(fake, fake.output_tokens if done else 1),
    }


def _messages_response(fake: Fake) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if fake.text is not None:
        content.append({"type": "text", "text": fake.text})
    content += [
        {
            "type": "tool_use",
            "id": fake.call_id(index, "toolu_01", 22),
            "name": name,
            "input": arguments,
        }
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    return _messages_message(fake, content, done=True)


def _messages_stream(fake: Fake) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": _messages_message(fake, [], done=False)}
    ]
    blocks: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    if fake.text is not None:
        deltas = [{"type": "text_delta", "text": piece} for piece in fake.words(fake.text)]
        blocks.append(({"type": "text", "text": ""}, deltas))
    for index, (name, arguments) in enumerate(fake.calls):
        start = {
            "type": "tool_use",
            "id": fake.call_id(index, "toolu_01", 22),
            "name": name,
            "input": {},
        }
        fragments = ["", *fake.pieces(fake.json_text(arguments))]
        blocks.append((start, [{"type": "input_json_delta", "partial_json": p} for p in fragments]))
    for index, (start, deltas) in enumerate(blocks):
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        if index == 0:
            events.append({"type": "ping"})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": _messages_stop(fake), "stop_sequence": None},
            "usage": {"output_tokens": fake.output_tokens},
        }
    )
    events.append({"type": "message_stop"})
    return events
