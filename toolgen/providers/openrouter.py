"""OpenRouter (OpenAI-compatible Chat Completions and Responses API) in strict mode.

Source: ../shared/PROVIDERS.md, "OpenAI-compatible providers" (OpenRouter docs "Structured
outputs" and "Tool calling": requests in OpenAI's shapes, passed to the routed model's provider),
verified on 2026-12-03. The schema reaches whichever provider serves the model, so the profile
keeps OpenAI's table (what OpenAI refuses is dropped or rejected here too): the safe side for a
route that is not known at build time. Envelopes from ../shared/corpus/envelopes/openrouter
(``provider`` names the upstream, ``usage.cost`` and ``reasoning`` are extras).
"""

from dataclasses import replace

from toolgen.providers.openai import OPENAI

OPENROUTER = replace(OPENAI, name="openrouter", title="OpenRouter strict mode")
