"""Cloudflare Workers AI text generation: ``tools`` and ``response_format`` of the native
``POST /accounts/{account}/ai/run/{model}`` endpoint (``env.AI.run`` in a Worker) and of the
OpenAI-compatible ``/ai/v1/chat/completions`` endpoint, and the model families whose responses
differ.

Workers AI has no strict mode: a tool's ``parameters`` and a ``json_schema`` are hints to the
model (the JSON mode page: "Workers AI can't guarantee that the model responds according to the
requested JSON Schema"), so the canonical validation after decoding is the only guarantee and
the projection only has to be a schema every model takes. Where the sources are silent the
profile takes the safe side: OpenAI's keyword table (what a guided decoder of an
OpenAI-compatible server reads), nulls as an ``anyOf`` branch, no recursion (a recursive reference
written as JSON text).

Every rule, its source and the date it was checked. Sources: the ``@cloudflare/workers-types``
package (npm, version ``WORKERS_TYPES``: ``AiTextGenerationInput``, ``AiTextGenerationOutput``,
``Ai_Cf_*_Input``/``_Output`` of each model, ``ChatCompletionsInput``/``Output``,
``ResponsesOutput``, the ``AiModels`` map) and the Workers AI docs
(https://developers.cloudflare.com/workers-ai/features/function-calling/traditional/,
https://developers.cloudflare.com/workers-ai/features/json-mode/, changelog 2025-02-25).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.apis.chat import CHAT
from toolgen.apis.workers_ai import WORKERS_AI
from toolgen.providers.base import (
    UNREPRESENTABLE,
    Limits,
    NameRule,
    Profile,
    Rule,
    ToolWire,
    simple_pattern,
)
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.openai import DROP as OPENAI_DROP
from toolgen.providers.openai import FORMATS as OPENAI_FORMATS
from toolgen.providers.openai import KEEP as OPENAI_KEEP
from toolgen.providers.registration import Registration
from toolgen.schema import pointer as jp
from toolgen.schema import refs

CHECKED = "2026-12-03"
WORKERS_TYPES = "@cloudflare/workers-types 5.20261117.1"
FUNCTION_CALLING = (
    "Workers AI docs, Traditional function calling"
    " (developers.cloudflare.com/workers-ai/features/function-calling/traditional)"
)

#: Every fact the profile acts on, with its source; [unconfirmed] facts take the safe side.
RULES: tuple[Rule, ...] = (
    Rule(
        "tool forms",
        "tools[] is {name, description, parameters} (native) or {type: 'function', function: "
        "{name, description, parameters}} (OpenAI form); every text-generation model's input type"
        " takes the OpenAI form (the native Messages inputs list both, ChatCompletionsInput only "
        "it), so tool_definitions() writes it by default and the native form on request",
        f"{WORKERS_TYPES}: AiTextGenerationToolInput, AiTextGenerationToolLegacyInput, "
        "Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Messages.tools, ChatCompletionTool",
        CHECKED,
    ),
    Rule(
        "description",
        "description is a required string in both tool forms: an empty one is sent as ''",
        f"{WORKERS_TYPES}: AiTextGenerationToolInput.function.description",
        CHECKED,
    ),
    Rule(
        "strict",
        "no strict mode: the schema is a hint; ChatCompletionsInput's FunctionDefinition.strict "
        "is not sent (the native form has no such member)",
        f"{FUNCTION_CALLING}; developers.cloudflare.com/workers-ai/features/json-mode",
        CHECKED,
    ),
    Rule(
        "json mode (native)",
        "response_format is {type: 'json_schema', json_schema: <the schema itself>} on the native"
        " endpoint (the docs' example passes the schema as json_schema)",
        "developers.cloudflare.com/workers-ai/json-mode; changelog 2025-02-25 'JSON mode'",
        CHECKED,
    ),
    Rule(
        "json mode (OpenAI-compatible)",
        "response_format is {type: 'json_schema', json_schema: {name, schema}} on "
        "/ai/v1/chat/completions and on models whose input is ChatCompletionsInput",
        f"{WORKERS_TYPES}: ResponseFormatJSONSchema",
        CHECKED,
    ),
    Rule(
        "keywords",
        "[unconfirmed] no keyword list is documented: OpenAI's strict table is kept, the rest "
        "dropped (looser; the canonical validation enforces it), UNREPRESENTABLE rejected",
        f"{FUNCTION_CALLING} (safe side)",
        CHECKED,
    ),
    Rule(
        "type lists",
        "[unconfirmed] the native input types declare each property's type as one string: a "
        "nullable member is written as anyOf with a null branch, never as a type list",
        f"{WORKERS_TYPES}: Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Messages.tools "
        "(properties[k].type: string)",
        CHECKED,
    ),
    Rule(
        "top-level members",
        "each member of a tool's parameters is {type: <one JSON type name>, description: <text>} "
        "in the native input types (both tool forms); the inputs are checked against them "
        "[unconfirmed: no doc states it, the types are generated from the model schemas the API "
        "validates with], so the wire form writes the description ('' when the design has none) "
        "and the one type of a $ref, const or enum member; a member with no single type (a union,"
        " a nullable member, a const or enum of objects or arrays) is written as a string of its "
        "JSON text, its schema in the description (the inverse decodes it)",
        f"{WORKERS_TYPES}: Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Messages.tools, "
        "AiTextGenerationToolInput.function.parameters.properties",
        CHECKED,
    ),
    Rule(
        "optional members",
        "no all-required rule (required is optional in every tool type): optionals stay optional,"
        " the inverse is the identity",
        f"{WORKERS_TYPES}: AiTextGenerationToolInput.function.parameters.required",
        CHECKED,
    ),
    Rule(
        "recursion",
        "[unconfirmed] recursive schemas are not documented for guided decoding: each $ref "
        "that closes a cycle is written as a string of the value's JSON text (the inverse "
        "decodes it); rejected inside anyOf/oneOf",
        f"{FUNCTION_CALLING} (safe side)",
        CHECKED,
    ),
    Rule(
        "names",
        "[unconfirmed] no name rule is documented: OpenAI's [a-zA-Z0-9_-]{1,64}, which the "
        "OpenAI-compatible endpoint forwards",
        f"{FUNCTION_CALLING} (safe side)",
        CHECKED,
    ),
    Rule(
        "limits",
        "none documented: no limit is checked",
        FUNCTION_CALLING,
        CHECKED,
    ),
    Rule(
        "model families",
        "responses differ per model family, chosen from the model name (FAMILIES); an unknown "
        "model is read with every shape and reported to the drift hooks as a warning",
        f"{WORKERS_TYPES}: AiModels and each model's Output type",
        CHECKED,
    ),
)


# -- responses: model families and the shapes they answer with --------------------------------
#: The shapes a ``result`` (or a stream event) can take, by the envelope surfaces that check them:
#: ``native`` ({response, tool_calls, usage}), ``chat`` (OpenAI-style choices), ``responses``
#: (Responses-style output items).
SHAPES: tuple[str, ...] = ("native", "chat", "responses")


@dataclass(frozen=True)
class Family:
    """Models whose names start with one of ``prefixes`` and answer with one of ``shapes``."""

    name: str
    prefixes: tuple[str, ...]
    shapes: tuple[str, ...]
    source: str


#: In match order (the longest prefix wins, so the order only matters for equal lengths).
FAMILIES: tuple[Family, ...] = (
    Family(
        "meta",
        ("@cf/meta/", "@cf/meta-llama/"),
        ("native",),
        f"{WORKERS_TYPES}: Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Output (tool_calls "
        "{name, arguments: object}), Ai_Cf_Meta_Llama_4_Scout_17B_16E_Instruct_Output "
        "(tool_calls {id, type, function: {name, arguments: object}}), BaseAiTextGeneration",
    ),
    Family(
        "mistral",
        ("@cf/mistral/", "@cf/mistralai/", "@hf/mistral/"),
        ("native",),
        f"{WORKERS_TYPES}: Ai_Cf_Mistralai_Mistral_Small_3_1_24B_Instruct_Output, "
        "BaseAiTextGeneration",
    ),
    Family(
        "huggingface",
        ("@hf/",),
        ("native",),
        f"{WORKERS_TYPES}: BaseAiTextGeneration (AiTextGenerationOutput); "
        "developers.cloudflare.com/workers-ai/function-calling/traditional (hermes-2-pro)",
    ),
    Family(
        "qwen",
        ("@cf/qwen/",),
        ("native", "chat"),
        f"{WORKERS_TYPES}: Ai_Cf_Qwen_Qwen2_5_Coder_32B_Instruct_Output (native), "
        "Ai_Cf_Qwen_Qwen3_30B_A3B_Fp8_Chat_Completion_Response, Base_Ai_Cf_Qwen_Qwen3_8_27B "
        "(ChatCompletionsOutput)",
    ),
    Family(
        "google",
        ("@cf/google/", "@hf/google/"),
        ("native", "chat"),
        f"{WORKERS_TYPES}: Ai_Cf_Google_Gemma_3_12B_It_Output (native), "
        "Base_Ai_Cf_Google_Gemma_4_26B_A4B_It (ChatCompletionsOutput)",
    ),
    Family(
        "openai",
        ("@cf/openai/",),
        ("responses", "chat"),
        f"{WORKERS_TYPES}: Base_Ai_Cf_Openai_Gpt_Oss_120B (XOR<ResponsesOutput, "
        "ChatCompletionsOutput>)",
    ),
    Family(
        "deepseek",
        ("@cf/deepseek-ai/", "@hf/thebloke/deepseek-"),
        ("native", "chat"),
        f"{WORKERS_TYPES}: BaseAiTextGeneration (deepseek-r1-distill-qwen-32b), "
        "Base_Ai_Cf_Deepseek_Ai_Deepseek_V4_Flash_0731 (ChatCompletionsOutput)",
    ),
    Family(
        "chat",
        ("@cf/moonshotai/", "@cf/zai-org/", "@cf/nvidia/"),
        ("chat",),
        f"{WORKERS_TYPES}: Base_Ai_Cf_Moonshotai_Kimi_K2_6, Base_Ai_Cf_Zai_Org_Glm_5_3, "
        "Base_Ai_Cf_Nvidia_Nemotron_3_120B_A12B (ChatCompletionsOutput)",
    ),
)

#: What an unknown model is read with: every shape (the most tolerant reading that still finds
#: tool calls), and a warning-level drift event says so.
FALLBACK = Family("unknown", (), SHAPES, "no type declares it: every shape is tried")


def family_prefixes() -> dict[str, tuple[str, tuple[str, ...]]]:
    """model-name prefix -> (family, shapes), as the generated module writes it."""
    return {
        prefix: (family.name, family.shapes) for family in FAMILIES for prefix in family.prefixes
    }


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


def _type_of_value(value: Any) -> str | None:
    """The type name of a const or enum value; None for an object or an array, whose type beside
    the value would read as an open object or an untyped array (what the projection rejects)."""
    if value is None:
        return "null"
    if isinstance(value, dict | list):
        return None
    return next(name for kind, name in _JSON_TYPES if isinstance(value, kind))


def _single_type(
    member: Any, root: dict[str, Any], seen: frozenset[str] = frozenset()
) -> str | None:
    """The one JSON type every value of ``member`` has, when the schema says so."""
    if not isinstance(member, dict):
        return None
    if isinstance(member.get("type"), str):
        return str(member["type"])
    if "const" in member:
        return _type_of_value(member["const"])
    if isinstance(member.get("enum"), list) and member["enum"]:
        types = {_type_of_value(value) for value in member["enum"]}
        return types.pop() if len(types) == 1 else None
    branches = member.get("anyOf", member.get("oneOf"))
    if isinstance(branches, list) and branches:
        types = {_single_type(branch, root, seen) for branch in branches}
        return types.pop() if len(types) == 1 else None
    target = member.get("$ref")
    if isinstance(target, str) and target.startswith("#") and target not in seen:
        try:
            resolved = jp.resolve(root, target[1:])
        except (KeyError, ValueError):
            return None
        return _single_type(resolved, root, seen | {target})
    return None


def _without_top_ref(member: Any, root: dict[str, Any]) -> Any:
    """A member that is a local ``$ref`` as its target (siblings kept over the target's): a
    ``type`` beside a reference would read as a reference with siblings, which the projection
    inlines, so the wire form inlines it at once (no reference recurses in a projection: a
    recursive one is JSON text, so this ends)."""

    def local_ref(node: Any) -> str | None:
        target = node.get("$ref") if isinstance(node, dict) else None
        return target if isinstance(target, str) and target.startswith("#") else None

    def inlined(node: dict[str, Any], target: str) -> dict[str, Any]:
        resolved = jp.resolve(root, target[1:])
        if not isinstance(resolved, dict):
            raise KeyError(target)  # not a schema to inline: the chain stops before it
        return {**resolved, **{k: v for k, v in node.items() if k != "$ref"}}

    return refs.chase(member, local_ref, inlined, stop_at_dead_end=True)


def carries(member: Any, schema: Any) -> bool:
    """Whether the native input types take ``member``, a top-level member of the projected
    parameters ``schema``, as it is (the rule "top-level members": one JSON type); the
    projection writes one they do not take as JSON text."""
    return (
        isinstance(schema, dict)
        and _single_type(_without_top_ref(member, schema), schema) is not None
    )


def native_parameters(schema: Any) -> tuple[Any, list[tuple[str, str, str]]]:
    """A tool's projected parameters as the native input types take them (the rule
    "top-level members"): every member with one ``type`` and a ``description``, a member that is
    a reference inlined. Only annotations and a type every value already has are added, so the
    schema means the same."""
    properties = schema.get("properties", {})
    written: dict[str, Any] = {}
    problems = []
    for name, member in properties.items():
        member = _without_top_ref(member, schema)
        member_type = _single_type(member, schema)
        if member_type is None:
            problems.append(
                (
                    jp.join("/properties", name),
                    "UNTYPED_MEMBER",
                    f"a top-level member without one JSON type (a union, or a nullable member) "
                    f"cannot be expressed in {CLOUDFLARE.title} tool parameters: their members "
                    "are {type, description} with one type name; move the union one level down",
                )
            )
            continue
        # type and description first, whatever the member's own order: the same bytes whether
        # or not the design already had them (a projection read back projects the same)
        written[name] = {
            "type": member_type,
            "description": member.get("description", ""),
            **{k: v for k, v in member.items() if k not in ("type", "description")},
        }
    return {**schema, "properties": written}, problems


CLOUDFLARE = Profile(
    name="cloudflare",
    display_name="Workers AI",
    title="Cloudflare Workers AI",
    keep=OPENAI_KEEP,
    drop=OPENAI_DROP,
    reject=UNREPRESENTABLE,
    formats=OPENAI_FORMATS,
    keep_if={"pattern": simple_pattern},  # OpenAI's, as its keywords
    limits=Limits(),
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    optional_style="omit",
    type_arrays=False,
    recursion=False,
    template="workers_ai.py.j2",
    apis=(WORKERS_AI, CHAT),
    module_data={"families": family_prefixes()},
    tool_wire=ToolWire(
        native_parameters,
        'top-level tool members written `{type, description}` (`description` `""` when none), '
        "one without one JSON type as JSON text (read back exactly)",
        "",
        carries,
    ),
    rules=RULES,
    non_strict=None,
    strict_flag=False,
)

REGISTRATION = Registration(
    CLOUDFLARE,
    order=120,
    # the REST API: POST /accounts/{account}/ai/run/{model}, and the OpenAI-compatible
    # /ai/v1/chat/completions, with an API token as a bearer token (developers.cloudflare.com
    # workers-ai/get-started/rest-api/ and workers-ai/configuration/open-ai-compatibility/,
    # checked 2026-12-05)
    # cloudflare-python's base URL is https://api.cloudflare.com/client/v4; Workers AI's run is
    # /accounts/{account_id}/ai/run/{model}, its OpenAI-compatible chat under .../ai/v1
    # (resources/ai/ai.py; developers.cloudflare.com workers-ai; checked 2026-12-07)
    endpoint=Endpoint(
        "CLOUDFLARE_API_TOKEN",
        "https://api.cloudflare.com/client/v4",
        "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
        api_paths=(
            ("run", "/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai"),
            ("chat", "/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1"),
        ),
    ),
)
