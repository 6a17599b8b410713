"""OpenAI strict mode (Chat Completions and Responses API): function parameters and json_schema outputs.

Source: OpenAI Structured Outputs guide, "Supported schemas"
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas), and openai-python's
shared_params/function_definition.py and responses/function_tool_param.py; verified on 2026-12-02.
Where a fact is unconfirmed the profile takes the safe side: ``oneOf`` is folded into ``anyOf``
(looser), ``minLength``/``maxLength`` and ``default`` are dropped.

Non-strict tools (``strict: false``; function_definition.py: "Only a subset of JSON Schema is
supported when ``strict`` is true") send the canonical schema, minus a root-level union: the
parameters are "described as a JSON Schema object" in every mode, and whether a root
``anyOf``/``oneOf``/``allOf`` passes with strict off is not documented [unconfirmed: safe side].
"""

from toolgen.apis.chat import CHAT
from toolgen.apis.responses import RESPONSES
from toolgen.providers.base import (
    UNREPRESENTABLE,
    Limits,
    NameRule,
    Profile,
    Rule,
    root_unions_refused,
    simple_pattern,
)
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.registration import Registration

KEEP = frozenset({
    "type", "enum", "const", "anyOf", "description", "title", "$ref", "$defs", "definitions",
    "properties", "required", "additionalProperties", "items",
    "pattern", "format",
    "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minItems", "maxItems",
})  # fmt: skip

# Refused by strict mode; the canonical validation after the inverse enforces them.
DROP = frozenset({
    "$schema", "$id", "$comment", "$anchor", "default", "examples", "example", "deprecated",
    "readOnly", "writeOnly", "minLength", "maxLength", "uniqueItems", "minProperties",
    "maxProperties", "contentEncoding", "contentMediaType", "contentSchema",
    "contains", "minContains", "maxContains",
})  # fmt: skip

REJECT = UNREPRESENTABLE

FORMATS = frozenset({
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
})  # fmt: skip

_GUIDE = (
    "OpenAI Structured Outputs guide, 'Supported schemas'"
    " (platform.openai.com/docs/guides/structured-outputs#supported-schemas)"
)
_CHECKED = "2026-12-02"

#: What strict: false leaves out of the canonical schema.
NON_STRICT = root_unions_refused(
    "[unconfirmed] the parameters are 'a JSON Schema object' in every mode; a root union with "
    "strict off is undocumented (safe side). strict: false is documented ('Only a subset of JSON "
    "Schema is supported when strict is true')",
    "openai-python shared_params/function_definition.py, responses/function_tool_param.py",
    "2026-12-03",
)

RULES: tuple[Rule, ...] = (
    Rule(
        "keywords",
        "type, enum, const, anyOf, description, $ref/$defs (recursion too), pattern, format, "
        "multipleOf, minimum, maximum, exclusive bounds, items, minItems, maxItems are supported: "
        "kept; default, minLength/maxLength [unconfirmed] and the rest dropped",
        _GUIDE,
        _CHECKED,
    ),
    Rule(
        "patterns",
        "lookaround (and, on the safe side, backreferences and \\b) are refused: 400 'regex "
        "lookaround is not supported'; such a pattern is dropped (the canonical validation "
        "enforces it)",
        _GUIDE,
        "2026-12-04",
    ),
    Rule(
        "oneOf",
        "[unconfirmed]: folded into anyOf (looser, the inverse is identity)",
        _GUIDE,
        _CHECKED,
    ),
    Rule(
        "formats",
        "date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid; 'uri' is refused "
        "('not a valid format'): other formats dropped",
        _GUIDE,
        _CHECKED,
    ),
    Rule(
        "optional members",
        "every property listed in required, optionals as a union with null: required and "
        "nullable, the inverse removes the nulls it forced",
        _GUIDE,
        _CHECKED,
    ),
    Rule("objects", "additionalProperties: false on every object: closed", _GUIDE, _CHECKED),
    Rule("roots", "the root is an object, never a root anyOf", _GUIDE, _CHECKED),
    Rule(
        "limits",
        "5,000 properties, 10 levels, 1,000 enum values, 120,000 characters of names and values, "
        "a string enum over 250 values at most 15,000 characters, descriptions 1,024, 128 tools "
        "per request",
        _GUIDE,
        _CHECKED,
    ),
    Rule(
        "names",
        "^[a-zA-Z0-9_-]+$, at most 64, for tools and response_format names",
        _GUIDE,
        _CHECKED,
    ),
    Rule(
        "wire",
        "Chat tools[].function{name, description, parameters, strict}, response_format "
        "json_schema{name, description, schema, strict}; Responses tools[]{type: function, name, "
        "...} and text.format",
        "openai-python shared_params/function_definition.py, responses/function_tool_param.py",
        _CHECKED,
    ),
    Rule(
        "tokens",
        "gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and the o-series tokenize with o200k_base (toolgen show "
        "--cost counts a definition's JSON text with it where tiktoken or bpe-openai is installed; "
        "the API renders definitions into its own prompt format, so what it bills differs)",
        "tiktoken, tiktoken/model.py MODEL_PREFIX_TO_ENCODING (github.com/openai/tiktoken)",
        "2026-12-07",
    ),
    *NON_STRICT.rules,
)

OPENAI = Profile(
    name="openai",
    display_name="OpenAI",
    title="OpenAI strict mode",
    keep=KEEP,
    drop=DROP,
    reject=REJECT,
    formats=FORMATS,
    keep_if={"pattern": simple_pattern},
    limits=Limits(
        properties=5_000,
        nesting=10,
        enum_values=1_000,
        total_chars=120_000,
        large_string_enum=(250, 15_000),
        description=1_024,
        tools=128,
    ),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    optional_style="nullable",
    apis=(CHAT, RESPONSES),
    non_strict=NON_STRICT,
    tokenizer="o200k_base",
    rules=RULES,
)


REGISTRATION = Registration(
    OPENAI,
    order=10,
    endpoint=Endpoint("OPENAI_API_KEY", "https://api.openai.com/v1", "gpt-4.1-mini"),
)
