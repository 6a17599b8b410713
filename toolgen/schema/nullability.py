""" "Does this member accept null?" decided with full JSON Schema semantics (const, enum, $ref, unions)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator


class NullOracle:
    """Answers for subschemas of one bundled root schema (so ``#/$defs/...`` references resolve)."""

    def __init__(self, root: Any) -> None:
        self._root = Draft202012Validator(root)

    def accepts_null(self, schema: Any) -> bool:
        if isinstance(schema, bool):
            return schema
        return bool(self._root.evolve(schema=schema).is_valid(None))
