"""AWS Bedrock Converse: ``toolConfig.tools[].toolSpec`` and ``outputConfig.textFormat``.

The rules, each with its source and date, are ``RULES`` (strict) and ``LOOSE_RULES`` (strict off).

With ``strict = false`` only what Bedrock refuses in every mode is taken away (the root must be an
object); the shared projection still closes objects, folds ``oneOf`` and rejects what no profile
can express (``UNREPRESENTABLE``), and identifiers such as ``$id`` are dropped because bundling
already resolved them.
"""

from dataclasses import replace

from toolgen.apis import CONVERSE
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.anthropic import DROP as ANTHROPIC_DROP
from toolgen.providers.base import Limits, NameRule, Rule

#: Identifiers and the embedded-document schema: bundling resolved the first, the second describes
#: a string's decoded content, which no validator of the wire checks.
_LOOSE_DROP = frozenset({"$schema", "$id", "$comment", "$anchor", "contentSchema"})

#: Every format of draft 2020-12 (the loose profile sends any of them).
_ALL_FORMATS = frozenset({
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
    "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
    "json-pointer", "relative-json-pointer", "regex",
})  # fmt: skip

_API = (
    "Bedrock Runtime API reference, ToolSpecification, ToolInputSchema, OutputFormat "
    "(PROVIDERS.md, AWS Bedrock Converse)"
)
_CHECKED = "2026-12-03"

RULES: tuple[Rule, ...] = (
    Rule("names", "[a-zA-Z0-9_-]{1,64}", _API, _CHECKED),
    Rule("roots", "the input schema root is an object (in every mode)", _API, _CHECKED),
    Rule(
        "objects",
        "strict on Claude models: additionalProperties: false on every object (Anthropic's wording)",
        _API,
        _CHECKED,
    ),
    Rule(
        "keywords",
        "[unconfirmed for Bedrock; other model families undocumented] Anthropic's strict table, "
        "formats, minItems 0/1, simple patterns, no recursion: imported from the anthropic "
        "profile, so both move together (safe side)",
        _API,
        _CHECKED,
    ),
    Rule(
        "optional members",
        "as Anthropic strict tool use: optionals stay optional, no nulls added, identity inverse",
        _API,
        _CHECKED,
    ),
    Rule(
        "limits",
        "[unconfirmed] Anthropic's per-request caps of the strict grammar kept for Claude on "
        "Bedrock: 20 strict tools, 24 optional and 16 union members",
        _API,
        _CHECKED,
    ),
    Rule(
        "wire",
        "toolConfig.tools[].toolSpec{name, description (at least 1 character, else left out), "
        "inputSchema{json}, strict}; outputConfig.textFormat{type: json_schema, "
        "structure{jsonSchema{schema: JSON text, name, description}}}",
        _API,
        _CHECKED,
    ),
)

LOOSE_RULES: tuple[Rule, ...] = (
    *(rule for rule in RULES if rule.topic in ("names", "roots", "wire")),
    Rule(
        "keywords",
        "strict off (``[providers.bedrock] strict = false``): every validation keyword and "
        "format is sent; only identifiers ($schema, $id, $comment, $anchor) and contentSchema "
        "are dropped",
        _API,
        _CHECKED,
    ),
    Rule("optional members", "stay optional", _API, _CHECKED),
    Rule("limits", "none documented without strict", _API, _CHECKED),
)

_STRICT = replace(
    ANTHROPIC,
    name="bedrock",
    title="Bedrock Converse strict tool use",
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    apis=(CONVERSE,),
    rules=RULES,
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
    rules=LOOSE_RULES,
)

BEDROCK = replace(_STRICT, loose=_LOOSE)
