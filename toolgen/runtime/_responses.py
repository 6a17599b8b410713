"""The Responses API: the tool-call decoders of responses and stream events.

The decoders take the provider name and the generated validators of the two surfaces
(``response``, ``response_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._runtime import (
    MISSING,
    Canonicalize,
    FragmentJoiner,
    RawToolCall,
    ToolCallFragments,
    ValidatingDecoder,
    decode_tool_call,
    schema_drift,
)

__all__ = ["READS", "ResponseToolCallStream", "ResponsesDecoder"]

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

    def parse_tool_calls(
        self,
        data: object,
        *,
        canonical_names: Mapping[str, str],
        canonicalize: Canonicalize | None = None,
    ) -> list[RawToolCall]:
        """The function calls of a response, decoded; validates ``data`` first.

        Output items of other types are skipped; malformed arguments raise PayloadError.
        """
        return [
            decode_tool_call(
                self.provider,
                item["call_id"],
                item["name"],
                item["arguments"],
                canonical_names,
                canonicalize,
            )
            for item in self._validate(data)["output"]
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

    def add(self, event: object) -> dict[str, Any]:
        valid = self._validate(event)
        kind = valid["type"]
        if kind == "response.created":
            self._calls.clear()
        elif kind in ("response.output_item.added", "response.output_item.done"):
            item = valid["item"]
            if item["type"] == "function_call":
                call = self._calls.setdefault(valid["output_index"], ToolCallFragments())
                call.id = item["call_id"]
                call.name = item["name"]
                if kind == "response.output_item.done":
                    call.final_arguments = item["arguments"]
        elif kind == "response.function_call_arguments.delta":
            self._calls.setdefault(valid["output_index"], ToolCallFragments()).parts.append(
                valid["delta"]
            )
        elif kind == "response.function_call_arguments.done":
            self._calls.setdefault(valid["output_index"], ToolCallFragments()).final_arguments = (
                valid["arguments"]
            )
        return valid

    def tool_calls(
        self, *, canonical_names: Mapping[str, str], canonicalize: Canonicalize | None = None
    ) -> list[RawToolCall]:
        """The joined calls in output order; arguments without their output item are drift."""
        calls = []
        for index, call in sorted(self._calls.items()):
            if call.id is None or call.name is None:
                raise schema_drift(
                    self.provider,
                    "response_stream_event",
                    ("output", index, "item"),
                    "object",
                    MISSING,
                )
            calls.append(
                decode_tool_call(
                    self.provider,
                    call.id,
                    call.name,
                    call.arguments(),
                    canonical_names,
                    canonicalize,
                )
            )
        return calls
