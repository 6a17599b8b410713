"""Size limits of a provider grammar, checked on the projected schema."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

from toolgen.providers.base import Limits
from toolgen.schema import pointer as jp
from toolgen.schema import walker

#: Keywords that descend one level into the data (the others stay at the same value).
_DATA_LEVEL = frozenset({"properties", "items", "additionalProperties"})


def _value_chars(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(json.dumps(value))


def _deepest(schema: Any) -> tuple[str, int]:
    """The deepest data level of ``schema`` (the root is level 1) and a pointer to it.

    A ``$ref`` counts at the level where it is used: its target's depth adds to the depth of the
    reference (recursion is allowed and counted once). Definitions nobody references count from
    level 1.
    """
    heights: dict[str, tuple[int, str]] = {}
    in_progress: set[str] = set()

    def height(
        node: Any, pointer: str
    ) -> Generator[tuple[Any, str], tuple[int, str], tuple[int, str]]:
        """Levels below ``node`` and the pointer of the deepest node (``yield`` recurses)."""
        best = (0, pointer)
        if not isinstance(node, dict):
            return best
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            target = jp.ref_pointer(ref)
            if target not in heights and target not in in_progress:
                try:
                    resolved = jp.resolve(schema, target)
                except (KeyError, ValueError):
                    resolved = None
                in_progress.add(target)
                heights[target] = yield (resolved, target)
                in_progress.discard(target)
            best = max(best, heights.get(target, best), key=lambda h: h[0])
        for child in walker.children(node, pointer):
            if child.keyword in ("$defs", "definitions"):
                continue
            below, where = yield (child.schema, child.pointer)
            step = int(child.keyword in _DATA_LEVEL)
            if below + step > best[0]:
                best = (below + step, where)
        return best

    in_progress.add("")
    deepest, where = walker.run_recursive(height, schema, "")
    heights[""] = (deepest, where)
    result = (where, deepest + 1)
    for node, pointer in walker.walk(schema):
        for defs in ("$defs", "definitions"):
            if isinstance(node, dict) and isinstance(node.get(defs), dict):
                for name, sub in node[defs].items():
                    def_pointer = jp.join(pointer, defs, name)
                    below, where = heights.get(def_pointer) or walker.run_recursive(
                        height, sub, def_pointer
                    )
                    if below + 1 > result[1]:
                        result = (where, below + 1)
    return result


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
    stats = SchemaStats(deepest=_deepest(schema))
    for node, _pointer in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("properties"), dict):
            stats.properties += len(node["properties"])
            stats.chars += sum(len(name) for name in node["properties"])
            stats.optional += sum(
                name not in (node.get("required") or ()) for name in node["properties"]
            )
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
        if (
            limits.any_of_branches is not None
            and isinstance(branches, list)
            and len(branches) > limits.any_of_branches
        ):
            yield (
                jp.join(pointer, "anyOf"),
                "LIMIT_ANY_OF",
                f"anyOf with {len(branches)} branches exceeds the limit of {limits.any_of_branches}",
            )
        enum = node.get("enum")
        if limits.large_string_enum and isinstance(enum, list):
            values = [v for v in enum if v is not None]
            most_values, most_chars = limits.large_string_enum
            enum_chars = sum(_value_chars(v) for v in values)
            if (
                all(isinstance(v, str) for v in values)
                and len(enum) > most_values
                and enum_chars > most_chars
            ):
                yield (
                    jp.join(pointer, "enum"),
                    "LIMIT_STRING_ENUM",
                    f"a string enum of {len(enum)} values (over {most_values}) may total at most "
                    f"{most_chars:,} characters; it has {enum_chars:,}",
                )


def check_limits(schema: Any, limits: Limits) -> Iterator[tuple[str, str, str]]:
    """(pointer, code, message) for each limit the schema exceeds."""
    yield from _node_limits(schema, limits)
    stats = measure(schema)
    if limits.nesting is not None and stats.deepest[1] > limits.nesting:
        yield (
            stats.deepest[0],
            "LIMIT_NESTING",
            f"{stats.deepest[1]} levels of nesting exceed the limit of {limits.nesting}",
        )
    totals = (
        ("LIMIT_PROPERTIES", stats.properties, limits.properties, "object properties"),
        ("LIMIT_ENUM_VALUES", stats.enum_values, limits.enum_values, "enum values"),
        (
            "LIMIT_TOTAL_CHARS",
            stats.chars,
            limits.total_chars,
            "characters of names and enum/const values",
        ),
        (
            "LIMIT_OPTIONAL_MEMBERS",
            stats.optional,
            limits.optional_members,
            "optional members (a limit per request)",
        ),
        (
            "LIMIT_UNION_MEMBERS",
            stats.unions,
            limits.union_members,
            "union-typed schemas (a limit per request)",
        ),
    )
    for code, value, limit, what in totals:
        if limit is not None and value > limit:
            yield ("", code, f"{value:,} {what} exceed the limit of {limit:,}")
