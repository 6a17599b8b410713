"""The reference inverse canonicalizer: interpretive, slow, and the oracle of the compiled one.

It walks the payload together with the canonical schema and its projection (DESIGN.md §5):

- in an object, a null member is removed when the projection made it nullable, that is when the
  member is optional and its canonical schema does not accept null (full JSON Schema semantics);
  a member that is optional *and* accepts null keeps its null (OPTIONAL_NULLABLE: strict mode
  cannot tell it from an absent one); undeclared members keep their nulls; array elements are
  never removed;
- at a union (``anyOf``, or ``oneOf`` folded into it), the branch is the first whose projected
  form admits the payload, absent members counting as null (``views.tolerant``: on a provider's
  payload, where every member is present, that is exactly the projected form), and that branch's
  inverse applies; where no branch admits the payload, every branch's inverse applies in turn
  (the union of their candidates) and the canonical validation reports what is left;
- recursion follows the payload, so it is bounded by the payload's depth.

The input is never mutated; an untouched payload comes back as the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator

from toolgen.canonical import text as json_text
from toolgen.canonical.views import (
    Unresolvable,
    align,
    aligned_branches,
    canonical_view,
    projected_member,
    projected_view,
    resolve,
    strip_nullable,
    tolerant,
    union_branches,
)
from toolgen.nullability import NullOracle

_DROP = object()


class ReferenceInverse:
    """The inverse for one (canonical, projected) pair of root schemas."""

    def __init__(self, canonical: Any, projected: Any | None) -> None:
        self.canonical = canonical
        self.projected = tolerant(projected) if projected is not None else None
        self._nulls = NullOracle(canonical)
        self._accepts_null: dict[int, bool] = {}
        self._admits = Draft202012Validator(self.projected) if self.projected is not None else None

    def __call__(self, payload: Any) -> Any:
        return self._node(payload, self.canonical, self.projected, root=True)

    # -- one node --------------------------------------------------------------------------

    def _node(self, value: Any, canonical: Any, projected: Any, *, root: bool = False) -> Any:
        if not isinstance(value, dict | list):
            return value
        view = canonical_view(canonical, self.canonical, follow_bare=root)
        seen: set[str] = set()
        while isinstance(view.get("$ref"), str):  # a bare reference: recursion
            ref = view["$ref"]
            if ref in seen:
                return value
            seen.add(ref)
            try:
                target = resolve(self.canonical, ref)
                projected = resolve(self.projected, ref) if self.projected is not None else None
            except Unresolvable:
                return value
            view = canonical_view(target, self.canonical, follow_bare=False)
        pview = None
        if self.projected is not None:
            pview = align(view, projected_view(projected, self.projected), self.projected)
        result = value
        if isinstance(value, dict) and isinstance(view.get("properties"), dict):
            result = self._object(value, view, pview)
        elif isinstance(value, list) and isinstance(view.get("items"), dict | bool):
            items = pview.get("items") if pview is not None else None
            result = self._array(value, view["items"], items)
        branches = union_branches(view)
        if branches is not None:
            result = self._union(result, branches, aligned_branches(pview, len(branches)))
        return result

    def _object(
        self, value: dict[str, Any], view: dict[str, Any], pview: dict[str, Any] | None
    ) -> Any:
        properties: dict[str, Any] = view["properties"]
        required = view.get("required")
        required = required if isinstance(required, list) else []
        changes: dict[str, Any] = {}
        for name, member in value.items():
            if name not in properties:
                continue  # undeclared: kept as it is, nulls included
            schema = properties[name]
            optional_not_null = name not in required and not self.accepts_null(schema)
            if member is None:
                if optional_not_null:
                    changes[name] = _DROP
                continue
            projected = projected_member(pview, name)
            if optional_not_null:
                member_view = canonical_view(schema, self.canonical, follow_bare=False)
                projected = strip_nullable(member_view, projected)
            new = self._node(member, schema, projected)
            if new is not member:
                changes[name] = new
        if not changes:
            return value
        return {
            name: changes.get(name, member)
            for name, member in value.items()
            if changes.get(name) is not _DROP
        }

    def _array(self, value: list[Any], items: Any, projected: Any) -> Any:
        result = value
        for index, element in enumerate(value):
            new = self._node(element, items, projected)
            if new is not element:
                if result is value:
                    result = list(value)
                result[index] = new
        return result

    def _union(self, value: Any, branches: list[Any], projected: list[Any] | None) -> Any:
        if not isinstance(value, dict | list):
            return value
        if projected is not None:
            for branch, form in zip(branches, projected, strict=True):
                if self.admits(form, value):
                    return self._node(value, branch, form)
        result = value
        for index, branch in enumerate(branches):
            result = self._node(result, branch, projected[index] if projected is not None else None)
        return result

    # -- JSON Schema semantics -------------------------------------------------------------

    def accepts_null(self, schema: Any) -> bool:
        key = id(schema)
        if key not in self._accepts_null:
            self._accepts_null[key] = self._nulls.accepts_null(schema)
        return self._accepts_null[key]

    def admits(self, form: Any, value: Any) -> bool:
        """Is ``value`` valid under ``form``, a node of the tolerant projected schema?"""
        if self._admits is None:
            return False
        if isinstance(form, bool):
            return form
        return bool(self._admits.evolve(schema=form).is_valid(value))


_CACHE: dict[tuple[int, int], tuple[Any, Any, ReferenceInverse]] = {}


def reference_for(canonical_schema: Any, projected_schema: Any | None) -> ReferenceInverse:
    """A (cached) reference inverse for a pair of root schemas."""
    key = (id(canonical_schema), id(projected_schema))
    cached = _CACHE.get(key)
    if cached is None or cached[0] is not canonical_schema or cached[1] is not projected_schema:
        cached = (
            canonical_schema,
            projected_schema,
            ReferenceInverse(canonical_schema, projected_schema),
        )
        _CACHE[key] = cached
    return cached[2]


def reference_inverse(payload: Any, canonical_schema: Any, projected_schema: Any | None) -> Any:
    """The canonical payload of ``payload``, a provider's payload under ``projected_schema`` (the
    projection of ``canonical_schema``); the same object when nothing changes."""
    return reference_for(canonical_schema, projected_schema)(payload)


def canonicalize_text(
    text: str | bytes, canonical_schema: Any, projected_schema: Any | None
) -> str | bytes:
    """:func:`reference_inverse` on JSON text: the same text (byte-identical) when nothing changes,
    else compact JSON with member order, large integers and float text kept."""
    inverse: Callable[[Any], Any] = reference_for(canonical_schema, projected_schema)
    return json_text.canonicalize_text(inverse, text)
