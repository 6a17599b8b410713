"""An independent oracle of Anthropic strict tool use, which Bedrock Converse applies on Claude
models when ``strict`` is on (../shared/PROVIDERS.md, "Anthropic" and "AWS Bedrock Converse").

``violations(schema)`` lists, as ``(pointer, rule, message)``, everything in a *projected* schema
that strict mode would refuse. Like strict_checker.py (OpenAI) it is written from the provider
facts alone and imports nothing from toolgen.

Rules:
- the root is an object schema (``type: "object"``), never a union (anyOf/oneOf/allOf) or a $ref;
- every schema is a mapping (no boolean schemas);
- only supported keywords (no minimum/maximum/exclusive*/multipleOf, minLength/maxLength,
  maxItems, min/maxProperties, oneOf); ``format`` only from the supported list; ``minItems``
  only 0 or 1; ``pattern`` without backreferences, lookaround or ``\\b``;
- every object (type includes "object", or has properties) sets ``additionalProperties: false``
  and lists in ``required`` only declared properties (optional members may stay out);
- an array has an ``items`` schema;
- a ``$ref`` is local, resolves and is not recursive;
- limits: at most 24 optional members and 16 union-typed schemas (anyOf or a type list) across
  the schema (they are per request; one schema over them can never be sent); names
  ``^[a-zA-Z0-9_-]{1,64}$`` (Bedrock's rule; Anthropic's older errors showed 64 too).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

SUPPORTED_KEYWORDS = frozenset({
    "type", "enum", "const", "anyOf", "allOf", "$ref", "$defs", "definitions", "properties",
    "required", "additionalProperties", "items", "minItems", "description", "title", "pattern",
    "format",
})  # fmt: skip

FORMATS = frozenset({
    "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid",
})  # fmt: skip
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
COMPLEX_PATTERN = re.compile(r"\\[1-9]|\\k<|\(\?[=!<]|\\b|\\B")
MAX_OPTIONAL = 24
MAX_UNIONS = 16

Violation = tuple[str, str, str]


def _resolve(root: Any, ref: str) -> Any:
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node = root
    for token in ref[2:].split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or token not in node:
            return None
        node = node[token]
    return node


class _Checker:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.found: list[Violation] = []
        self.optional = 0
        self.unions = 0

    def add(self, pointer: str, rule: str, message: str) -> None:
        self.found.append((pointer, rule, message))

    def schema(self, node: Any, pointer: str, refs: tuple[str, ...] = ()) -> None:
        if not isinstance(node, dict):
            self.add(pointer, "boolean-schema", "every schema must be an object")
            return
        for keyword in node:
            if keyword not in SUPPORTED_KEYWORDS:
                self.add(f"{pointer}/{keyword}", "unsupported-keyword", f"{keyword!r}")
        if "format" in node and node["format"] not in FORMATS:
            self.add(f"{pointer}/format", "unsupported-format", f"{node['format']!r}")
        if "minItems" in node and node["minItems"] not in (0, 1):
            self.add(f"{pointer}/minItems", "min-items", "minItems must be 0 or 1")
        pattern = node.get("pattern")
        if isinstance(pattern, str) and COMPLEX_PATTERN.search(pattern):
            self.add(f"{pointer}/pattern", "complex-pattern", repr(pattern))
        types = node.get("type")
        types = types if isinstance(types, list) else [] if types is None else [types]
        if "anyOf" in node or len(types) > 1:
            self.unions += 1
        if "object" in types or "properties" in node:
            self.object(node, pointer, refs)
        if "array" in types and not isinstance(node.get("items"), dict):
            self.add(pointer, "array-without-items", "an array needs one items schema")
        if isinstance(node.get("items"), dict):
            self.schema(node["items"], f"{pointer}/items", refs)
        for keyword in ("anyOf", "allOf"):
            for i, branch in enumerate(node.get(keyword) or []):
                self.schema(branch, f"{pointer}/{keyword}/{i}", refs)
        for keyword in ("$defs", "definitions"):
            for name, sub in (node.get(keyword) or {}).items():
                self.schema(sub, f"{pointer}/{keyword}/{name}", refs)
        if "$ref" in node:
            self.ref(node["$ref"], pointer, refs)

    def object(self, node: dict[str, Any], pointer: str, refs: tuple[str, ...]) -> None:
        if node.get("additionalProperties") is not False:
            self.add(pointer, "open-object", "additionalProperties must be false")
        properties = node.get("properties") or {}
        required = node.get("required") or []
        for name in required:
            if name not in properties:
                self.add(f"{pointer}/required", "undeclared-required", repr(name))
        for name, sub in properties.items():
            if name not in required:
                self.optional += 1
            self.schema(sub, f"{pointer}/properties/{name}", refs)

    def ref(self, ref: Any, pointer: str, refs: tuple[str, ...]) -> None:
        target = _resolve(self.root, ref) if isinstance(ref, str) else None
        if target is None:
            self.add(f"{pointer}/$ref", "bad-ref", f"{ref!r} is not a local reference")
        elif ref in refs or ref == "#":
            self.add(f"{pointer}/$ref", "recursive", f"{ref!r} refers back to itself")
        else:
            # Walked for recursion only: the target's own rules are checked under $defs.
            probe = _Checker(self.root)
            probe.schema(target, pointer, (*refs, ref))
            self.found += [v for v in probe.found if v[1] == "recursive"]


def violations(schema: Any, *, name: str | None = None) -> list[Violation]:
    """Everything Anthropic strict tool use refuses in ``schema`` (and ``name`` when given)."""
    checker = _Checker(schema)
    if name is not None and not NAME.fullmatch(name):
        checker.add("", "bad-name", f"name {name!r} does not match {NAME.pattern}")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        checker.add("", "root-not-object", "the root must have type 'object'")
    elif any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref")):
        checker.add("", "root-union", "the root must be one object schema")
    checker.schema(schema, "")
    if checker.optional > MAX_OPTIONAL:
        checker.add("", "limit-optional", f"{checker.optional} optional members")
    if checker.unions > MAX_UNIONS:
        checker.add("", "limit-unions", f"{checker.unions} union-typed schemas")
    return sorted(set(checker.found))


def counts(schema: Any) -> tuple[int, int]:
    """(optional members, union-typed schemas) of ``schema``, as the limits count them."""
    checker = _Checker(schema)
    checker.schema(schema, "")
    return checker.optional, checker.unions


def assert_strict(schema: Any, **context: Any) -> None:
    """Fail with every violation listed."""
    found = violations(schema, **context)
    assert not found, "not valid in Anthropic strict tool use:\n" + "\n".join(
        f"  {p or '/'}: {r}: {m}" for p, r, m in found
    )
