"""Groq structured outputs and tool use in strict mode (OpenAI-compatible Chat Completions).

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Groq docs, structured outputs):
strict means every property required and ``additionalProperties: false``; names
``^[a-zA-Z0-9_-]+$``. Keyword support and limits beyond that are not documented, so Groq takes
OpenAI's table (the safe side: what OpenAI refuses is dropped or rejected here too), for Chat
Completions only. Verified on 2026-12-02.
"""

from dataclasses import replace

from toolgen.apis import CHAT
from toolgen.providers.openai import OPENAI

GROQ = replace(
    OPENAI,
    name="groq",
    title="Groq strict mode",
    limits=replace(OPENAI.limits, tools=None),  # OpenAI's tool count is not documented for Groq
    apis=(CHAT,),
)
