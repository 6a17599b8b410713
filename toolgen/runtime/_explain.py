"""Where and why a response does not match its envelope schema, found by walking the schema.

A generated envelope validator checks fast and only learns that something is wrong; it then calls
``explain_drift`` with the schema (the module holds it as JSON text), which walks the schema and the
value in the same order as the compiled checks and returns the SchemaDriftError of the first
mismatch. Only the subset of JSON Schema the envelope compiler accepts is interpreted: ``type`` (a
name or a list of names), ``const`` and ``enum`` (strings), ``minItems``, ``items``,
``properties``, ``required``, ``anyOf [S, {"type": "null"}]``, local ``$ref`` and discriminated
unions (``allOf`` of ``if {D: const V} then S``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import unquote

from ._runtime import (
    MISSING,
    SchemaDriftError,
    finite_float,
    integral_float,
    json_value,
    schema_drift,
)

__all__ = ["Mismatch", "explain_drift", "first_mismatch", "mismatch_handler"]

#: path, expected (text), actual (the value found, or MISSING)
Mismatch = tuple[tuple[str | int, ...], str, object]
#: A generated ``_wire_<surface>`` (the JSON checks; the JSON form returned).
Validate = Callable[[object], dict[str, Any]]

#: For each JSON type, whether a value is of it (bool is not a number; NaN is not a number).
_IS_TYPE: Final[dict[str, Callable[[Any], bool]]] = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "integer": lambda v: type(v) is int or integral_float(v),
    "number": lambda v: type(v) is int or finite_float(v),
}


def mismatch_handler(
    provider: str, schemas: str
) -> Callable[[Validate, str, object], dict[str, Any]]:
    """What the validators of a generated module do once their check failed (``schemas`` is the
    module's ``_SCHEMAS``)."""

    def mismatched(validate: Validate, surface: str, data: object) -> dict[str, Any]:
        """An SDK object is converted and checked again (raw JSON pays nothing for that);
        anything else is drift, explained."""
        converted = json_value(data)
        if converted is not data:
            return validate(converted)
        raise explain_drift(provider, surface, schemas, data) from None

    return mismatched


def explain_drift(provider: str, api: str, schemas: str, data: object) -> SchemaDriftError:
    """The drift error of the first mismatch of ``data`` with the schema of ``api`` in
    ``schemas``, once the fast path failed; the drift hooks see it. ``schemas`` is JSON text:
    ``{"$defs": {...}, "<api>": schema, ...}``, references resolving against the whole document.

    Finding nothing means the compiled validator and this walk disagree: a toolgen bug.
    """
    document = _parsed(schemas)
    found = first_mismatch(document[api], data, document)
    if found is None:
        raise AssertionError(f"toolgen bug: the validators of {api} disagree")
    path, expected, actual = found
    return schema_drift(provider, api, path, expected, actual)


@functools.cache
def _parsed(schemas: str) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(schemas)
    return parsed


def first_mismatch(
    schema: dict[str, Any], data: object, document: dict[str, Any] | None = None
) -> Mismatch | None:
    """The first place where ``data`` does not match the envelope schema ``schema``, or None;
    ``$ref`` pointers resolve against ``document`` (``schema`` itself when None)."""
    return _Walk(schema if document is None else document).node(schema, data, (), nullable=False)


class _Walk:
    """One walk over a schema document (``$ref`` pointers resolve against ``root``)."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    def node(
        self, schema: Any, value: Any, path: tuple[str | int, ...], nullable: bool
    ) -> Mismatch | None:
        if schema is True:
            return None
        if "$ref" in schema:
            return self.node(self.resolve(schema["$ref"]), value, path, nullable)
        if "anyOf" in schema:
            if value is None:
                return None
            return self.node(self.non_null(schema), value, path, nullable=True)
        own = self.own(schema, value)  # type, const, enum
        if own is not None:
            return path, own + " or null" if nullable else own, value
        if "minItems" in schema and len(value) < schema["minItems"]:
            return (*path, len(value)), self.describe(schema.get("items", True)), MISSING
        if "items" in schema:
            for index, item in enumerate(value):
                found = self.node(schema["items"], item, (*path, index), nullable=False)
                if found is not None:
                    return found
        if "properties" in schema:
            found = self.properties(schema, value, path)
            if found is not None:
                return found
        for key in schema.get("required", ()):
            if key not in schema.get("properties", {}) and key not in value:
                return (*path, key), "value", MISSING
        if "allOf" in schema:
            return self.variant(schema["allOf"], value, path)
        return None

    @staticmethod
    def own(schema: dict[str, Any], value: Any) -> str | None:
        """What the value itself should be, when it is not: ``string``, ``"message"``..."""
        name = schema.get("type")
        if isinstance(name, str):
            if not _IS_TYPE[name](value):
                return name
        elif isinstance(name, list) and not any(_IS_TYPE[n](value) for n in name):
            return " or ".join(name)
        if "const" in schema and value != schema["const"]:
            return json.dumps(schema["const"])
        values = schema.get("enum")
        if values is not None and (type(value) is not str or value not in values):
            return "one of " + ", ".join(json.dumps(v) for v in values)
        return None

    def properties(
        self, schema: dict[str, Any], value: dict[str, Any], path: tuple[str | int, ...]
    ) -> Mismatch | None:
        required = schema.get("required", ())
        for key, child in schema["properties"].items():
            member = value.get(key, MISSING)
            if member is MISSING:
                if key in required:
                    return (*path, key), self.describe(child), MISSING
                continue
            found = self.node(child, member, (*path, key), nullable=False)
            if found is not None:
                return found
        return None

    def variant(
        self, cases: list[dict[str, Any]], value: dict[str, Any], path: tuple[str | int, ...]
    ) -> Mismatch | None:
        """The case whose constant the discriminator holds (an unknown one passes)."""
        for case in cases:
            ((key, test),) = case["if"]["properties"].items()
            if value[key] == test["const"]:
                return self.node(case["then"], value, path, nullable=False)
        return None

    def describe(self, schema: Any, seen: frozenset[str] = frozenset()) -> str:
        """The expected-type text of a schema, as the compiler writes it."""
        if not isinstance(schema, dict):
            return "value"
        if "$ref" in schema:
            if schema["$ref"] in seen:
                return "value"
            return self.describe(self.resolve(schema["$ref"]), seen | {schema["$ref"]})
        if "anyOf" in schema:
            return self.describe(self.non_null(schema), seen) + " or null"
        if isinstance(schema.get("const"), str):
            return json.dumps(schema["const"])
        if isinstance(schema.get("enum"), list):
            return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
        name = schema.get("type")
        if isinstance(name, str):
            return name
        if isinstance(name, list):
            return " or ".join(name)
        return "value"

    @staticmethod
    def non_null(schema: dict[str, Any]) -> Any:
        """S of ``{"anyOf": [S, {"type": "null"}]}`` (in either order)."""
        first, second = schema["anyOf"]
        return second if first == {"type": "null"} else first

    def resolve(self, ref: str) -> Any:
        """The target of a local ``$ref`` (``#/$defs/Usage``)."""
        node: Any = self.root
        for token in unquote(ref.removeprefix("#")).split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node
