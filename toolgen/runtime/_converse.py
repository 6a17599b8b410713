"""The Converse API: the tool-call decoders of responses and ConverseStream events.

The decoders take the provider name and the generated validators of the two surfaces
(``converse``, ``converse_stream_event``) as constructor arguments; ``READS`` lists what they read
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
    joined_tool_call,
    tool_call_from_object,
)

__all__ = ["READS", "ConverseDecoder", "ConverseToolCallStream"]

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
    """The ``toolUse`` blocks of Converse responses and of their event streams."""

    def parse_tool_calls(
        self,
        data: object,
        *,
        canonical_names: Mapping[str, str],
        canonicalize: Canonicalize | None = None,
    ) -> list[RawToolCall]:
        """The ``toolUse`` blocks of a Converse response, canonicalized; validates ``data`` first.

        Their ``raw_arguments`` is ``input`` written as compact JSON; server tools are skipped.
        """
        return [
            tool_call_from_object(
                self.provider,
                block["toolUse"]["toolUseId"],
                block["toolUse"]["name"],
                block["toolUse"]["input"],
                canonical_names,
                canonicalize,
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

    def add(self, event: object) -> dict[str, Any]:
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
        return valid

    def tool_calls(
        self, *, canonical_names: Mapping[str, str], canonicalize: Canonicalize | None = None
    ) -> list[RawToolCall]:
        """The joined calls in block order (a call without input fragments has input ``{}``)."""
        return [
            joined_tool_call(self.provider, call, {}, canonical_names, canonicalize)
            for _, call in sorted(self._calls.items())
        ]
