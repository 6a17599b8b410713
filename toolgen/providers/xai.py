"""xAI (Grok) function calling and structured outputs: Chat Completions and the Responses API.

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (xAI docs "Function calling" and
"Structured outputs"), verified on 2026-12-03. Tools are always strict there, and the grammar
differs from OpenAI's in what it asks of objects: a member left out of ``required`` stays optional
(so the projection adds no nulls and the inverse is the identity) and ``additionalProperties``
defaults to false (toolgen still writes it). ``oneOf`` is read as ``anyOf`` (folded), ``allOf``
only with one subschema (merged; more is rejected by the projection, as for every profile), and a
``$ref`` may not lead back to itself: a recursive schema is rejected with the pointer of the
reference (``recursion=False``). Keywords and limits the docs do not list follow OpenAI's table
(the safe side). Responses arrive as OpenAI's do (recordings in ../shared/corpus/envelopes/xai).
"""

from dataclasses import replace

from toolgen.providers.openai import OPENAI

#: rule -> (source, date verified)
RULES: dict[str, tuple[str, str]] = {
    "always strict": ("PROVIDERS.md, xAI (docs, function calling)", "2026-12-03"),
    "optional = not required": ("PROVIDERS.md, xAI (docs, structured outputs)", "2026-12-03"),
    "additionalProperties defaults to false": ("PROVIDERS.md, xAI", "2026-12-03"),
    "oneOf as anyOf": ("PROVIDERS.md, xAI", "2026-12-03"),
    "allOf with one subschema only": ("PROVIDERS.md, xAI", "2026-12-03"),
    "no circular $ref (rejected)": ("PROVIDERS.md, xAI", "2026-12-03"),
    "other keywords, formats, limits, names": ("OpenAI's table: safe side [unconfirmed]", "2026-12-03"),
}  # fmt: skip

XAI = replace(
    OPENAI,
    name="xai",
    title="xAI strict mode",
    optional_style="omit",
    recursion=False,
)
