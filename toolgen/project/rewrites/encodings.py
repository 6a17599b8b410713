"""Encodings with exact inverses: canonical forms that no strict mode takes (maps, open objects,
values of any type, recursion where the provider refuses it, a tool's top-level member of no one
type where the provider's tool form needs one, an output whose root is no object), written in a shape it does take,
and read back exactly by the inverse.

Each rule's ``apply`` writes the shape and names its codec (``codec``); the codec, in
toolgen/runtime/_codecs.py, owns the decoder, the writer and the types on either side, so the
reference inverse, the compiled canonicalizers and the testing fakes all read and write a payload
the same way. The rule's ``invert`` tells the inverse to apply that codec's decoder at the node,
after the node's own facets (members, items) have been inverted (a :class:`Counterpart` with
``decode``). A payload that breaks an encoding (a duplicate key, text that is not JSON) raises
:class:`EncodingError`, which the generated runtime reports as a ``PayloadError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolgen.project.rewrites.rule import Counterpart, Rewrite
from toolgen.runtime._codecs import KEY, VALUE, EncodingError

__all__ = [
    "JSON_TEXTS",
    "JSON_TEXT_NOTE",
    "KEY",
    "VALUE",
    "AnyAsJsonText",
    "EncodingError",
    "ExtraMembers",
    "MapAsPairs",
    "MemberAsJsonText",
    "RecursionAsJsonText",
    "RootWrapped",
    "TupleAsObject",
    "recursion_note",
]

#: how the description of a value written as JSON text tells the model so
JSON_TEXT_NOTE = "any JSON value, written as JSON text"


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


def recursion_note(target: str) -> str:
    """How the description of a recursive reference written as JSON text tells the model so:
    the value's shape is the definition at ``target`` (a pointer; "" is the root)."""
    name = target.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") if target else ""
    shape = f"of the shape of {name}" if name else "of the shape of the whole (top-level) value"
    return f"a value {shape}, written as JSON text"


def _described(node: dict[str, Any], note: str) -> dict[str, Any]:
    """The annotations of ``node`` the projection keeps beside an encoding, with ``note`` added to
    its description."""
    kept = {k: v for k, v in node.items() if k in ("title", "description")}
    description = kept.get("description")
    kept["description"] = f"{description} ({note})" if isinstance(description, str) else note
    return kept


@dataclass(frozen=True)
class AnyAsJsonText(Rewrite):
    """A value of any type (``{}``, ``true``, a description alone) became a string holding its
    JSON text; the inverse parses it (text that is not JSON is an :class:`EncodingError`)."""

    codec = "json"

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], AnyAsJsonText]:
        """A string schema that says the value is written as JSON text, and the rule."""
        return {"type": "string", **_described(node, JSON_TEXT_NOTE)}, AnyAsJsonText()

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at)


@dataclass(frozen=True)
class RecursionAsJsonText(Rewrite):
    """A ``$ref`` that closes a cycle (it leads back, through references, to a schema holding
    it), on a provider that refuses recursion in strict mode, became a string holding the
    value's JSON text; the inverse parses it (text that is not JSON is an
    :class:`EncodingError`). Nothing inside the text is projected, so the decoded value is
    canonical as the model wrote it, and the canonical validation checks its shape (that of
    ``target``, the pointer of the definition the reference leads to)."""

    codec = "json"

    target: str

    @staticmethod
    def apply(node: dict[str, Any], target: str) -> tuple[dict[str, Any], RecursionAsJsonText]:
        """A string schema that says the value is written as JSON text, of the shape of the
        definition at ``target``, and the rule (the site's title and description are kept)."""
        written = {"type": "string", **_described(node, recursion_note(target))}
        return written, RecursionAsJsonText(target)

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at)


@dataclass(frozen=True)
class MemberAsJsonText(Rewrite):
    """A top-level member of a tool's parameters that has no one JSON type (a union, a nullable
    member), on a provider whose tool form takes top-level members of one type only
    (``ToolWire.carries`` says which), became a string holding the value's JSON text;
    the description gives the member's schema. The inverse parses the text (text that is not JSON
    is an :class:`EncodingError`); nothing inside it is projected, so the decoded value is
    canonical as the model wrote it, and the canonical validation checks it."""

    codec = "json"

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], MemberAsJsonText]:
        """A string schema whose description gives ``node`` (the member as projected, without
        its title and description), and the rule."""
        shape = {k: v for k, v in node.items() if k not in ("title", "description")}
        note = f"a value of the JSON Schema {json.dumps(shape, separators=(',', ':'))}, written as JSON text"
        return {"type": "string", **_described(node, note)}, MemberAsJsonText()

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at)


#: the rules that write a value as its JSON text (a string that is never null)
JSON_TEXTS: tuple[type[Rewrite], ...] = (AnyAsJsonText, RecursionAsJsonText, MemberAsJsonText)


@dataclass(frozen=True)
class MapAsPairs(Rewrite):
    """A map (an object whose members all follow one schema: ``additionalProperties: X``, or any
    members at all) became an array of ``{"key": name, "value": X}`` entries; the inverse builds
    the object (a duplicate key is an :class:`EncodingError`). ``min/maxProperties`` became
    ``min/maxItems`` where the provider keeps those."""

    codec = "pairs"

    @staticmethod
    def applies(node: dict[str, Any], *, root: bool) -> bool:
        """Whether the object schema ``node`` is a map: no member declared (``properties: {}``
        declares none) and its members all of one schema (``additionalProperties: X``, or any
        members where it is absent), or of the one pattern of :meth:`pattern`; never at a root
        (there the members must stay an object: :class:`ExtraMembers` carries them), nor where
        members are required (an object of members that must be there is no map), a union
        stands beside it, or a type list holds other types (split first: TypeListAsUnion)."""
        if root or "anyOf" in node or "oneOf" in node or node.get("required"):
            return False
        if "patternProperties" in node:
            return MapAsPairs.pattern(node) is not None
        if node.get("additionalProperties") is False or node.get("properties"):
            return False
        return _types(node) in (["object"], [])

    @staticmethod
    def pattern(node: dict[str, Any]) -> tuple[str, Any] | None:
        """The key pattern and value schema of a map written with ``patternProperties``: one
        pattern, no declared members, no other members (``additionalProperties: false``), no
        ``propertyNames``; None for any other object."""
        patterns = node.get("patternProperties")
        if not isinstance(patterns, dict) or len(patterns) != 1 or node.get("properties"):
            return None
        if node.get("additionalProperties") is not False or "propertyNames" in node:
            return None
        ((pattern, value),) = patterns.items()
        return (pattern, value) if isinstance(pattern, str) else None

    @staticmethod
    def key(node: dict[str, Any], keeps: Callable[[str], bool]) -> dict[str, Any]:
        """How the keys of the map ``node`` are written: strings, with the pattern of its
        ``propertyNames`` (or its one ``patternProperties`` pattern) where the provider keeps
        it (``keeps``); the canonical validation enforces what goes (the model checks member
        names by the pattern: the projection is looser, never tighter)."""
        key: dict[str, Any] = {"type": "string"}
        names = node.get("propertyNames")
        keyed = MapAsPairs.pattern(node)
        pattern = (
            keyed[0]
            if keyed is not None
            else names.get("pattern")
            if isinstance(names, dict)
            else None
        )
        if isinstance(pattern, str) and keeps(pattern):
            key["pattern"] = pattern
        return key

    @staticmethod
    def apply(
        node: dict[str, Any], key: dict[str, Any], value: Any, *, sizes: bool
    ) -> tuple[dict[str, Any], MapAsPairs]:
        """The array of entries for the map ``node`` (the canonical object), whose keys are
        written as ``key`` and values as ``value`` (projected already), and the rule; ``sizes``:
        the provider keeps ``minItems`` and ``maxItems``."""
        entry = {
            "type": "object",
            "properties": {KEY: key, VALUE: value},
            "required": [KEY, VALUE],
            "additionalProperties": False,
        }
        written: dict[str, Any] = {
            "type": "array",
            **_described(node, "a map, written as a list of key/value entries with distinct keys"),
            "items": entry,
        }
        if sizes:
            for canonical, projected in (
                ("minProperties", "minItems"),
                ("maxProperties", "maxItems"),
            ):
                if isinstance(node.get(canonical), int) and not isinstance(node[canonical], bool):
                    written[projected] = node[canonical]
        return written, MapAsPairs()

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at)


@dataclass(frozen=True)
class ExtraMembers(Rewrite):
    """An open object (declared members, and others beside them) kept its declared members and
    gained one more, ``member`` (a name no declared member has), holding the other members as a
    map (:class:`MapAsPairs`, recorded at that member); the inverse merges them back (a key that
    is a declared member's name, or written twice, is an :class:`EncodingError`)."""

    codec = "extras"

    member: str

    @staticmethod
    def applies(node: dict[str, Any], *, root: bool) -> bool:
        """Whether the object schema ``node`` is an open object whose other members this rule
        carries: declared members and ``additionalProperties`` beside them; at a root, whose
        members must stay an object, a map too (no member declared; a ``patternProperties`` map
        of :meth:`MapAsPairs.pattern`). Not beside a union, nor with a required member that no
        one declares."""
        if "anyOf" in node or "oneOf" in node:
            return False
        if "patternProperties" in node:
            keyed = MapAsPairs.pattern(node)
            return root and keyed is not None and not node.get("required")
        extra = node.get("additionalProperties")
        if extra is None or extra is False:
            return False
        if node.get("properties") and isinstance(node["properties"], dict):
            return True
        return root and not node.get("required")

    @staticmethod
    def apply(
        node: dict[str, Any], pairs: dict[str, Any], *, required: bool
    ) -> tuple[dict[str, Any], ExtraMembers]:
        """The closed object ``node`` with one more member holding the others as ``pairs`` (the
        map's projection), required where every member is, and the rule."""
        properties = node.get("properties") or {}
        member = ExtraMembers.name_for(properties)
        written = {**node, "properties": {**properties, member: pairs}}
        if required:
            written["required"] = [*node.get("required", []), member]
        return written, ExtraMembers(member)

    @staticmethod
    def name_for(declared: Any) -> str:
        """A member name that none of ``declared`` is."""
        name = "additional_members"
        while name in declared:
            name = "_" + name
        return name

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at, self.member)


@dataclass(frozen=True)
class RootWrapped(Rewrite):
    """An output whose root is no object (an array, a string, an enum of scalars) became a
    closed object with one required member, ``member``, holding the value (structured outputs
    take an object root); the root's definitions stay at the root. The inverse unwraps it (an
    object with other members is an :class:`EncodingError`)."""

    codec = "unwrap"

    member: str

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], RootWrapped]:
        """The closed object holding ``node`` (projected already; its ``$defs`` move to the
        wrapper, where its references point), and the rule."""
        member = "value"
        inner = {k: v for k, v in node.items() if k not in ("$defs", "definitions")}
        written: dict[str, Any] = {
            "type": "object",
            "description": "the value, wrapped in an object",
            "properties": {member: inner},
            "required": [member],
            "additionalProperties": False,
            **{k: v for k, v in node.items() if k in ("$defs", "definitions")},
        }
        return written, RootWrapped(member)

    @staticmethod
    def wraps(root: dict[str, Any]) -> bool:
        """Whether ``root`` (a normalized output root) admits no object, so wrapping it is exact:
        an object payload can only be the wrapper."""
        types = root.get("type")
        types = types if isinstance(types, list) else [] if types is None else [types]
        values = root.get("enum", [root["const"]] if "const" in root else [])
        if types:
            return "object" not in types
        return (
            bool(values)
            and isinstance(values, list)
            and not any(isinstance(v, dict) for v in values)
        )

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at, self.member)


@dataclass(frozen=True)
class TupleAsObject(Rewrite):
    """A tuple (``prefixItems``, no items beyond them) became a closed object with one member per
    position, named by its index (``"0"``, ``"1"``, ...), required up to ``minItems``; the inverse
    reads the members back as an array, in order (a position present after an absent one is an
    :class:`EncodingError`)."""

    codec = "tuple"

    @staticmethod
    def apply(
        node: dict[str, Any], positions: dict[str, Any], required: list[str]
    ) -> tuple[dict[str, Any], TupleAsObject]:
        """The object of the tuple ``node``, whose positions are written as ``positions``
        (projected already, keyed by index), and the rule."""
        written = {
            "type": "object",
            **_described(node, "a tuple, written as an object with one member per position"),
            "properties": positions,
            "required": required,
            "additionalProperties": False,
        }
        return written, TupleAsObject()

    @staticmethod
    def length(node: dict[str, Any]) -> int | None:
        """The positions of the tuple ``node``, when it is one this encoding carries: an array
        of ``prefixItems`` with no elements beyond them (``items: false``, or ``maxItems`` no
        more than the positions)."""
        prefix = node.get("prefixItems")
        if not isinstance(prefix, list) or not prefix or node.get("type") != "array":
            return None
        if {"additionalItems", "contains", "unevaluatedItems"} & set(node):
            return None
        most = node.get("maxItems")
        closed = node.get("items") is False and (most is None or most == len(prefix))
        if closed or ("items" not in node and most == len(prefix)):
            return len(prefix)
        return None

    def invert(self, at: Counterpart) -> Counterpart:
        return self.decoded(at)
