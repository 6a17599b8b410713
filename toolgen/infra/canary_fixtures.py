"""The golden fixtures of ``toolgen canary``: one JSON file per recorded answer, read and written
here with the standard library only (no generated package, no toolgen stage), so a test helper or
another tool can read them too.

A fixture holds the provider, the wire API, the kind of request (``tool_call``, ``output`` or
``stream``), the contract it asked for (canonical name), the request sent, the model, the date
and toolgen's version, and the answer: ``response`` (a body) or ``events`` (a stream's event
payloads). Identifiers and free text of the answer are replaced by stable placeholders
(:func:`scrub`); tool-call arguments and a structured output's text are kept, since they are what
the check decodes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

FORMAT = 1
KINDS = ("tool_call", "output", "stream")

#: Members whose string values identify a response, a call or a signature: "<id:N>", numbered by
#: first appearance, so a stream's events keep referring to one another.
ID_MEMBERS = frozenset(
    {
        "id",
        "call_id",
        "item_id",
        "tool_use_id",
        "toolUseId",
        "response_id",
        "responseId",
        "system_fingerprint",
        "signature",
        "thoughtSignature",
        "encrypted_content",
        "previous_response_id",
        "safety_identifier",
        "prompt_cache_key",
    }
)
#: Members holding what the model or the caller wrote in words: "<text>".
TEXT_MEMBERS = frozenset(
    {"text", "content", "refusal", "thinking", "instructions", "reasoning_content"}
)
#: Event types whose ``delta`` is text (a function call's argument deltas are kept).
TEXT_DELTA_EVENTS = ("output_text.delta", "refusal.delta", "reasoning", "summary_text.delta")
#: Members holding times: 0.
TIME_MEMBERS = frozenset({"created", "created_at", "completed_at"})


@dataclass(frozen=True)
class Fixture:
    provider: str
    api: str
    kind: str  # one of KINDS
    contract: str  # the canonical name of the tool or output asked for
    model: str
    recorded: str  # the date, ISO 8601
    toolgen: str  # toolgen's version
    request: dict[str, Any]
    response: Any = None  # the body (tool_call, output)
    events: list[Any] | None = None  # the event payloads (stream)

    @property
    def name(self) -> str:
        """Its file, relative to the fixtures folder."""
        return f"{self.provider}/{self.api}/{self.kind}.json"

    def to_text(self) -> str:
        body = {"toolgen_canary": FORMAT, **asdict(self)}
        return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def read_fixture(path: Path) -> Fixture:
    """The fixture in ``path`` (ValueError when it is none)."""
    body = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(body, dict) or body.get("toolgen_canary") != FORMAT:
        raise ValueError(f"{path} is no toolgen canary fixture (format {FORMAT})")
    fields = {k: v for k, v in body.items() if k != "toolgen_canary"}
    fixture = Fixture(**fields)
    if fixture.kind not in KINDS:
        raise ValueError(f"{path}: unknown kind {fixture.kind!r}")
    return fixture


def fixture_files(folder: Path) -> Iterator[Path]:
    """The fixture files under ``folder``, sorted."""
    yield from sorted(folder.rglob("*.json"))


def write_fixture(folder: Path, fixture: Fixture) -> Path:
    path = folder / fixture.name
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.toolgen-tmp")
    temporary.write_text(fixture.to_text(), encoding="utf-8")
    temporary.replace(path)
    return path


def sse_events(text: str) -> list[Any]:
    """The JSON payloads of the ``data:`` lines of a server-sent event stream, ``[DONE]`` left
    out. ValueError when it is no such stream: a line that is no field of the format nor a
    comment (an HTML page, a JSON body), or data that is not JSON."""
    events = []
    for block in text.replace("\r\n", "\n").replace("\r", "\n").split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        field = next((line for line in lines if not _SSE_FIELD.match(line)), None)
        if field is not None:
            raise ValueError(f"not a server-sent event: {field[:80]!r}")
        data = "\n".join(_field_value(line) for line in lines if line.startswith("data"))
        if not data or data == "[DONE]":
            continue
        try:
            events.append(json.loads(data))
        except ValueError:
            raise ValueError(f"an event's data is not JSON: {data[:80]!r}") from None
    return events


#: A line of an event: a field name of the format, then ":" (or nothing: an empty value).
_SSE_FIELD = re.compile(r"^(data|event|id|retry)(:|$)")


def _field_value(line: str) -> str:
    value = line.partition(":")[2]
    return value[1:] if value.startswith(" ") else value


def redact(value: Any, secret: str) -> Any:
    """A copy of ``value`` with ``secret`` replaced by ``<key>`` in every string and member name
    (a server that echoes the key back)."""
    if not secret:
        return value
    if isinstance(value, dict):
        return {redact_text(k, secret): redact(v, secret) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(item, secret) for item in value]
    return redact_text(value, secret) if isinstance(value, str) else value


def redact_text(text: str, secret: str) -> str:
    """``text`` with ``secret``, as it is and as a URL carries it, replaced by ``<key>``."""
    if not secret:
        return text
    for form in dict.fromkeys((secret, quote(secret, safe=""), quote_plus(secret))):
        text = text.replace(form, "<key>")
    return text


def scrub(value: Any, *, keep_text: bool = False) -> Any:
    """A copy of ``value`` with identifiers, free text and times replaced by placeholders
    (``keep_text``: a structured output, whose text is the payload)."""
    ids: dict[str, str] = {}

    def walk(node: Any, member: str | None) -> Any:
        if isinstance(node, dict):
            kind = node.get("type")
            text_delta = isinstance(kind, str) and any(t in kind for t in TEXT_DELTA_EVENTS)
            return {
                k: walk(v, "text" if text_delta and k == "delta" else k) for k, v in node.items()
            }
        if isinstance(node, list):
            return [walk(item, member) for item in node]
        if member in TIME_MEMBERS and isinstance(node, int | float) and not isinstance(node, bool):
            return 0
        if not isinstance(node, str) or member is None:
            return node
        if member in ID_MEMBERS:
            return ids.setdefault(node, f"<id:{len(ids) + 1}>")
        if member in TEXT_MEMBERS and not keep_text and node:
            return "<text>"
        return node

    return walk(value, None)
