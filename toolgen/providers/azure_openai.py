"""Azure OpenAI (Chat Completions and the Responses API) in strict mode: OpenAI's models behind
Azure deployments, so OpenAI's rules, with envelopes of its own (its drift is its own signal).

Source: Microsoft Learn, "How to use structured outputs" (Azure OpenAI,
https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/structured-outputs), verified on
2026-12-03; the one fact reported only on Azure (``default`` is refused, "'default' is not
permitted") is one OpenAI's table drops already. The module and the
toolgen.toml key are ``azure_openai``: a Python identifier, as the generated ``azure_openai.py``
needs. Envelopes from recorded Azure OpenAI responses: Azure adds
``prompt_filter_results`` and per-choice ``content_filter_results``, and a stream may open with a
chunk of prompt filter results whose ``object``, ``id`` and ``model`` are empty and whose
``choices`` is empty.
"""

from toolgen.providers.base import Rule, derive, root_unions_refused
from toolgen.providers.openai import OPENAI
from toolgen.providers.openai import RULES as OPENAI_RULES
from toolgen.providers.registration import Registration

_DOCS = (
    "Microsoft Learn, Azure OpenAI 'How to use structured outputs'"
    " (learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/structured-outputs)"
)
_CHECKED = "2026-12-03"

NON_STRICT = root_unions_refused(
    "[unconfirmed] the strict flag of OpenAI's function definitions is optional on Azure too; a"
    " root union is taken away, as OpenAI",
    _DOCS,
    _CHECKED,
)

RULES: tuple[Rule, ...] = (
    *NON_STRICT.rules,
    *(rule for rule in OPENAI_RULES if rule.topic != "non-strict"),
    Rule(
        "default", "'default' is not permitted: dropped (as OpenAI's table does)", _DOCS, _CHECKED
    ),
    Rule(
        "responses",
        "as OpenAI's, plus content filter results; a stream may open with a prompt-filter chunk "
        'whose object is ""',
        "recorded Azure OpenAI responses",
        _CHECKED,
    ),
)

AZURE_OPENAI = derive(
    OPENAI,
    name="azure_openai",
    display_name="Azure OpenAI",
    title="Azure OpenAI strict mode",
    rules=RULES,
    non_strict=NON_STRICT,
    tokenizer=OPENAI.tokenizer,  # OpenAI's models behind Azure deployments
)

REGISTRATION = Registration(AZURE_OPENAI, order=90, on_request=True)
