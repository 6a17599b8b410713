"""The envelope schemas of a provider: toolgen's own (``toolgen/providers/envelopes``) and
overrides."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from toolgen.apis import Api
from toolgen.envelope.compiler import check_schema
from toolgen.envelope.decoders import check_api_reads
from toolgen.envelope.errors import EnvelopeSchemaError

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "providers" / "envelopes"


def envelope_providers() -> tuple[str, ...]:
    """The providers with envelope schemas in toolgen (a folder under
    toolgen/providers/envelopes)."""
    return tuple(sorted(p.name for p in BUILTIN_DIR.iterdir() if p.is_dir()))


def builtin_schemas(provider: str) -> dict[str, Any]:
    folder = BUILTIN_DIR / provider
    if not folder.is_dir():
        return {}
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("*.json"))
    }


def load_envelope_schemas(
    provider: str, overrides: dict[str, Any], apis: Iterable[Api]
) -> dict[str, Any]:
    """Surface -> schema for ``provider``, sorted by surface, each checked against the subset.

    ``overrides`` maps ``"<provider>/<surface>"`` to a schema (from ``design/envelopes``): a known
    surface is replaced, a new one is added. Raises EnvelopeSchemaError for what cannot be compiled,
    including an override that drops a field the tool-call decoder of one of ``apis`` reads.
    """
    schemas = builtin_schemas(provider)
    for key in sorted(overrides):
        owner, _, surface = key.partition("/")
        if owner != provider:
            continue
        if not surface.isidentifier() or not surface.isascii() or surface.startswith("_"):
            raise EnvelopeSchemaError(
                provider,
                surface,
                "",
                "a surface name must be a Python identifier (it names validate_<surface>)",
            )
        schemas[surface] = overrides[key]
    schemas = dict(sorted(schemas.items()))
    for surface, schema in schemas.items():
        check_schema(provider, surface, schema)
    check_api_reads(provider, apis, schemas)
    return schemas
