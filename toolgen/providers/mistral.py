"""Mistral chat completions: function ``tools`` and ``response_format`` json_schema, with ``strict``.

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Mistral docs "Custom Structured
Outputs" and "Function calling"), verified on 2026-12-03. The docs state the request shapes
(``tools[].{type: "function", function: {name, description, parameters, strict}}``,
``response_format: {type: "json_schema", json_schema: {name, schema, strict}}``) and the name rule,
and leave the keyword support of strict mode open [unconfirmed]. The profile takes the safe side
there, rule by rule (each row below says why):

- kept: the structure every strict grammar needs and the docs' own examples use (type, enum,
  const, anyOf, properties, required, additionalProperties: false, items, $ref/$defs as the SDK's
  Pydantic models write them, description, title);
- dropped: every validation keyword (pattern, format, numeric and length bounds, minItems,
  maxItems, ...): the projection is looser and the canonical validation enforces them;
- nullable written as ``anyOf`` with a null branch (what Pydantic writes for Optional), never as a
  type list; optional members required and nullable (the OpenAI idiom, valid in any mode);
- recursive schemas rejected (no source says the grammar takes them);
- limits: OpenAI's (none are documented; OpenAI's are the ones known for such grammars).

Responses: the recordings (../shared/corpus/envelopes/mistral, 64 bodies and their streams) leave
out a call's ``type``, and stream a call whole in one chunk, sometimes without ``index``; Mistral's
API reference types ``function.arguments`` as a string or an object (``FunctionCall.arguments:
Dict[str, Any] | str`` in the mistralai SDK). Every recorded call has a string; both forms are
decoded, with the lenient Chat Completions decoder (see toolgen/envelope/decoders.py).
"""

from dataclasses import replace

from toolgen.providers.base import NameRule
from toolgen.providers.openai import CHAT_DECODER, DROP, OPENAI

#: rule -> (source, date verified)
RULES: dict[str, tuple[str, str]] = {
    "names: 1-64 of [a-zA-Z0-9_-]": ("PROVIDERS.md, Mistral (docs, function calling)", "2026-12-03"),
    "strict json_schema and tools": ("PROVIDERS.md, Mistral (docs, custom structured outputs)", "2026-12-03"),
    "validation keywords dropped": ("undocumented [unconfirmed]: safe side", "2026-12-03"),
    "nullable as anyOf with null": ("undocumented [unconfirmed]: Pydantic's form, safe side", "2026-12-03"),
    "recursion rejected": ("undocumented [unconfirmed]: safe side", "2026-12-03"),
    "arguments as string or object": ("mistralai SDK FunctionCall; corpus recordings (strings)", "2026-12-03"),
}  # fmt: skip

KEEP = frozenset({
    "type", "enum", "const", "anyOf", "description", "title", "$ref", "$defs",
    "properties", "required", "additionalProperties", "items",
})  # fmt: skip

MISTRAL = replace(
    OPENAI,
    name="mistral",
    title="Mistral strict mode",
    keep=KEEP,
    drop=DROP | OPENAI.keep - KEEP,
    formats=frozenset(),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    type_arrays=False,
    recursion=False,
    decoders=CHAT_DECODER,
)
