"""The three-turn tool loop on the raw wire shapes of Gemini generateContent, Bedrock Converse and
Workers AI ``ai/run``: a stand-in model checks each request by the provider's rules (PROVIDERS.md,
"Returning tool results") and answers from a script: two calls (one the canonical model rejects),
then the corrected call, then text."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

from tests.sdk.bodies import PAYLOADS, response_body
from tests.sdk.test_tool_loop import BAD_REFUND, FORECAST, REFUND, check_for_model, handlers

Model = Callable[[list[Any]], dict[str, Any]]


def scripted(replies: list[dict[str, Any]], check: Callable[[list[Any], int], None]) -> Model:
    """A model that checks the conversation it is sent (``check(contents, turn)``) and answers
    with the next reply."""
    turn = iter(range(len(replies)))

    def model(contents: list[Any]) -> dict[str, Any]:
        number = next(turn)
        check(json.loads(json.dumps(contents)), number)  # what goes on the wire
        return replies[number]

    return model


# --- Gemini -----------------------------------------------------------------------------------


def gemini_parts(gen: ModuleType, calls: list[tuple[str, str, dict[str, Any]]]) -> list[Any]:
    return [
        {"functionCall": {"id": i, "name": gen.gemini.PROVIDER_NAMES[n], "args": a}}
        for i, n, a in calls
    ]


def test_gemini_three_turns(gen: ModuleType) -> None:
    gemini, ran = gen.gemini, []
    turn1 = gemini_parts(gen, [("c1", FORECAST, PAYLOADS[FORECAST]), ("c2", REFUND, BAD_REFUND)])
    turn1[0]["thoughtSignature"] = "c2lnbmF0dXJl"
    turn2 = gemini_parts(gen, [("c3", REFUND, PAYLOADS[REFUND])])
    replies = [response_body(turn1), response_body(turn2), response_body([{"text": "Done."}])]

    def check(contents: list[Any], turn: int) -> None:
        if turn == 0:
            return
        calls = [turn1, turn2][turn - 1]
        replayed, answer = contents[-2], contents[-1]
        assert replayed == {"role": "model", "parts": calls}  # thoughtSignature kept
        assert answer["role"] == "user"
        responses = [part["functionResponse"] for part in answer["parts"]]
        assert len(responses) == len(calls)
        for part, call in zip(responses, calls, strict=True):
            assert part["name"] == call["functionCall"]["name"]
            assert part["id"] == call["functionCall"]["id"]
            assert isinstance(part["response"], dict)
            assert set(part["response"]) in ({"output"}, {"error"})
        if turn == 1:
            check_for_model(responses[1]["response"]["error"])

    model = scripted(replies, check)
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Weather, and a refund"}]}]
    for _ in range(3):
        reply = model(contents)
        outcomes = gemini.parse_tool_calls(reply, on_error="collect")
        if not outcomes:
            break
        contents.append(gemini.assistant_turn(reply))
        contents.append(gemini.run_tool_calls(handlers(gen, ran), outcomes))
    assert ran == [FORECAST, REFUND]


# --- Bedrock Converse -------------------------------------------------------------------------


def converse_reply(gen: ModuleType, calls: list[tuple[str, str, dict[str, Any]]]) -> Any:
    content = [
        {"toolUse": {"toolUseId": i, "name": gen.bedrock.PROVIDER_NAMES[n], "input": a}}
        for i, n, a in calls
    ]
    return {
        "output": {"message": {"role": "assistant", "content": content or [{"text": "Done."}]}},
        "stopReason": "tool_use" if calls else "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }


def test_bedrock_three_turns(gen: ModuleType) -> None:
    bedrock, ran = gen.bedrock, []
    turn1 = converse_reply(gen, [("t1", FORECAST, PAYLOADS[FORECAST]), ("t2", REFUND, BAD_REFUND)])
    turn2 = converse_reply(gen, [("t3", REFUND, PAYLOADS[REFUND])])
    replies = [turn1, turn2, converse_reply(gen, [])]

    def check(messages: list[Any], turn: int) -> None:
        if turn == 0:
            return
        sent = [turn1, turn2][turn - 1]["output"]["message"]
        assert messages[-2] == sent
        answer = messages[-1]
        assert answer["role"] == "user"
        results = [block["toolResult"] for block in answer["content"]]
        uses = [block["toolUse"] for block in sent["content"]]
        assert [r["toolUseId"] for r in results] == [u["toolUseId"] for u in uses]
        for result in results:
            assert all(set(c) in ({"json"}, {"text"}) for c in result["content"])
            assert all(isinstance(c["json"], dict) for c in result["content"] if "json" in c)
        if turn == 1:
            assert [r["status"] for r in results] == ["success", "error"]
            check_for_model(results[1]["content"][0]["text"])

    model = scripted(replies, check)
    messages: list[Any] = [{"role": "user", "content": [{"text": "Weather, and a refund"}]}]
    for _ in range(3):
        reply = model(messages)
        outcomes = bedrock.parse_tool_calls(reply, on_error="collect")
        if not outcomes:
            break
        messages.append(bedrock.assistant_turn(reply))
        messages.append(bedrock.run_tool_calls(handlers(gen, ran), outcomes))
    assert ran == [FORECAST, REFUND]


def test_bedrock_wraps_json_that_is_no_object(gen: ModuleType) -> None:
    # the refund declares no output: schema, so any JSON value may answer it
    turn = converse_reply(gen, [("t1", REFUND, PAYLOADS[REFUND])])
    (call,) = gen.bedrock.parse_tool_calls(turn)
    block = gen.bedrock.tool_result(call, [1, 2])
    assert block["toolResult"]["content"] == [{"json": {"output": [1, 2]}}]


def converse_events(gen: ModuleType, calls: list[tuple[str, str, dict[str, Any]]]) -> list[Any]:
    """The ConverseStream events of a turn that thinks (signed), says a word, then calls, each
    call's input in two fragments, as boto3 yields them."""
    events: list[Any] = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "Two "}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "tools."}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": "c2ln"}}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"text": "On it."}}},
        {"contentBlockStop": {"contentBlockIndex": 1}},
    ]  # fmt: skip
    for index, (call_id, name, payload) in enumerate(calls, 2):
        text = json.dumps(payload)
        tool = {"toolUseId": call_id, "name": gen.bedrock.PROVIDER_NAMES[name]}
        events.append(
            {"contentBlockStart": {"contentBlockIndex": index, "start": {"toolUse": tool}}}
        )
        for part in (text[: len(text) // 2], text[len(text) // 2 :]):
            delta = {"toolUse": {"input": part}}
            events.append({"contentBlockDelta": {"contentBlockIndex": index, "delta": delta}})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
    return [*events, {"messageStop": {"stopReason": "tool_use"}}]


def test_bedrock_streamed_turn_is_replayed_from_its_events(gen: ModuleType) -> None:
    bedrock = gen.bedrock
    calls = [("t1", FORECAST, PAYLOADS[FORECAST]), ("t2", REFUND, BAD_REFUND)]
    events = converse_events(gen, calls)
    stream = bedrock.ToolCallStream("converse")
    for event in events:
        stream.add(event)
    outcomes = stream.tool_calls(on_error="collect")
    assert [type(o).__name__ for o in outcomes] == ["ToolCall", "FailedCall"]
    turn = bedrock.assistant_turn(events)
    assert turn == {
        "role": "assistant",
        "content": [
            {"reasoningContent": {"reasoningText": {"text": "Two tools.", "signature": "c2ln"}}},
            {"text": "On it."},
            *converse_reply(gen, calls)["output"]["message"]["content"],
        ],
    }
    answers = bedrock.run_tool_calls(handlers(gen, []), outcomes)
    assert [b["toolResult"]["toolUseId"] for b in answers["content"]] == ["t1", "t2"]
    assert answers["content"][1]["toolResult"]["status"] == "error"


# --- Workers AI ai/run ------------------------------------------------------------------------

MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast"


def workers_reply(gen: ModuleType, calls: list[tuple[str, str, dict[str, Any]]]) -> Any:
    tool_calls = [
        {"id": i, "name": gen.cloudflare.PROVIDER_NAMES[n], "arguments": a} for i, n, a in calls
    ]
    result = {"response": "" if calls else "Done.", "tool_calls": tool_calls}
    return {"result": result, "success": True, "errors": [], "messages": []}


def test_workers_ai_three_turns(gen: ModuleType) -> None:
    cf, ran = gen.cloudflare, []
    turn1 = workers_reply(gen, [("w1", FORECAST, PAYLOADS[FORECAST]), ("w2", REFUND, BAD_REFUND)])
    turn2 = workers_reply(gen, [("w3", REFUND, PAYLOADS[REFUND])])
    replies = [turn1, turn2, workers_reply(gen, [])]

    def check(messages: list[Any], turn: int) -> None:
        if turn == 0:
            return
        calls = [turn1, turn2][turn - 1]["result"]["tool_calls"]
        at = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
        replayed = messages[at]["tool_calls"]
        assert [c["id"] for c in replayed] == [c["id"] for c in calls]
        answers = messages[at + 1 :]
        assert [m["role"] for m in answers] == ["tool"] * len(calls)
        assert [m["tool_call_id"] for m in answers] == [c["id"] for c in calls]
        assert [m["name"] for m in answers] == [c["name"] for c in calls]
        if turn == 1:
            check_for_model(answers[1]["content"])

    model = scripted(replies, check)
    messages: list[Any] = [{"role": "user", "content": "Weather, and a refund"}]
    for _ in range(3):
        reply = model(messages)
        outcomes = cf.parse_tool_calls(reply, model=MODEL, on_error="collect")
        if not outcomes:
            break
        messages.append(cf.assistant_turn(reply, model=MODEL))
        messages.extend(cf.run_tool_calls(handlers(gen, ran), outcomes))
    assert ran == [FORECAST, REFUND]


def test_workers_ai_replays_a_responses_style_turn(gen: ModuleType) -> None:
    """gpt-oss models answer ``ai/run`` with Responses-style ``output`` items: the turn goes back
    in the Chat Completions form of the messages ``ai/run`` takes, each call under the id its
    tool message answers, the reasoning item left out, the text kept."""
    cf = gen.cloudflare
    refund = json.dumps(PAYLOADS[REFUND])
    output = [
        {"type": "reasoning", "id": "rs_1", "content": [{"type": "reasoning_text", "text": "…"}]},
        {"type": "message", "id": "m_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Refunding.", "annotations": []}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_r", "status": "completed",
         "name": cf.PROVIDER_NAMES[REFUND], "arguments": refund},
    ]  # fmt: skip
    reply = {"result": {"object": "response", "output": output}, "success": True, "errors": []}
    gpt_oss = "@cf/openai/gpt-oss-120b"
    outcomes = cf.parse_tool_calls(reply, model=gpt_oss, on_error="collect")
    turn = cf.assistant_turn(reply, model=gpt_oss)
    assert turn == {
        "role": "assistant",
        "content": "Refunding.",
        "tool_calls": [
            {
                "id": "call_r",
                "type": "function",
                "function": {"name": cf.PROVIDER_NAMES[REFUND], "arguments": refund},
            }
        ],
    }
    (answer,) = cf.run_tool_calls(handlers(gen, []), outcomes)
    assert answer["tool_call_id"] == "call_r"
