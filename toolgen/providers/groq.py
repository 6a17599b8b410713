"""Groq structured outputs and tool use in strict mode (OpenAI-compatible Chat Completions).

Source: Groq docs, "Structured outputs" (https://console.groq.com/docs/structured-outputs):
strict means every property required and ``additionalProperties: false``; names
``^[a-zA-Z0-9_-]+$``. Keyword support and limits beyond that are not documented, so Groq takes
OpenAI's table (the safe side: what OpenAI refuses is dropped or rejected here too), for Chat
Completions only. Verified on 2026-12-02.

Strict json_schema is offered on some models only, so tools also go non-strict (``strict: false``):
the canonical schema minus a root-level union (undocumented for Groq: OpenAI's safe side).
"""

from dataclasses import replace

from toolgen.apis.chat import CHAT
from toolgen.providers.base import Rule, derive, root_unions_refused
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import OPENAI
from toolgen.providers.registration import Registration

_DOCS = "Groq docs, structured outputs (console.groq.com/docs/structured-outputs)"
_CHECKED = "2026-12-02"

NON_STRICT = root_unions_refused(
    "[unconfirmed] strict json_schema is offered on some models only, so tools also go with "
    "strict: false; a root union is undocumented (OpenAI's safe side)",
    _DOCS,
    "2026-12-03",
)

RULES: tuple[Rule, ...] = (
    Rule(
        "keywords",
        "[unconfirmed] keyword support is not documented: OpenAI's table (what OpenAI refuses is "
        "dropped or rejected here too)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "optional members",
        "strict means every property required: required and nullable, as OpenAI",
        _DOCS,
        _CHECKED,
    ),
    Rule("objects", "strict means additionalProperties: false", _DOCS, _CHECKED),
    Rule("formats", "[unconfirmed]: OpenAI's list", _DOCS, _CHECKED),
    Rule("limits", "[unconfirmed] not documented: OpenAI's limits", _DOCS, _CHECKED),
    Rule("names", "^[a-zA-Z0-9_-]+$; at most 64 as OpenAI (safe side)", _DOCS, _CHECKED),
    Rule("wire", "Chat Completions only, OpenAI's request shapes", _DOCS, _CHECKED),
    *NON_STRICT.rules,
)

GROQ = derive(
    OPENAI,
    name="groq",
    display_name="Groq",
    title="Groq strict mode",
    limits=replace(OPENAI.limits, tools=None),  # OpenAI's tool count is not documented for Groq
    apis=(CHAT,),
    non_strict=NON_STRICT,
    rules=RULES,
)

REGISTRATION = Registration(
    GROQ,
    order=30,
    # groq-python's base URL is https://api.groq.com; it posts to /openai/v1/chat/completions
    # (_client.py, resources/chat/completions.py; checked 2026-12-07)
    endpoint=Endpoint(
        "GROQ_API_KEY",
        "https://api.groq.com",
        "openai/gpt-oss-20b",
        api_paths=(("chat", "/openai/v1"),),
    ),
)
