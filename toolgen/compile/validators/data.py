"""The envelope schemas as the generated module holds them: JSON text for the runtime's explainer.

One document: ``{"$defs": {...}, "<surface>": {...}, ...}``. The definitions of every surface are
hoisted to the shared ``$defs``, a definition that checks the same in several surfaces written
once (the surfaces of one provider repeat their ``Usage``, ``ToolCall`` ... definitions), and every
``$ref`` is rewritten to point into the document. Annotations are left out; key order is kept
(the order of ``properties`` is the order of the checks).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from toolgen.compile.validators.envelope_compiler import ContentKeys
from toolgen.schema import pointer as jp
from toolgen.schema import refs, walker

#: Keywords that never change a decision or a drift message.
_DROPPED = frozenset({"$schema", "$id", "$comment", "title", "description", "examples"})


def schema_document(schemas: dict[str, Any]) -> dict[str, Any]:
    """The document: shared ``$defs``, then each surface's schema under its name."""
    shared: dict[str, Any] = {}
    document: dict[str, Any] = {"$defs": shared}
    places: dict[str, str] = {}  # content key -> where the document has it
    for surface in sorted(schemas):
        schema = schemas[surface]
        keys = ContentKeys(schema)
        hoisted = _hoistable(schema)
        places.setdefault(keys.of(""), jp.join("", surface))
        if hoisted:
            for name in schema["$defs"]:
                key = keys.of(jp.join("", "$defs", name))
                if key not in places:
                    places[key] = jp.join("", "$defs", _free(name, shared))
                    shared[jp.split(places[key])[1]] = None  # written below

        moved = _mover(surface, keys, places if hoisted else None)
        body = {k: v for k, v in schema.items() if not (hoisted and k == "$defs")}
        document[surface] = _rewritten(body, "", moved)
        for name, definition in schema["$defs"].items() if hoisted else ():
            pointer = jp.join("", "$defs", name)
            place = jp.split(places[keys.of(pointer)])
            if place[0] == "$defs" and shared[place[1]] is None:
                shared[place[1]] = _rewritten(definition, pointer, moved)
    if not shared:
        del document["$defs"]
    return document


def _mover(surface: str, keys: ContentKeys, places: dict[str, str] | None) -> Callable[[str], str]:
    """Where the schema at a pointer of ``surface`` is in the document (``places`` when its
    definitions were hoisted)."""

    def moved(pointer: str) -> str:
        tokens = jp.split(pointer)
        if places is not None and len(tokens) >= 2 and tokens[0] == "$defs":
            return jp.join(places[keys.of(jp.join("", *tokens[:2]))], *tokens[2:])
        return jp.join("", surface, *tokens)

    return moved


def schema_text(schemas: dict[str, Any]) -> str:
    """The document as compact JSON (ASCII)."""
    return json.dumps(schema_document(schemas), separators=(",", ":"))


def _hoistable(schema: Any) -> bool:
    """Whether the ``$defs`` of ``schema`` can move: every reference names one of them whole."""
    if not isinstance(schema, dict) or not isinstance(schema.get("$defs"), dict):
        return False
    for _, target in refs.local_refs(schema):
        tokens = jp.split(target)
        if len(tokens) != 2 or tokens[0] != "$defs" or tokens[1] not in schema["$defs"]:
            return False
    return True


def _free(name: str, taken: dict[str, Any]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    return candidate


def _rewritten(node: Any, pointer: str, moved: Callable[[str], str]) -> Any:
    """``node`` (at ``pointer`` of its surface) without annotations, its references moved."""
    copy = walker.map_children(node, pointer, lambda c: _rewritten(c.schema, c.pointer, moved))
    if not isinstance(copy, dict):
        return copy
    out = {k: v for k, v in copy.items() if k not in _DROPPED}
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        out["$ref"] = "#" + quote(moved(jp.ref_pointer(ref)), safe="/$~!*'()@:;,=+&")
    return out
