"""Canonical schema -> the schema handed to datamodel-code-generator.

The generator reads JSON Schema with Python habits; these rewrites keep canonical semantics in the
models it writes. The rules apply to one node at a time; the shared walker does the recursion.

* ``default`` is dropped: an absent member stays absent (MISSING), never filled in.
* ``format`` becomes a ``pattern`` for the formats in :data:`FORMAT_PATTERNS` (enforced with
  no extra run-time package and the value stays the string it was), and is dropped otherwise (the
  generator would map ``email`` to ``EmailStr``, ``date-time`` to ``datetime``, changing the dump).
* ``number`` also admits ``integer``, so ``5`` stays ``5`` (and a large integer stays exact).
* a ``pattern`` Python's ``re`` cannot compile is dropped with a warning (else no import).
* a shared definition under ``$defs`` is marked with ``x-python-import``: the generator imports the
  one shared class instead of writing a copy into every contract's module.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.schema import pointer as jp
from toolgen.schema import walker

#: JSON Schema formats enforced by the models, as unanchored Python regular expressions (ASCII).
#: Formats not listed are annotations only (JSON Schema 2020-12's format-annotation vocabulary).
FORMAT_PATTERNS: dict[str, str] = {
    "date-time": (
        r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt ]"
        r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?"
        r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
    ),
    "date": r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])",
    "time": (
        r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?"
        r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
    ),
    "email": r"[^@\s]+@[^@\s]+",
    "uuid": r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    "ipv4": r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}"
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])",
    "uri": r"[A-Za-z][A-Za-z0-9+.\-]*:\S*",
}

#: Where generated modules import shared classes and the base class from, before the import
#: rewrite makes those imports relative (the generated package never names itself).
PLACEHOLDER_PACKAGE = "_toolgen_out_"
SHARED_MODULE = f"{PLACEHOLDER_PACKAGE}.models._shared"
BASE_CLASS = f"{PLACEHOLDER_PACKAGE}.models._base.CanonicalModel"

#: (pointer inside the prepared schema, message) for what the models cannot enforce.
Note = tuple[str, str]


def format_pattern(fmt: str, pattern: str | None) -> str:
    """One regular expression for ``format`` and, when there is one, the schema's ``pattern``."""
    anchored = rf"\A(?:{FORMAT_PATTERNS[fmt]})\Z"
    if pattern is None:
        return anchored
    # The schema's pattern keeps its search semantics inside a lookahead at the start.
    return rf"\A(?=[\s\S]*?(?:{pattern})){anchored[2:]}"


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except (re.error, RecursionError):
        return False
    return True


def _rewrite_node(node: dict[str, Any], pointer: str, notes: list[Note]) -> dict[str, Any]:
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
    kind = node.get("type")
    if kind == "number":
        node["type"] = ["integer", "number"]
    elif isinstance(kind, list) and "number" in kind and "integer" not in kind:
        node["type"] = [t for k in kind for t in (("integer", k) if k == "number" else (k,))]
    return node


def prepare(schema: Any, notes: list[Note], pointer: str = "") -> Any:
    """A rewritten copy of ``schema`` (the input is never mutated)."""

    def visit(node: Any, where: str) -> Any:
        copied = walker.map_children(node, where, lambda child: visit(child.schema, child.pointer))
        return _rewrite_node(copied, where, notes) if isinstance(copied, dict) else copied

    return visit(schema, pointer)


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
    schema: Any, description: str, shared_classes: dict[str, str], notes: list[Note]
) -> Any:
    """The schema of one contract for the generator: prepared, shared ``$defs`` as imports."""
    prepared = prepare(schema, notes)
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
