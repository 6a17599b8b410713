"""One POST of ``toolgen canary record``, bounded: the key goes to the origin it was given for
and nowhere else, the body is read up to a size cap, and the whole exchange (connection, headers,
body) ends by a deadline.

- A redirect is refused, never followed. To another origin (scheme, host or port) following it
  would carry the key there; within the origin, a POST answered by a redirect is no answer of the
  API (urllib would repeat it as a GET without its body). The error names where it pointed: the
  origin only, when it is another one.
- ``Limits.max_body`` bytes at most are read: a declared ``Content-Length`` above it is refused
  before reading, and a body without one stops being read once past it.
- ``Limits.deadline`` seconds from the start, a watchdog shuts the connection down: a server that
  trickles a byte at a time (each one resets a socket timeout) ends there too.

HTTP is the standard library's (urllib, so proxies of the environment still apply).
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: The defaults: a canary answer is one tool call, one small JSON value or a stream of a few
#: hundred events (a few KiB to tens of KiB); a reasoning model can take a minute.
MAX_BODY = 8 * 1024 * 1024
DEADLINE = 120.0
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Limits:
    max_body: int = MAX_BODY  # bytes of one body
    deadline: float = DEADLINE  # seconds, from the connection to the body's last byte


@dataclass(frozen=True)
class Answer:
    content_type: str
    body: bytes


class PostError(Exception):
    """Nothing usable came back: the message says why. Of what the server sent it holds where a
    redirect pointed and the start of an error body, which the caller scrubs of the key."""


def post(url: str, body: bytes, headers: dict[str, str], limits: Limits) -> Answer:
    """POST ``body`` to ``url`` within ``limits``; a 2xx answer, else PostError."""
    watch = _Watch(limits.deadline)
    opener = urllib.request.build_opener(
        _RefuseRedirects(), _WatchedHttp(watch), _WatchedHttps(watch)
    )
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        try:
            with opener.open(request, timeout=limits.deadline) as response:
                data = _read(response, limits, watch)
                return Answer(response.headers.get_content_type(), data)
        except urllib.error.HTTPError as error:
            excerpt = _error_excerpt(error, watch)
            raise PostError(f"HTTP {error.code} {error.reason}{excerpt}") from None
    except (OSError, http.client.HTTPException) as error:
        if watch.expired:
            raise PostError(_late(limits)) from None
        raise PostError(str(error) or type(error).__name__) from None
    finally:
        watch.close()


def _read(response: Any, limits: Limits, watch: _Watch) -> bytes:
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > limits.max_body:
        raise PostError(
            f"the body is {int(declared)} bytes, over the cap of {limits.max_body} bytes "
            "(--max-body-mib); not read"
        )
    body = bytearray()
    while chunk := response.read1(_CHUNK):  # returns what arrived: the deadline is checked often
        body += chunk
        if len(body) > limits.max_body:
            raise PostError(
                f"the body is over the cap of {limits.max_body} bytes (--max-body-mib); "
                "stopped reading"
            )
        if watch.expired:
            break
    if watch.expired:  # a shut connection reads as the end of the body
        raise PostError(_late(limits))
    if getattr(response, "length", None):  # bytes of a declared length still missing
        raise PostError(f"the body ended after {len(body)} bytes, before its declared length")
    return bytes(body)


def _error_excerpt(error: urllib.error.HTTPError, watch: _Watch) -> str:
    """': ' and the first 300 characters of an error body (it says why: a wrong key, an unknown
    model), or ''; at most 4 KiB of it is read."""
    start = bytearray()
    with contextlib.suppress(OSError, http.client.HTTPException):
        while len(start) < 4096 and not watch.expired:
            chunk = error.read1(4096 - len(start))
            if not chunk:
                break
            start += chunk
    shown = " ".join(start.decode("utf-8", "replace").split())
    return f": {shown[:300]}" if shown else ""


def _late(limits: Limits) -> str:
    return f"no complete answer within {limits.deadline:g} s (--deadline); gave up"


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or {"http": 80, "https": 443}.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        fp.close()
        there = _origin(newurl)
        if there != _origin(req.full_url):
            scheme, host, port = there
            raise PostError(
                f"HTTP {code}: redirected to another origin, {scheme}://{host}:{port}; refused "
                "(nothing was sent there, the key included). Give --base-url the endpoint itself"
            )
        raise PostError(
            f"HTTP {code}: redirected to {urlsplit(newurl).path or '/'} on the same origin; "
            "refused (a POST answered by a redirect is no answer of the API). Give --base-url "
            "the endpoint itself"
        )


class _Watch:
    """Shuts the connections of one request down at its deadline: a read blocked in the kernel
    returns at once, whatever the socket's own timeout. It keeps a duplicate of each socket, which
    stays valid when TLS takes the original over."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(seconds, 0.0), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        duplicate = sock.dup()
        with self._lock:
            self._sockets.append(duplicate)
            expired = self.expired
        if expired:
            _shut(duplicate)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            sock.close()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # not connected (yet, or any more)
        sock.shutdown(socket.SHUT_RDWR)


def _watched(base: type[http.client.HTTPConnection], watch: _Watch) -> Callable[..., Any]:
    """``base`` whose sockets ``watch`` sees from the moment they connect (the TLS handshake and
    the headers are within the deadline too)."""

    def connection(*args: Any, **keywords: Any) -> http.client.HTTPConnection:
        made = base(*args, **keywords)
        create = made._create_connection  # type: ignore[attr-defined]

        def created(*a: Any, **k: Any) -> socket.socket:
            sock: socket.socket = create(*a, **k)
            watch.watch(sock)
            return sock

        made._create_connection = created  # type: ignore[attr-defined]
        return made

    return connection


class _WatchedHttp(urllib.request.HTTPHandler):
    def __init__(self, watch: _Watch) -> None:
        super().__init__()
        self._watch = watch

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_watched(http.client.HTTPConnection, self._watch), req)  # type: ignore[arg-type]


class _WatchedHttps(urllib.request.HTTPSHandler):
    def __init__(self, watch: _Watch) -> None:
        super().__init__()
        self._watch = watch

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        connection = _watched(http.client.HTTPSConnection, self._watch)
        return self.do_open(connection, req)  # type: ignore[arg-type]
