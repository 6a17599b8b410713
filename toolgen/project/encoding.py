"""Where the strict projection encodes a canonical node (toolgen.project.rewrites.encodings): which
objects become maps or gain a member for their extra members, and the key schema of a map (a
``propertyNames`` pattern, or the one pattern of a map written with ``patternProperties``, where
the provider keeps ``pattern``)."""

from __future__ import annotations

from typing import Any, Literal

from toolgen.providers.base import Profile

Encoding = Literal["map", "extras"]


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


def pattern_map(node: dict[str, Any]) -> tuple[str, Any] | None:
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


def keeps_pattern(profile: Profile, pattern: Any) -> bool:
    """Whether the provider keeps ``pattern`` as a ``pattern`` keyword."""
    test = profile.keep_if.get("pattern")
    return profile.verdict("pattern") == "keep" and (test is None or bool(test(pattern)))


def object_encoding(
    node: dict[str, Any], *, root: bool, profile: Profile | None = None
) -> Encoding | None:
    """How an object schema ``node`` is encoded: ``"map"`` (no declared members, and members of
    one schema, or of any; or of one ``patternProperties`` pattern where ``profile`` keeps it as
    the key's pattern: :func:`pattern_map`), ``"extras"`` (declared members and others beside
    them written with ``additionalProperties``; at the root, where the members must stay an
    object, the others even where no member is declared), or None (closed as it is, or a form no
    encoding carries: other ``patternProperties``, a required member that is not declared, a
    union beside the members, a type list). ``properties: {}`` declares no member: such an object
    takes any members, as one without ``properties`` does."""
    if "anyOf" in node or "oneOf" in node:
        return None
    if "patternProperties" in node:
        keyed = pattern_map(node)
        keyed_here = keyed is not None and profile is not None and keeps_pattern(profile, keyed[0])
        return "map" if keyed_here and not root and not node.get("required") else None
    extra = node.get("additionalProperties")
    if extra is False:
        return None
    if node.get("properties") and isinstance(node["properties"], dict):
        return "extras" if extra is not None else None
    if root:
        return "extras" if extra is not None and not node.get("required") else None
    if node.get("required") or _types(node) not in (["object"], []):
        return None
    return "map"


def key_schema(node: dict[str, Any], profile: Profile) -> dict[str, Any]:
    """How the keys of the map ``node`` are written: strings, with the ``pattern`` of its
    ``propertyNames`` (or its one ``patternProperties`` pattern) where the provider keeps
    ``pattern`` (the canonical validation enforces the rest of ``propertyNames``)."""
    key: dict[str, Any] = {"type": "string"}
    names = node.get("propertyNames")
    keyed = pattern_map(node)
    pattern = (
        keyed[0] if keyed is not None else names.get("pattern") if isinstance(names, dict) else None
    )
    if isinstance(pattern, str) and keeps_pattern(profile, pattern):
        key["pattern"] = pattern
    return key


def map_in_type_list(node: dict[str, Any], profile: Profile) -> bool:
    """Whether ``node`` (not a root) lists ``object`` among other types, none of them
    ``array``, and its object is a map (:func:`object_encoding`): a map is written as an array
    of entries, so its type list is split into one branch per type (TypeListAsUnion), where the
    array of entries is told apart from every other branch by its type."""
    types = _types(node)
    if "object" not in types or len(types) < 2 or "array" in types:
        return False
    return object_encoding({**node, "type": "object"}, root=False, profile=profile) == "map"
