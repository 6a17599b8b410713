"""Envelope validators: provider response schemas (``toolgen/envelopes``) compiled to Python.

- ``load_envelope_schemas(provider, overrides)``: surface -> schema, with the design's overrides;
- ``render_envelope_module(provider, schemas, header)``: ``OUT/_envelopes_<provider>.py``;
- ``render_runtime(header)``: the source of ``OUT/_runtime.py``.
"""

from toolgen.envelope.errors import EnvelopeSchemaError
from toolgen.envelope.render import render_envelope_module, render_runtime
from toolgen.envelope.schemas import ENVELOPE_PROVIDERS, load_envelope_schemas

__all__ = [
    "ENVELOPE_PROVIDERS",
    "EnvelopeSchemaError",
    "load_envelope_schemas",
    "render_envelope_module",
    "render_runtime",
]
