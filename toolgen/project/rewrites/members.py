"""Members an object requires without declaring them, declared as what they are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.project.rewrites.rule import Counterpart, Rewrite


@dataclass(frozen=True)
class RequiredDeclared(Rewrite):
    """An object that declares no members but requires some (``{"type": "object", "required":
    ["a"]}``) declares them with the schema its undeclared members have (``properties: {"a":
    {}}``: any value where ``additionalProperties`` is absent or true, else its schema) and
    keeps taking other members (``additionalProperties`` written out): the same values. The
    declared members are then written as such values are (any value as JSON text,
    AnyAsJsonText), the others as extra members (ExtraMembers); nothing to undo here."""

    members: tuple[str, ...]

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], RequiredDeclared] | None:
        """``node`` with its required members declared, and the rule; None when it declares
        members already (a required member it does not declare there is a design error,
        REQUIRED_WITHOUT_PROPERTY), requires none, or takes no member at all."""
        required = node.get("required")
        if "properties" in node or not isinstance(required, list):
            return None
        names = tuple(dict.fromkeys(n for n in required if isinstance(n, str)))
        if not names:
            return None
        extra = node.get("additionalProperties", True)
        if extra is False:
            return None  # no member at all: requiring one admits nothing (UNSATISFIABLE_SCHEMA)
        value = {} if extra is True else extra  # the schema an undeclared member has
        written = {**node, "properties": dict.fromkeys(names, value), "additionalProperties": extra}
        return written, RequiredDeclared(names)

    def invert(self, at: Counterpart) -> Counterpart:
        return at
