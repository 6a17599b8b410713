"""Size limits of a provider grammar, checked on the projected schema."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass
class SchemaStats:
    """The sizes a provider limits, measured over one (projected) schema."""

    properties: int = 0
    enum_values: int = 0
    chars: int = 0
    optional: int = 0
    unions: int = 0
    deepest: tuple[str, int] = ("", 0)


def measure(schema: Any) -> SchemaStats:
    stats = SchemaStats()
    for node, pointer in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        level = _nesting(pointer)
        if level > stats.deepest[1]:
            stats.deepest = (pointer, level)
        if isinstance(node.get("properties"), dict):
            stats.properties += len(node["properties"])
            stats.chars += sum(len(name) for name in node["properties"])
            stats.optional += sum(name not in (node.get("required") or ()) for name in node["properties"])
        if isinstance(node.get("anyOf"), list) or isinstance(node.get("type"), list):
            stats.unions += 1
        for defs in ("$defs", "definitions"):
            if isinstance(node.get(defs), dict):
                stats.chars += sum(len(name) for name in node[defs])
        if "const" in node:
            stats.chars += _value_chars(node["const"])
        if isinstance(node.get("enum"), list):
            stats.enum_values += len(node["enum"])
            stats.chars += sum(_value_chars(v) for v in node["enum"] if v is not None)
    return stats


def _node_limits(schema: Any, limits: Limits) -> Iterator[tuple[str, str, str]]:
    """Limits on one node: the branches of an anyOf, the size of a large string enum."""
    for node, pointer in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        branches = node.get("anyOf")
        if limits.any_of_branches is not None and isinstance(branches, list) and len(branches) > limits.any_of_branches:
            yield (jp.join(pointer, "anyOf"), "LIMIT_ANY_OF",
                   f"anyOf with {len(branches)} branches exceeds the limit of {limits.any_of_branches}")
        enum = node.get("enum")
        if limits.large_string_enum and isinstance(enum, list):
            values = [v for v in enum if v is not None]
            most_values, most_chars = limits.large_string_enum
            enum_chars = sum(_value_chars(v) for v in values)
            if all(isinstance(v, str) for v in values) and len(enum) > most_values and enum_chars > most_chars:
                yield (jp.join(pointer, "enum"), "LIMIT_STRING_ENUM",
                       f"a string enum of {len(enum)} values (over {most_values}) may total at most "
                       f"{most_chars:,} characters; it has {enum_chars:,}")


def check_limits(schema: Any, limits: Limits) -> Iterator[tuple[str, str, str]]:
    """(pointer, code, message) for each limit the schema exceeds."""
    yield from _node_limits(schema, limits)
    stats = measure(schema)
    if limits.nesting is not None and stats.deepest[1] > limits.nesting:
        yield (stats.deepest[0], "LIMIT_NESTING",
               f"{stats.deepest[1]} levels of nesting exceed the limit of {limits.nesting}")
    totals = (
        ("LIMIT_PROPERTIES", stats.properties, limits.properties, "object properties"),
        ("LIMIT_ENUM_VALUES", stats.enum_values, limits.enum_values, "enum values"),
        ("LIMIT_TOTAL_CHARS", stats.chars, limits.total_chars, "characters of names and enum/const values"),
        ("LIMIT_OPTIONAL_MEMBERS", stats.optional, limits.optional_members, "optional members (a limit per request)"),
        ("LIMIT_UNION_MEMBERS", stats.unions, limits.union_members, "union-typed schemas (a limit per request)"),
    )
    for code, value, limit, what in totals:
        if limit is not None and value > limit:
            yield ("", code, f"{value:,} {what} exceed the limit of {limit:,}")


def _local_refs(schema: Any) -> Iterator[tuple[str, str]]:
    for node, pointer in walker.walk(schema):
        if isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#"):
            yield pointer, jp.unescape_uri(node["$ref"][1:])


def recursive_refs(schema: Any) -> list[str]:
    """Pointers of the ``$ref`` keywords that lead, through references, back to a schema containing them."""
    refs = list(_local_refs(schema))

    def inside(target: str, pointer: str) -> bool:
        return pointer == target or pointer.startswith(target + "/")

    # An edge from each ref to every ref inside its target; a ref is recursive when it reaches itself.
    edges = {pointer: [p for p, _ in refs if inside(target, p)] for pointer, target in refs}
    recursive = []
    for start, _ in refs:
        seen: set[str] = set()
        pending = list(edges[start])
        while pending:
            current = pending.pop()
            if current == start:
                recursive.append(jp.join(start, "$ref"))
                break
            if current not in seen:
                seen.add(current)
                pending.extend(edges[current])
    return recursive
