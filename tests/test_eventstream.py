"""AWS event stream messages (toolgen.apis.converse), read from Bedrock's real ConverseStream
bodies: each recorded body gives the headers and payloads another decoder found in it (the
corpus's ``NNN.decoded.jsonl``, written by its extraction script, which checks no CRC), and no
damaged body is read as another."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest

from toolgen.apis.converse import event_messages

SERVED_STREAM = Path(__file__).parent / "fixtures" / "canary" / "served" / "converse" / "stream.bin"


def recorded_bodies(corpus: Path) -> list[Path]:
    return sorted((corpus / "envelopes" / "bedrock" / "converse-stream").glob("*.bin"))


def test_every_recorded_body_reads_as_its_decoded_messages(corpus_dir):
    bodies = recorded_bodies(corpus_dir)
    assert len(bodies) >= 10
    for body in bodies:
        decoded = body.with_suffix(".decoded.jsonl").read_text(encoding="utf-8").splitlines()
        expected = [json.loads(line) for line in decoded]
        read = [
            {"headers": m.headers, "payload": json.loads(m.payload)}
            for m in event_messages(body.read_bytes())
        ]
        assert read == expected, body.name


def test_the_served_body_reads_without_the_corpus():
    messages = event_messages(SERVED_STREAM.read_bytes())
    assert len(messages) == 26
    assert [m.headers[":event-type"] for m in messages][:2] == ["messageStart", "contentBlockDelta"]
    assert {m.headers[":message-type"] for m in messages} == {"event"}


@pytest.mark.parametrize("where", [3, 11, 20, 60, -5, -1])
def test_a_changed_byte_fails_a_crc(where):
    body = bytearray(SERVED_STREAM.read_bytes())
    body[where] ^= 0x01
    with pytest.raises(ValueError, match="CRC"):
        event_messages(bytes(body))


@pytest.mark.parametrize("cut", [1, 4, 13, 100])
def test_a_body_cut_short_is_refused(cut):
    body = SERVED_STREAM.read_bytes()
    with pytest.raises(ValueError, match="message 25 .*cut short"):
        event_messages(body[:-cut])


def message(headers: bytes, payload: bytes) -> bytes:
    """One message around raw header bytes, with correct CRCs."""
    prelude = struct.pack(">II", 16 + len(headers) + len(payload), len(headers))
    start = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
    return start + struct.pack(">I", zlib.crc32(start))


def test_every_header_type_reads():
    headers = (
        b"\x01t\x00"  # true
        + b"\x01f\x01"  # false
        + b"\x01b\x02\xff"  # byte -1
        + b"\x01s\x03\x01\x00"  # short 256
        + b"\x01i\x04\xff\xff\xff\xfe"  # integer -2
        + b"\x01l\x05"
        + (2**40).to_bytes(8, "big")  # long
        + b"\x01a\x06\x00\x02\x00\xff"  # bytes
        + b"\x01u\x07\x00\x03\xc3\xa9e"  # string "ée" (3 bytes)
        + b"\x01m\x08"
        + (1700000000000).to_bytes(8, "big")  # timestamp, milliseconds
        + b"\x01d\x09"
        + bytes(range(16))  # uuid
    )
    (read,) = event_messages(message(headers, b"{}"))
    assert read.payload == b"{}"
    assert read.headers["t"] is True and read.headers["f"] is False
    assert (read.headers["b"], read.headers["s"], read.headers["i"]) == (-1, 256, -2)
    assert read.headers["l"] == 2**40 and read.headers["m"] == 1700000000000
    assert read.headers["a"] == b"\x00\xff" and read.headers["u"] == "ée"
    assert str(read.headers["d"]) == "00010203-0405-0607-0809-0a0b0c0d0e0f"


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (b"\x01x\x0a", "unknown type 10"),
        (b"\x01x\x07\x00\x09ab", "cut short"),
        (b"\x05ab", "cut short"),
        (b"\x01x\x07\x00\x01\xff", "not UTF-8"),
    ],
)
def test_unreadable_headers_are_refused(headers, reason):
    with pytest.raises(ValueError, match=f"message 0 .*{reason}"):
        event_messages(message(headers, b""))
