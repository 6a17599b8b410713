"""A loopback HTTP server for the SDK tests: records request bodies, answers with queued bodies.

The official clients are pointed at it (``base_url``), so they send real requests and parse real
responses (JSON or server-sent events) without any network beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests import fake_builders


@dataclass
class Loopback:
    url: str
    requests: list[tuple[str, Any]] = field(default_factory=list)  # (path, JSON body)
    replies: list[tuple[str, bytes]] = field(default_factory=list)  # (content type, body)

    def reply_json(self, body: Any) -> None:
        self.replies.append(("application/json", json.dumps(body).encode()))

    def reply_sse(self, text: str) -> None:
        """Server-sent events as given: a recorded stream's own text, or a framing fault."""
        self.replies.append(("text/event-stream", text.encode()))

    def reply_stream(self, api: str, events: Iterable[Any]) -> None:
        """``events`` as the API sends a stream (its runtime module's framing, ``stream_body``)."""
        self.replies.append((fake_builders.content_type(api), fake_builders.framed(api, events)))

    def reply_served(self, body: Any) -> None:
        """A package's ``testing.<provider>.sse(...)``: the bytes and their ``content_type``."""
        self.replies.append((body.content_type, bytes(body)))

    def reset(self) -> None:
        self.requests.clear()
        self.replies.clear()


#: the envelope surface of a stream's events -> the API whose framing sends them
STREAM_APIS = {
    "chat_completion_chunk": "chat",
    "response_stream_event": "responses",
    "message_stream_event": "messages",
}

USER = [{"role": "user", "content": "hi"}]


def ask(clients: tuple[Any, Any], surface: str, *, stream: bool = False) -> Any:
    """The plain request of ``surface`` through (openai client, anthropic client): the returned
    object, or the list of a stream's chunks or events."""
    openai_client, anthropic_client = clients
    if surface.startswith("chat_completion"):
        answer = openai_client.chat.completions.create(model="m", messages=USER, stream=stream)
    elif surface.startswith("response"):
        answer = openai_client.responses.create(model="m", input="hi", stream=stream)
    else:
        answer = anthropic_client.messages.create(
            model="m", max_tokens=1, messages=USER, stream=stream
        )
    return list(answer) if stream else answer


def _handler(state: Loopback) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server dispatches to
            length = int(self.headers.get("Content-Length", 0))
            state.requests.append((self.path, json.loads(self.rfile.read(length) or b"null")))
            if not state.replies:
                self.send_error(500, "no reply queued")
                return
            content_type, body = state.replies.pop(0)
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


def serve() -> Iterator[Loopback]:
    """A running server on an ephemeral port of 127.0.0.1, stopped when the generator closes."""
    state = Loopback(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
