"""A stand-in of the providers' HTTP APIs for the documentation's SDK examples.

Unlike ``loopback`` (which answers with queued bodies), it answers each request from what the
request asks for, so a page of examples runs unchanged: tool calls when the request sends
``tools``, the structured output when it asks for one, server-sent events when it streams. The
clients find it through the environment variables the SDKs read (``ENVIRONMENT``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fake_builders import framed
from tests.sdk.bodies import (
    OUTPUT_PAYLOAD,
    PAYLOADS,
    Call,
    chat_chunks,
    chat_completion,
    message,
    message_events,
    response,
    response_body,
    response_events,
)

#: The calls every answer with tool calls carries (wire names are the same for every provider).
CALLS: list[Call] = [
    ("call_1", "billing_refund", json.dumps(PAYLOADS["billing.refund"])),
    ("call_2", "send_email", json.dumps(PAYLOADS["send_email"])),
]
GEMINI_CALLS = [(name, PAYLOADS[name]) for name in ("billing.refund", "send_email")]
OUTPUT_TEXT = json.dumps(OUTPUT_PAYLOAD)


def _gemini(request: dict[str, Any]) -> dict[str, Any]:
    config = request.get("generationConfig") or {}
    if "responseMimeType" in config:
        return response_body([{"text": OUTPUT_TEXT}])
    # Gemini's names keep the dots of the canonical ones
    return response_body(
        [
            {"functionCall": {"id": f"call_{n}", "name": name, "args": args}}
            for n, (name, args) in enumerate(GEMINI_CALLS)
        ]
    )


def answer(path: str, request: dict[str, Any]) -> tuple[str, str]:
    """(content type, body) of the answer to a POST of ``request`` to ``path``."""
    calls = CALLS if request.get("tools") else []
    stream = bool(request.get("stream"))
    if path.endswith("/chat/completions"):
        if stream:
            return "text/event-stream", framed("chat", chat_chunks(calls)).decode()
        content = OUTPUT_TEXT if "response_format" in request else None
        return "application/json", json.dumps(chat_completion(calls, content))
    if path.endswith("/responses"):
        if stream:
            return "text/event-stream", framed("responses", response_events(calls)).decode()
        text = OUTPUT_TEXT if "text" in request else None
        return "application/json", json.dumps(response(calls, text))
    if path.endswith("/messages"):
        if stream:
            return "text/event-stream", framed("messages", message_events(calls)).decode()
        text = OUTPUT_TEXT if "output_config" in request else None
        return "application/json", json.dumps(message(calls, text))
    if ":streamGenerateContent" in path:
        return "text/event-stream", framed("generate_content", [_gemini(request)]).decode()
    if ":generateContent" in path:
        return "application/json", json.dumps(_gemini(request))
    raise LookupError(path)


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the name http.server dispatches to
        length = int(self.headers.get("Content-Length", 0))
        try:
            content_type, body = answer(self.path, json.loads(self.rfile.read(length) or b"{}"))
        except LookupError:
            self.send_error(404, "no stand-in for this path")
            return
        respond(self, content_type, body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def respond(handler: BaseHTTPRequestHandler, content_type: str, body: str | bytes) -> None:
    """Send ``body`` as a 200 answer of ``content_type``."""
    data = body.encode() if isinstance(body, str) else body
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def environment(url: str) -> dict[str, str]:
    """What points the openai, anthropic and google-genai clients at the stand-in at ``url``."""
    return {
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "test",
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "test",
        "GOOGLE_GEMINI_BASE_URL": url,
        "GOOGLE_API_KEY": "test",
        "NO_PROXY": "127.0.0.1",
        "no_proxy": "127.0.0.1",
    }


def serve() -> Iterator[str]:
    """The stand-in's URL on an ephemeral port of 127.0.0.1, stopped when the generator closes."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
