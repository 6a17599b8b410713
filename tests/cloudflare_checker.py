"""An independent oracle of what Cloudflare Workers AI text-generation models take as a tool's
``parameters`` (../shared/PROVIDERS.md, "Cloudflare Workers AI"; the input types of
``@cloudflare/workers-types`` 5.20261117.1: ``AiTextGenerationToolInput``,
``AiTextGenerationToolLegacyInput`` and each model's ``Messages.tools``).

``violations(schema, name=...)`` lists, as ``(pointer, rule, message)``, everything in a projected
schema (the wire form) that the native input types refuse, or that toolgen promises not to send
where the sources are silent. Written from those facts alone; it imports nothing from toolgen.

From the types:
- the root is ``{type: "object", properties: {...}}`` (``properties`` present, ``required`` a list
  of strings when present);
- each top-level member is a mapping with ``type`` one JSON type name (a string) and
  ``description`` a string;

The safe side toolgen takes where the sources are silent (the profile's [unconfirmed] rules):
- every schema is a mapping; ``type`` is never a list (anywhere);
- keywords only from OpenAI's strict-mode list (what OpenAI-compatible guided decoders read),
  formats only from its list;
- a ``$ref`` is local and resolves, and no reference leads back to itself (no recursion);
- names ``^[a-zA-Z0-9_-]{1,64}$``.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

KEYWORDS = frozenset({
    "type", "enum", "const", "anyOf", "$ref", "$defs", "definitions", "properties", "required",
    "additionalProperties", "items", "description", "title", "pattern", "format", "multipleOf",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
})  # fmt: skip
FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
#: keywords whose value is a map of names to schemas (definitions are also reached through the
#: references to them, which is where a cycle shows)
_SCHEMA_MAPS = ("properties", "$defs", "definitions")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _resolve(root: Any, ref: str) -> Any:
    node = root
    for token in ref[2:].split("/") if ref != "#" else []:
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def violations(schema: Any, *, name: str = "tool", tool: bool = True) -> list[tuple[str, str, str]]:
    """What the native types refuse in ``schema``; the rules of a tool's top-level members only
    where it is a tool's parameters (``tool``), not a structured output's schema."""
    found: list[tuple[str, str, str]] = []
    if not NAME.match(name):
        found.append(("", "name", f"name {name!r} is not [a-zA-Z0-9_-]{{1,64}}"))
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return [*found, ("", "root", "the root must be {type: object}")]
    if not isinstance(schema.get("properties"), dict):
        found.append(("", "root", "the root must have properties"))
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        found.append(("/required", "root", "required must be a list of names"))
    for member_name, member in (schema.get("properties") or {}).items() if tool else ():
        where = f"/properties/{_escape(member_name)}"
        if not isinstance(member, dict) or not isinstance(member.get("type"), str):
            found.append((where, "member", "a top-level member needs one type name"))
        elif not isinstance(member.get("description"), str):
            found.append((where, "member", "a top-level member needs a description"))
    _walk(schema, schema, "", found, ())
    return found


def _walk(
    root: Any, node: Any, pointer: str, found: list[tuple[str, str, str]], refs: tuple[str, ...]
) -> None:
    if not isinstance(node, dict):
        found.append((pointer, "schema", "every schema must be a mapping"))
        return
    for keyword in node:
        if keyword not in KEYWORDS:
            found.append((pointer, "keyword", f"{keyword} is not sent"))
    kind = node.get("type")
    if kind is not None and (not isinstance(kind, str) or kind not in TYPES):
        found.append((pointer, "type", "type must be one type name"))
    if "format" in node and node["format"] not in FORMATS:
        found.append((pointer, "format", f"format {node['format']!r} is not sent"))
    ref = node.get("$ref")
    if ref is not None:
        if not isinstance(ref, str) or not ref.startswith("#"):
            found.append((pointer, "ref", "a $ref must be local"))
        elif ref in refs:
            found.append((pointer, "recursion", f"{ref} leads back to itself"))
        else:
            try:
                target = _resolve(root, ref)
            except (KeyError, IndexError, ValueError):
                found.append((pointer, "ref", f"{ref} does not resolve"))
            else:
                _walk(root, target, ref[1:], found, (*refs, ref))
    for keyword in _SCHEMA_MAPS:
        for key, child in (node.get(keyword) or {}).items():
            _walk(root, child, f"{pointer}/{keyword}/{_escape(key)}", found, refs)
    for index, branch in enumerate(node.get("anyOf") or ()):
        _walk(root, branch, f"{pointer}/anyOf/{index}", found, refs)
    for keyword in ("items", "additionalProperties"):
        child = node.get(keyword)
        if isinstance(child, dict):
            _walk(root, child, f"{pointer}/{keyword}", found, refs)
        elif child is not None and not isinstance(child, bool) and keyword == "items":
            found.append((f"{pointer}/{keyword}", "items", "items must be one schema"))
