"""Members: those an object requires without declaring them, declared as what they are; and
those whose names the provider refuses, sent under names it takes and named back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolgen.project.rewrites.rule import Counterpart, Rewrite
from toolgen.schema.names import NameRule, provider_name


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


@dataclass(frozen=True)
class MembersRenamed(Rewrite):
    """An object some of whose member names the provider refuses (its property keys' pattern:
    ``Profile.member_names``) was sent with those members under names it takes (``names``:
    (wire, canonical) pairs, in the order of the members); ``required`` and the other
    keywords that name members follow. The codec ``renamed`` names them back."""

    codec = "renamed"

    names: tuple[tuple[str, str], ...]

    @staticmethod
    def apply(node: dict[str, Any], rule: NameRule) -> tuple[dict[str, Any], MembersRenamed] | None:
        """``node`` (an object with ``properties``) with each member name ``rule`` refuses
        replaced, and the rule; None when every name is taken as it is. A wire name is the
        canonical one with the refused characters as ``_`` (cut, with a hash, past the rule's
        length: toolgen.schema.names.provider_name), then ``_2``, ``_3``... until it is no
        other member's name: stable for the same members, and collision-free."""
        members = node["properties"]
        refused = [name for name in members if not rule.is_valid(name)]
        if not refused:
            return None
        taken = {name for name in members if rule.is_valid(name)}
        names: dict[str, str] = {}
        for name in refused:
            wire = provider_name(name, rule) or "_"
            suffix = 1
            base = wire
            while wire in taken or not rule.is_valid(wire):
                suffix += 1
                tail = f"_{suffix}"
                wire = base[: rule.max_length - len(tail)] + tail
            taken.add(wire)
            names[name] = wire
        written = dict(node)
        written["properties"] = {names.get(name, name): schema for name, schema in members.items()}
        for keyword in ("required", "propertyOrdering"):
            if isinstance(node.get(keyword), list):
                written[keyword] = [
                    names.get(n, n) if isinstance(n, str) else n for n in node[keyword]
                ]
        return written, MembersRenamed(tuple((wire, name) for name, wire in names.items()))

    def wire(self, name: str) -> str:
        """The name a member ``name`` goes out under."""
        return dict((canonical, wire) for wire, canonical in self.names).get(name, name)

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at, json.dumps([list(pair) for pair in self.names], ensure_ascii=False))
