"""The fixed helpers of the inverse canonicalizers, the same for every design.

The compiled canonicalizers (``_canonical.py``, ``_canonical_<provider>.py`` and their
``_parts`` modules) call them, and toolgen's reference inverse
(toolgen/compile/canonical/reference.py) calls the same functions, so both read a payload the
same way:

- ``is_number``, ``is_integer``, ``json_equal``, ``in_enum``, ``multiple_of``: JSON Schema's
  tests of the branch tests (``True`` is not ``1``, ``1`` is ``1.0``), as jsonschema decides;
- ``ABSENT``: the value of a member that is not there (``payload.get(name, ABSENT)``);
- ``decode`` (``DECODERS``): the inverses of the projection's encodings
  (toolgen/project/rewrites/encodings.py); a payload that breaks one raises ``EncodingError``, a
  ``ValueError`` the generated runtime reports as a ``PayloadError``;
- ``canonicalize_text``: an inverse applied to JSON text, unchanged text kept byte for byte.

Standard library only; nothing here reads a schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from numbers import Number
from typing import Any

__all__ = [
    "ABSENT",
    "DECODERS",
    "EncodingError",
    "FloatText",
    "canonicalize_text",
    "decode",
    "decode_boxed",
    "decode_extras",
    "decode_json",
    "decode_pairs",
    "decode_tuple",
    "decode_unwrap",
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


# -- the decoders of the encodings ---------------------------------------------------------------


class EncodingError(ValueError):
    """A payload that does not read back as the projection encoded it (a map with a key twice,
    JSON text that is not JSON); the generated runtime reports it as a PayloadError."""


def _not_json(constant: str) -> Any:
    raise ValueError(constant)


def decode_json(value: Any, _: str) -> Any:
    """A value of any type written as JSON text: the text parsed (NaN and Infinity are not JSON)."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value, parse_constant=_not_json)
    except ValueError:
        raise EncodingError("a value written as JSON text is not JSON") from None


def decode_pairs(value: Any, _: str) -> Any:
    """A map written as ``{"key": name, "value": X}`` entries: the object they build."""
    if not isinstance(value, list):
        return value
    result: dict[str, Any] = {}
    for entry in value:
        if not (isinstance(entry, dict) and isinstance(entry.get("key"), str) and "value" in entry):
            return value  # not an encoded map: the canonical validation reports it
        if entry["key"] in result:
            raise EncodingError(f"the map has the key {entry['key']!r} twice")
        result[entry["key"]] = entry["value"]
    return result


def decode_extras(value: Any, member: str) -> Any:
    """An open object whose other members the member ``member`` holds: merged back into it."""
    if not isinstance(value, dict) or not isinstance(value.get(member), dict):
        return value  # none written, or not a map: the canonical validation reports the latter
    extras = value[member]
    result = {k: v for k, v in value.items() if k != member}
    for name, extra in extras.items():
        if name in result:
            raise EncodingError(f"the additional member {name!r} is also a declared member")
        result[name] = extra
    return result


def decode_tuple(value: Any, _: str) -> Any:
    """A tuple written as an object with one member per position (``"0"``, ``"1"`` ...): the
    members in order."""
    if not isinstance(value, dict):
        return value
    result: list[Any] = []
    while str(len(result)) in value:
        result.append(value[str(len(result))])
    if len(result) != len(value):
        raise EncodingError("a tuple position is written after an absent one")
    return result


def decode_boxed(value: Any, member: str) -> Any:
    """An optional member that accepts null written as ``{member: v}`` (a null member, absent, is
    removed before): ``v``. A value that is no object is the canonical value as written (the
    canonical validation checks it); an object that is no box is an :class:`EncodingError`."""
    return _only_member(
        value,
        member,
        f"an optional member that accepts null is written as null (absent) or as "
        f"{{{member!r}: ...}}",
    )


def decode_unwrap(value: Any, member: str) -> Any:
    """A value wrapped in an object as its one member ``member`` (an output whose root is no
    object): the member."""
    return _only_member(value, member, f"a wrapped value is written as its one member {member!r}")


def _only_member(value: Any, member: str, form: str) -> Any:
    """The one member ``member`` of an object (a value that is no object as it is; another
    object is an :class:`EncodingError` saying ``form``)."""
    if not isinstance(value, dict):
        return value
    if len(value) != 1 or member not in value:
        raise EncodingError(f"{form}, not as an object with the members {sorted(value)}")
    return value[member]


#: decoder name -> decoder(value, argument); a value that is not of the kind the decoder reads
#: comes back unchanged (the canonical validation reports it)
DECODERS: dict[str, Callable[[Any, str], Any]] = {
    "boxed": decode_boxed,
    "tuple": decode_tuple,
    "json": decode_json,
    "pairs": decode_pairs,
    "extras": decode_extras,
    "unwrap": decode_unwrap,
}


def decode(decoder: str, argument: str, value: Any) -> Any:
    """``value`` read back by the decoder ``decoder`` of :data:`DECODERS`: JSON text parsed
    ("json"), key/value entries built into an object ("pairs"), the member ``argument`` holding
    an open object's extra members merged back into it ("extras"), a tuple's members back in order
    ("tuple"), a boxed member's value unboxed ("boxed"), a wrapped output root unwrapped
    ("unwrap")."""
    return DECODERS[decoder](value, argument)


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
