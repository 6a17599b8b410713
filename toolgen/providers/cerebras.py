"""Cerebras strict json_schema and tools (OpenAI-compatible Chat Completions).

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (Cerebras structured outputs docs):
every property required; nullable written as ``anyOf`` with a null branch because the type-list
shorthand ``["string", "null"]`` is refused; at most 5 anyOf branches; ``items: true`` refused;
``$ref``/``$defs`` supported. The rest follows OpenAI's table. Verified on 2026-12-02.
"""

from toolgen.providers.base import Limits, NameRule, Profile
from toolgen.providers.openai import DROP, FORMATS, KEEP, REJECT

CEREBRAS = Profile(
    name="cerebras",
    title="Cerebras strict mode",
    keep=KEEP,
    drop=DROP,
    reject=REJECT,
    formats=FORMATS,
    limits=Limits(properties=5_000, nesting=10, enum_values=1_000, total_chars=120_000,
                  large_string_enum=(250, 15_000), description=1_024, any_of_branches=5),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    optional_style="nullable",
    type_arrays=False,
)
