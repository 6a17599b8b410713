"""The reference inverse canonicalizer: interpretive, slow, and the oracle of the compiled one.

It walks the payload together with the projection, read through the projection's record of
its rewrites (``views.Reading``; docs/projection.md, "The inverse and its laws"):

- in an object, a null member is removed when the projection made it nullable or boxed it (the
  record says so; the projection did the first where the member is optional and its canonical
  schema does not accept null, with full JSON Schema semantics, and the second where it is
  optional *and* accepts null: NullableOptionalBoxed, whose ``{"value": v}`` is read back as
  ``v`` by its decoder, below); such a member written as it is (``optional_nullable = "keep"``)
  keeps its null (OPTIONAL_NULLABLE: strict mode cannot tell it from an absent one); undeclared
  members keep their nulls; array elements are never removed;
- at a union (``anyOf``, or ``oneOf`` folded into it), the branch is the first whose projected
  form admits the payload, absent members counting as null (``views.tolerant``: on a provider's
  payload, where every member is present, that is exactly the projected form), and that branch's
  inverse applies; where no branch admits the payload, every branch's inverse applies in turn
  (the union of their candidates) and the canonical validation reports what is left;
- where the projection wrote an enum's values as text (EnumStringified), a text of the record
  becomes its canonical value; any other value stays;
- where the projection encoded the node (a map as key/value entries, extra members as one more
  member, a value of any type as JSON text: toolgen.project.rewrites.encodings; a boxed member:
  toolgen.project.rewrites.presence), its decoder
  applies last, after the node's members or items are read back (the decoders of
  toolgen/runtime/_canonical_support.py, which the compiled canonicalizers call too); a payload
  that breaks the encoding raises ``EncodingError``;
- recursion follows the payload, so it is bounded by the payload's depth.

The input is never mutated; an untouched payload comes back as the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator

from toolgen.compile.canonical.views import Reading, Site, tolerant
from toolgen.project.projection import ProjectedContract
from toolgen.runtime import _canonical_support as support
from toolgen.runtime import _codecs as codecs
from toolgen.schema import pointer as jp
from toolgen.schema import refs

_DROP = object()


def _call(site: Site | None) -> str | None:
    """The target whose inverse applies at ``site`` (None: its own facets apply)."""
    return site.call if site is not None else None


class ReferenceInverse:
    """The inverse of one projected contract."""

    def __init__(self, projected: ProjectedContract) -> None:
        schema = projected.meaning  # the JSON Schema the provider's payloads satisfy
        self.reading = Reading(schema, projected.rewrites) if schema is not None else None
        self.tolerant = accepted = tolerant(schema) if schema is not None else None
        self._admits = Draft202012Validator(accepted) if accepted is not None else None

    def __call__(self, payload: Any) -> Any:
        return self._node(payload, "", root=True)

    # -- one node --------------------------------------------------------------------------

    def _node(self, value: Any, pointer: str, *, root: bool = False) -> Any:
        reading = self.reading
        if not isinstance(value, dict | list | str) or reading is None:
            return value
        try:  # a $ref target's inverse
            site = refs.chase(
                reading.site(pointer, root=root), _call, lambda _, at: reading.site(at)
            )
        except refs.RefCycle:
            return value
        if site is None:
            return value
        if isinstance(value, str):
            result = self._text(value, site)
        else:
            result = value
            if isinstance(value, dict) and site.members is not None:
                result = self._object(value, site)
            elif isinstance(value, list) and site.items is not None:
                result = self._array(value, site.items)
            if site.branches is not None:
                result = self._union(result, site.branches)
        if site.decode is not None:
            kind, argument = site.decode
            result = codecs.decode(kind, argument, result)
        return result

    def _object(self, value: dict[str, Any], site: Site) -> Any:
        members = site.members or {}
        changes: dict[str, Any] = {}
        # in the declared order, as the compiled inverse reads them: of two members that break
        # an encoding, both inverses report the same one; undeclared members are kept as they are
        for name, declared in members.items():
            if name not in value:
                continue
            member = value[name]
            if member is None:
                if declared.drop_null:
                    changes[name] = _DROP
                continue
            new = self._node(member, declared.pointer)
            if new is not member:
                changes[name] = new
        if not changes:
            return value
        return {
            name: changes.get(name, member)
            for name, member in value.items()
            if changes.get(name) is not _DROP
        }

    def _array(self, value: list[Any], items: str) -> Any:
        result = value
        for index, element in enumerate(value):
            new = self._node(element, items)
            if new is not element:
                if result is value:
                    result = list(value)
                result[index] = new
        return result

    def _text(self, value: str, site: Site) -> Any:
        if site.values is not None and value in site.values:
            return site.values[value]
        if site.branches is not None:
            return self._union(value, site.branches)
        return value

    def _union(self, value: Any, branches: tuple[str, ...]) -> Any:
        if not isinstance(value, dict | list | str):
            return value
        for branch in branches:
            if self.admits(branch, value):
                return self._node(value, branch)
        result = value
        for branch in branches:
            result = self._node(result, branch)
        return result

    # -- JSON Schema semantics -------------------------------------------------------------

    def admits(self, pointer: str, value: Any) -> bool:
        """Is ``value`` valid under the tolerant projected form at ``pointer``?"""
        if self._admits is None:
            return False
        form = jp.resolve(self.tolerant, pointer)
        if isinstance(form, bool):
            return form
        return bool(self._admits.evolve(schema=form).is_valid(value))


_CACHE: dict[int, tuple[ProjectedContract, ReferenceInverse]] = {}


def reference_for(projected: ProjectedContract) -> ReferenceInverse:
    """A (cached) reference inverse for a projected contract."""
    cached = _CACHE.get(id(projected))
    if cached is None or cached[0] is not projected:
        cached = (projected, ReferenceInverse(projected))
        _CACHE[id(projected)] = cached
    return cached[1]


def reference_inverse(payload: Any, projected: ProjectedContract) -> Any:
    """The canonical payload of ``payload``, a provider's payload under ``projected.meaning``;
    the same object when nothing changes."""
    return reference_for(projected)(payload)


def canonicalize_text(text: str | bytes, projected: ProjectedContract) -> str | bytes:
    """:func:`reference_inverse` on JSON text: the same text (byte-identical) when nothing changes,
    else compact JSON with member order, large integers and float text kept."""
    inverse: Callable[[Any], Any] = reference_for(projected)
    return support.canonicalize_text(inverse, text)
