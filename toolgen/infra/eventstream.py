"""AWS event stream messages (``application/vnd.amazon.eventstream``, the body of AWS streaming
responses), read with the standard library: what ``toolgen canary record`` gets back from a
provider that streams in this format rather than as server-sent events
(toolgen.providers.canary_wire says which).

A message is a prelude (its total length, its headers' length, the CRC-32 of those eight bytes),
the headers, the payload, and the CRC-32 of everything before it; each header is a name (one length
byte), a type byte and a value of that type. Source: "Event stream encoding"
(docs.aws.amazon.com/transcribe/latest/dg/event-stream.html and
docs.aws.amazon.com/lexv2/latest/dg/event-stream-encoding.html), checked 2026-12-05. Both CRCs
are checked: a message that fails one is refused (ValueError), never read as a shorter or a
different one.
"""

from __future__ import annotations

import struct
import uuid
import zlib
from dataclasses import dataclass
from typing import Final

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
