"""The generated bindings beside the official SDKs, offline: request TypedDicts declare every key of
the SDKs' param types, the SDKs' helpers (pydantic_function_tool, the parse() helpers) send exactly
toolgen's projection and accept strict-mode nulls through tool_model/output_model, calls and outputs
are typed at run time, Anthropic's per-request caps are a policy (strict="auto"), and a request is
planned as a whole (``request``: tools and output counted together)."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.anthropic_strict_checker import counts, violations
from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.providers import PROVIDER_NAMES

REPO = Path(__file__).resolve().parents[1]
_counter = itertools.count()


def _load(root: Path, design: Path, providers: tuple[str, ...], cache: Path) -> Any:
    result = build(design, providers, cache_dir=cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    name = f"sdk_bindings_gen_{next(_counter)}"
    write_package(root / name, result.files)
    importlib.invalidate_caches()
    return importlib.import_module(name)


@pytest.fixture(scope="module")
def packages(
    tmp_path_factory: pytest.TempPathFactory, suite_cache: Path
) -> Iterator[Callable[..., Any]]:
    """``packages(design, providers)``: the built package of a design, imported."""
    root = tmp_path_factory.mktemp("sdk_bindings")
    sys.path.insert(0, str(root))
    loaded: list[str] = []

    def load(design: Path, providers: tuple[str, ...] = tuple(PROVIDER_NAMES)) -> Any:
        package = _load(root, design, providers, suite_cache)
        loaded.append(package.__name__)
        return package

    try:
        yield load
    finally:
        sys.path.remove(str(root))
        for name in loaded:
            for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[module]


@pytest.fixture(scope="module")
def gen(packages: Callable[..., Any]) -> Any:
    return packages(REPO / "examples" / "design")


def _keys(typed_dict: Any) -> frozenset[str]:
    return frozenset(typed_dict.__required_keys__ | typed_dict.__optional_keys__)


# --- typed requests ---------------------------------------------------------------------------


def test_request_typeddicts_declare_every_key_of_the_sdk_param_types(gen: Any) -> None:
    """A TypedDict is compatible with the SDK's only when it declares all of its keys: a key added
    by a newer SDK shows here, without running mypy."""
    chat = pytest.importorskip("openai.types.chat")
    shared = pytest.importorskip("openai.types.shared_params")
    responses = pytest.importorskip("openai.types.responses")
    types = pytest.importorskip("anthropic.types")
    tool_param = pytest.importorskip("anthropic.types.tool_param")
    # the provider modules re-export the TypedDicts of their API modules (toolgen/runtime)
    ours_openai, ours_anthropic = gen.openai, gen.anthropic
    pairs = [
        (ours_openai.ChatCompletionFunctionToolParam, chat.ChatCompletionFunctionToolParam),
        (ours_openai.FunctionDefinition, shared.FunctionDefinition),
        (ours_openai.ResponseFormatJSONSchema, shared.ResponseFormatJSONSchema),
        (ours_openai.JSONSchema, shared.response_format_json_schema.JSONSchema),
        (ours_openai.FunctionToolParam, responses.FunctionToolParam),
        (
            ours_openai.ResponseFormatTextJSONSchemaConfigParam,
            responses.ResponseFormatTextJSONSchemaConfigParam,
        ),
        (ours_anthropic.ToolParam, types.ToolParam),
        (ours_anthropic.InputSchemaTyped, tool_param.InputSchemaTyped),
        (ours_anthropic.CacheControlEphemeralParam, types.CacheControlEphemeralParam),
        (ours_anthropic.JSONOutputFormatParam, types.JSONOutputFormatParam),
        (ours_anthropic.OutputConfigParam, types.OutputConfigParam),
        (ours_anthropic.ToolChoiceToolParam, types.ToolChoiceToolParam),
        (ours_openai.ChatCompletionNamedToolChoiceParam, chat.ChatCompletionNamedToolChoiceParam),
        (ours_openai.ResponseFormatJSONObject, shared.ResponseFormatJSONObject),
        (ours_openai.ResponseTextConfigParam, responses.ResponseTextConfigParam),
        (ours_openai.ToolChoiceFunctionParam, responses.ToolChoiceFunctionParam),
    ]
    for ours, theirs in pairs:
        assert _keys(ours) == _keys(theirs), ours.__name__


def test_openai_request_shapes_per_api(gen: Any) -> None:
    oai = gen.openai
    chat = oai.tool_definition("billing.refund")
    assert chat == {
        "type": "function",
        "function": {
            "name": "billing_refund",
            "description": "Refund all or part of a charge.",
            "parameters": oai.parameters("billing.refund"),
            "strict": True,
        },
    }
    assert oai.tool_definition("billing.refund", "responses") == {
        "type": "function",
        **chat["function"],
    }
    assert [t["function"]["name"] for t in oai.tool_definitions()] == [
        oai.PROVIDER_NAMES[n] for n in oai.TOOLS
    ]
    assert [t["name"] for t in oai.tool_definitions(["send_email"], api="responses")] == [
        "send_email"
    ]
    chat_format = oai.response_format("ticket_triage")
    assert chat_format["type"] == "json_schema"
    assert oai.response_format("ticket_triage", "responses") == {
        "type": "json_schema",
        **chat_format["json_schema"],
    }
    with pytest.raises(ValueError, match="unknown api"):
        oai.tool_definitions(api="messages")
    assert gen.anthropic.output_format("ticket_triage") == {
        "type": "json_schema",
        "schema": gen.anthropic.output_schema("ticket_triage"),
    }


# --- typed calls and outputs --------------------------------------------------------------------


def test_calls_carry_the_canonical_name_and_the_tool_model(gen: Any) -> None:
    call = gen.openai.decode_tool_call(
        "billing_refund",
        '{"charge_id":"ch_12345678","amount":null,"reason":"duplicate","note":null}',
        call_id="call_1",
    )
    assert call.name == "billing.refund"
    assert type(call.arguments) is gen.models.BillingRefund
    assert call.arguments.model_dump(mode="json") == {
        "charge_id": "ch_12345678",
        "reason": "duplicate",
    }


def test_parse_output_rejects_none_and_returns_the_output_model(gen: Any) -> None:
    for module in (gen.openai, gen.anthropic, gen.groq, gen.cerebras):
        with pytest.raises(TypeError):
            module.parse_output("ticket_triage", None)
    triage = gen.openai.parse_output(
        "ticket_triage",
        '{"category":"billing","priority":"p2","summary":"s","refund":null,"entities":[],'
        '"suggested_reply":null}',
    )
    assert type(triage) is gen.models.TicketTriage


# --- the SDKs' helpers with toolgen's projection ------------------------------------------------


@pytest.fixture(scope="module")
def openai_lib() -> Any:
    return pytest.importorskip("openai")


def test_sdk_helpers_send_exactly_the_projection(gen: Any, openai_lib: Any) -> None:
    from openai.lib._parsing._completions import type_to_response_format_param
    from openai.lib._parsing._responses import type_to_text_format_param
    from openai.lib._pydantic import to_strict_json_schema
    from openai.lib._tools import pydantic_responses_function_tool

    for module in (gen.openai, gen.groq, gen.cerebras):
        for name in module.TOOLS:
            model = module.tool_model(name)
            assert to_strict_json_schema(model) == module.parameters(name), name
            assert openai_lib.pydantic_function_tool(model) == module.tool_definition(name)
            assert module.tool_model(name) is model  # one class per name
        for name in module.OUTPUTS:
            model = module.output_model(name)
            assert type_to_response_format_param(model) == {
                "type": "json_schema",
                "json_schema": {
                    "schema": module.output_schema(name),
                    "name": module.OUTPUT_PROVIDER_NAMES[name],
                    "strict": True,
                },
            }
    oai = gen.openai
    assert dict(pydantic_responses_function_tool(oai.tool_model("send_email"))) == (
        oai.tool_definition("send_email", "responses")
    )
    text_format = type_to_text_format_param(oai.output_model("ticket_triage"))
    assert text_format["schema"] == oai.output_schema("ticket_triage")  # type: ignore[typeddict-item]


def test_the_plain_models_disagree_with_the_projection(gen: Any, openai_lib: Any) -> None:
    """Why tool_model exists: the canonical model of an open object sends additionalProperties
    true, and its nullable-free members are not what strict mode writes."""
    from openai.lib._pydantic import to_strict_json_schema

    plain = to_strict_json_schema(gen.models.BillingRefund)
    assert plain["additionalProperties"] is True
    assert plain != gen.openai.parameters("billing.refund")
    assert plain["properties"]["note"]["description"] == "Internal note for the support team."


def test_sdk_parse_accepts_strict_mode_nulls(gen: Any, openai_lib: Any) -> None:
    """chat.completions.parse's own decoding (offline), with the nulls strict mode forces."""
    from openai.lib._parsing._completions import parse_chat_completion
    from openai.types.chat import ChatCompletion

    oai = gen.openai
    completion = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-test",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": '{"category":"billing","priority":"p2","summary":"s",'
                        '"refund":null,"entities":[],"suggested_reply":null}',
                        "tool_calls": [
                            {
                                "id": "call_1",
                                "type": "function",
                                "function": {
                                    "name": "billing_refund",
                                    "arguments": '{"charge_id":"ch_12345678","amount":null,'
                                    '"reason":"duplicate","note":null}',
                                },
                            }
                        ],
                    },
                }
            ],
        }
    )
    parsed = parse_chat_completion(
        response_format=oai.output_model("ticket_triage"),
        input_tools=[openai_lib.pydantic_function_tool(oai.tool_model("billing.refund"))],
        chat_completion=completion,
    )
    message = parsed.choices[0].message
    assert isinstance(message.parsed, gen.models.TicketTriage)
    assert message.parsed.model_dump(mode="json") == {
        "category": "billing",
        "priority": "p2",
        "summary": "s",
        "entities": [],
    }
    arguments = message.tool_calls[0].function.parsed_arguments
    assert isinstance(arguments, gen.models.BillingRefund)
    assert arguments.model_dump(mode="json") == {"charge_id": "ch_12345678", "reason": "duplicate"}
    # The canonical validation still runs after the inverse.
    with pytest.raises(ValueError):
        oai.tool_model("billing.refund").model_validate_json(
            '{"charge_id":"nope","amount":null,"reason":"duplicate","note":null}'
        )


# --- per-request caps as a policy ---------------------------------------------------------------


def _strictness(definitions: list[Any]) -> dict[str, bool]:
    return {d["name"]: d["strict"] for d in definitions}


def test_anthropic_auto_marks_what_fits_on_the_example_design(gen: Any) -> None:
    claude = gen.anthropic
    marked = _strictness(claude.tool_definitions())
    assert list(marked) == [claude.PROVIDER_NAMES[n] for n in claude.TOOLS]
    # 27 optional members in all (2, 5, 8, 4, 4, 2, 2): the first five tools (23) fit, and
    # neither of the last two (2 more each) does.
    assert list(marked.values()) == [True] * 5 + [False] * 2
    with pytest.raises(ValueError, match="exceed one request's limits"):
        claude.tool_definitions(strict=True)
    assert not any(_strictness(claude.tool_definitions(strict=False)).values())
    chosen = ["weather.get_forecast", "billing.refund"]
    assert _strictness(claude.tool_definitions(chosen, strict=True)) == {
        "weather_get_forecast": True,
        "billing_refund": True,
    }
    non_strict = claude.tool_definitions(["weather.get_forecast"], strict=False)[0]
    assert non_strict["input_schema"] == claude.parameters("weather.get_forecast")
    assert non_strict["input_schema"]["additionalProperties"] is False


def _optional_tool(name: str, optional: int, **extra: Any) -> dict[str, Any]:
    properties = {f"p{i}": {"type": "string"} for i in range(optional)}
    properties["id"] = {"type": "string"}
    parameters = {"type": "object", "properties": properties, "required": ["id"]}
    return {"name": name, "description": "A tool.", "parameters": parameters, **extra}


def test_anthropic_auto_follows_priority_then_order(
    packages: Callable[..., Any], make_design: Callable[..., Path]
) -> None:
    files: dict[str, Any] = {
        f"tools/t{i:02d}.yaml": _optional_tool(f"t{i:02d}", 0) for i in range(22)
    }
    files["tools/t21.yaml"] = _optional_tool("t21", 0, priority=5)
    files["tools/big.yaml"] = _optional_tool("big", 20)
    files["tools/mid.yaml"] = _optional_tool("mid", 10, priority=1)
    files["tools/small.yaml"] = _optional_tool("small", 4)
    claude = packages(make_design(files), ("anthropic",)).anthropic
    marked = _strictness(claude.tool_definitions())
    # priority 5, then 1, then design order: t21, mid (10 optional), big would make 30 > 24,
    # small fits (14), then t00..t17 fill the 20 strict tools.
    assert {name for name, strict in marked.items() if strict} == {
        "t21", "mid", "small", *(f"t{i:02d}" for i in range(17))
    }  # fmt: skip
    assert list(marked) == [claude.PROVIDER_NAMES[n] for n in claude.TOOLS]
    assert claude.MAX_STRICT_TOOLS == 20
    # A selection is marked by priority, then in its own order, and kept in its order.
    selected = _strictness(claude.tool_definitions(["big", "mid", "small"]))
    assert list(selected.items()) == [("big", False), ("mid", True), ("small", True)]
    # A request may write big's last optional members nullable to keep it strict beside mid
    # (10 + 20 optional members > 24); their null reads back as absent, though the module has no
    # canonicalizers of its own (this design's payloads need none).
    plan = claude.plan_request(["big", "mid"])
    assert plan.strict == {"big", "mid"} and not plan.left_out
    assert plan.nullable == {"big": tuple(f"p{i}" for i in range(14, 20))}
    assert claude.canonicalize_text("big", '{"id": "x", "p19": null}') == '{"id":"x"}'
    call = claude.decode_tool_call("big", '{"id": "x", "p0": "y", "p14": null}')
    assert call.arguments.model_dump(exclude_unset=True) == {"id": "x", "p0": "y"}
    # the decoders cannot know which request a call answers: a null of any member a request may
    # write nullable reads as absent (one it wrote as it is never takes null in strict mode)
    assert claude.canonicalize("big", {"id": "x", "p0": None}) == {"id": "x"}
    with pytest.raises(claude.PayloadError):
        claude.decode_tool_call("big", '{"id": null}')  # a required member's null is no absence


# --- a request planned as a whole -----------------------------------------------------------------


def _strict_schemas(provider: str, request: dict[str, Any]) -> tuple[int, list[Any]]:
    """(strict tools, the schemas the limits count: every strict tool's and the output's) of a
    Messages or Converse request, read from what would be sent."""
    if provider == "anthropic":
        tools = [t["input_schema"] for t in request.get("tools", []) if t["strict"]]
        output = request["output_config"]["format"]["schema"]
    else:
        specs = [t["toolSpec"] for t in request.get("toolConfig", {}).get("tools", [])]
        tools = [spec["inputSchema"]["json"] for spec in specs if spec.get("strict")]
        text = request["outputConfig"]["textFormat"]["structure"]["jsonSchema"]["schema"]
        output = json.loads(text)
    return len(tools), [*tools, output]


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_a_request_counts_its_limits_over_tools_and_output_together(
    gen: Any, provider: str
) -> None:
    """The example design's seven tools and ticket_triage: 27 optional members among the tools
    and 2 in the output. Counted by the independent checker on what would be sent, the request
    keeps within the per-request limits (six tools strict, one of them with a member written
    required and nullable); the single-part functions, each within the limits alone, would send
    25 optional members together (a 400)."""
    module = getattr(gen, provider)
    request = module.request(output="ticket_triage")
    strict_tools, schemas = _strict_schemas(provider, dict(request))
    optional = sum(counts(schema)[0] for schema in schemas)
    unions = sum(counts(schema)[1] for schema in schemas)
    assert strict_tools <= 20 and optional <= 24 and unions <= 16, (strict_tools, optional, unions)
    assert strict_tools == 6  # those that fit beside the output, one by a member made nullable
    assert all(not violations(schema) for schema in schemas)
    if provider == "anthropic":
        parts = {
            "tools": module.tool_definitions(),
            "output_config": {"format": module.output_format("ticket_triage")},
        }
    else:
        parts = {
            "toolConfig": {"tools": module.tool_definitions()},
            "outputConfig": {"textFormat": module.output_format("ticket_triage")},
        }
    _, apart = _strict_schemas(provider, parts)
    assert sum(counts(schema)[0] for schema in apart) == 25
    with pytest.raises(ValueError, match="MAX_OPTIONAL_MEMBERS"):
        module.request(output="ticket_triage", strict=True)
    assert module.request(strict=False, output="ticket_triage") != request


def test_the_plan_says_which_tools_went_non_strict_and_which_budget_bound(gen: Any) -> None:
    plan = gen.anthropic.plan_request(output="ticket_triage")
    assert plan.tools == gen.anthropic.TOOLS and plan.output == "ticket_triage"
    assert [name for name, _ in plan.left_out] == ["search.documents"]
    assert {budget.constant for _, budget in plan.left_out} == {"MAX_OPTIONAL_MEMBERS"}
    # search.documents (4 optional members, 2 of them at its root) cannot fit by writing its
    # root's members nullable; weather.get_forecast can, with its last one
    assert plan.nullable == {"weather.get_forecast": ("units",)}
    used = {budget.constant: budget.used for budget in plan.budgets}
    assert used == {
        "MAX_STRICT_TOOLS": 6,
        "MAX_OPTIONAL_MEMBERS": 24,
        "MAX_UNION_MEMBERS": 2,
    }
    text = plan.explain()
    assert "not strict: search.documents (it would take optional members over 24)" in text
    assert "strict with units required and nullable: weather.get_forecast" in text
    assert "optional members: 24 of 24 (MAX_OPTIONAL_MEMBERS)" in text
    assert plan.members == gen.anthropic.request(output="ticket_triage")


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_a_member_a_request_wrote_nullable_reads_back_absent(gen: Any, provider: str) -> None:
    """weather.get_forecast's ``units`` goes required and nullable in the request above: the
    model's null there is the member left out, by every way in (the decoders, ``canonicalize``,
    ``canonicalize_text``); a null elsewhere is still refused."""
    module = getattr(gen, provider)
    request = module.request(output="ticket_triage")
    tools = request["tools"] if provider == "anthropic" else request["toolConfig"]["tools"]
    (sent,) = [
        t["input_schema"] if provider == "anthropic" else t["toolSpec"]["inputSchema"]["json"]
        for t in tools
        if (t["name"] if provider == "anthropic" else t["toolSpec"]["name"])
        == "weather_get_forecast"
    ]
    assert "units" in sent["required"] and {"type": "null"} in sent["properties"]["units"]["anyOf"]
    arguments = '{"city": "Paris", "units": null}'
    call = module.decode_tool_call("weather_get_forecast", arguments)
    assert call.arguments.model_dump(exclude_unset=True) == {"city": "Paris"}
    assert module.canonicalize("weather.get_forecast", json.loads(arguments)) == {"city": "Paris"}
    assert module.canonicalize_text("weather.get_forecast", arguments) == '{"city":"Paris"}'
    untouched = '{"city": "Paris"}'
    assert module.canonicalize_text("weather.get_forecast", untouched) == untouched
    with pytest.raises(module.PayloadError):
        module.decode_tool_call("weather_get_forecast", '{"city": null}')


def test_each_api_writes_the_members_of_its_create_call(gen: Any) -> None:
    oai, claude = gen.openai, gen.anthropic
    chat = oai.request(["billing.refund"], output="ticket_triage", tool_choice="billing.refund")
    assert chat == {
        "tools": oai.tool_definitions(["billing.refund"]),
        "response_format": oai.response_format("ticket_triage"),
        "tool_choice": {"type": "function", "function": {"name": "billing_refund"}},
    }
    responses = oai.request(output="ticket_triage", api="responses")
    assert responses == {
        "tools": oai.tool_definitions(api="responses"),
        "text": {"format": oai.response_format("ticket_triage", "responses")},
    }
    assert claude.request([], output="ticket_triage") == {
        "output_config": {"format": claude.output_format("ticket_triage")}
    }
    assert claude.request(["send_email"], tool_choice="send_email")["tool_choice"] == {
        "type": "tool",
        "name": "send_email",
    }
    with pytest.raises(ValueError, match="none of the request's tools"):
        claude.request(["send_email"], tool_choice="billing.refund")
    with pytest.raises(TypeError, match=r"api='responses'"):
        oai.tool_definitions("responses")  # the order before: (api, names)
    with pytest.raises(TypeError, match=r"\['send_email'\]"):
        claude.tool_definitions("send_email")


def test_gemini_strict_is_the_request_wide_validated_mode(gen: Any) -> None:
    gemini = gen.gemini
    assert "toolConfig" not in gemini.request()
    validated = gemini.request(strict=True, output="ticket_triage")
    assert validated["toolConfig"] == {"functionCallingConfig": {"mode": "VALIDATED"}}
    assert validated["tools"] == gemini.tool_definitions()
    assert validated["responseJsonSchema"] == gemini.output_schema("ticket_triage")
    assert gemini.plan_request(strict=True).strict == frozenset(gemini.TOOLS)
    assert gemini.plan_request().strict == frozenset()
    forced = gemini.request(["send_email"], tool_choice="send_email")["toolConfig"]
    assert forced == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["send_email"]}
    }


def test_deepseek_outputs_go_in_json_mode_and_are_checked_after_decoding(gen: Any) -> None:
    deepseek = gen.deepseek
    assert deepseek.response_format("ticket_triage") == {"type": "json_object"}
    plan = deepseek.plan_request(output="ticket_triage")
    assert plan.members["response_format"] == {"type": "json_object"}
    assert plan.instructions == deepseek.output_instructions("ticket_triage")
    assert "json" in plan.instructions.lower()  # JSON mode asks for the word in the messages
    schema = json.loads(plan.instructions.split("\n", 1)[1])
    assert schema == deepseek.output_schema("ticket_triage")
    answer = {"category": "billing", "priority": "p2", "summary": "s", "entities": []}
    assert deepseek.parse_output("ticket_triage", json.dumps(answer)).summary == "s"
    with pytest.raises(deepseek.PayloadError):
        deepseek.parse_output("ticket_triage", json.dumps({**answer, "priority": "urgent"}))
    assert gen.openai.response_format("ticket_triage")["type"] == "json_schema"


def test_an_api_without_strict_mode_refuses_strict_true(gen: Any) -> None:
    cloudflare = gen.cloudflare
    with pytest.raises(ValueError, match="no strict mode"):
        cloudflare.request(strict=True)
    chat = cloudflare.request(["send_email"], output="ticket_triage", api="chat")
    assert chat["response_format"] == cloudflare.chat_response_format("ticket_triage")
