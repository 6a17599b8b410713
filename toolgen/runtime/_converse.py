"""The Converse API: request builders and their shapes, and the tool-call decoders.

``ConverseRequests`` writes ``toolConfig.tools``, ``outputConfig.textFormat`` and whole requests
(``request``: ``toolConfig`` and ``outputConfig``, planned together), typed with TypedDicts of the
API reference's shapes (Tool, ToolSpecification, ToolInputSchema, OutputFormat,
OutputFormatStructure, JsonSchemaDefinition, ToolConfiguration, ToolChoice, OutputConfig) with
the members written here.

The decoders take the provider name and the generated validators of the two surfaces
(``converse``, ``converse_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from ._contracts import Contracts, RequestPlan, Strict, StrictToolLimits, only_api
from ._json import JsonRefused, loads
from ._runtime import (
    CallReader,
    Decoded,
    FragmentJoiner,
    ToolCallFragments,
    ValidatingDecoder,
    Validator,
    wire_form,
)
from ._tool_results import Answer, _checked_ids

if TYPE_CHECKING:
    from ._fakes import Fake

__all__ = [
    "FAKE_MODEL",
    "READS",
    "STREAM_CONTENT_TYPE",
    "ConverseDecoder",
    "ConverseLoop",
    "ConverseMessage",
    "ConverseRequest",
    "ConverseRequests",
    "ConverseToolCallStream",
    "ConverseToolResultBlock",
    "JsonSchemaDefinition",
    "OutputConfig",
    "OutputFormat",
    "OutputFormatStructure",
    "SpecificToolChoice",
    "ToolChoice",
    "ToolConfiguration",
    "ToolInputSchema",
    "ToolSpecification",
    "ToolTypeDef",
    "fake_response",
    "fake_stream",
    "stream_body",
]


class ToolInputSchema(TypedDict):
    """``toolSpec.inputSchema``: the schema as a JSON document."""

    json: dict[str, object]


class ToolSpecification(TypedDict):
    """``toolSpec`` of one tool of ``toolConfig.tools``."""

    name: str
    inputSchema: ToolInputSchema
    description: NotRequired[str]
    strict: NotRequired[bool]


class ToolTypeDef(TypedDict):
    """One tool of ``toolConfig.tools``."""

    toolSpec: ToolSpecification


class JsonSchemaDefinition(TypedDict):
    """``structure.jsonSchema``: the schema as JSON text."""

    schema: str
    name: NotRequired[str]
    description: NotRequired[str]


class OutputFormatStructure(TypedDict):
    """``textFormat.structure``."""

    jsonSchema: JsonSchemaDefinition


class OutputFormat(TypedDict):
    """``outputConfig.textFormat``."""

    type: Literal["json_schema"]
    structure: OutputFormatStructure


class SpecificToolChoice(TypedDict):
    """``toolChoice.tool``: the one tool the model must call."""

    name: str


class ToolChoice(TypedDict):
    """``toolConfig.toolChoice`` naming one tool."""

    tool: SpecificToolChoice


class ToolConfiguration(TypedDict):
    """``toolConfig``."""

    tools: list[ToolTypeDef]
    toolChoice: NotRequired[ToolChoice]


class OutputConfig(TypedDict):
    """``outputConfig``."""

    textFormat: OutputFormat


class ConverseRequest(TypedDict, total=False):
    """The tools-and-output members of one ``converse`` request."""

    toolConfig: ToolConfiguration
    outputConfig: OutputConfig


class ConverseRequests:
    """The request side of the Converse API for one provider module's tools and outputs."""

    def __init__(self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def tool_definition(
        self, name: str, api: Literal["converse"] = "converse", *, strict: Strict = "auto"
    ) -> ToolTypeDef:
        """The ``toolSpec`` entry of canonical tool ``name`` for ``toolConfig.tools``, with
        ``strict: true`` unless ``strict`` is False, when the tool may go strict (``STRICT`` in
        the provider module), else without the key (ToolSpecification's default: not strict). A
        strict tool sent with ``strict=False`` keeps its closed schema; either way its input is
        validated on the way back."""
        only_api(api, "converse")
        return self._definition(name, strict is not False)

    def _definition(self, name: str, strict: bool, nullable: tuple[str, ...] = ()) -> ToolTypeDef:
        """The definition of ``name``, its root's optional members ``nullable`` written
        required and nullable (``Contracts.schema``)."""
        spec: ToolSpecification = {
            "name": self._tools.provider_name(name),
            "inputSchema": {"json": self._tools.schema(name, nullable)},
        }
        if self._tools.descriptions[name]:  # the API refuses an empty description
            spec["description"] = self._tools.descriptions[name]
        if strict and self._tools.is_strict(name):
            spec["strict"] = True
        return {"toolSpec": spec}

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["converse"] = "converse",
        strict: Strict = "auto",
    ) -> list[ToolTypeDef]:
        """``toolConfig.tools`` for the tools ``names`` (all tools when None), in that order.

        Strict tool use has per-request limits (``MAX_STRICT_TOOLS`` strict tools,
        ``MAX_OPTIONAL_MEMBERS`` optional and ``MAX_UNION_MEMBERS`` union-typed members across
        them, in the provider module). ``strict="auto"`` marks strict as many tools as fit, by
        priority then in order, and sends the others without ``strict`` with the same closed
        schemas; ``strict=True`` marks every tool strict and raises ValueError when they exceed
        the limits (the API would refuse the request); ``strict=False`` marks none. A tool the
        design sends non-strict is never marked and never counts. These count the tools alone:
        a request with a structured output too is planned by ``request``.
        """
        only_api(api, "converse")
        chosen = self._tools.chosen(names)
        marked = self._limits.marked(self._tools, chosen, strict)
        return [self.tool_definition(name, strict=name in marked) for name in chosen]

    def output_format(self, name: str, api: Literal["converse"] = "converse") -> OutputFormat:
        """``outputConfig.textFormat`` for the canonical structured output ``name`` (the schema
        goes as JSON text)."""
        only_api(api, "converse")
        json_schema: JsonSchemaDefinition = {
            "schema": json.dumps(self._outputs.schema(name), ensure_ascii=False),
            "name": self._outputs.provider_name(name),
        }
        if self._outputs.descriptions[name]:
            json_schema["description"] = self._outputs.descriptions[name]
        return {"type": "json_schema", "structure": {"jsonSchema": json_schema}}

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["converse"] = "converse",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[ConverseRequest]:
        """The plan of one request of the tools ``names`` (all tools when None) and the
        structured output ``output``, its per-request limits counted over the strict tools and
        the output together (as the Messages API's: ``MessagesRequests.plan_request``);
        ``tool_choice``: a canonical tool of the request the model must call."""
        only_api(api, "converse")

        def members(
            chosen: list[str], strict_tools: frozenset[str], nullable: Mapping[str, tuple[str, ...]]
        ) -> ConverseRequest:
            request: ConverseRequest = {}
            if chosen:
                tools = [
                    self._definition(n, n in strict_tools, nullable.get(n, ())) for n in chosen
                ]
                request["toolConfig"] = {"tools": tools}
                if tool_choice is not None:
                    forced = self._tools.forced(tool_choice, chosen)
                    request["toolConfig"]["toolChoice"] = {"tool": {"name": forced}}
            elif tool_choice is not None:
                self._tools.forced(tool_choice, chosen)
            if output is not None:
                request["outputConfig"] = {"textFormat": self.output_format(output)}
            return request

        return self._limits.plan(api, self._tools, names, strict, self._outputs, output, members)

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["converse"] = "converse",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> ConverseRequest:
        """The tools-and-output members of one request (``plan_request(...).members``):
        ``client.converse(modelId=..., messages=..., **request(...))``."""
        return self.plan_request(
            names, output=output, api=api, strict=strict, tool_choice=tool_choice
        ).members


_BLOCK = "output.message.content.[].toolUse?"
_BLOCK_START = "contentBlockStart?.start.toolUse?"
_BLOCK_DELTA = "contentBlockDelta?"
READS: tuple[tuple[str, str, str], ...] = (
    ("converse", f"{_BLOCK}.toolUseId", "string"),
    ("converse", f"{_BLOCK}.name", "string"),
    ("converse", f"{_BLOCK}.input", "object"),
    ("converse", f"{_BLOCK}.type?", "string"),
    ("converse_stream_event", "messageStart?", "object"),
    ("converse_stream_event", "contentBlockStart?.contentBlockIndex", "integer"),
    ("converse_stream_event", f"{_BLOCK_START}.toolUseId", "string"),
    ("converse_stream_event", f"{_BLOCK_START}.name", "string"),
    ("converse_stream_event", f"{_BLOCK_START}.type?", "string"),
    ("converse_stream_event", f"{_BLOCK_DELTA}.contentBlockIndex", "integer"),
    ("converse_stream_event", f"{_BLOCK_DELTA}.delta.toolUse?.input", "string"),
)


def _is_client_tool(tool_use: Mapping[str, Any]) -> bool:
    """A tool the caller runs (a ``server_tool_use`` already ran on the server)."""
    return tool_use.get("type") in (None, "tool_use")


class ConverseDecoder(ValidatingDecoder):
    """The ``toolUse`` blocks of Converse responses and of their event streams (read as JSON:
    boto3 gives dicts; any other object is read as its wire form)."""

    def __init__(
        self, provider: str, validate_response: Validator, validate_event: Validator
    ) -> None:
        super().__init__(provider, wire_form(validate_response), wire_form(validate_event))

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded]) -> list[Decoded]:
        """The ``toolUse`` blocks of a Converse response, canonicalized; validates ``data`` first.

        Their ``raw_arguments`` is ``input`` written as compact JSON; server tools are skipped.
        """
        seen: set[str] = set()  # the ids of the calls so far: each is answered once
        return [
            calls.from_object(
                block["toolUse"]["toolUseId"],
                block["toolUse"]["name"],
                block["toolUse"]["input"],
                seen,
            )
            for block in self._validate(data)["output"]["message"]["content"]
            if "toolUse" in block and _is_client_tool(block["toolUse"])
        ]

    def stream(self) -> ConverseToolCallStream:
        return ConverseToolCallStream(self.provider, self._validate_event)


class ConverseToolCallStream(FragmentJoiner):
    """Joins the ``toolUse`` input fragments of a ConverseStream response into whole calls.

    Give every event (``{"contentBlockStart": {...}}`` ..., as the SDKs yield them) to ``add``
    (it validates the event and returns it), then call ``tool_calls``. A ``messageStart`` event
    starts a new message (the calls gathered so far are dropped).
    """

    def add(self, event: object) -> None:
        valid = self._validate(event)
        if "messageStart" in valid:
            self._calls.clear()
        start = valid.get("contentBlockStart")
        if start is not None:
            tool_use = start["start"].get("toolUse")
            if tool_use is not None and _is_client_tool(tool_use):
                index = start["contentBlockIndex"]
                self._calls[index] = ToolCallFragments(tool_use["toolUseId"], tool_use["name"])
        delta = valid.get("contentBlockDelta")
        if delta is not None:
            call = self._calls.get(delta["contentBlockIndex"])
            fragment = delta["delta"].get("toolUse")
            if call is not None and fragment is not None:
                call.parts.append(fragment["input"])

    def tool_calls(self, calls: CallReader[Decoded]) -> list[Decoded]:
        """The joined calls in block order (a call without input fragments has input ``{}``)."""
        seen: set[str] = set()
        return [calls.joined(call, {}, seen) for _, call in sorted(self._calls.items())]


# -- the tool loop: the turn to replay and the results that answer its calls --------------------


class ConverseToolResult(TypedDict):
    """``ToolResultBlock`` of the Converse API reference."""

    toolUseId: str
    content: list[dict[str, Any]]
    status: NotRequired[Literal["success", "error"]]


class ConverseToolResultBlock(TypedDict):
    """A ``ContentBlock`` holding a ``toolResult``."""

    toolResult: ConverseToolResult


class ConverseMessage(TypedDict):
    """A ``Message`` of the Converse API: ``role`` and its ``ContentBlock`` list."""

    role: Literal["user", "assistant"]
    content: list[Any]


class ConverseLoop:
    """Converse API: ``output.message`` replayed as received; one user message with one
    ``toolResult`` block per ``toolUse`` (``json`` always an object: any other JSON value is
    wrapped as ``{"output": value}``; ``status: "error"`` on a failure).

    A streamed turn (ConverseStream) is replayed from the list of its events: the message they
    spell, its blocks in ``contentBlockIndex`` order (text joined, a ``toolUse`` with its input
    fragments parsed into the object Converse takes back, reasoning with its signature); a
    ``messageStart`` starts the message over, as in ``ToolCallStream``.
    """

    def __init__(self, provider: str, validate: Validator, *, validate_event: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON
        self._validate_event = wire_form(validate_event)

    def assistant_turn(self, data: object) -> ConverseMessage:
        if type(data) is list:
            return self._streamed_turn(data)
        message = self._validate(data)["output"]["message"]
        return {"role": message["role"], "content": list(message["content"])}

    def _streamed_turn(self, events: list[Any]) -> ConverseMessage:
        blocks: dict[int, dict[str, Any]] = {}
        inputs: dict[int, list[str]] = {}
        for event in events:
            valid = self._validate_event(event)
            if "messageStart" in valid:  # the model's turn: its role is "assistant"
                blocks.clear()
                inputs.clear()
            start = valid.get("contentBlockStart")
            if start is not None and start["start"].get("toolUse") is not None:
                blocks[start["contentBlockIndex"]] = {"toolUse": dict(start["start"]["toolUse"])}
                inputs[start["contentBlockIndex"]] = []
            delta = valid.get("contentBlockDelta")
            if delta is not None:
                _add_delta(blocks, inputs, delta["contentBlockIndex"], delta["delta"])
        for index, parts in inputs.items():
            blocks[index]["toolUse"]["input"] = _streamed_input("".join(parts))
        return {"role": "assistant", "content": [blocks[index] for index in sorted(blocks)]}

    def result(self, answer: Answer) -> ConverseToolResultBlock:
        output = answer.output
        if isinstance(output, str):
            content: dict[str, Any] = {"text": output}
        else:
            content = {"json": output if isinstance(output, dict) else {"output": output}}
        result: ConverseToolResult = {"toolUseId": answer.call_id, "content": [content]}
        result["status"] = "error" if answer.is_error else "success"
        return {"toolResult": result}

    def results(self, answers: Sequence[Answer]) -> ConverseMessage:
        return {"role": "user", "content": [self.result(a) for a in _checked_ids(answers)]}


def _add_delta(
    blocks: dict[int, dict[str, Any]],
    inputs: dict[int, list[str]],
    index: int,
    delta: dict[str, Any],
) -> None:
    """One ``contentBlockDelta`` into the block it extends."""
    if "text" in delta:
        block = blocks.setdefault(index, {"text": ""})
        block["text"] += delta["text"]
    elif "toolUse" in delta:
        inputs.setdefault(index, []).append(delta["toolUse"].get("input", ""))
    elif "reasoningContent" in delta:
        reasoning = delta["reasoningContent"]
        block = blocks.setdefault(index, {"reasoningContent": {}})
        if "redactedContent" in reasoning:
            block["reasoningContent"] = {"redactedContent": reasoning["redactedContent"]}
            return
        text = block["reasoningContent"].setdefault("reasoningText", {"text": ""})
        text["text"] += reasoning.get("text", "")
        if "signature" in reasoning:
            text["signature"] = reasoning["signature"]


def _streamed_input(text: str) -> Any:
    """A streamed ``toolUse`` input as the object Converse takes back; ``{}`` when there was none
    or it is no JSON object (the call itself is then a FailedCall, answered as such)."""
    try:
        value = loads(text) if text else {}
    except JsonRefused:
        return {}
    return value if isinstance(value, dict) else {}


# -- fakes: the bodies and streams it answers with, for tests ------------------------------

#: The model its fakes name unless ``model`` is given.
FAKE_MODEL = ""


def fake_response(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """A Converse response with a ``text`` block (the assistant ``text``, when given) then
    ``toolUse`` blocks (``tooluse_...``); its body names no model (``model`` only seeds the
    ids)."""
    return _converse_response(_fake(calls, text, model))


def fake_stream(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> list[dict[str, Any]]:
    """The event dicts of ConverseStream (``messageStart``, ``contentBlockStart``/``Delta``/
    ``Stop``, ``messageStop``, ``metadata``)."""
    return _converse_stream(_fake(calls, text, model))


#: The ``Content-Type`` of a streamed answer (ConverseStream's).
STREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream"


def stream_body(events: Iterable[Mapping[str, Any]]) -> bytes:
    """The HTTP body of ConverseStream made of ``events`` (``fake_stream``'s, or any, as boto3
    yields them: ``{event type: payload}``): one AWS event stream message per event, with the
    string headers ``:event-type``, ``:content-type`` (``application/json``) and ``:message-type``
    (``event``) in the order the API sends them, the payload as compact JSON, and both CRC-32s.

    The encoding ("Event stream encoding", docs.aws.amazon.com/transcribe/latest/dg/
    event-stream.html, checked 2026-12-07): a prelude of the message's total length and its
    headers' length (4 bytes each, big-endian) and the CRC-32 of those 8 bytes, the headers (each a
    name of one length byte, type 7 for a string, the value's 2-byte length and UTF-8 bytes), the
    payload, then the CRC-32 of all before it; botocore's ``eventstream.py`` reads it so. The API
    pads each payload with a member ``p`` no SDK yields; these payloads have none."""
    import struct
    import zlib

    messages = []
    for event in events:
        [(kind, payload)] = event.items()
        headers = b"".join(
            _string_header(name, value)
            for name, value in (
                (":event-type", kind),
                (":content-type", "application/json"),
                (":message-type", "event"),
            )
        )
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        prelude = struct.pack(">II", 16 + len(headers) + len(data), len(headers))
        message = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + data
        messages.append(message + struct.pack(">I", zlib.crc32(message)))
    return b"".join(messages)


def _string_header(name: str, value: str) -> bytes:
    """One event stream header of type string (7)."""
    encoded_name, encoded = name.encode("utf-8"), value.encode("utf-8")
    return (
        bytes((len(encoded_name),))
        + encoded_name
        + b"\x07"
        + len(encoded).to_bytes(2, "big")
        + encoded
    )


def _fake(calls: Sequence[tuple[str, Any]], text: str | None, model: str | None) -> Fake:
    from ._fakes import Fake

    return Fake("converse", calls, text, FAKE_MODEL if model is None else model)


def _converse_stop(fake: Fake) -> str:
    return "tool_use" if fake.calls else "end_turn"


def _converse_response(fake: Fake) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if fake.text is not None:
        content.append({"text": fake.text})
    content += [
        {
            "toolUse": {
                "toolUseId": fake.call_id(index, "tooluse_", 22),
                "name": name,
                "input": arguments,
            }
        }
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    return {
        "metrics": {"latencyMs": 800 + fake.output_tokens},
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": _converse_stop(fake),
        "usage": fake.usage("inputTokens", "outputTokens", "totalTokens"),
    }


def _converse_stream(fake: Fake) -> list[dict[str, Any]]:
    """The events as boto3's ``converse_stream`` yields them (``{"contentBlockDelta": ...}``);
    a text block has no ``contentBlockStart``."""
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    index = 0
    if fake.text is not None:
        for piece in fake.words(fake.text):
            delta = {"contentBlockIndex": index, "delta": {"text": piece}}
            events.append({"contentBlockDelta": delta})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
        index += 1
    for number, (name, arguments) in enumerate(fake.calls):
        tool_use = {"toolUseId": fake.call_id(number, "tooluse_", 22), "name": name}
        events.append(
            {"contentBlockStart": {"contentBlockIndex": index, "start": {"toolUse": tool_use}}}
        )
        for piece in fake.pieces(fake.json_text(arguments)):
            delta = {"contentBlockIndex": index, "delta": {"toolUse": {"input": piece}}}
            events.append({"contentBlockDelta": delta})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
        index += 1
    events.append({"messageStop": {"stopReason": _converse_stop(fake)}})
    metrics = {"latencyMs": 800 + fake.output_tokens}
    events.append(
        {
            "metadata": {
                "usage": fake.usage("inputTokens", "outputTokens", "totalTokens"),
                "metrics": metrics,
            }
        }
    )
    return events
