"""DeepSeek Chat Completions with strict function calling (beta).

Source: DeepSeek API docs "Tool Calls", section "strict mode (Beta)", verified on 2026-12-03:
strict tools go to the beta base URL (``https://api.deepseek.com/beta``) with
``function.strict: true``; every object needs ``additionalProperties: false`` and every property
in ``required``; object, string, number, integer, boolean, array, enum, anyOf and $ref/$defs are
supported, string ``pattern`` and ``format`` in {email, hostname, ipv4, ipv6, uuid} only (date
and time formats are dropped here, and the canonical validation enforces them). The rest follows
OpenAI's table (the safe side). Responses API answers have also been recorded from
``api.deepseek.com/responses``; DeepSeek documents Chat Completions, the only API bound here.

Structured outputs: DeepSeek refuses ``response_format: {type: "json_schema"}`` ("This
response_format type is unavailable now"); its API reference lists ``text`` and ``json_object``,
and its "JSON Output" guide asks for the word "json" and the wanted shape in the messages. So an
output goes out in JSON mode (``JSON_OBJECT_CHAT``): ``response_format`` is ``{"type":
"json_object"}``, ``output_instructions(name)`` (``plan_request(...).instructions``) is the
system message's text with the projected schema, and ``parse_output`` reads the answer back
through the inverse and checks it against the canonical schema, as for any provider: the API
guarantees JSON, the canonical validation the shape. Refusing outputs at build time would take
away what works (JSON mode and the check after decoding) from a design that declares outputs
for several providers.
"""

from toolgen.apis.chat import JSON_OBJECT_CHAT
from toolgen.providers.base import Rule, derive, root_unions_refused
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import OPENAI
from toolgen.providers.registration import Registration

_DOCS = (
    "DeepSeek API docs, Tool Calls, 'strict mode (Beta)'"
    " (api-docs.deepseek.com/guides/function_calling)"
)
_CHECKED = "2026-12-03"
_JSON_OUTPUT = (
    "DeepSeek API docs, JSON Output (api-docs.deepseek.com/guides/json_mode) and Create Chat "
    "Completion, response_format (api-docs.deepseek.com/api/create-chat-completion)"
)

FORMATS = frozenset({"email", "hostname", "ipv4", "ipv6", "uuid"})

NON_STRICT = root_unions_refused(
    "strict mode is a beta: tools without it are the default; a root union is taken away "
    "[unconfirmed] (the safe side, as OpenAI)",
    _DOCS,
    _CHECKED,
)

RULES: tuple[Rule, ...] = (
    *NON_STRICT.rules,
    Rule(
        "keywords",
        "object, string, number, integer, boolean, array, enum, anyOf, $ref/$defs, pattern, "
        "numeric bounds, minItems/maxItems; the rest [unconfirmed]: OpenAI's table",
        _DOCS,
        _CHECKED,
    ),
    Rule("formats", "email, hostname, ipv4, ipv6, uuid; other formats dropped", _DOCS, _CHECKED),
    Rule(
        "optional members",
        "every property required: required and nullable, as OpenAI",
        _DOCS,
        _CHECKED,
    ),
    Rule("objects", "additionalProperties: false", _DOCS, _CHECKED),
    Rule("limits", "[unconfirmed] not documented: OpenAI's limits", _DOCS, _CHECKED),
    Rule("names", "^[a-zA-Z0-9_-]+$, at most 64", _DOCS, _CHECKED),
    Rule(
        "tool loop",
        "thinking mode (the default): an assistant turn that made tool calls goes back with its "
        "reasoning_content in every later request (a 400 otherwise); assistant_turn keeps it",
        "DeepSeek API docs, Thinking Mode, 'Tool Calls' (api-docs.deepseek.com/guides/thinking_mode)",
        "2026-12-04",
    ),
    Rule(
        "wire",
        "Chat Completions, strict tools on the beta base URL",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "structured outputs",
        'response_format takes text and json_object only (json_schema: "This response_format '
        'type is unavailable now"); JSON mode wants the word "json" and the shape in the '
        "messages: outputs go as json_object with the projected schema in output_instructions, "
        "checked against the canonical schema after decoding",
        _JSON_OUTPUT,
        "2026-12-08",
    ),
)

DEEPSEEK = derive(
    OPENAI,
    name="deepseek",
    display_name="DeepSeek",
    title="DeepSeek strict mode",
    formats=FORMATS,
    apis=(JSON_OBJECT_CHAT,),
    rules=RULES,
    non_strict=NON_STRICT,
    module_data={"loop_options": {"chat": {"replay_reasoning": True}}},
)

REGISTRATION = Registration(
    DEEPSEEK,
    order=110,
    on_request=True,
    endpoint=Endpoint("DEEPSEEK_API_KEY", "https://api.deepseek.com", "deepseek-chat"),
)
