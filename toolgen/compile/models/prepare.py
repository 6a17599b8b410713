"""Canonical schema -> the schema handed to datamodel-code-generator.

The generator reads JSON Schema with Python habits; these rewrites keep canonical semantics in the
models it writes. The rules apply to one node at a time; the shared walker does the recursion.

* ``default`` is dropped: an absent member stays absent (MISSING), never filled in.
* ``format`` becomes a ``pattern`` for the formats in :data:`FORMAT_PATTERNS` (enforced with
  no extra run-time package and the value stays the string it was), and is dropped otherwise (the
  generator would map ``email`` to ``EmailStr``, ``date-time`` to ``datetime``, changing the dump).
  The table and ``format_pattern`` are the runtime's (toolgen/runtime/_formats.py): a refusal's
  message names the format, not the pattern.
* ``number`` also admits ``integer``, so ``5`` stays ``5`` (and a large integer stays exact).
* a schema without ``type`` whose keywords apply to one type only becomes one branch per type:
  the generator would type it by them (``properties``: an object, refusing ``3``).
* an array with ``prefixItems`` or ``uniqueItems`` is marked for ``JsonArray`` (arrays.py).
* a ``pattern`` Python's ``re`` cannot compile is dropped with a warning (else no import).
* a shared definition under ``$defs`` is marked with ``x-python-import``: the generator imports the
  one shared class instead of writing a copy into every contract's module.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.compile.models import arrays
from toolgen.compile.models.placeholder import PLACEHOLDER_PACKAGE
from toolgen.project.rewrites.composition import merge
from toolgen.runtime._formats import FORMAT_PATTERNS, format_pattern
from toolgen.schema import pointer as jp
from toolgen.schema import walker
from toolgen.schema.type_union import branches_by_type

__all__ = [
    "BASE_CLASS",
    "FORMAT_PATTERNS",
    "PLACEHOLDER_PACKAGE",
    "SHARED_MODULE",
    "Note",
    "contract_schema",
    "format_pattern",
    "prepare",
    "rename_refs",
]

SHARED_MODULE = f"{PLACEHOLDER_PACKAGE}.models._shared"
BASE_CLASS = f"{PLACEHOLDER_PACKAGE}.models._base.CanonicalModel"

#: (pointer inside the prepared schema, message) for what the models cannot enforce.
Note = tuple[str, str]


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except (re.error, RecursionError):
        return False
    return True


def _rewrite_node(
    node: dict[str, Any], pointer: str, notes: list[Note], object_root: bool
) -> dict[str, Any]:
    node.pop("default", None)
    pattern = node.get("pattern")
    if isinstance(pattern, str) and not _compiles(pattern):
        notes.append(
            (
                jp.join(pointer, "pattern"),
                "this pattern is not a Python regular expression; the model does not enforce it",
            )
        )
        del node["pattern"]
        pattern = None
    fmt = node.pop("format", None)
    if isinstance(fmt, str) and fmt in FORMAT_PATTERNS:
        node["pattern"] = format_pattern(fmt, pattern if isinstance(pattern, str) else None)
    an_object_anyway = object_root and not pointer
    if "type" not in node and not an_object_anyway and _UNTYPED_KEEPS.isdisjoint(node):
        split = _by_type(node)
        if split is not None:
            return split
    return _typed(node)


#: what types a schema without ``type`` by itself, or combines it with others: left as it is
_UNTYPED_KEEPS = frozenset(
    {"$ref", "$dynamicRef", "enum", "const", "anyOf", "oneOf", "allOf", "not", "if"}
)
_EVERY_TYPE = ["object", "array", "string", "number", "boolean", "null"]


def _by_type(node: dict[str, Any]) -> dict[str, Any] | None:
    """A schema without ``type`` with keywords that apply to one type only (``properties``,
    ``items``, ``minLength``...): one ``anyOf`` branch per JSON type, each with the keywords of
    its type, so the model admits a value of any type as the schema does (``{"properties": {}}``
    admits ``3``, where the generator would type it as an object) and checks each by its own
    keywords. None when no keyword is of one type (the schema admits anything: ``Any``)."""
    outer = {key: node[key] for key in _DOCUMENT_KEYWORDS if key in node}
    split = branches_by_type(
        {key: value for key, value in node.items() if key not in outer} | {"type": _EVERY_TYPE}
    )
    if split is None:
        return None
    branches = split["anyOf"]
    if all(set(branch) == set(branches[0]) for branch in branches):
        return None  # every branch has the same keywords: none is of one type
    return {**outer, **split, "anyOf": [_typed(branch) for branch in branches]}


#: keywords of the schema resource rather than of its values: they stay where they are
_DOCUMENT_KEYWORDS = (
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$defs",
    "definitions",
    "$comment",
)


def _typed(node: dict[str, Any]) -> dict[str, Any]:
    """The rewrites of a node by its type: a number admits an integer (``5`` stays ``5``); an
    array with positions or unique items is marked for ``JsonArray`` (arrays.py)."""
    kind = node.get("type")
    if kind == "number":
        node["type"] = ["integer", "number"]
    elif isinstance(kind, list) and "number" in kind and "integer" not in kind:
        node["type"] = [t for k in kind for t in (("integer", k) if k == "number" else (k,))]
    kinds = kind if isinstance(kind, list) else [kind]
    if "array" in kinds and arrays.needs_marking(node):
        return arrays.marked(node)
    return node


def prepare(schema: Any, notes: list[Note], pointer: str = "", *, object_root: bool = False) -> Any:
    """A rewritten copy of ``schema`` (the input is never mutated); ``object_root``: the payloads
    at its root are objects whatever it says (a tool's arguments: the runtime refuses others), so
    its object keywords type it."""

    def visit(node: Any, where: str, keyword: str | None = None) -> Any:
        if isinstance(node, dict):
            node = _merged_all_of(node)
            if keyword == "propertyNames" and "type" not in node:
                node = {**node, "type": "string"}  # it judges member names: strings only
        copied = walker.map_children(
            node, where, lambda child: visit(child.schema, child.pointer, child.keyword)
        )
        if not isinstance(copied, dict):
            return copied
        return _rewrite_node(copied, where, notes, object_root)

    return visit(schema, pointer)


def _merged_all_of(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with its ``allOf`` merged into it where the schemas are one as the projection
    merges them (toolgen.project.rewrites.composition.merge: members and required members add
    up, keywords that do not conflict join): ``allOf: [{type: string}, {minLength: 5}]`` is
    ``{type: string, minLength: 5}``, which the generator types, where it made classes of the
    branches. A branch with a ``$ref``, or a conflict, leaves the ``allOf`` to the generator."""
    branches = node.get("allOf")
    if not isinstance(branches, list) or not branches:
        return node
    if not all(isinstance(b, dict) and "$ref" not in b and "allOf" not in b for b in branches):
        return node
    merged = {key: value for key, value in node.items() if key != "allOf"}
    for branch in branches:
        merged, conflicts = merge(merged, branch)
        if conflicts:
            return node
    return merged


def rename_refs(schema: Any, names: dict[str, str]) -> Any:
    """A copy of ``schema`` whose ``#/$defs/<old>`` references read ``#/$defs/<new>``."""
    targets = {f"#/$defs/{jp.escape(old)}": f"#/$defs/{new}" for old, new in names.items()}

    def visit(node: Any, where: str) -> Any:
        copied = walker.map_children(node, where, lambda child: visit(child.schema, child.pointer))
        if isinstance(copied, dict) and copied.get("$ref") in targets:
            copied["$ref"] = targets[copied["$ref"]]
        return copied

    return visit(schema, "")


def contract_schema(
    schema: Any,
    description: str,
    shared_classes: dict[str, str],
    notes: list[Note],
    *,
    tool: bool = False,
) -> Any:
    """The schema of one contract for the generator: prepared, shared ``$defs`` as imports;
    ``tool``: a tool's parameters (an object at the root, see ``prepare``)."""
    prepared = prepare(schema, notes, object_root=tool)
    if not isinstance(prepared, dict):
        return prepared
    if description and "description" not in prepared:
        prepared = {"description": description, **prepared}
    defs = prepared.get("$defs")
    if isinstance(defs, dict) and shared_classes:
        prepared["$defs"] = {
            key: _mark_import(value, shared_classes[key]) if key in shared_classes else value
            for key, value in defs.items()
        }
    return prepared


def _mark_import(schema: Any, class_name: str) -> Any:
    marker = {"x-python-import": {"module": SHARED_MODULE, "name": class_name}}
    if isinstance(schema, dict):
        return {**schema, **marker}
    # A boolean schema: true admits anything, false nothing.
    return {**marker} if schema else {"not": {}, **marker}
