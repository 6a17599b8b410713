"""Mistral chat completions: function ``tools`` and ``response_format`` json_schema, with ``strict``.

Source: Mistral docs "Custom Structured Outputs"
(https://docs.mistral.ai/capabilities/structured-output/custom_structured_output/) and "Function
calling" (https://docs.mistral.ai/capabilities/function_calling/), verified on 2026-12-03. The docs
state the request shapes and the name rule and leave the keyword support of strict mode open
[unconfirmed], so the profile takes the safe side rule by rule (``RULES``): structure only (every
validation keyword dropped, the canonical validation enforces them), nullable written with ``anyOf``
as Pydantic writes Optional, recursion written as JSON text, OpenAI's limits.

Responses: recorded Mistral responses (64 bodies and their streams) leave
out a call's ``type`` and stream a call whole in one chunk, sometimes without ``index``; the
mistralai SDK types ``FunctionCall.arguments`` as ``Dict[str, Any] | str``. Every recorded call
carries text; both forms are decoded, by the lenient Chat Completions decoder (toolgen.apis.chat).
"""

from toolgen.apis.chat import LENIENT_CHAT
from toolgen.providers.base import NameRule, Rule, derive, root_unions_refused
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import DROP, OPENAI
from toolgen.providers.registration import Registration

_DOCS = (
    "Mistral docs, Custom Structured Outputs and Function calling"
    " (docs.mistral.ai/capabilities/structured-output/custom_structured_output,"
    " docs.mistral.ai/capabilities/function_calling)"
)
_SDK = "mistralai SDK models/functioncall.py; recorded Mistral responses (64 bodies, 5 streams)"
_CHECKED = "2026-12-03"

KEEP = frozenset({
    "type", "enum", "const", "anyOf", "description", "title", "$ref", "$defs",
    "properties", "required", "additionalProperties", "items",
})  # fmt: skip

NON_STRICT = root_unions_refused(
    "[unconfirmed] tools are sent with strict false or without it; what Mistral refuses then is"
    " not documented: a root union is taken away (the safe side, as OpenAI)",
    _DOCS,
    _CHECKED,
)

RULES: tuple[Rule, ...] = (
    *NON_STRICT.rules,
    Rule(
        "keywords",
        "[unconfirmed] not documented: structure only (type, enum, const, anyOf, properties, "
        "required, additionalProperties, items, $ref/$defs as the SDK's Pydantic models write "
        "them); every validation keyword dropped (safe side)",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "formats", "[unconfirmed] not documented: every format dropped (safe side)", _DOCS, _CHECKED
    ),
    Rule(
        "optional members",
        "[unconfirmed]: required and nullable through anyOf with a null branch (Pydantic's "
        "Optional), never a type list (safe side)",
        _DOCS,
        _CHECKED,
    ),
    Rule("objects", "additionalProperties: false", _DOCS, _CHECKED),
    Rule(
        "recursion",
        "[unconfirmed]: a recursive schema is taken as refused (safe side): each $ref that "
        "closes a cycle is written as a string of the value's JSON text (the inverse decodes "
        "it); rejected inside anyOf/oneOf",
        _DOCS,
        _CHECKED,
    ),
    Rule("limits", "[unconfirmed] not documented: OpenAI's limits", _DOCS, _CHECKED),
    Rule("names", "^[a-zA-Z0-9_-]+$, at most 64", _DOCS, _CHECKED),
    Rule(
        "wire",
        "Chat Completions: tools[].function{name, description, parameters, strict}, "
        "response_format json_schema{name, schema, strict}",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "responses",
        "a call may leave out type; function.arguments is JSON text or an object (both decoded); "
        "a streamed call may come whole without index",
        _SDK,
        _CHECKED,
    ),
)

MISTRAL = derive(
    OPENAI,
    name="mistral",
    display_name="Mistral",
    title="Mistral strict mode",
    keep=KEEP,
    drop=DROP | (OPENAI.keep - KEEP),
    formats=frozenset(),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    type_arrays=False,
    recursion=False,
    apis=(LENIENT_CHAT,),
    rules=RULES,
    non_strict=NON_STRICT,
    # its tool messages carry the function's name (docs.mistral.ai, function calling)
    module_data={
        "loop_options": {"chat": {"tool_message_name": True}},
        # its fakes (gen.testing) write Chat Completions as Mistral sends them: bare hex ids,
        # 9-character call ids, calls without "type", a stream's calls whole in its last chunk
        "fake_options": {"chat": {"lenient": True}},
    },
)

REGISTRATION = Registration(
    MISTRAL,
    order=70,
    on_request=True,
    # mistralai's server_url is https://api.mistral.ai; it posts to /v1/chat/completions
    # (sdkconfiguration.py, chat.py; checked 2026-12-07)
    endpoint=Endpoint(
        "MISTRAL_API_KEY",
        "https://api.mistral.ai",
        "mistral-small-latest",
        api_paths=(("chat", "/v1"),),
    ),
)
