"""xAI (Grok) function calling and structured outputs: Chat Completions and the Responses API.

Source: xAI docs "Function calling" (https://docs.x.ai/docs/guides/function-calling) and "Structured
outputs" (https://docs.x.ai/docs/guides/structured-outputs), verified on 2026-12-03. Tools are
always strict there. A member left out of ``required`` stays optional (the projection adds no nulls;
the inverse is the identity); ``additionalProperties`` defaults to false (toolgen still writes it);
``oneOf`` is read as ``anyOf`` (folded), ``allOf`` only with one subschema (merged; more is
rejected, as for every profile), and a ``$ref`` may not lead back to itself: a recursive schema is
rejected with the pointer of that reference. The rest follows OpenAI's table (the safe side).
Responses arrive as OpenAI's do (recorded xAI responses)."""

from toolgen.apis.chat import CHAT
from toolgen.apis.responses import RESPONSES
from toolgen.providers.base import Rule, derive
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import OPENAI
from toolgen.providers.registration import Registration

_DOCS = (
    "xAI docs, Function calling and Structured outputs (docs.x.ai/docs/guides/function-calling,"
    " docs.x.ai/docs/guides/structured-outputs)"
)
_CHECKED = "2026-12-03"

RULES: tuple[Rule, ...] = (
    Rule("strictness", "tools are always strict", _DOCS, _CHECKED),
    Rule(
        "optional members",
        "optional = not in required: they stay optional (no nulls added)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "objects",
        "additionalProperties defaults to false (written false on every object all the same)",
        _DOCS,
        _CHECKED,
    ),
    Rule("oneOf", "read as anyOf: folded", _DOCS, _CHECKED),
    Rule("allOf", "one subschema only: merged; more is rejected", _DOCS, _CHECKED),
    Rule(
        "recursion",
        "$ref non-circular only: each $ref that closes a cycle is written as a string of the "
        "value's JSON text (the inverse decodes it); rejected inside anyOf/oneOf",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "keywords",
        "[unconfirmed] the rest is not documented: OpenAI's table and formats (safe side)",
        _DOCS,
        _CHECKED,
    ),
    Rule("limits", "[unconfirmed] not documented: OpenAI's limits", _DOCS, _CHECKED),
    Rule(
        "names",
        "[unconfirmed] not documented: OpenAI's rule, ^[a-zA-Z0-9_-]+$, at most 64",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "wire", "Chat Completions and the Responses API, OpenAI's request shapes", _DOCS, _CHECKED
    ),
)

XAI = derive(
    OPENAI,
    name="xai",
    display_name="xAI",
    title="xAI strict mode",
    optional_style="omit",
    recursion=False,
    apis=(CHAT, RESPONSES),
    rules=RULES,
    non_strict=None,  # tools are always strict on xAI
)

REGISTRATION = Registration(
    XAI,
    order=80,
    on_request=True,
    endpoint=Endpoint("XAI_API_KEY", "https://api.x.ai/v1", "grok-3-mini"),
)
