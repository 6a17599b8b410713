"""The graph of local ``$ref`` keywords in one bundled schema: which references recurse."""

from __future__ import annotations

import bisect
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


def _components(nodes: list[str], edges: dict[str, list[str]]) -> dict[str, int]:
    """The strongly connected component of every node (Tarjan's algorithm, with an explicit stack:
    a chain of 10,000 references is 10,000 nodes deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: dict[str, int] = {}
    path: list[str] = []
    on_path: set[str] = set()
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, next_edge = work.pop()
            if next_edge == 0:
                index[node] = low[node] = len(index)
                path.append(node)
                on_path.add(node)
            targets = edges.get(node, [])
            if next_edge < len(targets):
                work.append((node, next_edge + 1))
                target = targets[next_edge]
                if target not in index:
                    work.append((target, 0))
                elif target in on_path:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                while True:
                    member = path.pop()
                    on_path.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


def _self_reaching(schema: Any, related: Callable[[str, str], bool]) -> list[str]:
    """Pointers of the ``$ref`` keywords from which the edges ``related(target, ref)`` lead back.

    The graph has a node per schema, an edge from a schema to each subschema that is related to
    it, and one from a ``$ref`` to its target: a reference leads back to itself when it and its
    target are one strongly connected component. Linear in the schema, however the references
    chain."""
    children: dict[str, list[str]] = {}
    nodes: list[str] = []
    for node, pointer in walker.walk(schema):
        nodes.append(pointer)
        children[pointer] = [
            child.pointer
            for child in walker.children(node, pointer)
            if related(pointer, child.pointer)
        ]
    refs = list(local_refs(schema))
    ordered = sorted(nodes)
    for pointer, target in refs:
        if target not in children:  # not a schema (``#/properties``): what is inside it
            first = bisect.bisect_left(ordered, target + "/")
            last = bisect.bisect_left(ordered, target + "0")  # "0" sorts right after "/"
            children[target] = [p for p in ordered[first:last] if related(target, p)]
            nodes.append(target)
        children[pointer] = [*children[pointer], target]
    component = _components(nodes, children)
    return [
        jp.join(pointer, "$ref")
        for pointer, target in refs
        if target == pointer or component[target] == component[pointer]
    ]


def recursive_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead, through references, back to a schema containing them."""
    return _self_reaching(schema, _inside)


def unbounded_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead back to themselves without descending into a member or an
    item: checking any instance against them never ends (``D: {"$ref": "#/$defs/D"}``)."""
    return _self_reaching(schema, _in_place)
