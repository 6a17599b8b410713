"""OpenAI strict mode (Chat Completions and Responses API): function parameters and json_schema outputs.

Source: OpenAI Structured Outputs guide, "Supported schemas", and openai-python's
shared_params/function_definition.py and responses/function_tool_param.py; verified against
../shared/PROVIDERS.md on 2026-12-02. Where a fact is unconfirmed the profile takes the safe side:
``oneOf`` is folded into ``anyOf`` (looser), ``minLength``/``maxLength`` and ``default`` are dropped.
"""

from toolgen.providers.base import UNREPRESENTABLE, Limits, NameRule, Profile

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

#: Chat Completions' tool-call parser and stream accumulator in the generated envelope module.
CHAT_DECODER = {"chat": ("parse_chat_completion_tool_calls", "ChatCompletionToolCallStream")}

OPENAI = Profile(
    name="openai",
    title="OpenAI strict mode",
    keep=KEEP,
    drop=DROP,
    reject=REJECT,
    formats=FORMATS,
    limits=Limits(
        properties=5_000,
        nesting=10,
        enum_values=1_000,
        total_chars=120_000,
        large_string_enum=(250, 15_000),
        description=1_024,
    ),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    optional_style="nullable",
    decoders={
        **CHAT_DECODER,
        "responses": ("parse_response_tool_calls", "ResponseToolCallStream"),
    },
)
