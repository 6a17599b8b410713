"""How a canonical node and its projected counterpart line up, shared by the reference inverse and
the compiler so both read the projection the same way.

The projection (toolgen.projection) rewrites a canonical node before projecting it: a ``$ref``
with sibling keywords is inlined, a one-element ``allOf`` merged, ``oneOf`` folded into ``anyOf``;
a bare ``$ref`` stays a ``$ref`` (recursion). An optional member that does not accept null is then
made nullable. ``canonical_view`` repeats the rewriting, ``strip_nullable`` undoes the nullable
wrapping, and ``tolerant`` gives the projected schema in which absent means null (the form the
inverse tests union branches against).
"""

from __future__ import annotations

from typing import Any

from toolgen import pointer as jp
from toolgen import walker
from toolgen.nullability import NullOracle
from toolgen.projection import NULL_SCHEMA, is_object_schema

_STRUCTURAL = frozenset({"$defs", "definitions"})


class Unresolvable(LookupError):
    """A ``$ref`` that names nothing in its root (such a contract is never projected)."""


def resolve(root: Any, ref: str) -> Any:
    """The target of a local ``$ref`` in ``root`` (the fragment after ``#``)."""
    try:
        return jp.resolve(root, jp.ref_pointer(ref))
    except (KeyError, ValueError) as error:
        raise Unresolvable(ref) from error


def ref_pointer(ref: str) -> str:
    """The JSON pointer a local ``$ref`` names, the key of its function in compiled code."""
    return jp.ref_pointer(ref)


def canonical_view(node: Any, root: Any, *, follow_bare: bool) -> dict[str, Any]:
    """``node`` as the projection reads it: refs with siblings inlined (every ref when
    ``follow_bare``), one-element ``allOf`` merged, ``oneOf`` folded into ``anyOf``.

    A bare ``$ref`` that is not followed stays in the result. A cycle or an unresolvable ref
    gives ``{}`` (the projection rejects such contracts; the inverse then does nothing there).
    """
    if node is True or node is False or not isinstance(node, dict):
        return {}
    seen: set[str] = set()
    while True:
        ref = node.get("$ref")
        if isinstance(ref, str) and (follow_bare or set(node) - {"$ref"} - _STRUCTURAL):
            if ref in seen:
                return {}
            seen.add(ref)
            try:
                target = resolve(root, ref)
            except Unresolvable:
                return {}
            if not isinstance(target, dict):
                return {}
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        all_of = node.get("allOf")
        if isinstance(all_of, list):
            rest = {k: v for k, v in node.items() if k != "allOf"}
            merged: dict[str, Any] = {}
            for part in all_of:
                if isinstance(part, dict):
                    merged.update(part)
            node = {**merged, **rest}
            continue
        if "oneOf" in node and "anyOf" not in node:
            node = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
        return node


def projected_view(node: Any, root: Any) -> dict[str, Any] | None:
    """A projected node with its bare ``$ref`` chain followed; None when there is none."""
    seen: set[str] = set()
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        if ref in seen:
            return None
        seen.add(ref)
        try:
            node = resolve(root, ref)
        except Unresolvable:
            return None
    return node if isinstance(node, dict) else None


def strip_nullable(view: dict[str, Any], projected: Any) -> Any:
    """The projected member before the projection made it nullable, given the canonical view of
    the member (``follow_bare=False``): ``anyOf: [X, {"type": "null"}]`` unwrapped to X, or the
    null branch appended to a union dropped (a null added to ``type`` or ``enum`` can stay: it
    changes nothing for a value that is not null)."""
    if not isinstance(projected, dict):
        return projected
    branches = projected.get("anyOf")
    if not isinstance(branches, list) or not branches or branches[-1] != NULL_SCHEMA:
        return projected
    union = view.get("anyOf")
    pure_union = (
        isinstance(union, list)
        and not any(k in view for k in ("type", "enum", "const", "$ref"))
        and not is_object_schema(view)
    )
    wrapped = set(projected) == {"anyOf"} and len(branches) == 2
    if wrapped and not (pure_union and isinstance(union, list) and len(union) == 1):
        return branches[0]
    if isinstance(union, list):
        return {**projected, "anyOf": branches[:-1]}
    return projected


def align(
    view: dict[str, Any], projected: dict[str, Any] | None, root: Any
) -> dict[str, Any] | None:
    """The projected counterpart of a canonical view that is not a union, when the projection
    wrote it as ``anyOf: [X, {"type": "null"}]`` (a nullable wrapper, or a type list split for a
    provider without type lists): X."""
    if projected is None or "anyOf" in view:
        return projected
    branches = projected.get("anyOf")
    if (
        isinstance(branches, list)
        and len(branches) == 2
        and branches[1] == NULL_SCHEMA
        and set(projected) <= {"anyOf", "title", "description"}
    ):
        return projected_view(branches[0], root)
    return projected


def union_branches(view: dict[str, Any]) -> list[Any] | None:
    branches = view.get("anyOf")
    return branches if isinstance(branches, list) and branches else None


def aligned_branches(projected: dict[str, Any] | None, count: int) -> list[Any] | None:
    """The projected forms of a canonical union's ``count`` branches (a null branch the projection
    appended comes after them); None when the projection has no such union."""
    branches = projected.get("anyOf") if projected is not None else None
    if isinstance(branches, list) and len(branches) >= count:
        return branches[:count]
    return None


def projected_member(projected: dict[str, Any] | None, name: str) -> Any:
    properties = projected.get("properties") if projected is not None else None
    return properties.get(name) if isinstance(properties, dict) else None


def tolerant(projected: Any) -> Any:
    """``projected`` in which a member that accepts null may also be absent: absent and null mean
    the same to the inverse. On a provider's payload (every member present) it decides exactly
    as ``projected``; on a canonical payload (optional members absent) it still finds its branch.
    """
    oracle = NullOracle(projected)

    def relax(node: Any, pointer: str) -> Any:
        node = walker.map_children(node, pointer, lambda child: relax(child.schema, child.pointer))
        if not isinstance(node, dict) or not isinstance(node.get("required"), list):
            return node
        return {**node, "required": must_be_present(node, oracle)}

    return relax(projected, "")


def must_be_present(projected: dict[str, Any], oracle: NullOracle) -> list[str]:
    """The members of a projected object that the tolerant form still requires."""
    required = projected.get("required")
    if not isinstance(required, list):
        return []
    properties = projected.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    return [
        name
        for name in required
        if name not in properties or not oracle.accepts_null(properties[name])
    ]
