"""Azure OpenAI (Chat Completions and the Responses API) in strict mode: OpenAI's models behind
Azure deployments, so OpenAI's rules, with their own envelopes (their drift is Azure's signal).

Source: ../shared/PROVIDERS.md, "OpenAI" (the one fact seen only on Azure: ``default`` is refused,
"'default' is not permitted", which OpenAI's table already drops) and Microsoft Learn "How to use
structured outputs" (Azure OpenAI), verified on 2026-12-03. The module and the toolgen.toml key are
``azure_openai``: a Python identifier, as the generated module ``azure_openai.py`` needs.
Envelopes from ../shared/corpus/envelopes/azure-openai: Azure adds ``prompt_filter_results`` and
per-choice ``content_filter_results``, and its streams open with a chunk whose ``choices`` is
empty; all of it passes, as added fields do.
"""

from dataclasses import replace

from toolgen.providers.openai import OPENAI

AZURE_OPENAI = replace(OPENAI, name="azure_openai", title="Azure OpenAI strict mode")
