"""Type lists written for a provider that takes one type per node."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import NULL_SCHEMA, Counterpart, Rewrite, types_of
from toolgen.schema import pointer as jp
from toolgen.schema.type_union import branches_by_type


@dataclass(frozen=True)
class TypeListSplit(Rewrite):
    """For a provider without type lists: ``{"type": [X, "null"], ...}`` became
    ``{"anyOf": [{"type": X, ...}, {"type": "null"}]}`` (``null_branch``), or ``{"type": [X]}``
    became ``{"type": X}``."""

    null_branch: bool

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], TypeListSplit | None] | None:
        """The node without a type list (and the rule, None when there was no list); None when
        the list has more than one type besides null (the projection reports it)."""
        if not isinstance(node.get("type"), list):
            return node, None
        types = types_of(node)
        others = [t for t in types if t != "null"]
        if len(others) > 1:
            return None
        if len(others) == len(types):
            return {**node, "type": others[0]}, TypeListSplit(null_branch=False)
        outer = {k: v for k, v in node.items() if k in ("title", "description")}
        inner = {k: v for k, v in node.items() if k not in outer}
        inner["type"] = others[0]
        if isinstance(inner.get("enum"), list):
            inner["enum"] = [v for v in inner["enum"] if v is not None]
        return {**outer, "anyOf": [inner, dict(NULL_SCHEMA)]}, TypeListSplit(null_branch=True)

    @property
    def moves(self) -> bool:
        return self.null_branch

    def invert(self, at: Counterpart) -> Counterpart:
        """The split node is the wrapper's first branch (null is the canonical node's own)."""
        if self.null_branch:
            return replace(at, pointer=jp.join(at.pointer, "anyOf", 0))
        return at


@dataclass(frozen=True)
class TypeListAsUnion(Rewrite):
    """For a provider without type lists: a node with several types besides null
    (``{"type": ["string", "number"], "minLength": 1, "minimum": 0}``) became
    ``{"anyOf": [{"type": "string", "minLength": 1}, {"type": "number", "minimum": 0}]}``, one
    branch per type (null too, as ``{"type": "null"}``), in the order of the list. Each keyword
    that applies to one type goes to that type's branch, each other keyword to every branch;
    ``enum``, ``const``, ``default`` and ``examples`` keep in a branch the values of its type
    only, and a branch whose ``enum`` or ``const`` has no value of its type goes. The title and
    description stay beside ``anyOf``. The same values: an equivalent rewrite, written before the
    branches are projected (each branch is projected as any node). The inverse reads the
    projected ``anyOf`` as a union: the branch that admits a payload is that of its type.

    On every provider, a map in a type list (``{"type": ["object", "null"]}`` without declared
    members) is split so too, null or not: the map is written as an array of entries
    (MapAsPairs), which no type list of the object can say."""

    @staticmethod
    def apply(
        node: dict[str, Any], *, map_in_list: bool = False
    ) -> tuple[dict[str, Any], TypeListAsUnion] | None:
        """``node`` as a union of one branch per type (the branches not yet projected), and the
        rule; None when it has fewer than two types besides null (one, with ``map_in_list``: its
        object is a map), or holds definitions (no branch is theirs)."""
        if set(node) & {"$defs", "definitions"}:
            return None
        union = branches_by_type(node, least=1 if map_in_list else 2)
        return None if union is None else (union, TypeListAsUnion())

    def invert(self, at: Counterpart) -> Counterpart:
        """The ``anyOf`` is read as the union it is; nothing to undo."""
        return at
