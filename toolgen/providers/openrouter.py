"""OpenRouter (OpenAI-compatible Chat Completions and Responses API) in strict mode.

Source: OpenRouter docs "Structured Outputs" (https://openrouter.ai/docs/structured-outputs) and
"Tool Calling" (https://openrouter.ai/docs/features/tool-calling): requests in OpenAI's shapes,
relayed to the routed model's provider; verified on 2026-12-03. The schema reaches whichever
provider serves the model, unknown at build time, so the profile keeps OpenAI's table (what OpenAI
refuses is dropped or rejected here too). Responses relay each upstream's calls: a recorded call
from Claude leaves out ``function.arguments`` when it has none, so chat completions are read by the
lenient decoder."""

from toolgen.apis.chat import LENIENT_CHAT
from toolgen.apis.responses import RESPONSES
from toolgen.providers.base import Rule, derive, root_unions_refused
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import OPENAI
from toolgen.providers.openai import RULES as OPENAI_RULES
from toolgen.providers.registration import Registration

_DOCS = (
    "OpenRouter docs, Structured Outputs (openrouter.ai/docs/structured-outputs) and Tool Calling"
    " (openrouter.ai/docs/features/tool-calling)"
)
_CHECKED = "2026-12-03"

NON_STRICT = root_unions_refused(
    "[unconfirmed] the strict flag is passed through to the upstream provider, which may refuse"
    " a root union: taken away (the safe side)",
    _DOCS,
    _CHECKED,
)

RULES: tuple[Rule, ...] = (
    *NON_STRICT.rules,
    # the routed models tokenize each their own way: not with OpenAI's tokenizer
    *(rule for rule in OPENAI_RULES if rule.topic not in ("non-strict", "tokens")),
    Rule(
        "routing",
        "the schema is relayed to the routed provider: OpenAI's table (safe side)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "responses",
        "a call without arguments may leave out function.arguments (read as {})",
        "recorded OpenRouter chat completions (a call relayed from Claude)",
        _CHECKED,
    ),
    Rule(
        "streams",
        "a Responses stream names no events (data: lines only) and ends with data: [DONE]",
        "recorded OpenRouter Responses streams (2025-11-27)",
        _CHECKED,
    ),
)

#: How its fakes frame a Responses stream (``sse``): as the "streams" rule says.
STREAM_FRAMING = {"responses": {"named": False, "done": True}}

OPENROUTER = derive(
    OPENAI,
    name="openrouter",
    display_name="OpenRouter",
    title="OpenRouter strict mode",
    apis=(LENIENT_CHAT, RESPONSES),
    rules=RULES,
    non_strict=NON_STRICT,
    module_data={"stream_framing": STREAM_FRAMING},
)

REGISTRATION = Registration(
    OPENROUTER,
    order=100,
    on_request=True,
    endpoint=Endpoint("OPENROUTER_API_KEY", "https://openrouter.ai/api/v1", "openai/gpt-4.1-mini"),
)
