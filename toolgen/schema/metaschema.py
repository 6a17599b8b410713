"""The JSON Schema 2020-12 meta-schema as one flat schema, for checking design schemas fast.

The official meta-schema is seven vocabulary meta-schemas joined by ``allOf`` and tied together by
``$dynamicRef: "#meta"``; jsonschema resolves every dynamic reference by walking the dynamic scope,
which makes checking one contract cost milliseconds. Checked against the meta-schema itself (not
an extension of it), every ``#meta`` resolves to the whole 2020-12 meta-schema, so the same rules
can be written as one schema:

* the ``properties`` of every vocabulary (and the deprecated ones of the root) in one
  ``properties`` (no keyword is defined by two vocabularies: checked when the schema is built);
* ``$dynamicRef: "#meta"`` as ``$ref: "#"`` (the flat schema's root);
* each vocabulary's ``$defs`` copied where they are referenced.

A schema passes the flat meta-schema exactly when it passes the official one (tests compare
both on the JSON-Schema-Test-Suite's schemas and the corpus tools); the flat one reports each
problem once, where the official one reports it once per vocabulary that repeats ``type``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator
from jsonschema_specifications import REGISTRY

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_BASE = DIALECT.rsplit("/", 1)[0] + "/"
_DEFS = "#/$defs/"


def _contents(uri: str) -> dict[str, Any]:
    contents = REGISTRY.contents(uri)
    assert isinstance(contents, Mapping)  # the meta-schemas of 2020-12 are objects, never booleans
    return dict(contents)


def _vocabularies() -> list[tuple[str, dict[str, Any]]]:
    """(short name, meta-schema) of each vocabulary of 2020-12, then the root's own keywords."""
    root = _contents(DIALECT)
    parts = [
        (part["$ref"].rsplit("/", 1)[-1], _contents(_BASE + part["$ref"])) for part in root["allOf"]
    ]
    return [*parts, ("schema", root)]


def _flatten(node: Any, vocabulary: str, defs: dict[str, Any]) -> Any:
    """``node`` of ``vocabulary``'s meta-schema with its references made local to the flat one."""
    if isinstance(node, list):
        return [_flatten(item, vocabulary, defs) for item in node]
    if not isinstance(node, dict):
        return node
    flat = {key: _flatten(value, vocabulary, defs) for key, value in node.items() if key != "$ref"}
    if flat.pop("$dynamicRef", None) == "#meta":
        return {"$ref": "#", **flat}
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return flat
    document, _, fragment = ref.partition("#")
    owner = document.rsplit("/", 1)[-1] if document else vocabulary
    if not fragment.startswith("/$defs/"):
        raise ValueError(f"unexpected reference {ref!r} in the {vocabulary} meta-schema")
    target = _flatten(defs[owner][fragment[len("/$defs/") :]], owner, defs)
    if isinstance(target, dict) and not set(target) & set(flat):
        return {**target, **flat}
    return {"allOf": [target], **flat}


@functools.cache
def flat_meta_schema() -> dict[str, Any]:
    """The flat 2020-12 meta-schema (see the module docstring)."""
    vocabularies = _vocabularies()
    defs = {name: schema.get("$defs", {}) for name, schema in vocabularies}
    properties: dict[str, Any] = {}
    for name, schema in vocabularies:
        if schema.get("type") not in (None, ["object", "boolean"]):
            raise ValueError(f"the {name} meta-schema admits other types")
        for keyword, rule in schema.get("properties", {}).items():
            if keyword in properties:
                raise ValueError(f"{keyword!r} is defined by two vocabularies")
            properties[keyword] = _flatten(rule, name, defs)
    return {"$schema": DIALECT, "type": ["object", "boolean"], "properties": properties}


@functools.cache
def meta_validator() -> Validator:
    """A validator of schemas against the flat meta-schema (built once per process)."""
    return Draft202012Validator(flat_meta_schema())
