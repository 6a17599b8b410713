"""Groq structured outputs and tool use in strict mode (OpenAI-compatible Chat Completions).

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Groq docs, structured outputs):
strict means every property required and ``additionalProperties: false``; names
``^[a-zA-Z0-9_-]+$``. Keyword support and limits beyond that are not documented, so Groq takes
OpenAI's table (the safe side: what OpenAI refuses is dropped or rejected here too), for Chat
Completions only. Verified on 2026-12-02.

Strict json_schema is offered on some models only, so tools also go non-strict (``strict: false``):
the canonical schema minus a root-level union (undocumented for Groq: OpenAI's safe side).
"""

from dataclasses import replace

from toolgen.providers.base import NonStrictMode, root_unions_refused
from toolgen.providers.openai import CHAT_DECODER, OPENAI

NON_STRICT = NonStrictMode(
    root_unions_refused(
        "Groq docs, tool use: parameters are a JSON Schema object; a root union is "
        "undocumented [unconfirmed, safe side as OpenAI; 2026-12-03]"
    )
)

GROQ = replace(
    OPENAI, name="groq", title="Groq strict mode", decoders=CHAT_DECODER, non_strict=NON_STRICT
)
