"""The fake responses of a wire API by its name, as the tests ask for them: each API's runtime
module builds its own (``fake_response``, ``fake_stream``: toolgen.apis.api.Fakes); ``package``: a
generated package's copy of that module instead of toolgen's."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from toolgen.apis import UNITS, by_name

#: Every API the fakes know, by its ``api`` name.
APIS: tuple[str, ...] = tuple(dict.fromkeys(api.name for apis in UNITS.values() for api in apis))


def _module(api: str, package: ModuleType | str | None) -> Any:
    unit = by_name(api)  # KeyError for an API no unit declares
    if package is None:
        return importlib.import_module(unit.fakes.response.__module__)
    name = package if isinstance(package, str) else package.__name__
    return importlib.import_module(f"{name}.{unit.fakes.module}")


def response(
    api: str, calls: Any, *, package: ModuleType | str | None = None, **options: Any
) -> dict[str, Any]:
    body: dict[str, Any] = _module(api, package).fake_response(calls, **options)
    return body


def stream(
    api: str, calls: Any, *, package: ModuleType | str | None = None, **options: Any
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = _module(api, package).fake_stream(calls, **options)
    return events


def model(api: str) -> str:
    """The model the API's fakes name unless told."""
    return by_name(api).fakes.model


def framed(api: str, events: Any, *, package: ModuleType | str | None = None) -> bytes:
    """``events`` as the HTTP body of the API's stream (its module's ``stream_body``)."""
    body: bytes = _module(api, package).stream_body(events)
    return body


def content_type(api: str) -> str:
    """The ``Content-Type`` of the API's stream."""
    return by_name(api).fakes.content_type
