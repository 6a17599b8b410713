"""A check every emitted schema must pass, whatever its profile: each ``enum`` and ``const``
value fits its own node's ``type`` (an OpenAPI ``nullable: true`` adds null; type names in any
case), and no ``enum`` is empty. A value outside its node's type is dead weight a provider may
refuse or misread; an empty enum admits nothing."""

from __future__ import annotations

from typing import Any

from toolgen.schema import walker
from toolgen.schema.equality import json_type


def _types(node: dict[str, Any]) -> set[str] | None:
    """The types a node admits by its own ``type`` (None: no type keyword)."""
    value = node.get("type")
    if value is None:
        return None
    names = value if isinstance(value, list) else [value]
    types = {str(name).lower() for name in names}
    if node.get("nullable") is True:
        types.add("null")
    if "number" in types:
        types.add("integer")
    return types


def inconsistencies(schema: Any) -> list[str]:
    """Each problem as ``pointer: what``; empty when the schema is consistent."""
    found = []
    for node, pointer in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        types = _types(node)
        values = node.get("enum")
        if isinstance(values, list) and not values:
            found.append(f"{pointer or '/'}: an empty enum")
        checked = [*(values if isinstance(values, list) else [])]
        if "const" in node:
            checked.append(node["const"])
        null_by_nullable = node.get("nullable") is True
        for value in checked:
            if value is None and null_by_nullable:
                continue
            if types is not None and json_type(value) not in types:
                found.append(f"{pointer or '/'}: {value!r} is not of type {sorted(types)}")
    return found
