"""The whole tool loop through the official clients against the loopback server, with only the
generated helpers: turn 1 asks for two calls at once, one with arguments the canonical model
rejects; the request of turn 2 replays the assistant turn and answers both calls by the provider's
rules (checked here on the recorded body); turn 2 answers with the corrected call; turn 3 ends in
text. Streaming too for Chat Completions and Messages."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest

from tests.sdk.bodies import (
    PAYLOADS,
    Call,
    chat_chunks,
    chat_completion,
    message,
    message_events,
    response,
    response_events,
    strict_arguments,
)
from tests.sdk.loopback import Loopback

FORECAST = "weather.get_forecast"
REFUND = "billing.refund"
BAD_REFUND = {**PAYLOADS[REFUND], "charge_id": "ch_bad"}  # the pattern wants 8+ characters


def handlers(gen: ModuleType, ran: list[str]) -> Any:
    """A ToolHandlers with every method: the forecast answers a JSON object, the refund its own
    (canonical) model, any other tool a ToolError."""

    def handler(name: str) -> Any:
        def run(self: Any, arguments: Any) -> Any:
            ran.append(name)
            if name == FORECAST:
                return {
                    "city": arguments.city,
                    "days": [{"date": "2026-12-04", "high": 21, "low": 12}],
                }
            if name == REFUND:
                return arguments
            raise gen.handlers.ToolError("not available")

        return run

    methods = {method: handler(name) for name, method in gen.handlers.HANDLER_NAMES.items()}
    return type("Handlers", (gen.handlers.ToolHandlers,), methods)()


def openai_call(gen: ModuleType, call_id: str, name: str, payload: dict[str, Any]) -> Call:
    schema = gen.openai.parameters(name)
    arguments = json.dumps(strict_arguments(payload, schema, schema))
    return (call_id, gen.openai.PROVIDER_NAMES[name], arguments)


def two_calls(gen: ModuleType) -> list[Call]:
    """Turn 1 of every OpenAI loop: the forecast, and a refund the canonical model rejects."""
    return [
        openai_call(gen, "call_a", FORECAST, PAYLOADS[FORECAST]),
        openai_call(gen, "call_b", REFUND, BAD_REFUND),
    ]


def check_for_model(text: str) -> None:
    assert len(text) < 300
    assert "arguments.charge_id" in text
    assert "ch_bad" not in text  # no value from the call


# --- OpenAI Chat Completions ------------------------------------------------------------------


def check_chat_request(body: dict[str, Any], calls: list[Call]) -> list[dict[str, Any]]:
    """The rules of Chat Completions: the assistant message with its calls as received, then one
    tool message per call id, in order, each exactly once. Returns the tool messages."""
    messages = body["messages"]
    at = max(i for i, m in enumerate(messages) if m["role"] == "assistant" and "tool_calls" in m)
    replayed = messages[at]["tool_calls"]
    assert [(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in replayed] == [
        (i, n, a) for i, n, a in calls
    ]
    answers = messages[at + 1 : at + 1 + len(calls)]
    assert [m["role"] for m in answers] == ["tool"] * len(calls)
    assert [m["tool_call_id"] for m in answers] == [c[0] for c in calls]
    assert all(isinstance(m["content"], str) for m in answers)
    return list(answers)


def test_chat_three_turns(gen: ModuleType, server: Loopback, openai_client: Any) -> None:
    oai, ran = gen.openai, []
    turn1 = two_calls(gen)
    turn2 = [openai_call(gen, "call_c", REFUND, PAYLOADS[REFUND])]
    server.reply_json(chat_completion(turn1))
    server.reply_json(chat_completion(turn2))
    server.reply_json(chat_completion([], "Done: refunded."))
    messages: list[Any] = [{"role": "user", "content": "Weather in Lyon, and refund ch_9Kx2LmQ7"}]
    tools = oai.tool_definitions()
    for _ in range(3):
        completion = openai_client.chat.completions.create(
            model="m", messages=messages, tools=tools
        )
        outcomes = oai.parse_tool_calls(completion, on_error="collect")
        if not outcomes:
            break
        messages.append(oai.assistant_turn(completion))
        messages.extend(oai.run_tool_calls(handlers(gen, ran), outcomes))
    assert completion.choices[0].message.content == "Done: refunded."
    assert ran == [FORECAST, REFUND]
    first = check_chat_request(server.requests[1][1], turn1)
    assert json.loads(first[0]["content"]) == {
        "city": "Lyon",
        "days": [{"date": "2026-12-04", "high": 21, "low": 12}],
    }
    assert first[1]["content"].startswith("Error: ")
    check_for_model(first[1]["content"])
    second = check_chat_request(server.requests[2][1], turn2)
    assert json.loads(second[0]["content"]) == PAYLOADS[REFUND]


def test_deepseek_replays_the_reasoning_of_a_turn_that_made_calls(
    gen: ModuleType, server: Loopback, openai_client: Any
) -> None:
    """DeepSeek's thinking mode answers 400 when a tool-calling turn comes back without its
    reasoning_content; OpenAI's API has no such member, so its turn never carries one."""
    calls = [openai_call(gen, "call_a", FORECAST, PAYLOADS[FORECAST])]
    thought = chat_completion(calls)
    thought["choices"][0]["message"]["reasoning_content"] = "The user wants the weather."
    answered = chat_completion([], "Sunny.")
    answered["choices"][0]["message"]["reasoning_content"] = "Say it."
    server.reply_json(thought)
    server.reply_json({**thought, "id": "chatcmpl-sdk-2"})
    messages: list[Any] = [{"role": "user", "content": "Weather in Lyon?"}]
    completion = openai_client.chat.completions.create(model="m", messages=messages)
    turn = gen.deepseek.assistant_turn(completion)
    assert turn["reasoning_content"] == "The user wants the weather."
    assert "reasoning_content" not in gen.openai.assistant_turn(completion)
    assert "reasoning_content" not in gen.deepseek.assistant_turn(answered)  # no calls: not needed
    outcomes = gen.deepseek.parse_tool_calls(completion, on_error="collect")
    messages += [turn, *gen.deepseek.run_tool_calls(handlers(gen, []), outcomes)]
    openai_client.chat.completions.create(model="m", messages=messages)
    sent = server.requests[1][1]["messages"][1]
    assert sent["reasoning_content"] == "The user wants the weather."
    assert sent["tool_calls"][0]["id"] == "call_a"


def test_only_mistral_tool_messages_carry_the_wire_name(gen: ModuleType) -> None:
    """Per-provider loop options come from the profile (``module_data["loop_options"]``)."""
    completion = chat_completion([openai_call(gen, "call_r", REFUND, PAYLOADS[REFUND])])
    (call,) = gen.mistral.parse_tool_calls(completion)
    assert gen.mistral.tool_result(call, "ok")["name"] == call.wire_name
    assert "name" not in gen.openai.tool_result(gen.openai.parse_tool_calls(completion)[0], "ok")


def test_chat_streamed(gen: ModuleType, server: Loopback, openai_client: Any) -> None:
    oai = gen.openai
    turn1 = two_calls(gen)
    server.reply_stream("chat", chat_chunks(turn1))
    server.reply_json(chat_completion([], "ok"))
    messages: list[Any] = [{"role": "user", "content": "hi"}]
    stream = oai.ToolCallStream("chat")
    with openai_client.chat.completions.stream(
        model="m", messages=messages, tools=oai.tool_definitions()
    ) as events:
        for event in events:
            if event.type == "chunk":
                stream.add(event.chunk)
        final = events.get_final_completion()
    outcomes = stream.tool_calls(on_error="collect")
    assert [type(o).__name__ for o in outcomes] == ["ToolCall", "FailedCall"]
    assert outcomes[1].name == REFUND and outcomes[1].wire_name == turn1[1][1]
    messages.append(oai.assistant_turn(final))
    messages.extend(oai.tool_results(outcomes, [{"city": "Lyon", "days": []}, None]))
    openai_client.chat.completions.create(model="m", messages=messages)
    answers = check_chat_request(server.requests[1][1], turn1)
    check_for_model(answers[1]["content"])
    with pytest.raises(gen.openai.PayloadError):
        stream.tool_calls()


# --- OpenAI Responses -------------------------------------------------------------------------


def test_responses_three_turns(gen: ModuleType, server: Loopback, openai_client: Any) -> None:
    oai, ran = gen.openai, []
    turn1 = two_calls(gen)
    turn2 = [openai_call(gen, "call_c", REFUND, PAYLOADS[REFUND])]
    for body in (response(turn1), response(turn2), response([], "Done.")):
        server.reply_json(body)
    items: list[Any] = [{"role": "user", "content": "Weather, and a refund"}]
    tools = oai.tool_definitions(api="responses")
    for _ in range(3):
        answer = openai_client.responses.create(model="m", input=items, tools=tools)
        outcomes = oai.parse_tool_calls(answer, "responses", on_error="collect")
        if not outcomes:
            break
        items.extend(oai.assistant_turn(answer, "responses"))
        items.extend(oai.run_tool_calls(handlers(gen, ran), outcomes, "responses"))
    assert answer.output_text == "Done."
    assert ran == [FORECAST, REFUND]
    for number, calls in ((1, turn1), (2, turn2)):
        sent = server.requests[number][1]["input"]
        replayed = [i for i in sent if i.get("type") == "function_call"]
        outputs = [i for i in sent if i.get("type") == "function_call_output"]
        assert [i["call_id"] for i in replayed][-len(calls) :] == [c[0] for c in calls]
        assert [i["call_id"] for i in outputs][-len(calls) :] == [c[0] for c in calls]
    outputs = [i for i in server.requests[1][1]["input"] if i.get("type") == "function_call_output"]
    check_for_model(outputs[1]["output"])


def test_responses_streamed(gen: ModuleType, server: Loopback, openai_client: Any) -> None:
    """The stream's events go into ToolCallStream as the SDK yields them; the final response the
    SDK assembles is the turn to replay."""
    oai = gen.openai
    turn1 = two_calls(gen)
    server.reply_stream("responses", response_events(turn1))
    server.reply_json(response([], "ok"))
    items: list[Any] = [{"role": "user", "content": "hi"}]
    stream = oai.ToolCallStream("responses")
    with openai_client.responses.stream(
        model="m", input=items, tools=oai.tool_definitions(api="responses")
    ) as events:
        for event in events:
            stream.add(event)
        final = events.get_final_response()
    outcomes = stream.tool_calls(on_error="collect")
    assert [type(o).__name__ for o in outcomes] == ["ToolCall", "FailedCall"]
    assert [o.id for o in outcomes] == ["call_a", "call_b"]
    items.extend(oai.assistant_turn(final, "responses"))
    items.extend(oai.tool_results(outcomes, [{"city": "Lyon", "days": []}, None], "responses"))
    openai_client.responses.create(model="m", input=items)
    sent = server.requests[1][1]["input"]
    assert [i["call_id"] for i in sent if i.get("type") == "function_call"] == ["call_a", "call_b"]
    outputs = [i for i in sent if i.get("type") == "function_call_output"]
    assert [i["call_id"] for i in outputs] == ["call_a", "call_b"]
    check_for_model(outputs[1]["output"])


# --- Anthropic Messages -----------------------------------------------------------------------


def anthropic_call(gen: ModuleType, call_id: str, name: str, payload: dict[str, Any]) -> Call:
    return (call_id, gen.anthropic.PROVIDER_NAMES[name], json.dumps(payload))


def check_messages_request(body: dict[str, Any], calls: list[Call]) -> list[dict[str, Any]]:
    """The rules of Messages: the assistant turn's blocks as received, then a user message that
    BEGINS with one tool_result per tool_use, same ids. Returns those blocks."""
    messages = body["messages"]
    at = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    uses = [b for b in messages[at]["content"] if b["type"] == "tool_use"]
    assert [(b["id"], b["name"], b["input"]) for b in uses] == [
        (i, n, json.loads(a)) for i, n, a in calls
    ]
    user = messages[at + 1]
    assert user["role"] == "user"
    leading = user["content"][: len(uses)]
    assert [b["type"] for b in leading] == ["tool_result"] * len(uses)
    assert [b["tool_use_id"] for b in leading] == [b["id"] for b in uses]
    return list(leading)


def anthropic_tools(gen: ModuleType) -> Any:
    return gen.anthropic.tool_definitions([FORECAST, REFUND])


def test_messages_three_turns(gen: ModuleType, server: Loopback, anthropic_client: Any) -> None:
    claude, ran = gen.anthropic, []
    turn1 = [
        anthropic_call(gen, "toolu_a", FORECAST, PAYLOADS[FORECAST]),
        anthropic_call(gen, "toolu_b", REFUND, BAD_REFUND),
    ]
    turn2 = [anthropic_call(gen, "toolu_c", REFUND, PAYLOADS[REFUND])]
    for body in (message(turn1, "Let me check."), message(turn2), message([], "Refunded.")):
        server.reply_json(body)
    messages: list[Any] = [{"role": "user", "content": "Weather, and a refund"}]
    for _ in range(3):
        reply = anthropic_client.messages.create(
            model="m", max_tokens=100, messages=messages, tools=anthropic_tools(gen)
        )
        outcomes = claude.parse_tool_calls(reply, on_error="collect")
        if not outcomes:
            break
        messages.append(claude.assistant_turn(reply))
        messages.append(claude.run_tool_calls(handlers(gen, ran), outcomes))
    assert reply.content[0].text == "Refunded."
    assert ran == [FORECAST, REFUND]
    first = check_messages_request(server.requests[1][1], turn1)
    assert "is_error" not in first[0] and first[1]["is_error"] is True
    check_for_model(first[1]["content"])
    assert server.requests[1][1]["messages"][1]["content"][0] == {
        "type": "text",
        "text": "Let me check.",
    }
    second = check_messages_request(server.requests[2][1], turn2)
    assert json.loads(second[0]["content"]) == PAYLOADS[REFUND]


def test_messages_streamed(gen: ModuleType, server: Loopback, anthropic_client: Any) -> None:
    claude = gen.anthropic
    turn1 = [
        anthropic_call(gen, "toolu_a", FORECAST, PAYLOADS[FORECAST]),
        anthropic_call(gen, "toolu_b", REFUND, BAD_REFUND),
    ]
    server.reply_stream("messages", message_events(turn1))
    server.reply_json(message([], "ok"))
    messages: list[Any] = [{"role": "user", "content": "hi"}]
    stream = claude.ToolCallStream()
    with anthropic_client.messages.stream(
        model="m", max_tokens=100, messages=messages, tools=anthropic_tools(gen)
    ) as events:
        for event in events:
            stream.add(event)
        final = events.get_final_message()
    outcomes = stream.tool_calls(on_error="collect")
    messages.append(claude.assistant_turn(final))
    messages.append(claude.tool_results(outcomes, [{"city": "Lyon", "days": []}, None]))
    anthropic_client.messages.create(model="m", max_tokens=100, messages=messages)
    blocks = check_messages_request(server.requests[1][1], turn1)
    assert blocks[1]["is_error"] is True


def test_a_result_set_that_misses_or_repeats_a_call_names_the_id(gen: ModuleType) -> None:
    calls = [anthropic_call(gen, "toolu_a", REFUND, PAYLOADS[REFUND])]  # no output: schema
    outcomes = gen.anthropic.parse_tool_calls(message(calls), on_error="collect")
    with pytest.raises(ValueError, match="toolu_a"):
        gen.anthropic.tool_results(outcomes, [])
    with pytest.raises(ValueError, match="toolu_a"):
        gen.anthropic.tool_results(outcomes * 2, [1, 2])


def test_async_handlers_run_at_once_and_answer_in_call_order(gen: ModuleType) -> None:
    import asyncio

    calls = [
        anthropic_call(gen, "toolu_a", FORECAST, PAYLOADS[FORECAST]),
        anthropic_call(gen, "toolu_b", REFUND, PAYLOADS[REFUND]),
        ("toolu_c", "no_such_tool", "{}"),
    ]
    outcomes = gen.anthropic.parse_tool_calls(message(calls), on_error="collect")
    assert outcomes[2].name is None and outcomes[2].wire_name == "no_such_tool"
    refunded = asyncio.Event()

    class Handlers(gen.handlers.AsyncToolHandlers):
        pass

    async def forecast(self: Any, arguments: Any) -> Any:
        await asyncio.wait_for(refunded.wait(), 5)  # only ends if the refund runs meanwhile
        raise gen.handlers.ToolError("the forecast service is down")

    async def refund(self: Any, arguments: Any) -> Any:
        refunded.set()
        return "refunded"

    names = gen.handlers.HANDLER_NAMES
    for name, method in names.items():
        setattr(Handlers, method, {FORECAST: forecast, REFUND: refund}.get(name, refund))
    Handlers.__abstractmethods__ = frozenset()
    message_ = asyncio.run(gen.anthropic.arun_tool_calls(Handlers(), outcomes))
    blocks = message_["content"]
    assert [b["tool_use_id"] for b in blocks] == ["toolu_a", "toolu_b", "toolu_c"]
    assert blocks[0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_a",
        "content": "the forecast service is down",
        "is_error": True,
    }
    assert blocks[1]["content"] == "refunded" and "is_error" not in blocks[1]
    assert blocks[2]["is_error"] is True and len(blocks[2]["content"]) < 300


def test_every_failed_call_is_kept_in_wire_order_with_a_short_valueless_message(
    gen: ModuleType,
) -> None:
    secret = "s3cr3t-value"
    refund = gen.openai.PROVIDER_NAMES[REFUND]
    calls = [
        ("c1", "no_such_tool", json.dumps({"x": secret})),
        ("c2", refund, '{"charge_id": "' + secret),  # not JSON
        ("c3", refund, json.dumps([secret])),  # not an object
        ("c4", refund, json.dumps({**BAD_REFUND, "note": secret, "reason": secret})),
        openai_call(gen, "c5", FORECAST, PAYLOADS[FORECAST]),
    ]
    outcomes = gen.openai.parse_tool_calls(chat_completion(calls), on_error="collect")
    assert [o.id for o in outcomes] == ["c1", "c2", "c3", "c4", "c5"]
    assert [type(o).__name__ for o in outcomes] == ["FailedCall"] * 4 + ["ToolCall"]
    assert [o.wire_name for o in outcomes] == [c[1] for c in calls]
    assert [o.name for o in outcomes[:4]] == [None, REFUND, REFUND, REFUND]
    assert [o.raw_arguments for o in outcomes[:4]] == [c[2] for c in calls[:4]]
    for failed in outcomes[:4]:
        text = failed.for_model()
        assert len(text) < 300 and secret not in text and "ch_bad" not in text
    assert "arguments" in outcomes[1].for_model() and "arguments" in outcomes[2].for_model()
    assert "arguments.charge_id" in outcomes[3].for_model()
    with pytest.raises(gen.openai.PayloadError):
        gen.openai.parse_tool_calls(chat_completion(calls))
