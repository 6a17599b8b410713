"""Enums written for a provider: ``const`` as a one-value ``enum``, enums as string enums where
the provider takes strings only, and enums of objects or arrays as the JSON texts of their values
where its enums cannot hold them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import Counterpart, Rewrite, types_of
from toolgen.runtime._codecs import json_text
from toolgen.schema.equality import json_type


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
        if values and all(v is None for v in values):  # const null: the null type says it
            result = {k: v for k, v in node.items() if k in ("title", "description")}
            return {**result, "type": "null"}, EnumStringified(())
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

    @property
    def changes_payloads(self) -> bool:
        return bool(self.values)

    @property
    def inverse_note(self) -> str | None:
        return "enum values written as text are read back" if self.values else None

    def invert(self, at: Counterpart) -> Counterpart:
        """A text of ``values`` becomes its canonical value; any other value stays (a canonical
        string is written as itself)."""
        return replace(at, values=self.values)


@dataclass(frozen=True)
class EnumAsJsonText(Rewrite):
    """For a provider whose enums cannot hold an object or an array (``const: [1, 2, 3]``): the
    enum (or the ``const`` written as one) became a string enum of each value's JSON text, as
    the JSON-text encodings write it (:func:`json_text`: ``"[1, 2, 3]"``; null and strings
    too: ``"null"``, ``"\\"a\\""``), and the node kept only its annotations (the enum decides
    every value). The model writes the text; the inverse parses it (a fresh value each time),
    and the value is canonical."""

    codec = "json"

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], EnumAsJsonText]:
        """``node`` (which has an ``enum``) as a string enum of its values' JSON texts, and the
        rule."""
        written = {k: v for k, v in node.items() if k in ("title", "description")}
        written["type"] = "string"
        written["enum"] = list(dict.fromkeys(json_text(value) for value in node["enum"]))
        return written, EnumAsJsonText()

    @staticmethod
    def structured(values: Any) -> bool:
        """Whether an enum's ``values`` hold an object or an array."""
        return isinstance(values, list) and any(isinstance(v, dict | list) for v in values)

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at)


@dataclass(frozen=True)
class EnumTyped(Rewrite):
    """An ``enum`` without ``type`` whose values the provider's enums cannot all hold (a profile
    whose enums take strings and numbers only) became the types of its values: one typed
    node, or an ``anyOf`` of one branch per type, each keeping its values where the provider's
    enum takes them (``kept``) and null as ``{"type": "null"}``. The same values or more (the
    canonical validation keeps the enum), never "any value"; nothing to undo."""

    kept: bool  # every branch kept its values

    @staticmethod
    def apply(
        node: dict[str, Any], takes: Callable[[list[Any]], bool]
    ) -> tuple[dict[str, Any], EnumTyped]:
        """``node`` (an enum without type) with its values' types; ``takes`` says whether the
        provider's enum holds a list of values."""
        groups: dict[str, list[Any]] = {}
        for value in node["enum"]:
            groups.setdefault(json_type(value), []).append(value)
        if "integer" in groups and "number" in groups:  # number holds the integers
            groups["number"] = [*groups.pop("integer"), *groups["number"]]
        branches = []
        kept = True
        for kind, values in groups.items():
            branch: dict[str, Any] = {"type": kind}
            if kind != "null":
                if takes(values):
                    branch["enum"] = values
                else:
                    kept = False
            branches.append(branch)
        rest = {k: v for k, v in node.items() if k != "enum"}
        if len(branches) == 1:
            return {**rest, **branches[0]}, EnumTyped(kept)
        return {**rest, "anyOf": branches}, EnumTyped(kept)

    def invert(self, at: Counterpart) -> Counterpart:
        """The values are the canonical ones: the branches are read as a union (identity)."""
        return at


def fits(value: Any, types: list[Any]) -> bool:
    """Whether ``value`` is of one of ``types`` (``number`` holds the integers)."""
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


@dataclass(frozen=True)
class EnumNarrowed(Rewrite):
    """The values of an ``enum`` that its node's own ``type`` refuses went (``{"type": "string",
    "enum": ["a", null]}`` admits ``"a"`` only): the same values, an enum every provider reads as
    written. Nothing to undo."""

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], EnumNarrowed] | None:
        """``node`` without the enum values outside its type; None when every value fits, when
        none does (an empty enum is no schema a provider takes), or there is no type or enum."""
        values, types = node.get("enum"), types_of(node)
        if not isinstance(values, list) or not types:
            return None
        inside = [v for v in values if fits(v, types)]
        if len(inside) == len(values) or not inside:  # none fits: the node admits nothing as is
            return None
        return {**node, "enum": inside}, EnumNarrowed()

    def invert(self, at: Counterpart) -> Counterpart:
        return at


@dataclass(frozen=True)
class EnumCaseRestored(Rewrite):
    """On a provider that does not guarantee the letter case of the strings of an ``enum`` or a
    ``const`` it writes (``Profile.enum_case_may_differ``), the node is sent as it is and the
    inverse reads a string that differs from one of ``strings`` only in letter case as that
    value (the codec ``case``). ``strings``: the node's strings whose case-folded form no other
    string of it shares (``"a"`` and ``"A"`` in one enum are read as written)."""

    codec = "case"

    strings: tuple[str, ...]

    @staticmethod
    def apply(node: dict[str, Any]) -> EnumCaseRestored | None:
        """The rule for ``node`` (the node is unchanged); None when it has no string that a
        change of case could be read back to exactly."""
        values = node.get("enum", [node["const"]] if "const" in node else None)
        if not isinstance(values, list):
            return None
        strings = list(dict.fromkeys(v for v in values if isinstance(v, str)))
        folds = Counter(value.casefold() for value in strings)
        unique = tuple(value for value in strings if folds[value.casefold()] == 1)
        return EnumCaseRestored(unique) if unique else None

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at, json.dumps(list(self.strings), ensure_ascii=False))
