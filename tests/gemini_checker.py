"""An independent oracle of what Gemini ``generateContent`` takes (../shared/PROVIDERS.md,
"Google Gemini"), in its two schema dialects.

``violations(schema, dialect)`` lists, as ``(pointer, rule, message)``, everything in a projected
schema (the wire form, as sent) that Gemini would refuse, or that PROVIDERS.md leaves
[unconfirmed] and toolgen promises not to send. Written from the provider facts alone; it imports
nothing from toolgen, so a bug in the projection cannot hide itself here.

JSON Schema dialect (``parametersJsonSchema``, ``responseJsonSchema``):
- keywords only from the whitelist ($id, $defs, $ref, $anchor, type, format, title, description,
  enum, items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf, properties,
  additionalProperties, required, propertyOrdering);
- enum values are strings or numbers; ``type`` is one JSON type name (type arrays are
  [unconfirmed]: never sent);
- a ``$ref`` is local, resolves, and has only ``$``-keywords beside it;
- a cyclic reference sits under a member its object does not require.

OpenAPI dialect (``parameters``, ``responseSchema``):
- fields only from the list (type, format, title, description, nullable, enum, items, minItems,
  maxItems, properties, required, minProperties, maxProperties, minLength, maxLength, pattern,
  minimum, maximum, anyOf, propertyOrdering, default, example): no additionalProperties, $ref,
  $defs, const, $schema, exclusiveMinimum, propertyNames;
- ``type`` one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL (no type arrays);
- enum values are strings (on a STRING); ``nullable`` is a boolean.

Both: every schema is a mapping; the root is an object; string formats only ``enum`` and
``date-time``; ``required`` names declared properties; names start with a letter or ``_``, then
letters, digits, ``_ . : -``, at most 64.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

JSON_SCHEMA_KEYWORDS = frozenset({
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
    "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf",
    "properties", "additionalProperties", "required", "propertyOrdering",
})  # fmt: skip
OPENAPI_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems",
    "maxItems", "properties", "required", "minProperties", "maxProperties", "minLength",
    "maxLength", "pattern", "minimum", "maximum", "anyOf", "propertyOrdering", "default",
    "example",
})  # fmt: skip
JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
OPENAPI_TYPES = frozenset({"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})
FORMATS = frozenset({"enum", "date-time"})
NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$")

Violation = tuple[str, str, str]

_SCHEMA_MAPS = ("properties", "$defs")
_SCHEMA_LISTS = ("anyOf", "oneOf", "prefixItems")


def _esc(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _resolve(root: Any, ref: str) -> Any:
    if not ref.startswith("#"):
        return None
    node = root
    fragment = unquote(ref[1:])
    for raw in fragment.split("/")[1:] if fragment else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        else:
            return None
    return node


def _children(node: dict[str, Any], pointer: str) -> list[tuple[Any, str, str | None]]:
    """(subschema, pointer, member name if it is a property) of one node."""
    found: list[tuple[Any, str, str | None]] = []
    for key in _SCHEMA_MAPS:
        if isinstance(node.get(key), dict):
            for name, sub in node[key].items():
                found.append(
                    (sub, f"{pointer}/{key}/{_esc(name)}", name if key == "properties" else None)
                )
    for key in _SCHEMA_LISTS:
        if isinstance(node.get(key), list):
            for index, sub in enumerate(node[key]):
                found.append((sub, f"{pointer}/{key}/{index}", None))
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            found.append((node[key], f"{pointer}/{key}", None))
    return found


def violations(
    schema: Any, dialect: str, *, name: str | None = None, description: str | None = None
) -> list[Violation]:
    """Everything Gemini would refuse in ``schema``, written in ``dialect`` ("json_schema" or
    "openapi")."""
    del description  # Gemini documents no description limit
    openapi = dialect == "openapi"
    found: list[Violation] = []
    if name is not None and not NAME.match(name):
        found.append(("", "name", f"name {name!r} is not allowed"))
    if not isinstance(schema, dict):
        return [*found, ("", "root", "the root is not a schema object")]
    root_type = schema.get("type")
    if root_type != ("OBJECT" if openapi else "object"):
        found.append(("", "root", f"the root must be an object, not {root_type!r}"))
    # $ref pointer -> (its target, the members on the way from the holding definition)
    refs: list[tuple[str, str, bool]] = []

    def visit(node: Any, pointer: str, owner: str, optional_on_way: bool) -> None:
        if not isinstance(node, dict):
            found.append((pointer, "boolean-schema", "every schema must be an object"))
            return
        allowed = OPENAPI_FIELDS if openapi else JSON_SCHEMA_KEYWORDS
        for key in node:
            if key not in allowed:
                found.append((f"{pointer}/{_esc(key)}", "keyword", f"{key!r} is not taken"))
        kind = node.get("type")
        if kind is not None:
            names = OPENAPI_TYPES if openapi else JSON_TYPES
            if not isinstance(kind, str) or kind not in names:
                found.append((f"{pointer}/type", "type", f"type {kind!r} is not taken"))
        if "format" in node and node["format"] not in FORMATS:
            found.append((f"{pointer}/format", "format", f"format {node['format']!r}"))
        if "enum" in node:
            values = node["enum"]
            if openapi:
                good = isinstance(values, list) and all(isinstance(v, str) for v in values)
                if not good or kind != "STRING":
                    found.append((f"{pointer}/enum", "enum", "enum holds strings, on a STRING"))
            elif not isinstance(values, list) or not all(
                isinstance(v, str | int | float) and not isinstance(v, bool) for v in values
            ):
                found.append((f"{pointer}/enum", "enum", "enum holds strings and numbers"))
        if "nullable" in node and not isinstance(node["nullable"], bool):
            found.append((f"{pointer}/nullable", "nullable", "nullable must be a boolean"))
        required = node.get("required", [])
        properties = node.get("properties", {})
        if not isinstance(required, list) or any(
            r not in (properties if isinstance(properties, dict) else {}) for r in required
        ):
            found.append((f"{pointer}/required", "required", "required names undeclared members"))
            required = []
        if "$ref" in node:
            ref = node["$ref"]
            siblings = [k for k in node if k != "$ref" and not k.startswith("$")]
            if siblings:
                found.append((f"{pointer}/$ref", "ref-siblings", f"$ref beside {siblings}"))
            if not isinstance(ref, str) or _resolve(schema, ref) is None:
                found.append((f"{pointer}/$ref", "ref", f"$ref {ref!r} does not resolve"))
            else:
                refs.append((pointer, ref, optional_on_way))
        for sub, where, member in _children(node, pointer):
            is_def = where.startswith("/$defs/") and where.count("/") == 2
            next_owner = where if is_def else owner
            optional = (
                False
                if is_def
                else optional_on_way or (member is not None and member not in required)
            )
            visit(sub, where, next_owner, optional)

    visit(schema, "", "", False)
    if not openapi:
        found += _cycles_under_required(refs)
    return found


def _holder(pointer: str) -> str:
    """The definition (``/$defs/X``) or root ("") a pointer lies in."""
    parts = pointer.split("/")
    return "/".join(parts[:3]) if len(parts) >= 3 and parts[1] == "$defs" else ""


def _cycles_under_required(refs: list[tuple[str, str, bool]]) -> list[Violation]:
    """A reference that leads back to the definition holding it must sit under an optional
    member of that definition (PROVIDERS.md: only under non-required properties)."""
    edges: dict[str, set[str]] = {}
    for pointer, ref, _ in refs:
        edges.setdefault(_holder(pointer), set()).add(unquote(ref[1:]))
    found = []
    for pointer, ref, optional in refs:
        start, seen = unquote(ref[1:]), set()
        pending = [start]
        back = False
        while pending:
            current = pending.pop()
            if current == _holder(pointer):
                back = True
                break
            if current not in seen:
                seen.add(current)
                pending += edges.get(current, ())
        if back and not optional:
            found.append((f"{pointer}/$ref", "cycle", "a cycle only under non-required members"))
    return found
