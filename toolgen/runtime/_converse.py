"""The Converse API: request builders and their shapes, and the tool-call decoders.

``ConverseRequests`` writes ``toolConfig.tools`` and ``outputConfig.textFormat``, typed with
TypedDicts of the API reference's shapes (Tool, ToolSpecification, ToolInputSchema, OutputFormat,
OutputFormatStructure, JsonSchemaDefinition) with the members written here.

The decoders take the provider name and the generated validators of the two surfaces
(``converse``, ``converse_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal, NotRequired, TypedDict

from ._contracts import Contracts, StrictToolLimits
from ._runtime import (
    CallReader,
    Decoded,
    FragmentJoiner,
    ToolCallFragments,
    ValidatingDecoder,
    Validator,
    wire_form,
)

__all__ = [
    "READS",
    "ConverseDecoder",
    "ConverseRequests",
    "ConverseToolCallStream",
    "JsonSchemaDefinition",
    "OutputFormat",
    "OutputFormatStructure",
    "ToolInputSchema",
    "ToolSpecification",
    "ToolTypeDef",
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


class ConverseRequests:
    """The request side of the Converse API for one provider module's tools and outputs."""

    def __init__(self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def tool_definition(self, name: str, strict: bool = True) -> ToolTypeDef:
        """The ``toolSpec`` entry of canonical tool ``name`` for ``toolConfig.tools``, with
        ``strict: true`` when ``strict`` and the tool may go strict (``STRICT`` in the provider
        module), else without the key (ToolSpecification's default: not strict). A strict tool
        sent with ``strict=False`` keeps its closed schema; either way its input is validated on
        the way back."""
        spec: ToolSpecification = {
            "name": self._tools.provider_name(name),
            "inputSchema": {"json": self._tools.schema(name)},
        }
        if self._tools.descriptions[name]:  # the API refuses an empty description
            spec["description"] = self._tools.descriptions[name]
        if strict and self._tools.is_strict(name):
            spec["strict"] = True
        return {"toolSpec": spec}

    def tool_definitions(
        self, names: Iterable[str] | None = None, *, strict: bool | Literal["auto"] = "auto"
    ) -> list[ToolTypeDef]:
        """``toolConfig.tools`` for the tools ``names`` (all tools when None), in that order.

        Strict tool use has per-request limits (``MAX_STRICT_TOOLS`` strict tools,
        ``MAX_OPTIONAL_MEMBERS`` optional and ``MAX_UNION_MEMBERS`` union-typed members across
        them, in the provider module). ``strict="auto"`` marks strict as many tools as fit, by
        priority then in order, and sends the others without ``strict`` with the same closed
        schemas; ``strict=True`` marks every tool strict and raises ValueError when they exceed
        the limits (the API would refuse the request); ``strict=False`` marks none. A tool the
        design sends non-strict is never marked and never counts.
        """
        chosen = self._tools.chosen(names)
        marked = self._limits.marked(self._tools, chosen, strict)
        return [self.tool_definition(name, name in marked) for name in chosen]

    def output_format(self, name: str) -> OutputFormat:
        """``outputConfig.textFormat`` for the canonical structured output ``name`` (the schema
        goes as JSON text)."""
        json_schema: JsonSchemaDefinition = {
            "schema": json.dumps(self._outputs.schema(name), ensure_ascii=False),
            "name": self._outputs.provider_name(name),
        }
        if self._outputs.descriptions[name]:
            json_schema["description"] = self._outputs.descriptions[name]
        return {"type": "json_schema", "structure": {"jsonSchema": json_schema}}


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
