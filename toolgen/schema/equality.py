"""JSON values as JSON Schema sees them: their type, and equality (``const``, ``enum``, ``uniqueItems``):
numbers are equal when mathematically equal (``1`` and ``1.0``), and no boolean equals a number
(Python's ``True == 1`` does not hold here)."""

from __future__ import annotations

from typing import Any


def json_equal(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal under JSON Schema."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def json_type(value: Any) -> str:
    """The JSON Schema type name of a JSON value (an integral number is an integer)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else "object"
