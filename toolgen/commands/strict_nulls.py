"""Undoing what a strict mode added to optional members, for ``toolgen import``.

A strict mode of the "nullable" style (toolgen's projection does the same, see
:func:`toolgen.project.projection.make_nullable`) writes every optional member as a required one that also
accepts null. Reading such a schema back, a member is made optional again, its null removed, when:

1. the definition is strict-shaped: every object schema in it (``$defs`` included) is closed with
   ``additionalProperties: false`` and lists every property in ``required`` (and its ``strict``
   flag, when it has one, is not false): only then can a null have been forced on the author;
2. some schema X without null, written the way a strict mode writes an optional member, gives the
   member exactly: ``make_nullable(X) == member`` for the way the source's producer writes
   nullables (a type list, or an ``anyOf`` with a null branch: a source with a type list anywhere
   writes type lists, one without writes anyOf), and X does not accept null (else strict mode would
   have kept X as it was).

The member becomes X, optional. This cannot tell two authored forms apart, because they are
projected alike: an optional member X and a required member that accepts null (and a third where
the design said ``optional_nullable = "keep"``: an optional member that accepts null,
OPTIONAL_NULLABLE). The import picks the first, the common one, and reports each such decision;
the imported design projects to the same strict schema in every case.

A member toolgen boxed (NullableOptionalBoxed: an optional member that accepts null, written
null or ``{"value": X}``) is read back as X, optional, when it is exactly the box of X and X
accepts null.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.project.projection import NULL_SCHEMA, is_object_schema, make_nullable
from toolgen.project.rewrites.presence import BOX_NOTE, BOXED, NullableOptionalBoxed
from toolgen.schema import pointer as jp
from toolgen.schema import walker
from toolgen.schema.nullability import NullOracle


def first_open_object(schema: Any) -> str | None:
    """The pointer of the first object schema that is not closed and all-required; None when
    every object is (the schema is strict-shaped)."""
    if not isinstance(schema, dict):
        return ""
    for node, pointer in walker.walk(schema):
        if not is_object_schema(node):
            continue
        properties = node.get("properties") or {}
        required = node.get("required") or []
        if (
            node.get("additionalProperties") is not False
            or not isinstance(properties, dict)
            or not isinstance(required, list)
            or set(properties) - set(required)
        ):
            return pointer
    return None


def nullable_required_members(schema: Any) -> bool:
    """Whether some required member has a form strict mode writes for an optional one (only then
    does it matter whether the definition is strict-shaped)."""
    for node, _ in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        properties, required = node.get("properties"), node.get("required")
        if isinstance(properties, dict) and isinstance(required, list):
            for name in required:
                if any(True for _ in _candidates(properties.get(name))):
                    return True
    return False


def producer_styles(schemas: Iterable[Any], styles: tuple[bool, ...]) -> tuple[bool, ...]:
    """How the producer of a source writes nullables, of the ``styles`` its format allows: a type
    list anywhere in the source means type lists; none at all means ``anyOf`` branches (a producer
    with type lists writes an optional string as ``["string", "null"]``)."""
    lists = any(
        isinstance(node, dict) and isinstance(node.get("type"), list)
        for schema in schemas
        for node, _ in walker.walk(schema)
    )
    chosen = tuple(style for style in styles if style is lists)
    return chosen or styles


def _candidates(member: Any) -> Iterable[Any]:
    """The schemas a strict mode may have made ``member`` from, most natural first."""
    if not isinstance(member, dict):
        return
    branches = member.get("anyOf")
    if isinstance(branches, list) and len(branches) >= 2 and branches[-1] == NULL_SCHEMA:
        if list(member) == ["anyOf"] and len(branches) == 2:
            yield branches[0]
        yield {**member, "anyOf": branches[:-1]}
    types = member.get("type")
    enum = member.get("enum")
    if isinstance(types, list) and "null" in types:
        others = [t for t in types if t != "null"]
        if others:
            candidate = {**member, "type": others[0] if len(others) == 1 else others}
            if isinstance(enum, list):
                candidate["enum"] = [v for v in enum if v is not None]
            yield candidate
    elif "type" not in member and isinstance(enum, list) and None in enum:
        values = [v for v in enum if v is not None]
        if values:  # enum: [null] alone is a member that must be null, not an optional one
            yield {**member, "enum": values}


def _unboxed(member: Any) -> Any | None:
    """The schema whose box (NullableOptionalBoxed) ``member`` may be: the box's value with the
    title and description the box took from it (None: ``member`` is no box)."""
    branches = member.get("anyOf") if isinstance(member, dict) else None
    if not (isinstance(branches, list) and len(branches) == 2 and isinstance(branches[0], dict)):
        return None
    value = (branches[0].get("properties") or {}).get(BOXED)
    if not isinstance(value, dict):
        return None
    unboxed = {k: v for k, v in member.items() if k == "title"}
    description = member.get("description")
    suffix = f" ({BOX_NOTE})"
    if isinstance(description, str) and description.endswith(suffix):
        unboxed["description"] = description[: -len(suffix)]
    elif description != BOX_NOTE:
        return None
    return {**value, **unboxed}


def undo_strict_nulls(
    schema: Any, pointer: str, styles: tuple[bool, ...]
) -> tuple[Any, list[Diagnostic]]:
    """``schema`` (strict-shaped) with the nulls strict mode forced removed, and a finding per
    member (``pointer`` is where ``schema`` is in its source). ``styles``: the ``type_arrays``
    modes of :func:`make_nullable` the source's producer may use (see :func:`producer_styles`)."""
    oracle = NullOracle(schema)
    findings: list[Diagnostic] = []

    def accepts_null(candidate: Any) -> bool | None:
        try:
            return oracle.accepts_null(candidate)
        except Exception:  # a $ref that does not resolve: the loader reports it; no decision here
            return None

    def boxed_form(member: Any) -> Any | None:
        candidate = _unboxed(member)
        if candidate is None or NullableOptionalBoxed.apply(candidate)[0] != member:
            return None
        return candidate if accepts_null(candidate) else None

    def optional_form(member: Any) -> Any | None:
        for candidate in _candidates(member):
            if (
                all(make_nullable(candidate, type_arrays=style) == member for style in styles)
                and accepts_null(candidate) is False
            ):
                return candidate
        return None

    def unbox(node: Any, where: str) -> Any:
        """``node`` with its boxed members read back (before its members are visited: the box's
        own required value is no optional member)."""
        properties, required = node.get("properties"), node.get("required")
        if not (
            is_object_schema(node) and isinstance(properties, dict) and isinstance(required, list)
        ):
            return node
        properties, still_required = dict(properties), []
        for name in required:
            unboxed = boxed_form(properties.get(name))
            if unboxed is None:
                still_required.append(name)
                continue
            properties[name] = unboxed
            findings.append(_unboxed_finding(jp.join(pointer + where, "properties", name)))
        return {**node, "properties": properties, "required": still_required}

    def visit(node: Any, where: str) -> Any:
        if not isinstance(node, dict):
            return node
        node = unbox(node, where)
        node = walker.map_children(node, where, lambda child: visit(child.schema, child.pointer))
        properties, required = node.get("properties"), node.get("required")
        if not (
            is_object_schema(node) and isinstance(properties, dict) and isinstance(required, list)
        ):
            return node
        properties = dict(properties)
        still_required = []
        for name in required:
            member_pointer = jp.join(pointer + where, "properties", name)
            optional = optional_form(properties.get(name))
            if optional is None:
                still_required.append(name)
                if name in properties and accepts_null(properties[name]):
                    findings.append(_kept(member_pointer))
                continue
            properties[name] = optional
            findings.append(_undone(member_pointer))
        return {**node, "properties": properties, "required": still_required}

    return visit(schema, ""), findings


def _undone(pointer: str) -> Diagnostic:
    return Diagnostic(
        "",
        pointer,
        "",
        "STRICT_NULL_UNDONE",
        "required and nullable in a strict definition: imported as an optional member without "
        "null (see toolgen import in the README if null was meant)",
        Level.INFO,
    )


def _unboxed_finding(pointer: str) -> Diagnostic:
    return Diagnostic(
        "",
        pointer,
        "",
        "STRICT_BOX_UNDONE",
        'null or {"value": X} in a strict definition (toolgen\'s box): imported as an optional '
        "member X that accepts null",
        Level.INFO,
    )


def _kept(pointer: str) -> Diagnostic:
    return Diagnostic(
        "",
        pointer,
        "",
        "STRICT_NULL_KEPT",
        "required and accepts null, in a form strict mode does not write for an optional member: "
        "imported as a required member that accepts null",
        Level.INFO,
    )
