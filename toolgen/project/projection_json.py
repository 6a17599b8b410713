"""The projection as the build caches it: a contract's projection, less the contract, with its
diagnostics, as a JSON value (the rewrite record by its own codec, toolgen.project.rewrites.record_json)."""

from __future__ import annotations

from typing import Any

from toolgen.infra.diagnostics import Diagnostic
from toolgen.project.rewrites import RewriteRecord, record_from_json, record_to_json

#: a projection without its contract: (provider_name, schema, rewrites, provider, meaning, strict)
Parts = tuple[str, Any, RewriteRecord, str, Any, bool]


def parts_to_json(value: tuple[Parts, list[Diagnostic]]) -> list[Any]:
    (name, schema, rewrites, provider, meaning, strict), found = value
    # the meaning is usually the schema itself (no OpenAPI respelling, no wire wrapper)
    same = meaning is schema
    return [
        name,
        schema,
        record_to_json(rewrites),
        provider,
        None if same else meaning,
        same,
        strict,
        [d.to_dict() for d in found],
    ]


def parts_from_json(value: list[Any]) -> tuple[Parts, list[Diagnostic]]:
    name, schema, rewrites, provider, meaning, same, strict, found = value
    parts = (
        name,
        schema,
        record_from_json(rewrites),
        provider,
        schema if same else meaning,
        bool(strict),
    )
    return parts, [Diagnostic.from_dict(d) for d in found]
