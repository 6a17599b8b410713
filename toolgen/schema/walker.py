"""The one schema walker: recursion driven by a table of keywords, never by property names.

Every stage that looks inside a schema (bundling, linting, projection, nullability, the canonicalizer
compiler, model preparation) goes through these functions, so a property called ``type``, ``default``
or ``$ref`` is always a name and never a keyword.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from toolgen.schema import pointer as jp


class Shape(enum.Enum):
    SCHEMA = "a schema"
    MAP = "a map of name to schema"
    LIST = "a list of schemas"


#: Keywords of draft 2020-12 (and draft 7's ``definitions``) whose values hold subschemas.
SUBSCHEMA_KEYWORDS: dict[str, Shape] = {
    "$defs": Shape.MAP,
    "definitions": Shape.MAP,
    "properties": Shape.MAP,
    "patternProperties": Shape.MAP,
    "dependentSchemas": Shape.MAP,
    "additionalProperties": Shape.SCHEMA,
    "propertyNames": Shape.SCHEMA,
    "unevaluatedProperties": Shape.SCHEMA,
    "items": Shape.SCHEMA,
    "prefixItems": Shape.LIST,
    "additionalItems": Shape.SCHEMA,
    "contains": Shape.SCHEMA,
    "unevaluatedItems": Shape.SCHEMA,
    "allOf": Shape.LIST,
    "anyOf": Shape.LIST,
    "oneOf": Shape.LIST,
    "not": Shape.SCHEMA,
    "if": Shape.SCHEMA,
    "then": Shape.SCHEMA,
    "else": Shape.SCHEMA,
    "contentSchema": Shape.SCHEMA,
}

Schema = Any  # a dict, or a boolean schema


@dataclass(frozen=True)
class Child:
    """A subschema of a node: ``node[keyword]`` or ``node[keyword][key]``."""

    keyword: str
    key: str | int | None
    schema: Schema
    pointer: str


def children(node: Schema, pointer: str = "") -> Iterator[Child]:
    """The direct subschemas of ``node``, in authored order."""
    if not isinstance(node, dict):
        return
    for keyword, value in node.items():
        shape = SUBSCHEMA_KEYWORDS.get(keyword)
        if shape is None:
            continue
        # ``items`` as a list is draft 4-7's tuple form; walk it like prefixItems.
        if shape is Shape.SCHEMA and not isinstance(value, list):
            yield Child(keyword, None, value, jp.join(pointer, keyword))
        elif shape is Shape.MAP and isinstance(value, dict):
            for key, sub in value.items():
                yield Child(keyword, key, sub, jp.join(pointer, keyword, key))
        elif isinstance(value, list) and shape in (Shape.LIST, Shape.SCHEMA):
            for index, sub in enumerate(value):
                yield Child(keyword, index, sub, jp.join(pointer, keyword, index))


def walk(node: Schema, pointer: str = "") -> Iterator[tuple[Schema, str]]:
    """Every schema in ``node`` (itself first), depth first, with its pointer."""
    yield node, pointer
    for child in children(node, pointer):
        yield from walk(child.schema, child.pointer)


def map_children(node: Schema, pointer: str, transform: Callable[[Child], Schema]) -> Schema:
    """A copy of ``node`` whose direct subschemas are replaced by ``transform(child)``.

    Keyword order and map key order are kept; non-schema keywords are copied as they are.
    """
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for keyword, value in node.items():
        shape = SUBSCHEMA_KEYWORDS.get(keyword)
        if shape is None:
            result[keyword] = value
        elif shape is Shape.SCHEMA and not isinstance(value, list):
            result[keyword] = transform(Child(keyword, None, value, jp.join(pointer, keyword)))
        elif shape is Shape.MAP and isinstance(value, dict):
            result[keyword] = {
                key: transform(Child(keyword, key, sub, jp.join(pointer, keyword, key)))
                for key, sub in value.items()
            }
        elif isinstance(value, list):
            result[keyword] = [
                transform(Child(keyword, index, sub, jp.join(pointer, keyword, index)))
                for index, sub in enumerate(value)
            ]
        else:
            result[keyword] = value
    return result


Result = TypeVar("Result")
#: A recursive function written as a generator: ``value = yield args`` is the recursive call.
Recursive = Callable[..., Generator[tuple[Any, ...], Result, Result]]


def run_recursive(function: Recursive[Result], *args: Any) -> Result:
    """Run ``function(*args)`` with its recursive calls on a list instead of the Python stack, for
    recursions as deep as a chain of references (thousands of calls)."""
    calls = [function(*args)]
    value: Any = None
    while True:
        try:
            call = calls[-1].send(value)
        except StopIteration as done:
            calls.pop()
            if not calls:
                return done.value  # type: ignore[no-any-return]
            value = done.value
            continue
        calls.append(function(*call))
        value = None
