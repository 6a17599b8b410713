"""AWS Bedrock Converse: ``toolConfig.tools[].toolSpec`` and ``outputConfig.textFormat``.

The rules, each with its source and date, are ``RULES``. With strict off (``[providers.bedrock]
strict = false``, or per tool in its file) a tool goes out without the ``strict`` key
(ToolSpecification's default), its schema the canonical one minus what Bedrock refuses in every
mode (``NON_STRICT``; toolgen.project.nonstrict). ``bedrock.tool_definitions(strict="auto")``
(the default) marks strict as many tools as the per-request limits allow, as Anthropic's does.
"""

from toolgen.apis.converse import CONVERSE
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.base import NameRule, Rule, derive, root_unions_refused
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.registration import Registration

_API = (
    "Bedrock Runtime API reference, ToolSpecification, ToolInputSchema, OutputFormat "
    "(docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html)"
)
_CHECKED = "2026-12-03"

NON_STRICT = root_unions_refused(
    "[unconfirmed] the input schema root is an object in every mode; a root union taken as "
    "refused, as on Anthropic (safe side); strict off leaves the strict key out",
    _API,
    _CHECKED,
)

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
        "formats, minItems 0/1, simple patterns, no recursion (a recursive $ref as JSON text): "
        "imported from the anthropic "
        "profile, so both move together (safe side)",
        _API,
        _CHECKED,
    ),
    Rule(
        "optional members",
        "as Anthropic strict tool use: optionals stay optional, no nulls added, identity inverse; "
        "over the cap of 24 in one schema, the last ones go required and nullable and the inverse "
        "removes their nulls (Anthropic's rule, imported with its profile)",
        _API,
        "2026-12-04",
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
    *NON_STRICT.rules,
)

BEDROCK = derive(
    ANTHROPIC,
    name="bedrock",
    display_name="Bedrock",
    title="Bedrock Converse strict tool use",
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    apis=(CONVERSE,),
    non_strict=NON_STRICT,
    rules=RULES,
)

REGISTRATION = Registration(
    BEDROCK,
    order=50,
    # an Amazon Bedrock API key, sent as a bearer token, in place of signed requests ("Use an
    # Amazon Bedrock API key", docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html,
    # checked 2026-12-05); another region: --base-url https://bedrock-runtime.REGION.amazonaws.com
    endpoint=Endpoint(
        "AWS_BEARER_TOKEN_BEDROCK",
        "https://bedrock-runtime.us-east-1.amazonaws.com",
        "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    ),
)
