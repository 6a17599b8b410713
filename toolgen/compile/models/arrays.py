"""JSON Schema arrays that pydantic's ``list[...]`` cannot check alone, written ``Annotated[list[...],
JsonArray(...)]`` (models/_base.py) in the generated models.

datamodel-code-generator writes ``prefixItems`` as ``tuple[...]`` only when ``minItems`` and
``maxItems`` both equal the positions' count (and a strict ``tuple`` refuses the list the inverse
gives back), otherwise as ``list`` of the union of the positions, which checks no position; and
it drops ``uniqueItems``. So :func:`marked` rewrites such an array, before generation, into a
tuple that the generator always writes as ``tuple[...]``: a first position holding a marker (a
``const`` naming the array's bounds, whether items follow the positions and whether they are
unique), then the positions, then the schema of the items beyond them. :func:`json_arrays`
rewrites each marked tuple of the generated source into the list with its ``JsonArray``, and
drops the length constraints the generator wrote for the marked tuple itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolgen.compile.models.placeholder import PLACEHOLDER_PACKAGE

#: what the first position of a marked tuple holds: ``toolgen-array:MIN:MAX:REST:UNIQUE`` (MAX
#: empty when there is none; REST and UNIQUE 0 or 1)
_PREFIX = "toolgen-array"
_MARKED = re.compile(
    r"""tuple\[\s*Literal\[\s*(['"])""" + _PREFIX + r""":(\d+):(\d*):([01]):([01])\1\s*\]\s*,?\s*"""
)
_LENGTH = re.compile(r"(?:max|min)_length=(\d+)")
_IMPORTS = (
    f"from typing import Annotated, Any\nfrom {PLACEHOLDER_PACKAGE}.models._base import JsonArray\n"
)


def needs_marking(node: dict[str, Any]) -> bool:
    """Whether the array schema ``node`` has what only ``JsonArray`` checks."""
    return "prefixItems" in node or node.get("uniqueItems") is True


def marked(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` (an array schema with ``prefixItems`` or ``uniqueItems``, its subschemas prepared)
    with its array keywords as a marked tuple."""
    node = dict(node)
    positions = list(node.pop("prefixItems", []))
    items = node.pop("items", True)
    rest: Any = None if items is False else ({} if items is True else items)
    for index, position in enumerate(positions):
        if position is False:  # no array reaches past it
            positions, rest = positions[:index], None
            break
    positions = [{} if position is True else position for position in positions]
    shortest = node.pop("minItems", 0)
    longest = node.pop("maxItems", None)
    unique = node.pop("uniqueItems", False) is True
    marker = (
        f"{_PREFIX}:{shortest}:{'' if longest is None else longest}"
        f":{int(rest is not None)}:{int(unique)}"
    )
    tuple_items = [{"const": marker}, *positions, *([rest] if rest is not None else [])]
    node["prefixItems"] = tuple_items
    node["items"] = False
    node["minItems"] = node["maxItems"] = len(tuple_items)
    return node


def json_arrays(source: str) -> str:
    """``source`` (a generated module) with every marked tuple written as its list and
    ``JsonArray``; the innermost first, so that an outer one's text holds the rewritten inner."""
    if _PREFIX not in source:  # the common module, found without the expression
        return source
    found = list(_MARKED.finditer(source))
    if not found:
        return source
    while found:
        source = _rewritten(source, found[-1])
        found = list(_MARKED.finditer(source))
    return _IMPORTS + source


def _rewritten(source: str, mark: re.Match[str]) -> str:
    shortest, longest, rest, unique = mark.group(2), mark.group(3), mark.group(4), mark.group(5)
    close = _closing(source, mark.start() + len("tuple"))
    kinds = _arguments(source[mark.end() : close])
    union = "Any" if not kinds or "Any" in kinds else " | ".join(dict.fromkeys(kinds))
    options = []
    if rest == "1":
        options.append("rest=True")
    if shortest != "0":
        options.append(f"min_items={shortest}")
    if longest:
        options.append(f"max_items={longest}")
    if unique == "1":
        options.append("unique=True")
    positions = f"tuple[{', '.join(kinds) or '()'}]"
    written = f"Annotated[list[{union}], JsonArray({', '.join([positions, *options])})]"
    return _without_tuple_lengths(source, mark.start(), close + 1, written, len(kinds) + 1)


def _without_tuple_lengths(source: str, start: int, end: int, written: str, count: int) -> str:
    """``source`` with ``written`` in place of ``source[start:end]`` (a marked tuple), and without
    the ``min_length``/``max_length`` of ``count`` items the generator wrote for that tuple in a
    ``Field`` right after it (in an ``Annotated`` that then has nothing else, the tuple alone)."""
    after = re.compile(r"\s*,\s*Field\(").match(source, end)
    if after is None:
        return source[:start] + written + source[end:]
    field_end = _closing(source, after.end() - 1)
    kept = [
        argument
        for argument in _arguments(source[after.end() : field_end])
        if not ((length := _LENGTH.fullmatch(argument)) and int(length.group(1)) == count)
    ]
    if kept:
        return source[:start] + written + f", Field({', '.join(kept)})" + source[field_end + 1 :]
    opening = re.compile(r"Annotated\[\s*$").search(source, 0, start)
    closing = re.compile(r"\s*,?\s*\]").match(source, field_end + 1)
    if opening is None or closing is None:
        return source[:start] + written + source[field_end + 1 :]
    return source[: opening.start()] + written + source[closing.end() :]


def _outside_strings(text: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """Each character of ``text`` from ``start`` that is in no string literal, with its index
    and the bracket depth after it (relative to ``start``)."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char in "'\"":
            index = _string_end(text, index)
        else:
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
            yield index, char, depth
        index += 1


def _closing(source: str, opening: int) -> int:
    """The index of the bracket or parenthesis that closes the one at ``opening``."""
    for index, char, depth in _outside_strings(source, opening):
        if depth == 0 and char in ")]}":
            return index
    raise ValueError("unbalanced brackets in generated code")


def _string_end(source: str, start: int) -> int:
    """The index of the quote that closes the string opening at ``start``."""
    quote = source[start]
    index = start + 1
    while source[index] != quote:
        index += 2 if source[index] == "\\" else 1
    return index


def _arguments(text: str) -> list[str]:
    """The comma-separated arguments of ``text`` at its top level, stripped, empty ones left
    out."""
    commas = [index for index, char, depth in _outside_strings(text) if char == "," and not depth]
    bounds = zip([-1, *commas], [*commas, len(text)], strict=True)
    found = [text[begin + 1 : end].strip() for begin, end in bounds]
    return [argument for argument in found if argument]
