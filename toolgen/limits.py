"""Size limits of a provider grammar, checked on the projected schema."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from toolgen import pointer as jp
from toolgen import walker
from toolgen.providers.base import Limits

#: Keywords that descend one level into the data (the others stay at the same value).
_DATA_LEVEL = frozenset({"properties", "items", "additionalProperties"})


def _value_chars(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(json.dumps(value))


def _nesting(pointer: str) -> int:
    """Levels of data nesting at ``pointer``; a definition starts again at the root level."""
    tokens = jp.split(pointer)
    if len(tokens) >= 2 and tokens[0] in ("$defs", "definitions"):
        tokens = tokens[2:]
    level, index = 1, 0
    while index < len(tokens):
        if tokens[index] in ("properties", "$defs", "definitions"):
            level += tokens[index] == "properties"
            index += 2
        elif tokens[index] in ("anyOf", "oneOf", "allOf", "prefixItems"):
            index += 2
        else:
            level += tokens[index] in _DATA_LEVEL
            index += 1
    return level


def check_limits(schema: Any, limits: Limits) -> Iterator[tuple[str, str, str]]:
    """(pointer, code, message) for each limit the schema exceeds."""
    properties = enum_values = chars = 0
    deepest = ("", 0)
    for node, pointer in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        level = _nesting(pointer)
        if level > deepest[1]:
            deepest = (pointer, level)
        if isinstance(node.get("properties"), dict):
            properties += len(node["properties"])
            chars += sum(len(name) for name in node["properties"])
        for defs in ("$defs", "definitions"):
            if isinstance(node.get(defs), dict):
                chars += sum(len(name) for name in node[defs])
        if "const" in node:
            chars += _value_chars(node["const"])
        enum = node.get("enum")
        if isinstance(enum, list):
            enum_values += len(enum)
            enum_chars = sum(_value_chars(v) for v in enum if v is not None)
            chars += enum_chars
            if limits.large_string_enum and all(isinstance(v, str) for v in enum if v is not None):
                most_values, most_chars = limits.large_string_enum
                if len(enum) > most_values and enum_chars > most_chars:
                    yield (jp.join(pointer, "enum"), "LIMIT_STRING_ENUM",
                           f"a string enum of {len(enum)} values (over {most_values}) may total at most "
                           f"{most_chars:,} characters; it has {enum_chars:,}")
    if limits.nesting is not None and deepest[1] > limits.nesting:
        yield (deepest[0], "LIMIT_NESTING",
               f"{deepest[1]} levels of nesting exceed the limit of {limits.nesting}")
    if limits.properties is not None and properties > limits.properties:
        yield ("", "LIMIT_PROPERTIES", f"{properties:,} object properties exceed the limit of {limits.properties:,}")
    if limits.enum_values is not None and enum_values > limits.enum_values:
        yield ("", "LIMIT_ENUM_VALUES", f"{enum_values:,} enum values exceed the limit of {limits.enum_values:,}")
    if limits.total_chars is not None and chars > limits.total_chars:
        yield ("", "LIMIT_TOTAL_CHARS",
               f"{chars:,} characters of names and enum/const values exceed the limit of {limits.total_chars:,}")
