""" "Does this member accept null?" decided with full JSON Schema semantics (const, enum, $ref, unions)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from toolgen.schema import pointer as jp
from toolgen.schema.refs import chase


class NullOracle:
    """Answers for subschemas of one bundled root schema (so ``#/$defs/...`` references resolve)."""

    def __init__(self, root: Any) -> None:
        self._root = Draft202012Validator(root)

    def accepts_null(self, schema: Any) -> bool:
        if isinstance(schema, bool):
            return schema
        return bool(self._root.evolve(schema=schema).is_valid(None))


def default_is_null(root: Any, node: Any) -> bool:
    """Whether the ``default`` of ``node`` (a subschema of the bundled schema ``root``) is null:
    its own, else that of what its local ``$ref`` leads to (the site's annotation first, as a
    reference inlined with its siblings keeps it)."""

    def target(at: Any) -> str | None:
        if not isinstance(at, dict) or "default" in at:
            return None
        ref = at.get("$ref")
        return ref if isinstance(ref, str) and ref.startswith("#") else None

    found = chase(
        node, target, lambda _, ref: jp.resolve(root, jp.ref_pointer(ref)), stop_at_dead_end=True
    )
    return isinstance(found, dict) and "default" in found and found["default"] is None
