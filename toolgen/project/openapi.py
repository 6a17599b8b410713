"""A projected schema (JSON Schema) written as an OpenAPI 3.0 Schema Object, for a provider whose
dialect is one (``Profile.openapi``, an :class:`OpenApiDialect`).

Every rule here only respells: the written schema admits exactly the values of the JSON Schema,
except that closed objects are not written (``additionalProperties`` goes; the canonical
validation enforces it). The inverse reads the JSON Schema (``ProjectedContract.meaning``) and its
record, so nothing here needs an inverse of its own.

- ``type: [X, "null"]`` is ``type: X, nullable: true``;
- an ``enum`` with null loses it and is ``nullable: true``;
- ``anyOf`` with ``{"type": "null"}`` branches loses them and is ``nullable: true``; where one
  branch is left beside annotations only, the node is that branch (with the node's annotations);
- type names are spelled by the dialect's table (upper-case, for instance).
"""

from __future__ import annotations

from typing import Any

from toolgen.providers.base import OpenApiDialect
from toolgen.schema import walker

_ANNOTATIONS = frozenset({"title", "description"})


def _is_null(branch: Any, null: str) -> bool:
    """Whether a (written) branch is ``{"type": null}`` with at most annotations."""
    return (
        isinstance(branch, dict)
        and branch.get("type") == null
        and not set(branch) - {"type"} - _ANNOTATIONS
    )


def write_openapi(schema: Any, dialect: OpenApiDialect) -> Any:
    """``schema`` (a projection, JSON Schema) in the OpenAPI dialect."""

    def spell(name: Any) -> Any:
        return dialect.type_names.get(name, name) if isinstance(name, str) else name

    def visit(node: Any, pointer: str) -> Any:
        node = walker.map_children(node, pointer, lambda child: visit(child.schema, child.pointer))
        if not isinstance(node, dict):
            return node
        result = {k: v for k, v in node.items() if k != "additionalProperties"}
        nullable = False
        types = result.get("type")
        if isinstance(types, list):
            others = [t for t in types if t != "null"]
            nullable = bool(others) and len(others) < len(types)
            # the projection leaves at most one type besides null (UNSUPPORTED_TYPE_LIST)
            result["type"] = others[0] if len(others) == 1 else others or "null"
        if (
            isinstance(result.get("enum"), list)
            and None in result["enum"]
            and result["enum"] != [None]
        ):
            result["enum"] = [v for v in result["enum"] if v is not None]
            nullable = True
        branches = result.get("anyOf")
        null = spell("null")  # the branches are written already
        if isinstance(branches, list) and any(_is_null(b, null) for b in branches):
            kept = [b for b in branches if not _is_null(b, null)]
            rest = {k: v for k, v in result.items() if k != "anyOf"}
            if not kept:
                result = {**rest, "type": "null"}
            elif len(kept) == 1 and not set(rest) - _ANNOTATIONS:
                result = {**kept[0], **rest}
                nullable = True
            else:
                result = {**result, "anyOf": kept}
                nullable = True
        if "type" in result:
            result["type"] = spell(result["type"])
        if nullable:
            result["nullable"] = True
        return result

    return visit(schema, "")
