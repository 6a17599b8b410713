"""Groq structured outputs and tool use in strict mode (OpenAI-compatible Chat Completions).

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Groq docs, structured outputs):
strict means every property required and ``additionalProperties: false``; names
``^[a-zA-Z0-9_-]+$``. Keyword support and limits beyond that are not documented, so Groq takes
OpenAI's table (the safe side: what OpenAI refuses is dropped or rejected here too), for Chat
Completions only. Verified on 2026-12-02.
"""

from dataclasses import replace

from toolgen.apis import CHAT
from toolgen.providers.base import Rule
from toolgen.providers.openai import OPENAI

_DOCS = "Groq docs, structured outputs (PROVIDERS.md, OpenAI-compatible providers)"
_CHECKED = "2026-12-02"

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
)

GROQ = replace(
    OPENAI,
    name="groq",
    title="Groq strict mode",
    limits=replace(OPENAI.limits, tools=None),  # OpenAI's tool count is not documented for Groq
    apis=(CHAT,),
    rules=RULES,
)
