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
    """The strongly connected component of every node, numbered in the order they complete: a
    component reaches only components with smaller numbers (Tarjan's algorithm, with an explicit
    stack: a chain of 10,000 references is 10,000 nodes deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: dict[str, int] = {}
    path: list[str] = []
    on_path: set[str] = set()
    completed = 0
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
                completed += 1
                while True:
                    member = path.pop()
                    on_path.discard(member)
                    component[member] = completed
                    if member == node:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


def _graph(
    schema: Any, related: Callable[[str, str], bool]
) -> tuple[list[str], dict[str, list[str]], list[tuple[str, str]]]:
    """(nodes, edges, local references) of the graph with a node per schema, an edge from a schema
    to each subschema related to it, and one from a ``$ref`` to its target."""
    edges: dict[str, list[str]] = {}
    nodes: list[str] = []
    for node, pointer in walker.walk(schema):
        nodes.append(pointer)
        edges[pointer] = [
            child.pointer
            for child in walker.children(node, pointer)
            if related(pointer, child.pointer)
        ]
    refs = list(local_refs(schema))
    ordered = sorted(nodes)
    for pointer, target in refs:
        if target not in edges:  # not a schema (``#/properties``): what is inside it
            first = bisect.bisect_left(ordered, target + "/")
            last = bisect.bisect_left(ordered, target + "0")  # "0" sorts right after "/"
            edges[target] = [p for p in ordered[first:last] if related(target, p)]
            nodes.append(target)
        edges[pointer] = [*edges[pointer], target]
    return nodes, edges, refs


def _self_reaching(schema: Any, related: Callable[[str, str], bool]) -> list[str]:
    """Pointers of the ``$ref`` keywords from which the edges ``related(target, ref)`` lead back:
    those in one strongly connected component with their target. Linear in the schema, however
    the references chain."""
    nodes, edges, refs = _graph(schema, related)
    component = _components(nodes, edges)
    return [
        jp.join(pointer, "$ref")
        for pointer, target in refs
        if target == pointer or component[target] == component[pointer]
    ]


def unfolded_depth(schema: Any) -> tuple[str, int]:
    """How deep a stage that follows references (inlining them, or measuring through them) may
    recurse: the most schemas on one path from the root down through subschemas and references,
    a recursive part counting all its schemas once. With the pointer where that path starts to
    follow references (the first ``$ref`` on it), or "" when it follows none."""
    nodes, edges, refs = _graph(schema, _inside)
    component = _components(nodes, edges)
    size: dict[int, int] = {}
    for node in nodes:
        size[component[node]] = size.get(component[node], 0) + 1
    below: dict[int, list[str]] = {}
    for node in nodes:
        below.setdefault(component[node], []).extend(edges.get(node, []))
    depth: dict[int, int] = {}
    for number in sorted(size):  # a component reaches only smaller numbers, already done
        reached = (depth[component[n]] for n in below.get(number, []) if component[n] != number)
        depth[number] = size[number] + max(reached, default=0)
    deepest = depth[component[""]] if "" in component else 0
    start = max(refs, key=lambda ref: depth[component[ref[0]]], default=None)
    return (jp.join(start[0], "$ref") if start else ""), deepest


def recursive_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead, through references, back to a schema containing them."""
    return _self_reaching(schema, _inside)


def unbounded_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead back to themselves without descending into a member or an
    item: checking any instance against them never ends (``D: {"$ref": "#/$defs/D"}``)."""
    return _self_reaching(schema, _in_place)
