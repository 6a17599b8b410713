"""The graph of local ``$ref`` keywords in one bundled schema: which references recurse."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from toolgen import pointer as jp
from toolgen import walker

#: Keywords whose subschemas apply to the same instance (they do not descend into it).
_IN_PLACE_LISTS = frozenset({"anyOf", "oneOf", "allOf"})
_IN_PLACE = frozenset({"not", "if", "then", "else"})


def local_refs(schema: Any) -> Iterator[tuple[str, str]]:
    """(pointer of the node holding ``$ref``, pointer of its target) for every local reference."""
    for node, pointer in walker.walk(schema):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(ref, str) and ref.startswith("#"):
            yield pointer, jp.ref_pointer(ref)


def _inside(target: str, pointer: str) -> bool:
    return pointer == target or pointer.startswith(target + "/")


def _in_place(target: str, pointer: str) -> bool:
    """Whether ``pointer`` is reached from ``target`` through in-place applicators only, so that
    both apply to the same instance."""
    if not _inside(target, pointer):
        return False
    tokens = jp.split(pointer[len(target) :])
    index = 0
    while index < len(tokens):
        if tokens[index] in _IN_PLACE_LISTS or tokens[index] == "dependentSchemas":
            index += 2
        elif tokens[index] in _IN_PLACE:
            index += 1
        else:
            return False
    return True


def _self_reaching(schema: Any, related: Callable[[str, str], bool]) -> list[str]:
    """Pointers of the ``$ref`` keywords from which the edges ``related(target, ref)`` lead back."""
    refs = list(local_refs(schema))
    edges = {pointer: [p for p, _ in refs if related(target, p)] for pointer, target in refs}
    found = []
    for start, _ in refs:
        seen: set[str] = set()
        pending = list(edges[start])
        while pending:
            current = pending.pop()
            if current == start:
                found.append(jp.join(start, "$ref"))
                break
            if current not in seen:
                seen.add(current)
                pending.extend(edges[current])
    return found


def recursive_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead, through references, back to a schema containing them."""
    return _self_reaching(schema, _inside)


def unbounded_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead back to themselves without descending into a member or an
    item: checking any instance against them never ends (``D: {"$ref": "#/$defs/D"}``)."""
    return _self_reaching(schema, _in_place)
