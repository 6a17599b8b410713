"""The Responses API: request builders and their params, and the tool-call decoders.

``ResponsesRequests`` writes ``tools`` entries and ``text.format`` from a provider module's tables,
typed with TypedDicts shaped like the SDK's param types (``responses/function_tool_param.py``,
``responses/response_format_text_json_schema_config_param.py``; see _chat_completions).

The decoders take the provider name and the generated validators of the two surfaces
(``response``, ``response_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NotRequired, TypedDict

from ._attributes import members_of
from ._contracts import Contracts
from ._runtime import (
    MISSING,
    CallReader,
    Decoded,
    FragmentJoiner,
    ValidatingDecoder,
    schema_drift,
)

__all__ = [
    "READS",
    "FunctionToolParam",
    "ResponseFormatTextJSONSchemaConfigParam",
    "ResponseToolCallStream",
    "ResponsesDecoder",
    "ResponsesRequests",
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


class ResponsesRequests:
    """The request side of the Responses API for one provider module's tools and outputs."""

    def __init__(self, tools: Contracts, outputs: Contracts) -> None:
        self._tools = tools
        self._outputs = outputs

    def tool_definition(self, name: str) -> FunctionToolParam:
        """The function-tool definition of canonical tool ``name``: an entry of ``tools``."""
        return {
            "type": "function",
            "name": self._tools.provider_name(name),
            "description": self._tools.descriptions[name],
            "parameters": self._tools.schema(name),
            "strict": self._tools.is_strict(name),
        }

    def tool_definitions(self, names: Iterable[str] | None = None) -> list[FunctionToolParam]:
        """Definitions of the tools ``names`` (all tools when None), for ``tools``."""
        return [self.tool_definition(name) for name in self._tools.chosen(names)]

    def text_format(self, name: str) -> ResponseFormatTextJSONSchemaConfigParam:
        """``text.format`` for the canonical structured output ``name``."""
        return {
            "type": "json_schema",
            "name": self._outputs.provider_name(name),
            "description": self._outputs.descriptions[name],
            "schema": self._outputs.schema(name),
            "strict": True,
        }


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
