"""What every wire API's fake responses are built from: each API's module builds its own
(``fake_response``, the body the API answers with, and ``fake_stream``, the events of its streamed
answer, carrying the given tool calls in the API's wire form and the given assistant text), from a
``Fake`` of this module, which it imports when it builds one (importing a provider module loads
no fake).

The shapes are those the providers send (taken from recorded responses): each API's ids in its own
format, stop reasons that say tool use when there are calls, usage blocks, a model name and fixed
timestamps. Ids and token counts are derived from the input, so the same input gives the same
bytes. A call is ``(wire tool name, wire arguments)``: the arguments as the model wrote them, a
JSON value (an object for a tool); they are encoded as the API encodes them (JSON text for Chat
Completions and Responses, the value itself for Messages, Converse, generateContent and Workers
AI's native results). ``text`` is the assistant's text, which is also how a structured output
arrives (its JSON text).

Model names are facts of the providers, which these modules do not know: each API's fakes name a
plausible model (its module's ``FAKE_MODEL``) unless ``model`` names the one to show.

A stream goes over HTTP in its API's framing: each API's module writes it (``stream_body``, the
bytes of given events, and ``STREAM_CONTENT_TYPE``), the server-sent event APIs with
``server_sent_events`` here; ``StreamBody`` is those bytes with their content type, what a
package's ``testing.<provider>.sse`` returns for a loopback server to send.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Self, TypeVar

__all__ = ["Call", "Fake", "Framings", "StreamBody", "server_sent_events"]

Call = tuple[str, Any]
Name = TypeVar("Name", bound=str)
ApiName = TypeVar("ApiName", bound=str)

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_PIECES = 3  # how many fragments a streamed text or argument string is cut into


class Fake:
    """What one fake is built from: the calls, the text, the model, and an id source; and the
    helpers every API's builders share."""

    #: The ``created`` time of every fake (seconds since the epoch, 2025-12-02).
    CREATED = 1764680000
    PROMPT_TOKENS = 120

    def __init__(
        self,
        api: str,
        calls: Sequence[Call],
        text: str | None,
        model: str,
        lenient: bool = False,
    ) -> None:
        self.calls = [(name, arguments) for name, arguments in calls]
        self.text = text
        self.model = model
        self.lenient = lenient
        seed = [api, self.calls, text, model, lenient]
        self._seed = json.dumps(seed, sort_keys=True, default=repr)

    def token(self, label: str, length: int, alphabet: str = _ALPHABET) -> str:
        """``length`` characters of ``alphabet``, the same for the same input and ``label``."""
        number = int.from_bytes(hashlib.sha256(f"{self._seed}\0{label}".encode()).digest(), "big")
        chars = []
        for _ in range(length):
            number, digit = divmod(number, len(alphabet))
            chars.append(alphabet[digit])
        return "".join(chars)

    def hex(self, label: str, length: int) -> str:
        return self.token(label, length, "0123456789abcdef")

    def call_id(self, index: int, prefix: str, length: int) -> str:
        """The id of call ``index``: ``prefix`` then ``length`` characters."""
        return f"{prefix}{self.token(f'call{index}', length)}"

    def usage(self, prompt: str, output: str, total: str) -> dict[str, Any]:
        """The token counts under the API's names for the prompt, output and total."""
        return {
            prompt: self.PROMPT_TOKENS,
            output: self.output_tokens,
            total: self.PROMPT_TOKENS + self.output_tokens,
        }

    @property
    def output_tokens(self) -> int:
        written = len(self.text or "") + sum(len(self.json_text(a)) for _, a in self.calls)
        return max(1, written // 4) + 10 * len(self.calls)

    @staticmethod
    def json_text(value: Any) -> str:
        """``value`` as compact JSON text, as the APIs write arguments."""
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def pieces(text: str, count: int = _PIECES) -> list[str]:
        """``text`` cut into at most ``count`` non-empty fragments (none for empty text)."""
        size = max(1, -(-len(text) // count))
        return [text[start : start + size] for start in range(0, len(text), size)]

    @staticmethod
    def words(text: str) -> list[str]:
        """``text`` in fragments at word boundaries, as models stream text (none for empty
        text)."""
        words = re.findall(r"\s*\S+\s*|\s+", text)
        size = max(1, -(-len(words) // _PIECES))
        return ["".join(words[start : start + size]) for start in range(0, len(words), size)]


class StreamBody(bytes):
    """The bytes of a streamed answer as the API sends them over HTTP (a ``bytes``, written to a
    response as it is), and ``content_type``, the ``Content-Type`` header sent with them."""

    content_type: str

    def __new__(cls, body: bytes, content_type: str) -> Self:
        framed = super().__new__(cls, body)
        framed.content_type = content_type
        return framed


class Framings(Generic[Name, ApiName]):
    """The ``sse`` of a provider's fakes (its ``testing/<provider>.py`` binds it, typed with its
    tool names and APIs): its ``stream`` in the framing of each API, ``api`` None being the
    provider's first."""

    def __init__(
        self,
        stream: Callable[..., list[dict[str, Any]]],
        first_api: ApiName,
        framings: Mapping[str, tuple[Callable[[list[dict[str, Any]]], bytes], str]],
    ) -> None:
        self._stream = stream
        self._first_api = first_api
        # API -> (the HTTP body of a stream's events, the content type it is sent with)
        self._framings = framings

    def sse(
        self,
        calls: Sequence[tuple[Name, Any]],
        *,
        api: ApiName | None = None,
        text: str | None = None,
        check: bool = True,
    ) -> StreamBody:
        """The bytes the provider's HTTP API sends for ``stream(calls, api=api, text=text,
        check=check)``, in the API's framing (server-sent events; AWS event stream messages for
        ConverseStream); their ``content_type`` is the ``Content-Type`` to send them with."""
        body, content_type = self._framings[api or self._first_api]
        events = self._stream(calls, api=api, text=text, check=check)
        return StreamBody(body(events), content_type)


def server_sent_events(
    events: Iterable[Mapping[str, Any]],
    *,
    named: bool = False,
    done: bool = False,
    line_end: str = "\n",
) -> bytes:
    """``events`` as server-sent events (UTF-8): one ``data:`` line of compact JSON each, after an
    ``event:`` line naming its ``type`` when ``named``, each event ended by an empty line; then
    ``data: [DONE]`` when ``done``. ``line_end`` ends every line. (The SDKs' readers split lines
    of bytes, at ``\\r``, ``\\n`` or both, so the JSON's text needs no escaping beyond JSON's.)"""
    parts = []
    for event in events:
        if named:
            parts.append(f"event: {event['type']}{line_end}")
        parts.append(f"data: {Fake.json_text(event)}{line_end}{line_end}")
    if done:
        parts.append(f"data: [DONE]{line_end}{line_end}")
    return "".join(parts).encode("utf-8")
