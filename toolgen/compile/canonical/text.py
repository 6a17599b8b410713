"""JSON text in and out of an inverse: unchanged text comes back byte-identical, changed text is
re-encoded compactly with member order, large integers and the written form of floats kept.

The generated ``_canonical.py`` carries the same few functions (templates/_canonical.py.j2); the
tests hold the two to the same behaviour.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


class FloatText(float):
    """A JSON number with a fraction or exponent that remembers how it was written."""

    __slots__ = ("text",)
    text: str


def parse_float(text: str) -> FloatText:
    number = FloatText(text)
    number.text = text
    return number


def loads(text: str | bytes) -> Any:
    return json.loads(text, parse_float=parse_float)


def dumps(value: Any) -> str:
    """Compact JSON; member order as in ``value``; floats as they were written when parsed here."""
    parts: list[str] = []
    _encode(value, parts)
    return "".join(parts)


def _encode(value: Any, parts: list[str]) -> None:
    if isinstance(value, str):
        parts.append(json.dumps(value, ensure_ascii=False))
    elif value is None or isinstance(value, bool):
        parts.append(json.dumps(value))
    elif isinstance(value, FloatText):
        parts.append(value.text)
    elif isinstance(value, int | float):
        parts.append(json.dumps(value))
    elif isinstance(value, dict):
        parts.append("{")
        for index, (key, member) in enumerate(value.items()):
            if index:
                parts.append(",")
            parts.append(json.dumps(str(key), ensure_ascii=False))
            parts.append(":")
            _encode(member, parts)
        parts.append("}")
    elif isinstance(value, list | tuple):
        parts.append("[")
        for index, element in enumerate(value):
            if index:
                parts.append(",")
            _encode(element, parts)
        parts.append("]")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def canonicalize_text(inverse: Callable[[Any], Any], text: str | bytes) -> str | bytes:
    """``inverse`` applied to JSON text: the same text when nothing changes, else compact JSON
    (bytes in, UTF-8 bytes out)."""
    payload = loads(text)
    result = inverse(payload)
    if result is payload:
        return text
    encoded = dumps(result)
    return encoded.encode() if isinstance(text, bytes) else encoded
