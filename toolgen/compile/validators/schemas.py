"""The envelope schemas of a provider: toolgen's own (``toolgen/providers/envelopes``) and
overrides."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolgen.apis.api import Api
from toolgen.compile.validators.decoders import check_api_reads
from toolgen.compile.validators.envelope_compiler import check_schema
from toolgen.compile.validators.errors import EnvelopeSchemaError
from toolgen.providers.surfaces import builtin_schemas


def load_envelope_schemas(
    provider: str, overrides: dict[str, Any], apis: Iterable[Api]
) -> dict[str, Any]:
    """Surface -> schema for ``provider``, sorted by surface, each checked against the subset.

    ``overrides`` maps ``"<provider>/<surface>"`` to a schema (from ``design/envelopes``): a known
    surface is replaced, a new one is added. Raises EnvelopeSchemaError for what cannot be compiled,
    including an override that drops a field the tool-call decoder of one of ``apis`` reads.
    """
    apis = tuple(apis)
    schemas = builtin_schemas(provider, apis)
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
