"""The rewrite record as JSON (the build cache stores projections)."""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any

from toolgen.project.rewrites.nulls import NullForm
from toolgen.project.rewrites.record import NodeRecord, RewriteRecord
from toolgen.project.rewrites.rule import Rewrite, rule_kinds


def _field_to_json(value: Any) -> Any:
    if isinstance(value, NullForm):
        return value.name
    if isinstance(value, tuple):
        return [_field_to_json(item) for item in value]
    return value


#: how a rule's field is read back from JSON (the others are JSON values already)
_FIELD_FROM_JSON: dict[str, Any] = {
    "form": lambda name: NullForm[name],
    "keywords": tuple,
    "members": tuple,
    "strings": tuple,
    "names": lambda pairs: tuple((wire, name) for wire, name in pairs),
    "values": lambda pairs: tuple((text, value) for text, value in pairs),
}


def _fields(rule: Any) -> tuple[Any, ...]:
    """The fields of a rule or rule kind (each kind is a dataclass; the base class is not)."""
    return _kind_fields(rule if isinstance(rule, type) else type(rule))


@functools.cache
def _kind_fields(kind: type) -> tuple[Any, ...]:
    # dataclasses.fields() builds its tuple on every call: a rebuild reads thousands of records
    return fields(kind)


def record_to_json(record: RewriteRecord) -> list[Any]:
    """``record`` as a JSON value: [pointer, canonical pointer, [[rule, field...]...]] a node."""
    return [
        [
            pointer,
            node.canonical,
            [
                [
                    type(rule).__name__,
                    *(_field_to_json(getattr(rule, f.name)) for f in _fields(rule)),
                ]
                for rule in node.rewrites
            ],
        ]
        for pointer, node in record.nodes
    ]


def record_from_json(value: list[Any]) -> RewriteRecord:
    """The record :func:`record_to_json` wrote."""
    nodes = []
    for pointer, canonical, rules in value:
        rewrites = []
        for name, *values in rules:
            kind, readers = _readers(name)
            arguments = {
                field_name: read(v) if read else v
                for (field_name, read), v in zip(readers, values, strict=True)
            }
            rewrites.append(kind(**arguments))
        node = NodeRecord(canonical, tuple(rewrites)) if rewrites else _unchanged_node(canonical)
        nodes.append((pointer, node))
    return RewriteRecord(tuple(nodes))


@functools.lru_cache(maxsize=1 << 16)
def _unchanged_node(canonical: str) -> NodeRecord:
    """A node no rule rewrote (most nodes): one instance per pointer, shared by the records read
    back (a NodeRecord is frozen; building thousands was a third of reading a record)."""
    return NodeRecord(canonical)


@functools.cache
def _readers(name: str) -> tuple[type[Rewrite], tuple[tuple[str, Any], ...]]:
    """The rule kind called ``name`` and, per field, its name and how it is read back (None:
    as it is). A KeyError for a name no kind has (an entry of another version: a miss)."""
    kind = {kind.__name__: kind for kind in rule_kinds()}[name]
    return kind, tuple((f.name, _FIELD_FROM_JSON.get(f.name)) for f in _fields(kind))
