"""Optional members as a provider whose objects are all-required takes them: made to accept null
(the inverse removes the null), or kept as they are where they accept null already."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import NULL_SCHEMA, Counterpart, Rewrite, types_of
from toolgen.schema import pointer as jp


class NullForm(enum.Enum):
    """How a node was made to accept null."""

    TYPE = "type gained null"
    ENUM = "enum gained null"
    TYPE_AND_ENUM = "type and enum gained null"
    BRANCH = "anyOf gained a null branch"
    WRAP = "wrapped in anyOf with a null branch"


@dataclass(frozen=True)
class MadeNullable(Rewrite):
    """An optional member that does not accept null became a required one that does; the
    inverse removes its null (DESIGN.md §5)."""

    form: NullForm

    @staticmethod
    def apply(node: dict[str, Any], *, type_arrays: bool) -> tuple[dict[str, Any], MadeNullable]:
        """``node`` that also accepts null: type gains "null", enum gains null, anyOf gains a null
        branch, and a ``$ref`` or ``const`` is wrapped in ``anyOf: [node, {"type": "null"}]``.
        Without type lists (``type_arrays=False``) every node but an anyOf is wrapped."""
        # An anyOf beside type/enum/const/$ref is an intersection: a null branch alone would not
        # let null in.
        if "anyOf" in node and not any(k in node for k in ("type", "enum", "const", "$ref")):
            return {**node, "anyOf": [*node["anyOf"], dict(NULL_SCHEMA)]}, MadeNullable(
                NullForm.BRANCH
            )
        wrap = (
            "$ref" in node
            or "const" in node
            or "anyOf" in node
            or ("type" not in node and "enum" not in node)
        )
        if wrap or not type_arrays:
            return {"anyOf": [node, dict(NULL_SCHEMA)]}, MadeNullable(NullForm.WRAP)
        result = dict(node)
        gained: set[str] = set()
        if "type" in result:
            types = types_of(result)
            if "null" not in types:
                result["type"] = [*types, "null"]
                gained.add("type")
        if "enum" in result and None not in result["enum"]:
            result["enum"] = [*result["enum"], None]
            gained.add("enum")
        if gained == {"type", "enum"}:
            return result, MadeNullable(NullForm.TYPE_AND_ENUM)
        return result, MadeNullable(NullForm.ENUM if gained == {"enum"} else NullForm.TYPE)

    @property
    def moves(self) -> bool:
        return self.form is NullForm.WRAP

    def invert(self, at: Counterpart) -> Counterpart:
        """A wrapper is stepped into; an added null branch is no branch of the canonical union; a
        null added to ``type`` or ``enum`` changes nothing for a value that is not null."""
        if self.form is NullForm.WRAP:
            return replace(at, pointer=jp.join(at.pointer, "anyOf", 0))
        if self.form is NullForm.BRANCH:
            return replace(at, null_branch=True)
        return at


@dataclass(frozen=True)
class OptionalKept(Rewrite):
    """An optional member that accepts null already became required as it is: absent and null
    cannot be told apart (OPTIONAL_NULLABLE), so the inverse keeps its null."""

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], OptionalKept]:
        """``node`` as it is (it accepts null already), and the rule: its null stays."""
        return node, OptionalKept()

    def invert(self, at: Counterpart) -> Counterpart:
        return at
