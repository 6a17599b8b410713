"""Schema nodes that no value satisfies: an ``enum`` none of whose values has the node's type, a
``const`` outside its type, bounds the wrong way round (``minimum`` above ``maximum``,
``minLength`` above ``maxLength`` ...), a required member a closed object cannot have.

Such a node is a design error: the model would refuse every value there, and a provider that
enforces the schema can never produce one (the corpus has one: a required array whose only
constraint is a string ``enum``). Only contradictions within one node are found, and only when
they leave the node no value at all: ``minimum`` above ``maximum`` on a node that also admits
strings is satisfiable by any string. ``validate`` and ``build`` report each node as an
UNSATISFIABLE_SCHEMA error at its pointer, for the canonical schema and, when that one is
satisfiable, for each provider's projection.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Any

from toolgen.infra.cache import code_fingerprint, digest, grouped_results
from toolgen.infra.diagnostics import DESIGN, Diagnostic
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Contract, Design
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract
from toolgen.schema import pointer as jp
from toolgen.schema.equality import json_type

__all__ = ["contract_diagnostics", "design_diagnostics", "unsatisfiable_nodes"]

CODE = "UNSATISFIABLE_SCHEMA"
_NUMERIC = frozenset({"number", "integer"})
#: keywords whose value is one subschema, or a list or an object of subschemas
_ONE = ("additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames")
_MANY = ("prefixItems", "anyOf", "oneOf", "allOf")
_NAMED = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def _admits(types: frozenset[str], value: Any) -> bool:
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def _types(node: dict[str, Any]) -> frozenset[str] | None:
    """The node's ``type`` as a set (None: any type)."""
    declared = node.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    return None


def _number(node: dict[str, Any], key: str) -> float | None:
    value = node.get(key)
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _bounds_reason(node: dict[str, Any], types: frozenset[str]) -> str | None:
    """Why a numeric node's bounds admit no number (its types all numeric)."""
    low, low_open = _number(node, "minimum"), False
    high, high_open = _number(node, "maximum"), False
    exclusive_low, exclusive_high = (
        _number(node, "exclusiveMinimum"),
        _number(node, "exclusiveMaximum"),
    )
    if exclusive_low is not None and (low is None or exclusive_low >= low):
        low, low_open = exclusive_low, True
    if exclusive_high is not None and (high is None or exclusive_high <= high):
        high, high_open = exclusive_high, True
    if low is None or high is None:
        return None
    if low > high or (low == high and (low_open or high_open)):
        return f"no number lies between its lower bound {low} and its upper bound {high}"
    if types == {"integer"} and math.isfinite(low) and math.isfinite(high):
        first = math.floor(low) + 1 if low_open or not float(low).is_integer() else low
        last = math.ceil(high) - 1 if high_open or not float(high).is_integer() else high
        if first > last:
            return f"no integer lies between its lower bound {low} and its upper bound {high}"
    return None


def _pair_reason(node: dict[str, Any], low_key: str, high_key: str) -> str | None:
    low, high = _number(node, low_key), _number(node, high_key)
    if low is not None and high is not None and low > high:
        return f"{low_key} {low} is above {high_key} {high}"
    return None


def _own_reason(node: dict[str, Any]) -> str | None:
    """Why ``node`` on its own admits no value, or None."""
    types = _types(node)
    if types is not None and not types:
        return "its type list is empty"
    if "enum" in node and isinstance(node["enum"], list):
        values = node["enum"]
        if not values:
            return "its enum is empty"
        if types is not None and not any(_admits(types, v) for v in values):
            return f"none of its enum values is of its type ({' or '.join(sorted(types))})"
    if "const" in node and types is not None and not _admits(types, node["const"]):
        kind = json_type(node["const"])
        return f"its const is of type {kind}, not of its type ({' or '.join(sorted(types))})"
    if types is None:
        return None
    if types <= _NUMERIC:
        return _bounds_reason(node, types)
    if types == {"string"}:
        return _pair_reason(node, "minLength", "maxLength")
    if types == {"array"}:
        return _pair_reason(node, "minItems", "maxItems")
    if types == {"object"}:
        found = _pair_reason(node, "minProperties", "maxProperties")
        properties = node.get("properties")
        known = properties if isinstance(properties, dict) else {}
        if (
            found is None
            and node.get("additionalProperties") is False
            and not node.get("patternProperties")
        ):
            missing = [k for k in node.get("required", ()) if isinstance(k, str) and k not in known]
            if missing:
                found = f"it requires {missing[0]!r}, which its closed properties do not have"
        return found
    return None


def _children(node: dict[str, Any], at: str) -> Iterator[tuple[Any, str]]:
    for key in _ONE:
        if key in node:
            yield node[key], jp.join(at, key)
    for key in _MANY:
        if isinstance(node.get(key), list):
            for index, child in enumerate(node[key]):
                yield child, jp.join(at, key, index)
    if isinstance(node.get("items"), list):  # draft 4-7 tuple form
        for index, child in enumerate(node["items"]):
            yield child, jp.join(at, "items", index)
    for key in _NAMED:
        if isinstance(node.get(key), dict):
            for name, child in node[key].items():
                yield child, jp.join(at, key, name)


def unsatisfiable_nodes(schema: Any) -> list[tuple[str, str]]:
    """(pointer, reason) of every node of ``schema`` that admits no value on its own account.
    Iterative: a deep schema is walked, never recursed."""
    found = []
    pending: list[tuple[Any, str]] = [(schema, "")]
    while pending:
        node, at = pending.pop()
        if not isinstance(node, dict):
            continue
        reason = _own_reason(node)
        if reason is not None:
            found.append((at, reason))
        pending.extend(_children(node, at))
    return found


def contract_diagnostics(contract: Contract, schema: Any, provider: str) -> list[Diagnostic]:
    """The UNSATISFIABLE_SCHEMA errors of ``schema`` (the contract's own, or its projection for
    ``provider``), each at the design file and pointer of its node."""
    return _located(contract, unsatisfiable_nodes(schema), provider)


def _located(
    contract: Contract, nodes: Sequence[tuple[str, str]], provider: str
) -> list[Diagnostic]:
    whose = "its schema" if provider == DESIGN else f"its projection for {provider}"
    return [
        Diagnostic(
            *contract.locate(at),
            provider,
            CODE,
            f"no value satisfies this node of {whose}: {reason}",
        )
        for at, reason in nodes
    ]


def _nodes_key(arguments: tuple[Any, ...]) -> str:
    """What a schema's unsatisfiable nodes are a function of: the contract's source for its own
    schema, the projection's cache key for a projected one (``_`` the schema itself)."""
    _, source = arguments
    return digest(code_fingerprint(), "satisfiable", source)


def _nodes_from_json(value: Any) -> list[tuple[str, str]]:
    return [(at, reason) for at, reason in value]


def _unsatisfiable(
    runner: Runner,
    tag: Any,
    items: list[tuple[Hashable, Any]],
    arguments: Callable[[Any], tuple[Any, Any]],
    made_from: Callable[[Any], str | None],
) -> list[list[tuple[str, str]]]:
    """:func:`unsatisfiable_nodes` of the schema of each ``(name, object)`` (``arguments``:
    its schema and what that is made from), through the runner's cache (a rebuild walks
    thousands of schemas that did not change); for an object (a contract, a projection) the
    last build of the process had under the same name, its nodes as they were. A process that
    builds once finds them a few dozen contracts an entry, by each one's ``made_from`` (a key
    of its schema; ``grouped_results``), where every object has one."""
    keys = [made_from(of) for _, of in items] if runner.kept is None else []
    if runner.cache is not None and keys and all(key is not None for key in keys):
        return grouped_results(
            runner.cache,
            "satisfiable",
            [str(name) for name, _ in items],
            [str(key) for key in keys],
            lambda positions: [
                unsatisfiable_nodes(arguments(items[index][1])[0]) for index in positions
            ],
            lambda nodes: [list(node) for node in nodes],
            _nodes_from_json,
            tag,
        )
    return runner.map_by_identity(
        "satisfiable",
        tag,
        True,
        _schema_nodes,
        items,
        arguments,
        _nodes_key,
        _nodes,
        encode=lambda nodes: [list(node) for node in nodes],
        decode=_nodes_from_json,
        parallel=False,
        indexed=True,
        keep_decoded=True,  # only read (toolgen.project.satisfiable._located)
    )


def _nodes(_: Any, nodes: list[tuple[str, str]], _key: str | None) -> list[tuple[str, str]]:
    return nodes


def _schema_nodes(schema: Any, _source: Any) -> list[tuple[str, str]]:
    return unsatisfiable_nodes(schema)


def design_diagnostics(
    design: Design, projections: Sequence[ProviderProjection], runner: Runner | None = None
) -> list[Diagnostic]:
    """Every contract's canonical schema, and the projections of those whose canonical schema is
    satisfiable (an unsatisfiable one is reported once, in the design's own terms)."""
    runner = runner or Runner()
    diagnostics: list[Diagnostic] = []
    unsatisfiable: set[tuple[str, str]] = set()
    contracts = (*design.tools, *design.outputs)
    found = _unsatisfiable(
        runner,
        DESIGN,
        [((c.kind, c.name), c) for c in contracts],
        lambda c: (c.schema, ["design", c.identity()]),
        lambda c: c.fingerprint or None,  # a digest of its file and the definitions it uses
    )
    for contract, nodes in zip(contracts, found, strict=True):
        if nodes:
            unsatisfiable.add((contract.kind, contract.name))
            diagnostics += _located(contract, nodes, DESIGN)
    for projection in projections:
        checked = [
            projected
            for projected in (*projection.tools, *projection.outputs)
            if projected.meaning is not None
            and (projected.contract.kind, projected.contract.name) not in unsatisfiable
        ]
        found = _unsatisfiable(
            runner,
            projection.profile.name,
            [((p.contract.kind, p.contract.name), p) for p in checked],
            lambda p: (p.meaning, _projected_source(p)),
            lambda p: p.inputs,  # the projection's cache key
        )
        for projected, nodes in zip(checked, found, strict=True):
            if nodes:
                diagnostics += _located(projected.contract, nodes, projection.profile.name)
    return diagnostics


def _projected_source(projected: ProjectedContract) -> Any:
    """The projection's cache key when it has one, else the projected schema itself."""
    if projected.inputs is not None:
        return ["projection", projected.inputs]
    return ["meaning", projected.meaning]
