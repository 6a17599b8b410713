"""DeepSeek Chat Completions with strict function calling (beta).

Source: DeepSeek API docs "Tool Calls", section "strict mode (Beta)", verified on 2026-12-03:
strict tools are sent to the beta base URL (``https://api.deepseek.com/beta``) with
``function.strict: true``; every object needs ``additionalProperties: false`` and every property
in ``required``; supported are object, string, number, integer, boolean, array, enum, anyOf and
$ref/$defs; string ``pattern`` and ``format`` in {email, hostname, ipv4, ipv6, uuid} (no date or
time formats: they are dropped here, and the canonical validation enforces them). Everything else
follows OpenAI's table (the safe side). Structured outputs: DeepSeek documents only
``response_format: {type: "json_object"}``, so the generated ``response_format`` of an output is
not accepted there [unconfirmed for json_schema]: use tools. Envelopes from
../shared/corpus/envelopes/deepseek (``reasoning_content`` and the cache-hit usage fields are
extras). The corpus also holds Responses API recordings from ``api.deepseek.com/responses``; the
Chat Completions API is the one DeepSeek documents, so only it is bound here.
"""

from dataclasses import replace

from toolgen.providers.openai import CHAT_DECODER, OPENAI

DEEPSEEK = replace(
    OPENAI,
    name="deepseek",
    title="DeepSeek strict mode",
    formats=frozenset({"email", "hostname", "ipv4", "ipv6", "uuid"}),
    decoders=CHAT_DECODER,
)
