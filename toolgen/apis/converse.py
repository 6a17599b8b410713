"""The Converse API: its runtime module toolgen/runtime/_converse.py (request builders within
strict tool use's per-request limits, decoders, the tool loop, fakes), its canary requests, and
its stream framing: AWS event stream messages (``application/vnd.amazon.eventstream``, the body of
ConverseStream), read with the standard library.

An event stream message is a prelude (its total length, its headers' length, the CRC-32 of those
eight bytes), the headers, the payload, and the CRC-32 of everything before it; each header is a
name (one length byte), a type byte and a value of that type. Source: "Event stream encoding"
(docs.aws.amazon.com/transcribe/latest/dg/event-stream.html and
docs.aws.amazon.com/lexv2/latest/dg/event-stream-encoding.html), checked 2026-12-05. Both CRCs
are checked: a message that fails one is refused (ValueError), never read as a shorter or a
different one.
"""

from __future__ import annotations

import json
import struct
import uuid
import zlib
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

from toolgen.apis.api import Api, Canary, Fakes, Loop, Requests
from toolgen.apis.canary_requests import OUTPUT_PROMPT, PROMPT
from toolgen.runtime import _converse as converse

_REQUESTS = converse.ConverseRequests


def _path(model: str, stream: bool) -> str:
    # the model ID is one path segment: an ID such as "us.amazon.nova-micro-v1:0" goes with %3A
    return f"/model/{quote(model, safe='')}/{'converse-stream' if stream else 'converse'}"


def _messages(prompt: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"text": prompt}]}]


def _tool_request(model: str, tools: Any, name: str, stream: bool) -> dict[str, Any]:
    # the model and streaming are in the path, not the body
    return {
        "messages": _messages(PROMPT),
        "toolConfig": {"tools": tools, "toolChoice": {"tool": {"name": name}}},
        "inferenceConfig": {"maxTokens": 1024},
    }


def _output_request(model: str, text_format: Any) -> dict[str, Any]:
    return {
        "messages": _messages(OUTPUT_PROMPT),
        "outputConfig": {"textFormat": text_format},
        "inferenceConfig": {"maxTokens": 1024},
    }


def _output_text(body: Any) -> Any:
    try:
        content = body["output"]["message"]["content"]
        return next(block["text"] for block in content if "text" in block)
    except (KeyError, TypeError, StopIteration):
        return None


def stream_events(body: bytes) -> list[Any]:
    """The events of a ConverseStream body as boto3 yields them: ``{event type: payload}``.
    The API pads each payload with a member ``p`` of varying length (every recorded stream of the
    corpus has it); boto3 reads a payload by its event's shape, which has no ``p``, so it never
    reaches an application and is left out here too."""
    events = []
    for message in event_messages(body):
        payload = json.loads(message.payload) if message.payload else {}
        if message.text(":message-type") != "event":
            kind = message.text(":exception-type") or message.text(":error-code") or "an error"
            text = message.text(":error-message") or (
                payload.get("message") if isinstance(payload, dict) else None
            )
            raise ValueError(f"the stream reports {kind}: {text}")
        if isinstance(payload, dict):
            payload.pop("p", None)
        events.append({message.text(":event-type"): payload})
    return events


CONVERSE = Api(
    "converse",
    "Converse API",
    converse.ConverseDecoder,
    converse.READS,
    Requests(
        _REQUESTS,
        (
            _REQUESTS.tool_definition,
            _REQUESTS.tool_definitions,
            _REQUESTS.output_format,
            _REQUESTS.plan_request,
            _REQUESTS.request,
        ),
    ),
    (
        converse.ConverseRequest,
        converse.JsonSchemaDefinition,
        converse.OutputConfig,
        converse.OutputFormat,
        converse.OutputFormatStructure,
        converse.SpecificToolChoice,
        converse.ToolChoice,
        converse.ToolConfiguration,
        converse.ToolInputSchema,
        converse.ToolSpecification,
        converse.ToolTypeDef,
    ),
    Fakes.of(converse),
    Canary(_path, _tool_request, _output_request, ("output_format",), _output_text, stream_events),
    loop=Loop(
        converse.ConverseLoop,
        "validate_converse, validate_event=validate_converse_stream_event",
    ),
)

APIS = (CONVERSE,)


# -- the stream framing: AWS event stream messages ----------------------------------------------

_PRELUDE: Final = struct.Struct(">III")  # total length, headers length, prelude CRC
_CRC: Final = struct.Struct(">I")
#: prelude (12 bytes) and message CRC (4 bytes)
_FRAMING: Final = _PRELUDE.size + _CRC.size

HeaderValue = bool | int | bytes | str | uuid.UUID

#: the fixed-size header value types: type byte -> (struct format, size)
_FIXED: Final = {2: (">b", 1), 3: (">h", 2), 4: (">i", 4), 5: (">q", 8), 8: (">q", 8)}


@dataclass(frozen=True)
class EventMessage:
    headers: dict[str, HeaderValue]
    payload: bytes

    def text(self, name: str) -> str | None:
        """The header ``name`` when it is a string (``:event-type``, ``:message-type`` ...)."""
        value = self.headers.get(name)
        return value if isinstance(value, str) else None


def event_messages(data: bytes) -> list[EventMessage]:
    """Every message of an event stream body, in order; ValueError naming the first message that
    is cut short or fails its CRC, or a header of an unknown type."""
    messages: list[EventMessage] = []
    offset = 0
    while offset < len(data):
        messages.append(_message(data, offset, len(messages)))
        offset += _PRELUDE.unpack_from(data, offset)[0]
    return messages


def _message(data: bytes, offset: int, index: int) -> EventMessage:
    where = f"event stream message {index} (byte {offset})"
    if len(data) - offset < _PRELUDE.size:
        raise ValueError(f"{where}: cut short in its prelude")
    total, headers_length, prelude_crc = _PRELUDE.unpack_from(data, offset)
    if zlib.crc32(data[offset : offset + 8]) != prelude_crc:
        raise ValueError(f"{where}: its prelude fails its CRC")
    if total < _FRAMING + headers_length or len(data) - offset < total:
        raise ValueError(f"{where}: cut short (it says {total} bytes)")
    end = offset + total - _CRC.size
    if zlib.crc32(data[offset:end]) != _CRC.unpack_from(data, end)[0]:
        raise ValueError(f"{where}: fails its CRC")
    start = offset + _PRELUDE.size
    headers = _headers(data[start : start + headers_length], where)
    return EventMessage(headers, data[start + headers_length : end])


def _headers(data: bytes, where: str) -> dict[str, HeaderValue]:
    headers: dict[str, HeaderValue] = {}
    offset = 0
    try:
        while offset < len(data):
            name_length = data[offset]
            name = data[offset + 1 : offset + 1 + name_length].decode("utf-8")
            headers[name], offset = _header_value(data, offset + 1 + name_length)
    except (IndexError, struct.error, UnicodeDecodeError):
        raise ValueError(f"{where}: its headers are cut short or not UTF-8") from None
    except _UnknownType as error:
        raise ValueError(f"{where}: a header of unknown type {error.args[0]}") from None
    return headers


class _UnknownType(Exception):
    pass


def _header_value(data: bytes, offset: int) -> tuple[HeaderValue, int]:
    """The value whose type byte is at ``offset``, and the offset after it."""
    kind = data[offset]
    offset += 1
    if kind in (0, 1):
        return kind == 0, offset
    if kind in _FIXED:
        form, size = _FIXED[kind]
        return struct.unpack_from(form, data, offset)[0], offset + size
    if kind in (6, 7):
        (length,) = struct.unpack_from(">H", data, offset)
        raw = data[offset + 2 : offset + 2 + length]
        if len(raw) != length:
            raise IndexError
        return (raw if kind == 6 else raw.decode("utf-8")), offset + 2 + length
    if kind == 9:
        raw = data[offset : offset + 16]
        if len(raw) != 16:
            raise IndexError
        return uuid.UUID(bytes=raw), offset + 16
    raise _UnknownType(kind)
