"""A loopback server on 127.0.0.1 that plays OpenAI Chat and Responses, Anthropic Messages,
Gemini generateContent and Bedrock Converse from recorded bodies, and Workers AI ai/run from bodies
built from its types (tests/fixtures/canary/served, see its PROVENANCE.md), for ``toolgen canary
record``: the answer is chosen by the request's path and by what it asks for
(a stream, a structured output, else a tool call). ``change`` rewrites a body before it is served
(a member removed, a new block type) to play drift; ``respond`` answers in its place, byte by byte
if it likes (a redirect, an HTML page, a body that never ends or comes a byte at a time)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.sdk.stand_in import respond

SERVED = Path(__file__).parent / "fixtures" / "canary" / "served"

#: (api, kind, body text) -> the body text served
Change = Callable[[str, str, str], str]


def api_of(path: str) -> str:
    if path.endswith("/chat/completions"):
        return "chat"
    if path.endswith("/responses"):
        return "responses"
    if path.endswith("/messages"):
        return "messages"
    if ":generateContent" in path or ":streamGenerateContent" in path:
        return "generate_content"
    if path.endswith(("/converse", "/converse-stream")):
        return "converse"
    if "/run/" in path:
        return "run"
    raise LookupError(path)


#: a stream's served file and its content type, by API (server-sent events unless said here)
STREAMS = {"converse": ("stream.bin", "application/vnd.amazon.eventstream")}


def kind_of(path: str, request: dict[str, Any]) -> str:
    if request.get("stream") or ":streamGenerateContent" in path or path.endswith("-stream"):
        return "stream"
    asked = ("response_format", "text", "output_config", "generationConfig", "outputConfig")
    return "output" if any(key in request for key in asked) else "tool_call"


#: writes the whole answer to a request itself: (handler, path)
Respond = Callable[[BaseHTTPRequestHandler, str], None]


@dataclass
class Loopback:
    url: str = ""
    change: Change | None = None
    respond: Respond | None = None  # instead of the recorded bodies (any method)
    requests: list[tuple[str, dict[str, str], Any]] = field(default_factory=list)

    def answer(self, path: str, headers: dict[str, str], request: Any) -> tuple[str, str | bytes]:
        self.requests.append((path, headers, request))
        api, kind = api_of(path), kind_of(path, request)
        if kind == "stream" and api in STREAMS:  # binary: played as recorded
            name, content_type = STREAMS[api]
            return content_type, (SERVED / api / name).read_bytes()
        suffix = ".txt" if kind == "stream" else ".json"
        text = (SERVED / api / f"{kind}{suffix}").read_text(encoding="utf-8")
        if self.change is not None:
            text = self.change(api, kind, text)
        return ("text/event-stream" if kind == "stream" else "application/json"), text


@contextmanager
def serving() -> Iterator[Loopback]:
    loopback = Loopback()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server dispatches to
            length = int(self.headers.get("Content-Length", 0))
            request = json.loads(self.rfile.read(length) or b"{}")
            if loopback.respond is not None:
                loopback.requests.append((self.path, dict(self.headers), request))
                loopback.respond(self, self.path)
                return
            try:
                content_type, body = loopback.answer(self.path, dict(self.headers), request)
            except LookupError:
                self.send_error(404, "not played here")
                return
            respond(self, content_type, body)

        def do_GET(self) -> None:  # noqa: N802 - what a POST redirected by 301-303 becomes
            loopback.requests.append((self.path, dict(self.headers), None))
            if loopback.respond is not None:
                loopback.respond(self, self.path)
            else:
                respond(self, "application/json", "{}")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # shutdown() waits up to a poll interval: the default, 0.5 s, was most of each test's time
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    loopback.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield loopback
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
