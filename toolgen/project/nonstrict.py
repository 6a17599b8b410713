"""The non-strict projection: the canonical schema as a provider takes it with its strict flag off.

Strict mode accepts a subset of JSON Schema, so the strict projection rewrites, drops and rejects
(toolgen.project.projection). With strict off the provider reads the schema as guidance only, and the
canonical validation after decoding is the guarantee; so the schema goes out as authored, minus
only what the provider refuses in every mode (its ``NonStrictMode`` table), each removal recorded
as ``KeywordsDropped`` at its node. The projection never moves a node, so every projected pointer
is its canonical pointer and the inverse is the identity.
"""

from __future__ import annotations

from typing import Any

from toolgen.project.rewrites import KeywordsDropped, NodeRecord, RewriteRecord
from toolgen.providers.base import NonStrictMode
from toolgen.schema import walker

#: (pointer in the canonical schema, code, message)
Problem = tuple[str, str, str]


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


def non_object_root(root: dict[str, Any]) -> list[Problem]:
    """A tool's parameters are an object in every provider's every mode: a root typed otherwise,
    or an untyped ``enum``/``const`` root (it accepts no object), cannot be sent."""
    types = _types(root)
    if types and types != ["object"]:
        shown = types if len(types) > 1 else types[0]
        return [("/type", "NON_OBJECT_ROOT", f"the root must be an object schema, not {shown!r}")]
    if not types and "properties" not in root:
        return [
            (f"/{keyword}", "NON_OBJECT_ROOT", f"the root must be an object schema, not {keyword}")
            for keyword in ("enum", "const")
            if keyword in root
        ]
    return []


def project_non_strict(
    schema: Any, mode: NonStrictMode
) -> tuple[dict[str, Any] | None, RewriteRecord, list[Problem]]:
    """``schema`` (a bundled canonical contract) without what ``mode`` refuses, its record, and
    the problems that keep it from being sent at all (then the schema is None)."""
    if schema is False:
        return None, RewriteRecord(), [("", "FALSE_SCHEMA", "a schema that accepts nothing")]
    root = schema if isinstance(schema, dict) else {}
    problems = non_object_root(root)
    if problems:
        return None, RewriteRecord(), problems
    at_root, anywhere = mode.refused_at_root, mode.refused
    nodes: list[tuple[str, NodeRecord]] = []

    def project(node: Any, pointer: str, refused: frozenset[str]) -> Any:
        if not isinstance(node, dict):
            nodes.append((pointer, NodeRecord(pointer)))
            return node
        kept, dropping = KeywordsDropped.apply(node, refused)
        nodes.append((pointer, NodeRecord(pointer, (dropping,) if dropping else ())))
        return walker.map_children(
            kept, pointer, lambda child: project(child.schema, child.pointer, anywhere)
        )

    projected = project(root, "", at_root | anywhere)
    if "type" not in projected:  # every mode wants the root typed as an object
        projected = {"type": "object", **projected}
    return projected, RewriteRecord(tuple(nodes)), []
