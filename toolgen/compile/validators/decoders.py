"""The fields the tool-call decoders of toolgen/runtime read, checked against the envelope schemas.

A decoder (toolgen/runtime/_<api>.py) reads validated data with plain subscripts, so every field it
reads (its module's ``READS``) must be guaranteed by its surface's schema (required where it
subscripts, the right type). ``check_api_reads`` verifies that at build time, so an override that
drops such a field is a build error rather than a KeyError inside a generated parser.

Read paths: ``key`` (required, never null), ``key?`` (may be absent or null: read with ``.get``,
null taken as absent; what is checked is the non-null branch), ``[]`` (every item),
``[0]`` (the first item: needs minItems >= 1), ``{D=V}`` (the union case V of discriminator D).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from toolgen.apis.api import Api
from toolgen.compile.validators.envelope_compiler import SurfaceCompiler
from toolgen.compile.validators.errors import EnvelopeSchemaError


def check_api_reads(provider: str, apis: Iterable[Api], schemas: dict[str, Any]) -> None:
    """Raise EnvelopeSchemaError unless ``schemas`` has every surface the decoders of ``apis``
    validate and guarantees every field they read."""
    for api in apis:
        for surface in api.surfaces:
            if surface not in schemas:
                raise EnvelopeSchemaError(
                    provider, surface, "", f"the {api.name} tool-call decoder needs this surface"
                )
        for surface, path, json_type in api.reads:
            check_decoder_read(provider, surface, schemas[surface], path, json_type)


def check_decoder_read(provider: str, surface: str, schema: Any, path: str, json_type: str) -> None:
    """Raise EnvelopeSchemaError unless ``schema`` guarantees what a decoder reads at ``path``."""
    lookup = SurfaceCompiler(provider, surface, schema)
    where = ""

    def fail(message: str) -> EnvelopeSchemaError:
        return lookup.error(where, f"the tool-call decoder reads {path} ({json_type}); {message}")

    nodes: list[tuple[Any, str]] = [_resolved(lookup, schema, "")]
    for token in re.findall(r"\{[^}]*\}|[^.]+", path):
        node, where = nodes[-1]
        if token == "[]" or token.endswith("[0]"):
            key = "" if token == "[]" else token.removesuffix("[0]")
            if key:
                nodes.append(_member(lookup, node, where, key, fail))
                node, where = nodes[-1]
            if lookup.describe(node, where) != "array" or "items" not in node:
                raise fail("an array with items is needed here")
            if token != "[]" and node.get("minItems", 0) < 1:
                raise fail("the array needs minItems 1")
            nodes.append(_resolved(lookup, node["items"], where + "/items"))
        elif token.startswith("{"):
            discriminator, _, value = token[1:-1].partition("=")
            cases = {
                c["if"]["properties"][discriminator]["const"]: (c["then"], i)
                for i, c in enumerate(node.get("allOf", ()))
                if discriminator in c.get("if", {}).get("properties", {})
            }
            if value not in cases:
                raise fail(f"the union needs the case {value!r}")
            then, position = cases[value]
            resolved, then_pointer = _resolved(lookup, then, f"{where}/allOf/{position}/then")
            # a case's members may be declared in the case or beside the union
            nodes.append(
                (
                    {
                        "properties": {
                            **node.get("properties", {}),
                            **resolved.get("properties", {}),
                        },
                        "required": [*node.get("required", ()), *resolved.get("required", ())],
                    },
                    then_pointer,
                )
            )
        else:
            nodes.append(_member(lookup, node, where, token, fail))
    node, where = nodes[-1]
    # a decoder that reads "string or object" handles a schema that guarantees either
    if not set(lookup.describe(node, where).split(" or ")) <= set(json_type.split(" or ")):
        raise fail(f"the schema says {lookup.describe(node, where)}")


def _member(
    lookup: SurfaceCompiler, node: Any, pointer: str, token: str, fail: Any
) -> tuple[Any, str]:
    key = token.removesuffix("?")
    properties = node.get("properties", {}) if isinstance(node, dict) else {}
    if key not in properties:
        raise fail(f"{key!r} must be declared")
    if key == token and key not in node.get("required", ()):
        raise fail(f"{key!r} must be required")
    child, child_pointer = _resolved(lookup, properties[key], f"{pointer}/properties/{key}")
    if lookup.describe(child, child_pointer).endswith(" or null"):
        if key == token:
            raise fail(f"{key!r} must not be nullable")
        inner = lookup.nullable_inner(child, child_pointer)
        position = next(i for i, branch in enumerate(child["anyOf"]) if branch is inner)
        child, child_pointer = _resolved(lookup, inner, f"{child_pointer}/anyOf/{position}")
    return child, child_pointer


def _resolved(lookup: SurfaceCompiler, schema: Any, pointer: str) -> tuple[Any, str]:
    return lookup.follow_refs(schema, pointer)
