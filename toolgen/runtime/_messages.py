"""The Messages API: the tool-call decoders of messages and stream events.

The decoders take the provider name and the generated validators of the two surfaces
(``message``, ``message_stream_event``) as constructor arguments; ``READS`` lists what they read
(see _chat_completions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._runtime import (
    Canonicalize,
    FragmentJoiner,
    RawToolCall,
    ToolCallFragments,
    ValidatingDecoder,
    Validator,
    joined_tool_call,
    tool_call_from_object,
)

__all__ = ["READS", "MessageToolCallStream", "MessagesDecoder"]

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

    def parse_tool_calls(
        self,
        data: object,
        *,
        canonical_names: Mapping[str, str],
        canonicalize: Canonicalize | None = None,
    ) -> list[RawToolCall]:
        """The ``tool_use`` blocks of a message, canonicalized; validates ``data`` first.

        Their ``raw_arguments`` is ``input`` written as compact JSON.
        """
        return [
            tool_call_from_object(
                self.provider,
                block["id"],
                block["name"],
                block["input"],
                canonical_names,
                canonicalize,
            )
            for block in self._validate(data)["content"]
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

    def add(self, event: object) -> dict[str, Any]:
        valid = self._validate(event)
        kind = valid["type"]
        if kind == "message_start":
            self._calls.clear()
            self._inputs.clear()
        elif kind == "content_block_start":
            block = valid["content_block"]
            if block["type"] == "tool_use":
                self._calls[valid["index"]] = ToolCallFragments(block["id"], block["name"])
                self._inputs[valid["index"]] = block["input"]
        elif kind == "content_block_delta":
            delta = valid["delta"]
            call = self._calls.get(valid["index"])
            if call is not None and delta["type"] == "input_json_delta":
                call.parts.append(delta["partial_json"])
        return valid

    def tool_calls(
        self, *, canonical_names: Mapping[str, str], canonicalize: Canonicalize | None = None
    ) -> list[RawToolCall]:
        """The joined calls in block order (a block without fragments keeps its start ``input``)."""
        return [
            joined_tool_call(
                self.provider, call, self._inputs[index], canonical_names, canonicalize
            )
            for index, call in sorted(self._calls.items())
        ]
