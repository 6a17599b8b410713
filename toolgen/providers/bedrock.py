"""AWS Bedrock Converse: ``toolConfig.tools[].toolSpec`` and ``outputConfig.textFormat``.

Rules, each with its source (../shared/PROVIDERS.md, "AWS Bedrock Converse"; the Bedrock Runtime
API reference: ToolSpecification{name, description (at least 1 character, so an empty one is left
out), inputSchema, strict}, OutputFormat{type: json_schema, structure{jsonSchema{schema: string,
name, description}}}), verified on 2026-12-03:

======================================  ==========================================================
rule                                    source / choice
======================================  ==========================================================
names ``[a-zA-Z0-9_-]{1,64}``           ToolSpecification.name
input schema root is an object          ToolInputSchema (every mode: the loose profile keeps it)
strict: every object closed             "additionalProperties: false" on Claude models, the same
                                        wording as Anthropic's strict tool use
strict: Anthropic's keyword table,      assumed for Claude [unconfirmed for Bedrock; other model
formats, ``minItems`` 0/1, simple       families undocumented]: Anthropic's tables are imported,
patterns, no recursion                  so both profiles move together (safe side)
strict: optionals stay optional         Anthropic strict tool use: no nulls added, identity inverse
strict: 20 tools, 24 optional and 16    Anthropic's per-request caps of the strict grammar, kept
union members per request at most       for Claude on Bedrock [unconfirmed; safe side]; one
                                        schema over them is rejected, a selection over them
                                        raises in ``tool_definitions``
``strict = false``                      ``[providers.bedrock] strict`` in toolgen.toml: the closed
                                        canonical schema, every validation keyword kept
======================================  ==========================================================

With ``strict = false`` only what Bedrock refuses in every mode is taken away (the root must be an
object); the shared projection still closes objects, folds ``oneOf`` and rejects what no profile
can express (``UNREPRESENTABLE``), and identifiers such as ``$id`` are dropped because bundling
already resolved them.
"""

from dataclasses import replace

from toolgen.apis import CONVERSE
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.anthropic import DROP as ANTHROPIC_DROP
from toolgen.providers.base import Limits, NameRule

#: Identifiers and the embedded-document schema: bundling resolved the first, the second describes
#: a string's decoded content, which no validator of the wire checks.
_LOOSE_DROP = frozenset({"$schema", "$id", "$comment", "$anchor", "contentSchema"})

#: Every format of draft 2020-12 (the loose profile sends any of them).
_ALL_FORMATS = frozenset({
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
})  # fmt: skip

_STRICT = replace(
    ANTHROPIC,
    name="bedrock",
    title="Bedrock Converse strict tool use",
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    apis=(CONVERSE,),
)

_LOOSE = replace(
    _STRICT,
    title="Bedrock Converse tool use (strict off)",
    keep=(ANTHROPIC.keep | ANTHROPIC_DROP) - _LOOSE_DROP,
    drop=_LOOSE_DROP,
    formats=_ALL_FORMATS,
    keep_if={},
    limits=Limits(),
    recursion=True,
    strict=False,
)

BEDROCK = replace(_STRICT, loose=_LOOSE)
