"""``on_error="raise"`` types each call as it is found (``TypedCalls``), ``"collect"`` keeps each
call to type it afterwards (``RawCalls``): the two must agree on every response. Where every call is
usable they give the same calls; where one is not, "raise" raises the PayloadError that "collect"
puts in the place of the first unusable call, whatever kind of failure comes later."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

#: (provider's name, arguments as sent): usable calls, then each kind of unusable one
GOOD = [
    (
        "billing_refund",
        {"charge_id": "ch_12345678", "amount": None, "reason": "duplicate", "note": None},
    ),
    ("weather_get_forecast", {"city": "Lyon", "days": 5, "units": "celsius"}),
]
BAD = [
    ("billing_refund", {"charge_id": 7, "amount": None, "reason": "duplicate", "note": None}),
    ("no_such_tool", {"x": 1}),
    ("weather_get_forecast", "{not json"),
    ("weather_get_forecast", "[1, 2]"),
    ("weather_get_forecast", "[" * 200 + "]" * 200),
]


def _text(arguments: Any) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def chat_completion(calls: list[tuple[str, Any]]) -> dict[str, Any]:
    tool_calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": _text(a)}}
        for i, (n, a) in enumerate(calls)
    ]
    message = {"role": "assistant", "content": None, "refusal": None, "tool_calls": tool_calls}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1764806400,
        "model": "gpt-5",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def message(calls: list[tuple[str, Any]]) -> dict[str, Any]:
    """An Anthropic message: ``input`` arrives parsed, so only object arguments are kept."""
    content = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": a}
        for i, (n, a) in enumerate(calls)
        if not isinstance(a, str)
    ]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": content,
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def described(call: Any) -> tuple[Any, ...]:
    return (call.id, call.name, call.wire_name, call.raw_arguments, call.arguments.model_dump())


def error_of(error: Any) -> tuple[Any, ...]:
    return (error.code, error.tool, error.call_id, error.location, error.reason)


def responses() -> Iterator[tuple[str, list[tuple[str, Any]]]]:
    """Every order of two usable calls and two unusable ones of any two kinds."""
    for bad in itertools.combinations(BAD, 2):
        for calls in itertools.permutations([*GOOD, *bad]):
            yield "openai", list(calls)
            yield "anthropic", list(calls)
    yield "openai", list(GOOD)
    yield "anthropic", list(GOOD)


def test_raise_agrees_with_collect(gen: ModuleType) -> None:
    modules = {"openai": gen.openai, "anthropic": gen.anthropic}
    body = {"openai": chat_completion, "anthropic": message}
    errors = 0
    for provider, calls in responses():
        module, data = modules[provider], body[provider](calls)
        collected = module.parse_tool_calls(data, on_error="collect")
        failed = [c for c in collected if isinstance(c, module.FailedCall)]
        if not failed:
            typed = module.parse_tool_calls(data)
            assert [described(c) for c in typed] == [described(c) for c in collected], calls
            continue
        errors += 1
        with pytest.raises(module.PayloadError) as raised:
            module.parse_tool_calls(data)
        assert error_of(raised.value) == error_of(failed[0].error), (provider, calls)
    assert errors


def test_a_stream_raises_the_first_unusable_call(gen: ModuleType) -> None:
    openai = gen.openai
    for calls in itertools.permutations([GOOD[0], BAD[0], BAD[2]]):
        stream = openai.ToolCallStream("chat")
        for index, (name, arguments) in enumerate(calls):
            call = {"index": index, "id": f"call_{index}", "type": "function"}
            call["function"] = {"name": name, "arguments": _text(arguments)}
            stream.add(
                {
                    "id": "chunk",
                    "object": "chat.completion.chunk",
                    "created": 1,
                    "model": "gpt-5",
                    "choices": [
                        {"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}
                    ],
                }
            )
        failed = [c for c in stream.tool_calls(on_error="collect") if hasattr(c, "error")]
        with pytest.raises(openai.PayloadError) as raised:
            stream.tool_calls()
        assert error_of(raised.value) == error_of(failed[0].error), calls


def test_decode_tool_call_is_the_typed_call_of_parse_tool_calls(gen: ModuleType) -> None:
    openai = gen.openai
    (parsed,) = openai.parse_tool_calls(chat_completion([GOOD[0]]))
    one = openai.decode_tool_call(GOOD[0][0], _text(GOOD[0][1]), call_id="call_0")
    assert described(one) == described(parsed)
    with pytest.raises(openai.PayloadError) as raised:
        openai.decode_tool_call("no_such_tool", "{}")
    assert raised.value.code == "UNKNOWN_TOOL"
