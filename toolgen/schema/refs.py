"""The graph of local ``$ref`` keywords in one bundled schema: which references recurse."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import quote

from toolgen.schema import pointer as jp
from toolgen.schema import walker

#: Keywords whose subschemas apply to the same instance (they do not descend into it).
_IN_PLACE_LISTS = frozenset({"anyOf", "oneOf", "allOf"})
_IN_PLACE = frozenset({"not", "if", "then", "else"})


def local_refs(schema: Any) -> Iterator[tuple[str, str]]:
    """(pointer of the node holding ``$ref``, pointer of its target) for every local reference."""
    for node, pointer in walker.walk(schema):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(ref, str) and ref.startswith("#"):
            yield pointer, jp.ref_pointer(ref)


_DEFINITIONS = ("$defs", "definitions")


def definition_entry(pointer: str, resource: str = "") -> str | None:
    """The entry of the own ``$defs`` (or ``definitions``) of the schema at ``resource`` that
    holds ``pointer`` (the entry's pointer), or None when ``pointer`` is not inside one."""
    if not pointer.startswith(resource + "/"):
        return None
    tokens = jp.split(pointer[len(resource) :])
    if len(tokens) >= 2 and tokens[0] in _DEFINITIONS:
        return jp.join(resource, tokens[0], tokens[1])
    return None


def definition_entries(schema: Any, resource: str = "") -> set[str]:
    """The pointers of the entries of ``schema``'s own ``$defs`` and ``definitions`` (``schema``
    sits at ``resource``)."""
    if not isinstance(schema, dict):
        return set()
    return {
        jp.join(resource, keyword, name)
        for keyword in _DEFINITIONS
        if isinstance(schema.get(keyword), dict)
        for name in schema[keyword]
    }


def unreached_definitions(schema: Any) -> frozenset[str]:
    """The pointers of the entries of ``schema``'s own ``$defs`` (and ``definitions``) that no
    local reference reaches from the rest of the schema, directly or through other entries: a
    definition the projection inlined everywhere it was used is one."""
    entries = definition_entries(schema)
    if not entries:
        return frozenset()
    inside: dict[str | None, list[str]] = {}
    for holder, target in local_refs(schema):
        inside.setdefault(definition_entry(holder), []).append(target)
    reached: set[str | None] = {None}
    pending = list(inside.get(None, ()))
    while pending:
        entry = definition_entry(pending.pop())
        if entry is not None and entry not in reached:
            reached.add(entry)
            pending.extend(inside.get(entry, ()))
    return frozenset(entries.difference(reached))


def without_definitions(schema: dict[str, Any], entries: frozenset[str]) -> dict[str, Any]:
    """``schema`` (a copy of its root) without its own definitions at ``entries``."""
    copied = dict(schema)
    for keyword in _DEFINITIONS:
        held = copied.get(keyword)
        if isinstance(held, dict):
            kept = {k: v for k, v in held.items() if jp.join("", keyword, k) not in entries}
            if len(kept) < len(held):
                if kept:
                    copied[keyword] = kept
                else:
                    del copied[keyword]
    return copied


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
    schema: Any,
    related: Callable[[str, str], bool],
    follow: Callable[[str], bool] = lambda pointer: True,
) -> tuple[list[str], dict[str, list[str]], list[tuple[str, str]]]:
    """(nodes, edges, local references) of the graph with a node per schema, an edge from a schema
    to each subschema related to it, and one from a ``$ref`` to its target (when ``follow`` says
    so for the node holding it)."""
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
        if not follow(pointer):
            continue
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


def _fold(
    nodes: list[str], edges: dict[str, list[str]], combine: Callable[[list[int]], int]
) -> tuple[dict[str, int], dict[int, int]]:
    """(component of each node, value of each component): the component's number of schemas plus
    ``combine`` of the values its edges reach in other components (one entry per edge)."""
    component = _components(nodes, edges)
    size: dict[int, int] = {}
    below: dict[int, list[str]] = {}
    for node in nodes:
        size[component[node]] = size.get(component[node], 0) + 1
        below.setdefault(component[node], []).extend(edges.get(node, []))
    value: dict[int, int] = {}
    for number in sorted(size):  # a component reaches only smaller numbers, already done
        reached = [value[component[n]] for n in below[number] if component[n] != number]
        value[number] = size[number] + combine(reached)
    return component, value


def unfolded_depth(schema: Any) -> tuple[str, int]:
    """How deep a stage that follows references (inlining them, or measuring through them) may
    recurse: the most schemas on one path from the root down through subschemas and references,
    a recursive part counting all its schemas once. With the first ``$ref`` on the deepest path
    ("" when it follows none)."""
    nodes, edges, refs = _graph(schema, _inside)
    component, depth = _fold(nodes, edges, lambda reached: max(reached, default=0))
    deepest = depth[component[""]] if "" in component else 0
    start = max(refs, key=lambda ref: depth[component[ref[0]]], default=None)
    return (jp.join(start[0], "$ref") if start else ""), deepest


#: Keywords beside ``$ref`` that do not make the projection inline it.
_STRUCTURAL = frozenset({"$ref", "$defs", "definitions"})


def _inlined(schema: Any) -> set[str]:
    """The nodes whose ``$ref`` the projection inlines (a copy of the target at every use): one
    with sibling keywords, the root, the one branch of an ``allOf`` (merged into its parent), and
    a bare reference that one of those reaches (it inherits the siblings)."""
    nodes = dict((pointer, node) for node, pointer in walker.walk(schema))
    targets = dict(local_refs(schema))
    pending = [
        pointer
        for pointer in targets
        if pointer == ""
        or set(nodes[pointer]) - _STRUCTURAL
        or (pointer.endswith("/allOf/0") and len(nodes[pointer[: -len("/allOf/0")]]["allOf"]) == 1)
    ]
    inlined: set[str] = set()
    while pending:
        pointer = pending.pop()
        if pointer not in inlined:
            inlined.add(pointer)
            if targets[pointer] in targets:
                pending.append(targets[pointer])
    return inlined


def inlined_size(schema: Any) -> tuple[str, int]:
    """How many schemas the projection writes once the inlined references are copied (two
    inlined references to a definition that holds two to the next double it at every step: a
    few lines that expand to billions). With the inlined ``$ref`` that adds the most."""
    nodes, edges, _ = _graph(schema, _inside, follow=_inlined(schema).__contains__)
    component, size = _fold(nodes, edges, sum)
    total = size[component[""]] if "" in component else 0
    adds = {
        pointer: size[component[target]]
        for pointer, target in local_refs(schema)
        if target in component and target in edges.get(pointer, [])
    }
    largest = max(adds, key=adds.__getitem__, default=None)
    return (jp.join(largest, "$ref") if largest is not None else ""), total


def recursive_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead, through references, back to a schema containing them."""
    return _self_reaching(schema, _inside)


def unbounded_refs(schema: Any) -> list[str]:
    """The ``$ref`` keywords that lead back to themselves without descending into a member or an
    item: checking any instance against them never ends (``D: {"$ref": "#/$defs/D"}``)."""
    return _self_reaching(schema, _in_place)


class RefCycle(ValueError):
    """A chain of references that comes back to ``pointer`` (a target it already followed: a
    pointer, or the ``$ref`` text for a caller that keys its links by it)."""

    def __init__(self, pointer: str) -> None:
        super().__init__(f"the references lead back to #{pointer}")
        self.pointer = pointer


State = TypeVar("State")


def chase(
    start: State,
    target: Callable[[State], str | None],
    step: Callable[[State, str], State],
    *,
    stop_at_dead_end: bool = False,
) -> State:
    """Where a chain of references leads from ``start``: the one loop that follows ``$ref``.

    ``target(state)`` is what the state refers to (a pointer, or a ``$ref`` text: the key a
    repeat is recognised by), or None where the chain ends (the caller decides what counts as a
    reference: a bare ``$ref``, a local one, one beside annotations...). ``step(state, key)`` is
    the state the link leads to (the node resolved, merged with its site, recorded...); it is
    called once per link, in chain order, so it may also act on each link.

    A chain that comes back raises RefCycle, a link ``step`` cannot resolve (KeyError or
    ValueError) raises that; with ``stop_at_dead_end`` both end the chain at the state holding
    that link instead. A loop, not recursion: a chain of any length is followed."""
    seen: set[str] = set()
    state = start
    while (key := target(state)) is not None:
        if key in seen:
            if stop_at_dead_end:
                return state
            raise RefCycle(key)
        seen.add(key)
        try:
            state = step(state, key)
        except (KeyError, ValueError):
            if stop_at_dead_end:
                return state
            raise
    return state


def follow(
    root: Any, node: Any, pointer: str, target: Callable[[Any, str], str | None]
) -> tuple[Any, str]:
    """The schema a chain of references leads to from ``node`` (at ``pointer``), and its pointer.

    ``target(node, pointer)`` is the pointer a node refers to, or None where the chain ends.
    Raises RefCycle for a chain that comes back, KeyError or ValueError for one that names
    nothing in ``root``."""
    return chase(
        (node, pointer),
        lambda at: target(*at),
        lambda _, next_pointer: (jp.resolve(root, next_pointer), next_pointer),
    )


def _fragment(pointer: str) -> str:
    """A JSON pointer as the fragment of a local ``$ref`` (percent-encoded)."""
    return "#" + quote(pointer, safe="/$~!&'()*+,;=:@")


def rebase_embedded(schema: Any) -> Any:
    """``schema`` with each subschema that carries an ``$id`` (an embedded resource) made part of
    the document: its ``$id`` removed and every local ``$ref`` inside it (``#/$defs/X``, which
    resolves against that resource) rewritten as the pointer from the document's root. After it,
    every local reference of the schema resolves against the root, as every stage reads it. The
    same object when there is no embedded resource."""

    def visit(node: Any, pointer: str, base: str) -> Any:
        if not isinstance(node, dict):
            return node
        changed = node
        if pointer and isinstance(node.get("$id"), str):
            base = pointer
            changed = {k: v for k, v in node.items() if k != "$id"}
        ref = changed.get("$ref")
        if base and isinstance(ref, str) and ref.startswith("#"):
            changed = {**changed, "$ref": _fragment(base + jp.ref_pointer(ref))}
        return walker.map_children(changed, pointer, lambda c: visit(c.schema, c.pointer, base))

    if not any(p and isinstance(n, dict) and "$id" in n for n, p in walker.walk(schema)):
        return schema
    return visit(schema, "", "")
