"""Anthropic Messages API: strict tool use (``input_schema``) and JSON outputs (``output_config.format``).

Source: Anthropic docs "Structured outputs" (strict tool use and JSON outputs,
https://docs.claude.com/en/docs/build-with-claude/structured-outputs) and anthropic-sdk-python
types/tool_param.py. Strict mode needs ``additionalProperties: false`` on every
object but lets optional members stay optional, so the projection adds no nulls and the inverse is
the identity. Verified on 2026-12-02. One schema over the cap of 24 optional members could never
go strict: its members past the cap are written required and nullable (``optionals_over_cap``,
OptionalsOverCap), and the inverse removes those nulls, as long as the union cap (16, which each
of them counts against) allows. Safe-side choices: names at most 64 characters (older errors
showed 64, newer docs 128); a ``pattern`` with backreferences, lookaround or ``\\b`` is dropped
(support is disputed); recursive schemas are rejected.

Non-strict tools (``strict: false``; tool_param.py: "When true, guarantees schema validation"):
the canonical schema minus a root-level ``anyOf``/``oneOf``/``allOf``, which the API refuses in
every mode ("input_schema does not support oneOf, allOf, or anyOf at the top level").
"""

from toolgen.apis.messages import MESSAGES
from toolgen.providers.base import (
    UNREPRESENTABLE,
    Limits,
    NameRule,
    Profile,
    Rule,
    largest_quantifier,
    root_unions_refused,
    simple_pattern,
)
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.registration import Registration

KEEP = frozenset({
    "type", "enum", "const", "anyOf", "description", "title", "$ref", "$defs", "definitions",
    "properties", "required", "additionalProperties", "items", "minItems", "pattern", "format",
})  # fmt: skip

# Not supported in strict mode; the canonical validation after decoding enforces them.
DROP = frozenset({
    "$schema", "$id", "$comment", "$anchor", "default", "examples", "example", "deprecated",
    "readOnly", "writeOnly", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems", "minProperties",
    "maxProperties", "contentEncoding", "contentMediaType", "contentSchema",
    "contains", "minContains", "maxContains",
})  # fmt: skip

REJECT = UNREPRESENTABLE

#: [unconfirmed threshold] the largest bound of a {n,m} quantifier a kept pattern may have: the
#: docs support "simple {n,m} cases", and the API refuses large ranges ({1,5000}); a pattern over
#: it is dropped (the canonical validation enforces it)
MOST_REPEATED = 256

FORMATS = frozenset({
    "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid",
})  # fmt: skip

_DOCS = (
    "Anthropic docs, Structured outputs: strict tool use, JSON outputs"
    " (docs.claude.com/en/docs/build-with-claude/structured-outputs)"
)
_CHECKED = "2026-12-02"

#: What the Messages API refuses with strict off too: the rest of the canonical schema is sent.
NON_STRICT = root_unions_refused(
    "'input_schema does not support oneOf, allOf, or anyOf at the top level' even without strict "
    "(strict: false is a documented value: 'When true, guarantees schema validation')",
    "Anthropic docs, Tool use (docs.claude.com/en/docs/agents-and-tools/tool-use/overview);"
    " anthropic-sdk-python types/tool_param.py",
    "2026-12-03",
)

RULES: tuple[Rule, ...] = (
    Rule(
        "keywords",
        "type, description, enum, const, anyOf, local $ref/$defs, items, minItems 0 or 1, simple "
        "pattern, format are supported in strict mode: kept; numeric bounds, lengths, maxItems, "
        "min/maxProperties are not: dropped",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "patterns",
        "[disputed] backreferences, lookaround and \\b: such a pattern is dropped (safe side)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "pattern quantifiers",
        "simple {n,m} cases only; a quantifier over 256 ({1,5000} is refused) drops its pattern "
        "[unconfirmed threshold: safe side]",
        _DOCS,
        "2026-12-07",
    ),
    Rule(
        "formats",
        "date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "optional members",
        "properties may stay optional: no nulls added, the inverse is the identity",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "optional cap",
        "over 24 optional members in one schema (never strict as they are): the first 24 stay "
        "optional (objects depth first, members as authored; one that accepts null always "
        "stays), the others go required and nullable, and the inverse removes their nulls; each "
        "counts as a union-typed member, so past the union cap too the schema is refused "
        "(LIMIT_OPTIONAL_MEMBERS)",
        _DOCS,
        "2026-12-04",
    ),
    Rule("objects", "additionalProperties: false set explicitly on every object", _DOCS, _CHECKED),
    Rule(
        "property keys",
        "^[a-zA-Z0-9_.-]{1,64}$ (the API's error text 'Property keys should match pattern', "
        "quoted in anthropics/claude-code #4668): a member named otherwise goes out under a name "
        "it takes (its refused characters as _, numbered where two meet) and is named back",
        "Anthropic API errors as users report them (github.com/anthropics/claude-code/issues/4668)",
        "2026-12-07",
    ),
    Rule(
        "enum case",
        "the letter case of enum and const strings is not guaranteed in structured outputs and "
        "strict tool use ('Invalid outputs'): a string that differs from a declared one only in "
        "case is read back as the declared one, where no other value of its enum folds to it",
        _DOCS,
        "2026-12-07",
    ),
    Rule(
        "recursion",
        "recursive schemas are not supported in strict mode: "
        "each $ref that closes a cycle is written as a string of the value's JSON text (the "
        "inverse decodes it, the canonical validation checks its shape); rejected inside "
        "anyOf/oneOf (the text could be another branch's string)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "roots",
        "the root is type object; a root anyOf/oneOf/allOf is refused in any mode",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "limits",
        "per request: 20 strict tools, 24 optional and 16 union-typed members across their "
        "schemas (one schema over them is rejected; tool_definitions checks a selection)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "names",
        "^[a-zA-Z0-9_-]{1,128}$ (older errors showed 64): at most 64, the safe side",
        "anthropic-sdk-python types/tool_param.py; Anthropic API reference, Messages, tools[].name",
        _CHECKED,
    ),
    *NON_STRICT.rules,
)

ANTHROPIC = Profile(
    name="anthropic",
    display_name="Anthropic",
    title="Anthropic strict tool use",
    keep=KEEP,
    drop=DROP,
    reject=REJECT,
    formats=FORMATS,
    keep_if={
        "minItems": lambda value: value in (0, 1),
        "pattern": lambda pattern: (
            simple_pattern(pattern) and largest_quantifier(pattern) <= MOST_REPEATED
        ),
    },
    # 20 strict tools, 24 optional and 16 union-typed members are limits across all strict tools
    # of one request; one schema over them can never be sent.
    limits=Limits(optional_members=24, union_members=16, strict_tools=20),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    member_names=NameRule(allowed="[a-zA-Z0-9_.-]", max_length=64),
    optional_style="omit",
    optionals_over_cap=True,
    recursion=False,
    enum_case_may_differ=True,
    apis=(MESSAGES,),
    non_strict=NON_STRICT,
    rules=RULES,
)


def _auth(key: str) -> dict[str, str]:
    """The Messages API's key header, with the API version every request names."""
    return {"x-api-key": key, "anthropic-version": "2023-06-01"}


REGISTRATION = Registration(
    ANTHROPIC,
    order=20,
    # anthropic-sdk-python's base URL is https://api.anthropic.com; it posts to /v1/messages
    # (_client.py and resources/messages; checked 2026-12-07)
    endpoint=Endpoint(
        "ANTHROPIC_API_KEY",
        "https://api.anthropic.com",
        "claude-haiku-4-5",
        _auth,
        api_paths=(("messages", "/v1"),),
    ),
)
