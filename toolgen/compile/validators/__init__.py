"""Envelope validators: provider response schemas (``toolgen/providers/envelopes``) compiled
to Python.

- ``load_envelope_schemas(provider, overrides, apis)``: surface -> schema, with the design's
  overrides, checked against what the decoders of ``apis`` read;
- ``render_envelope_module(provider, schemas, header)``: ``OUT/_envelopes_<provider>.py``
  (``submit_envelope_module``: the same, formatted while the caller goes on).
"""

from toolgen.compile.validators.envelope_module import (
    render_envelope_module,
    submit_envelope_module,
)
from toolgen.compile.validators.errors import EnvelopeSchemaError
from toolgen.compile.validators.schemas import load_envelope_schemas

__all__ = [
    "EnvelopeSchemaError",
    "load_envelope_schemas",
    "render_envelope_module",
    "submit_envelope_module",
]
