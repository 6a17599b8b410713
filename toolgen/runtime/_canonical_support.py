"""The fixed helpers of the inverse canonicalizers, the same for every design.

The compiled canonicalizers (``_canonical.py``, ``_canonical_<provider>.py`` and their
``_parts`` modules) call them, and toolgen's reference inverse
(toolgen/compile/canonical/reference.py) calls the same functions, so both read a payload the
same way:

- ``is_number``, ``is_integer``, ``json_equal``, ``in_enum``, ``multiple_of``: JSON Schema's
  tests of the branch tests (``True`` is not ``1``, ``1`` is ``1.0``), as jsonschema decides;
- ``ABSENT``: the value of a member that is not there (``payload.get(name, ABSENT)``);
- ``decode``: the inverses of the projection's encodings, by codec (``_codecs``); a payload that
  breaks one raises ``EncodingError``, a ``ValueError`` the generated runtime reports as a
  ``PayloadError``;
- ``canonicalize_text``: an inverse applied to JSON text, unchanged text kept byte for byte.

Standard library only; nothing here reads a schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from numbers import Number
from typing import Any

from ._codecs import EncodingError, decode

__all__ = [
    "ABSENT",
    "EncodingError",
    "FloatText",
    "canonicalize_text",
    "decode",
    "dumps",
    "in_enum",
    "is_integer",
    "is_number",
    "json_equal",
    "loads",
    "multiple_of",
    "parse_float",
]

#: what ``payload.get(name, ABSENT)`` gives for a member that is not there
ABSENT: Any = object()


# -- JSON Schema's tests -----------------------------------------------------------------------


def is_number(value: Any) -> bool:
    """``{"type": "number"}``: an int or a float, not a bool."""
    return not isinstance(value, bool) and isinstance(value, Number)


def is_integer(value: Any) -> bool:
    """``{"type": "integer"}``: an int (not a bool), or a float with no fraction."""
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int) and not isinstance(value, bool)


def json_equal(one: Any, two: Any) -> bool:
    """JSON equality: ``True`` is not ``1``, ``1`` is ``1.0``, containers compared deeply."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(json_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(
            k in two and json_equal(v, two[k]) for k, v in one.items()
        )
    if isinstance(one, bool) or isinstance(two, bool):
        return one is two
    return bool(one == two)


def in_enum(value: Any, values: tuple[Any, ...]) -> bool:
    """``{"enum": values}`` for values that are not strings (compared by :func:`json_equal`)."""
    return any(json_equal(value, each) for each in values)


def multiple_of(value: Any, divisor: Any) -> bool:
    """``{"multipleOf": divisor}`` of a number, exact where a float quotient overflows."""
    if isinstance(divisor, float):
        quotient = value / divisor
        try:
            return bool(int(quotient) == quotient)
        except OverflowError:
            return (Fraction(value) / Fraction(divisor)).denominator == 1
    return not value % divisor


# -- JSON text in and out ------------------------------------------------------------------------


class FloatText(float):
    """A JSON number with a fraction or exponent that remembers how it was written."""

    __slots__ = ("text",)
    text: str


def parse_float(text: str) -> FloatText:
    number = FloatText(text)
    number.text = text
    return number


def loads(text: str | bytes) -> Any:
    """JSON text parsed, its floats remembering how they were written."""
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


def canonicalize_text(canonicalizer: Callable[[Any], Any], text: str | bytes) -> str | bytes:
    """``canonicalizer`` applied to JSON text: the same text (byte-identical) when nothing
    changes, else compact JSON with member order, large integers and float text kept (bytes in,
    UTF-8 bytes out)."""
    payload = loads(text)
    result = canonicalizer(payload)
    if result is payload:
        return text
    encoded = dumps(result)
    return encoded.encode() if isinstance(text, bytes) else encoded
