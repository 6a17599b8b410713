"""Where the strict projection encodes a canonical node (toolgen.project.rewrites.encodings): which
objects become maps or gain a member for their extra members, and the key schema of a map."""

from __future__ import annotations

from typing import Any, Literal

from toolgen.providers.base import Profile

Encoding = Literal["map", "extras"]


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


def object_encoding(node: dict[str, Any], *, root: bool) -> Encoding | None:
    """How an object schema ``node`` is encoded: ``"map"`` (no declared members, and members of
    one schema, or of any), ``"extras"`` (declared members and others beside them), or None
    (closed as it is, or a form no encoding carries: ``patternProperties``, a required member
    that is not declared, a union beside the members, a type list)."""
    if "patternProperties" in node or "anyOf" in node or "oneOf" in node:
        return None
    extra = node.get("additionalProperties")
    if extra is False:
        return None
    if isinstance(node.get("properties"), dict):
        return "extras" if extra is not None else None
    if root or node.get("required") or _types(node) not in (["object"], []):
        return None
    return "map"


def key_schema(node: dict[str, Any], profile: Profile) -> dict[str, Any]:
    """How the keys of the map ``node`` are written: strings, with the ``pattern`` of its
    ``propertyNames`` where the provider keeps ``pattern`` (the canonical validation enforces
    the rest of ``propertyNames``)."""
    key: dict[str, Any] = {"type": "string"}
    names = node.get("propertyNames")
    if (
        isinstance(names, dict)
        and isinstance(names.get("pattern"), str)
        and profile.verdict("pattern") == "keep"
        and not ("pattern" in profile.keep_if and not profile.keep_if["pattern"](names["pattern"]))
    ):
        key["pattern"] = names["pattern"]
    return key
