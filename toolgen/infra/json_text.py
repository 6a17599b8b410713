"""Compact JSON text (``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``) for values
encoded by the thousand in one build: cache keys, and the projected schemas a provider module
stores. ``json.dumps`` with options makes an encoder a call, and its ``encode`` a C encoder a
call; these make it once."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def compact_encoder(default: Callable[[Any], Any] = _not_json) -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=default)``, keys in
    their order, as one function; ``default``: what a value that is not JSON becomes (by
    default, a ``TypeError`` as ``json.dumps`` raises)."""
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=default)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    try:
        chunks = make(  # the arguments JSONEncoder.iterencode gives it, but no cycle check
            None, default, json.encoder.encode_basestring, None, ":", ",", False, False, True
        )
    except TypeError:  # of another signature
        return encoder.encode

    def encode(value: Any) -> str:
        return "".join(chunks(value, 0))

    return encode


#: the compact JSON text of a JSON value
compact_json = compact_encoder()
