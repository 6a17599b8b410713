"""Cerebras strict json_schema and tools (OpenAI-compatible Chat Completions).

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Cerebras structured outputs docs):
every property required; nullable written as ``anyOf`` with a null branch because the type-list
shorthand ``["string", "null"]`` is refused; at most 5 anyOf branches; ``items: true`` refused
(an unconstrained schema is rejected everywhere); ``$ref``/``$defs`` supported. The rest follows
OpenAI's table, for Chat Completions only. Verified on 2026-12-02. A non-strict mode is not
documented, so every tool goes strict.
"""

from dataclasses import replace

from toolgen.providers.openai import CHAT_DECODER, OPENAI

CEREBRAS = replace(
    OPENAI,
    name="cerebras",
    title="Cerebras strict mode",
    limits=replace(OPENAI.limits, any_of_branches=5),
    type_arrays=False,
    decoders=CHAT_DECODER,
    non_strict=None,
)
