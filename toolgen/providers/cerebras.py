"""Cerebras strict json_schema and tools (OpenAI-compatible Chat Completions).

Source: Cerebras docs, "Structured outputs"
(https://inference-docs.cerebras.ai/capabilities/structured-outputs):
every property required; nullable written as ``anyOf`` with a null branch because the type-list
shorthand ``["string", "null"]`` is refused; at most 5 anyOf branches; ``items: true`` refused
(an unconstrained schema is rejected everywhere); ``$ref``/``$defs`` supported. The rest follows
OpenAI's table, for Chat Completions only. Verified on 2026-12-02. A non-strict mode is not
documented, so every tool goes strict.
"""

from dataclasses import replace

from toolgen.apis.chat import CHAT
from toolgen.providers.base import Rule, derive
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import OPENAI
from toolgen.providers.registration import Registration

_DOCS = (
    "Cerebras docs, structured outputs (inference-docs.cerebras.ai/capabilities/structured-outputs)"
)
_CHECKED = "2026-12-02"

RULES: tuple[Rule, ...] = (
    Rule(
        "keywords",
        "$ref/$defs supported; items: true refused (an unconstrained schema is rejected "
        "everywhere); the rest [unconfirmed]: OpenAI's table",
        _DOCS,
        _CHECKED,
    ),
    Rule(
        "optional members",
        "every property required; nullable through anyOf with a null branch: the type-list "
        'shorthand ["string", "null"] is refused',
        _DOCS,
        _CHECKED,
    ),
    Rule("objects", "additionalProperties: false", _DOCS, _CHECKED),
    Rule("formats", "[unconfirmed]: OpenAI's list", _DOCS, _CHECKED),
    Rule("limits", "anyOf at most 5 branches; the rest [unconfirmed]: OpenAI's", _DOCS, _CHECKED),
    Rule("names", "[unconfirmed]: OpenAI's rule", _DOCS, _CHECKED),
    Rule("wire", "Chat Completions only, OpenAI's request shapes", _DOCS, _CHECKED),
    Rule("non-strict", "[unconfirmed] not documented: every tool goes strict", _DOCS, "2026-12-03"),
)

CEREBRAS = derive(
    OPENAI,
    name="cerebras",
    display_name="Cerebras",
    title="Cerebras strict mode",
    limits=replace(OPENAI.limits, any_of_branches=5, tools=None),
    type_arrays=False,
    apis=(CHAT,),
    non_strict=None,
    rules=RULES,
)

REGISTRATION = Registration(
    CEREBRAS,
    order=40,
    # cerebras-cloud-sdk-python's base URL is https://api.cerebras.ai; it posts to
    # /v1/chat/completions (_client.py; checked 2026-12-07)
    endpoint=Endpoint(
        "CEREBRAS_API_KEY", "https://api.cerebras.ai", "gpt-oss-120b", api_paths=(("chat", "/v1"),)
    ),
)
