"""Groq structured outputs and tool use in strict mode (OpenAI-compatible Chat Completions).

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Groq docs, structured outputs):
strict means every property required and ``additionalProperties: false``; names
``^[a-zA-Z0-9_-]+$``. Keyword support beyond that is not documented, so Groq takes OpenAI's table
(the safe side: what OpenAI refuses is dropped or rejected here too). Verified on 2026-12-02.
"""

from toolgen.providers.base import Limits, NameRule, Profile
from toolgen.providers.openai import DROP, FORMATS, KEEP, REJECT

GROQ = Profile(
    name="groq",
    title="Groq strict mode",
    keep=KEEP,
    drop=DROP,
    reject=REJECT,
    formats=FORMATS,
    # Undocumented; OpenAI's limits are the safe assumption.
    limits=Limits(properties=5_000, nesting=10, enum_values=1_000, total_chars=120_000,
                  large_string_enum=(250, 15_000), description=1_024),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    optional_style="nullable",
)
