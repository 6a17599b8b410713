"""Optional members as a provider whose objects are all-required takes them: made to accept null
(the inverse removes the null), written as they are where they accept null and null is their
default (absent and null are one value: the inverse removes the null), or kept as they are where
they accept null already; and those over the cap of a provider that keeps optionals optional but
caps them (OptionalsOverCap)."""

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
    inverse removes its null (docs/projection.md, "The inverse and its laws")."""

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

    @property
    def null_means_absent(self) -> bool:
        return True

    @property
    def inverse_note(self) -> str:
        return "nulls written for absent optional members are removed"

    def invert(self, at: Counterpart) -> Counterpart:
        """A wrapper is stepped into; an added null branch is no branch of the canonical union; a
        null added to ``type`` or ``enum`` changes nothing for a value that is not null."""
        if self.form is NullForm.WRAP:
            return replace(at, pointer=jp.join(at.pointer, "anyOf", 0))
        if self.form is NullForm.BRANCH:
            return replace(at, null_branch=True)
        return at


@dataclass(frozen=True)
class DefaultNullRequired(Rewrite):
    """An optional member that accepts null and whose ``default`` is null (pydantic's
    ``label: str | None = None``) became a required one as it is: absent and null are the same
    value there (absent means the default), so strict mode's null is read back as absent, the
    way the member was most plainly left out, and the model writes ``"bug"`` or null, no box."""

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], DefaultNullRequired]:
        """``node`` as it is (it accepts null already), and the rule: its null goes."""
        return node, DefaultNullRequired()

    @property
    def null_means_absent(self) -> bool:
        return True

    @property
    def inverse_note(self) -> str:
        return "nulls written for absent optional members are removed"

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing at the node: a null member is removed (``null_means_absent``), any other
        value is the member's own."""
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


@dataclass(frozen=True)
class OptionalsOverCap(Rewrite):
    """An object of a provider that leaves optional members optional but caps how many a schema
    may have (``Profile.optionals_over_cap``, the cap in its limits) whose optional
    members ``members`` were written required and accepting null, the schema being over the cap.
    Each of them records how (:class:`MadeNullable`, :class:`DefaultNullRequired`, or a box),
    so the inverse removes its null exactly as for a provider that makes every optional member
    nullable: toolgen.project.projection chooses only members whose null can mean absent (none
    canonically, or one that is their default, or boxed)."""

    members: tuple[str, ...]

    @staticmethod
    def apply(
        node: dict[str, Any], members: tuple[str, ...], required: list[str]
    ) -> tuple[dict[str, Any], OptionalsOverCap]:
        """``node`` (a closed object whose ``members`` are already nullable) with ``members``
        required too: ``required`` (its canonical required members) and ``members``, in the
        order of its properties."""
        wanted = {*required, *members}
        written = dict(node)
        written["required"] = [name for name in node.get("properties") or {} if name in wanted]
        return written, OptionalsOverCap(members)

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing at the object itself: each of ``members`` is undone where it stands (its
        :class:`MadeNullable` makes the inverse drop its null)."""
        return at
