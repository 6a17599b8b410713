"""Enums written for a provider: ``const`` as a one-value ``enum``, and enums as string enums
where the provider takes strings only."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import Counterpart, Rewrite, types_of


@dataclass(frozen=True)
class ConstAsEnum(Rewrite):
    """``const`` became a one-value ``enum``: the same values, so nothing to undo."""

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], ConstAsEnum]:
        """``node`` (which has a ``const``) with it written as a one-value ``enum``, in its place."""
        written = {
            ("enum" if k == "const" else k): ([v] if k == "const" else v) for k, v in node.items()
        }
        return written, ConstAsEnum()

    def invert(self, at: Counterpart) -> Counterpart:
        return at


def enum_text(value: Any) -> str:
    """How a value that is no string is written in a string-only enum: its compact JSON text."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class EnumStringified(Rewrite):
    """For a provider whose enums hold strings only, on a string type: an enum became a string
    enum of type string, each value that is no string written as its JSON text (``1`` as
    ``"1"``), strings as they are and null as null. The node keeps only its annotations beside
    ``type`` and ``enum`` (the enum decides every value; a string the canonical type refuses is
    left to the canonical validation). ``values`` maps each text back to its canonical value
    (empty when every value was a string already: nothing to read back)."""

    values: tuple[tuple[str, Any], ...]

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], EnumStringified | None] | None:
        """The node with a string-only enum (and the rule, None when its enum already is); None
        when two values would be written as the same text (``1`` and ``"1"``), or a value is an
        object or array: no exact inverse."""
        values = node.get("enum")
        if not isinstance(values, list):
            return node, None
        string_type = ["string", "null"] if None in values else ["string"]
        if all(isinstance(v, str | None) for v in values) and types_of(node) == string_type:
            return node, None
        written: list[str | None] = []
        back: dict[str, Any] = {}
        for value in values:
            if value is None:
                written.append(None)
                continue
            if isinstance(value, dict | list):
                return None  # a shared mutable canonical value: no text for it
            text = value if isinstance(value, str) else enum_text(value)
            if text in written:
                return None
            written.append(text)
            if not isinstance(value, str):
                back[text] = value
        result = {k: v for k, v in node.items() if k in ("title", "description")}
        result["type"] = ["string", "null"] if None in written else "string"
        result["enum"] = written
        return result, EnumStringified(tuple(back.items()))

    def invert(self, at: Counterpart) -> Counterpart:
        """A text of ``values`` becomes its canonical value; any other value stays (a canonical
        string is written as itself)."""
        return replace(at, values=self.values)
