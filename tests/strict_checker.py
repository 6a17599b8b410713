"""An independent oracle of OpenAI strict mode (../shared/PROVIDERS.md, "OpenAI ... strict mode").

``violations(schema)`` lists, as ``(pointer, rule, message)``, everything in a *projected*
schema that strict mode would refuse. It is written from the provider facts alone and imports
nothing from toolgen, so a bug in the projection cannot hide itself here.

Rules:
- the root is an object schema (``type: "object"``), never a union (anyOf/oneOf/allOf) or a $ref;
- every schema is a mapping (no boolean schemas) and says what it accepts: type, enum, const,
  anyOf or $ref;
- only supported keywords; ``format`` only from the supported list;
- every object (a schema whose type includes "object", or that has properties) has ``type``,
  ``properties``, ``additionalProperties: false`` and ``required`` listing every property;
- an array has an ``items`` schema (one schema, not a list);
- a ``$ref`` is local (``#`` or ``#/...``), resolves, and has no sibling keywords;
- limits: 5,000 properties, 10 levels of nesting (counted through non-recursive references),
  1,000 enum values, 120,000 characters of property names, definition names, enum and const
  values, a string enum of more than 250 values at most 15,000 characters; tool and output
  names ``^[a-zA-Z0-9_-]{1,64}$``; descriptions at most 1,024 characters.

The OpenAI-compatible providers differ in a few rules (``RULES``, from PROVIDERS.md and each
provider's docs): xAI lets optional members stay out of ``required`` and refuses circular
references; DeepSeek's strict mode takes only the formats email, hostname, ipv4, ipv6 and uuid;
Mistral documents no keyword support, so the check takes its safe side: structure only (no
validation keyword, no format), nullable written with anyOf (no type lists), no recursion.
Azure OpenAI and OpenRouter take OpenAI's rules.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

SUPPORTED_KEYWORDS = frozenset({
    # structure
    "type", "enum", "const", "anyOf", "$ref", "$defs", "properties", "required",
    "additionalProperties", "items",
    # annotations (strict mode ignores them)
    "description", "title",
    # strings
    "pattern", "format",
    # numbers
    "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    # arrays
    "minItems", "maxItems",
    # draft-7 spelling of $defs [unconfirmed; tolerated]
    "definitions",
})  # fmt: skip

FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

MAX_PROPERTIES = 5_000
MAX_NESTING = 10
MAX_ENUM_VALUES = 1_000
MAX_CHARS = 120_000
LARGE_ENUM_VALUES, LARGE_ENUM_CHARS = 250, 15_000
MAX_DESCRIPTION = 1_024

Violation = tuple[str, str, str]


@dataclass(frozen=True)
class Rules:
    """What one provider's strict mode takes, where it differs from OpenAI's."""

    keywords: frozenset[str] = SUPPORTED_KEYWORDS
    formats: frozenset[str] = FORMATS
    all_required: bool = True  # every property listed in required
    type_lists: bool = True  # "type": ["string", "null"]
    recursion: bool = True  # a $ref chain may come back to where it started


RULES: dict[str, Rules] = {
    "openai": Rules(),
    "azure_openai": Rules(),
    "openrouter": Rules(),
    "deepseek": Rules(formats=frozenset({"email", "hostname", "ipv4", "ipv6", "uuid"})),
    "xai": Rules(all_required=False, recursion=False),
    "mistral": Rules(
        keywords=frozenset(
            {
                "type",
                "enum",
                "const",
                "anyOf",
                "$ref",
                "$defs",
                "properties",
                "required",
                "additionalProperties",
                "items",
                "description",
                "title",
            }
        ),  # fmt: skip
        formats=frozenset(),
        type_lists=False,
        recursion=False,
    ),
}


def _esc(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _resolve(root: Any, ref: str) -> tuple[Any, str] | None:
    """The target of a local reference and its pointer, or None."""
    if not ref.startswith("#"):
        return None
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return None
    node = root
    for raw in fragment.split("/")[1:] if fragment else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node, fragment


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


def _chars(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(json.dumps(value))


class _Checker:
    def __init__(self, root: Any, rules: Rules = RULES["openai"]) -> None:
        self.root = root
        self.rules = rules
        self.found: list[Violation] = []
        self.properties = 0
        self.enum_values = 0
        self.chars = 0

    def add(self, pointer: str, rule: str, message: str) -> None:
        self.found.append((pointer, rule, message))

    # -- one schema --------------------------------------------------------------------------

    def schema(self, node: Any, pointer: str) -> None:
        if not isinstance(node, dict):
            self.add(pointer, "not-a-schema-object", f"a schema must be a mapping, not {node!r}")
            return
        for keyword in node:
            if keyword not in self.rules.keywords:
                self.add(
                    f"{pointer}/{_esc(keyword)}",
                    "unsupported-keyword",
                    f"{keyword!r} is not supported",
                )
        if not any(k in node for k in ("type", "enum", "const", "anyOf", "$ref")):
            self.add(pointer, "untyped", "a schema needs type, enum, const, anyOf or $ref")
        if "$ref" in node:
            self.ref(node, pointer)
        types = _types(node)
        for value in types:
            if value not in TYPES:
                self.add(f"{pointer}/type", "bad-type", f"unknown type {value!r}")
        if isinstance(node.get("type"), list) and len(set(map(str, types))) != len(types):
            self.add(f"{pointer}/type", "bad-type", "repeated type")
        if isinstance(node.get("type"), list) and not self.rules.type_lists:
            self.add(f"{pointer}/type", "type-list", "a type list is not supported")
        if "format" in node and node["format"] not in self.rules.formats:
            self.add(
                f"{pointer}/format",
                "unsupported-format",
                f"format {node['format']!r} is not supported",
            )
        if "enum" in node:
            self.enum(node["enum"], f"{pointer}/enum")
        if "const" in node:
            self.chars += _chars(node["const"])
        if "anyOf" in node:
            branches = node["anyOf"]
            if not isinstance(branches, list) or not branches:
                self.add(f"{pointer}/anyOf", "bad-anyOf", "anyOf must be a non-empty list")
            else:
                for index, branch in enumerate(branches):
                    self.schema(branch, f"{pointer}/anyOf/{index}")
        if (
            "object" in types
            or "properties" in node
            or "additionalProperties" in node
            or "required" in node
        ):
            self.object(node, pointer, types)
        if "array" in types or "items" in node:
            self.array(node, pointer, types)
        for defs in ("$defs", "definitions"):
            if defs in node:
                value = node[defs]
                if not isinstance(value, dict):
                    self.add(f"{pointer}/{defs}", "bad-defs", f"{defs} must be a mapping")
                    continue
                for name, sub in value.items():
                    self.chars += len(name)
                    self.schema(sub, f"{pointer}/{defs}/{_esc(name)}")

    def ref(self, node: dict[str, Any], pointer: str) -> None:
        siblings = sorted(set(node) - {"$ref"})
        if siblings:
            self.add(pointer, "ref-with-siblings", f"$ref has sibling keywords {siblings}")
        ref = node["$ref"]
        if not isinstance(ref, str) or _resolve(self.root, ref) is None:
            self.add(
                f"{pointer}/$ref", "bad-ref", f"$ref {ref!r} is not a local reference that resolves"
            )

    def enum(self, values: Any, pointer: str) -> None:
        if not isinstance(values, list) or not values:
            self.add(pointer, "bad-enum", "enum must be a non-empty list")
            return
        self.enum_values += len(values)
        strings = [v for v in values if v is not None]
        total = sum(_chars(v) for v in strings)
        self.chars += total
        if (
            len(values) > LARGE_ENUM_VALUES
            and all(isinstance(v, str) for v in strings)
            and total > LARGE_ENUM_CHARS
        ):
            self.add(
                pointer,
                "limit-string-enum",
                f"a string enum of {len(values)} values has {total} characters "
                f"(at most {LARGE_ENUM_CHARS})",
            )

    def object(self, node: dict[str, Any], pointer: str, types: list[Any]) -> None:
        if "object" not in types:
            self.add(pointer, "object-without-type", "an object schema needs type 'object'")
        properties = node.get("properties")
        if not isinstance(properties, dict):
            self.add(pointer, "object-without-properties", "object schema missing properties")
            properties = {}
        if node.get("additionalProperties") is not False:
            self.add(
                pointer,
                "open-object",
                "'additionalProperties' is required to be supplied and to be false",
            )
        required = node.get("required")
        if required is None and not self.rules.all_required:
            required = []  # optional members may stay out of required: all of them here
        if not isinstance(required, list):
            self.add(pointer, "required-missing", "'required' is required to be supplied")
            required = []
        missing = [name for name in properties if name not in required]
        if missing and self.rules.all_required:
            self.add(f"{pointer}/required", "required-incomplete", f"'required' misses {missing}")
        unknown = [name for name in required if name not in properties]
        if unknown:
            self.add(
                f"{pointer}/required",
                "required-unknown",
                f"'required' names no property: {unknown}",
            )
        if len(set(map(str, required))) != len(required):
            self.add(f"{pointer}/required", "required-repeated", "'required' repeats a name")
        self.properties += len(properties)
        for name, sub in properties.items():
            self.chars += len(name)
            self.schema(sub, f"{pointer}/properties/{_esc(name)}")

    def array(self, node: dict[str, Any], pointer: str, types: list[Any]) -> None:
        items = node.get("items")
        if "array" in types and items is None:
            self.add(pointer, "array-without-items", "an array needs an items schema")
        if items is not None:
            if isinstance(items, list):
                self.add(f"{pointer}/items", "tuple-items", "items must be one schema")
            else:
                self.schema(items, f"{pointer}/items")

    # -- nesting ------------------------------------------------------------------------------

    def depth(self, node: Any, level: int, stack: tuple[str, ...]) -> tuple[int, str]:
        """The deepest data level under ``node`` (at ``level``), through non-recursive refs."""
        if not isinstance(node, dict):
            return level, ""
        best = (level, "")
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = _resolve(self.root, ref)
            if target is not None and target[1] not in stack:
                found = self.depth(target[0], level, (*stack, target[1]))
                best = max(best, found)
        for index, branch in enumerate(node.get("anyOf") or []):
            found = self.depth(branch, level, stack)
            best = max(best, (found[0], f"/anyOf/{index}{found[1]}"))
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name, sub in properties.items():
                found = self.depth(sub, level + 1, stack)
                best = max(best, (found[0], f"/properties/{_esc(name)}{found[1]}"))
        items = node.get("items")
        if isinstance(items, dict):
            found = self.depth(items, level + 1, stack)
            best = max(best, (found[0], f"/items{found[1]}"))
        return best


def _cycles(root: Any) -> list[Violation]:
    """A ``$ref`` that leads back to a schema on its own chain of references (depth-first, each
    target explored once: a reference to a target still being explored closes a cycle)."""
    found: list[Violation] = []
    state: dict[str, str] = {}  # target pointer -> "open" | "done"

    def walk(node: Any, pointer: str) -> None:
        if isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, f"{pointer}/{index}")
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = _resolve(root, ref)
            if target is not None:
                seen = state.get(target[1])
                if seen == "open":
                    found.append((f"{pointer}/$ref", "recursion", "a circular $ref"))
                elif seen is None:
                    state[target[1]] = "open"
                    walk(target[0], target[1])
                    state[target[1]] = "done"
        for key, value in node.items():
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                for name, sub in value.items():
                    if key == "properties":
                        walk(sub, f"{pointer}/{key}/{_esc(name)}")
            elif key in ("items", "anyOf", "additionalProperties"):
                walk(value, f"{pointer}/{key}")

    state[""] = "open"
    walk(root, "")
    return found


def violations(
    schema: Any,
    *,
    name: str | None = None,
    description: str | None = None,
    provider: str = "openai",
) -> list[Violation]:
    """Everything the strict mode of ``provider`` (OpenAI's unless said) refuses in ``schema``
    (a tool's parameters or an output's schema), and in its ``name`` and ``description`` when
    given."""
    rules = RULES[provider]
    checker = _Checker(schema, rules)
    if not rules.recursion:
        checker.found += _cycles(schema)
    if name is not None and not NAME.fullmatch(name):
        checker.add("", "bad-name", f"name {name!r} does not match {NAME.pattern}")
    if description is not None and len(description) > MAX_DESCRIPTION:
        checker.add("", "limit-description", f"description of {len(description)} characters")
    if not isinstance(schema, dict):
        checker.add("", "root-not-object", "the root must be an object schema")
        return checker.found
    if any(k in schema for k in ("anyOf", "oneOf", "allOf", "$ref")):
        checker.add(
            "", "root-union", "the root must be one object schema, not a union or reference"
        )
    if _types(schema) != ["object"]:
        checker.add(
            "", "root-not-object", f"the root must have type 'object', not {schema.get('type')!r}"
        )
    checker.schema(schema, "")
    level, where = checker.depth(schema, 1, ("",))
    if level > MAX_NESTING:
        checker.add(
            where, "limit-nesting", f"{level} levels of nesting exceeds limit of {MAX_NESTING}"
        )
    if checker.properties > MAX_PROPERTIES:
        checker.add(
            "", "limit-properties", f"{checker.properties} properties (at most {MAX_PROPERTIES})"
        )
    if checker.enum_values > MAX_ENUM_VALUES:
        checker.add(
            "",
            "limit-enum-values",
            f"{checker.enum_values} enum values (at most {MAX_ENUM_VALUES})",
        )
    if checker.chars > MAX_CHARS:
        checker.add(
            "",
            "limit-chars",
            f"{checker.chars} characters of names and values (at most {MAX_CHARS})",
        )
    return checker.found


def assert_strict(schema: Any, **context: Any) -> None:
    """Fail with every violation listed."""
    found = violations(schema, **context)
    assert not found, "not valid in OpenAI strict mode:\n" + "\n".join(
        f"  {p or '/'}: {r}: {m}" for p, r, m in found
    )
