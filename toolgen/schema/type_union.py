"""A node with a list of several types as the union of one branch per type: the same values.

The projection writes it so for a provider without type lists (TypeListAsUnion in
toolgen.project.rewrites), and the schema comparison reads both forms as one (toolgen.schema.compare).
"""

from __future__ import annotations

from typing import Any

from toolgen.schema.equality import json_type

#: The keywords that apply to values of one type only (any other keyword applies to every value).
_KEYWORDS_OF_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset(
        {"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}
    ),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
    ),
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
            "propertyOrdering",
        }
    ),
    "array": frozenset(
        {
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        }
    ),
}
_TYPED_KEYWORDS = frozenset().union(*_KEYWORDS_OF_TYPE.values())
#: keywords whose values are instances: each branch keeps those of its own type
_VALUE_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
_OUTER = ("title", "description")


def _fits(value: Any, kind: str) -> bool:
    """Whether a JSON value is of JSON Schema type ``kind``."""
    found = json_type(value)
    return found == kind or (kind == "number" and found == "integer")


def _branch(node: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """The part of ``node`` (a node with a type list) that applies to values of type ``kind``;
    None when its ``enum`` or ``const`` admits no value of that type (the branch admits none)."""
    own = _KEYWORDS_OF_TYPE.get("number" if kind == "integer" else kind, frozenset())
    branch: dict[str, Any] = {"type": kind}
    for keyword, value in node.items():
        if keyword == "type" or keyword in _OUTER:
            continue
        if keyword in _TYPED_KEYWORDS:
            if keyword in own:
                branch[keyword] = value
        elif keyword in ("enum", "examples") and isinstance(value, list):
            fitting = [v for v in value if _fits(v, kind)]
            if keyword == "enum" and not fitting:
                return None
            if fitting and kind != "null":  # null is the one value of its type
                branch[keyword] = fitting
        elif keyword in _VALUE_KEYWORDS:
            if _fits(value, kind) and (kind != "null" or keyword != "const"):
                branch[keyword] = value
            elif keyword == "const":
                return None
        else:
            branch[keyword] = value  # applies to every value: to each branch (an intersection)
    return branch


def branches_by_type(node: dict[str, Any], *, least: int = 2) -> dict[str, Any] | None:
    """``node`` (with ``type: [A, B, ...]``) as ``{"anyOf": [A-branch, B-branch, ...]}``, one
    branch per type in the order of the list. Each keyword that applies to one type goes to that
    type's branch, each other keyword to every branch (an intersection distributes over the
    union); ``enum``, ``const``, ``default`` and ``examples`` keep in a branch the values of its
    type only, and a branch whose ``enum`` or ``const`` has no value of its type goes (the null
    branch is ``{"type": "null"}``). The title and description stay beside ``anyOf``. None when
    the node has fewer than ``least`` types besides null, or a list of one type only (or no
    branch is left)."""
    types = node.get("type")
    if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
        return None
    types = list(dict.fromkeys(types))
    if sum(t != "null" for t in types) < least or len(types) < 2:
        return None
    branches = [b for b in (_branch(node, t) for t in types) if b is not None]
    if not branches:
        return None
    outer = {k: node[k] for k in _OUTER if k in node}
    return {**outer, "anyOf": branches}
