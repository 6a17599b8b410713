"""Bedrock Converse envelopes beyond the recordings: forward compatibility, drift at the right
path, server tools skipped, and the stream accumulator's reset and joins."""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import decoder, raw_reader
from tests.envelope.test_corpus import NAMES

BODY: dict[str, Any] = {
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {"text": "Looking it up."},
                {"toolUse": {"toolUseId": "t1", "name": "weather", "input": {"city": "Paris"}}},
                {
                    "toolUse": {
                        "toolUseId": "s1",
                        "name": "nova_code_interpreter",
                        "input": {"code": "1+1"},
                        "type": "server_tool_use",
                    }
                },
            ],
        }
    },
    "stopReason": "tool_use",
    "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
    "metrics": {"latencyMs": 120},
}


def test_client_tool_uses_are_parsed_and_server_tools_skipped(modules: dict[str, ModuleType]):
    calls = decoder("bedrock", "converse").parse_tool_calls(BODY, raw_reader("bedrock", NAMES))
    assert [(c.id, c.name, c.arguments, c.raw_arguments) for c in calls] == [
        ("t1", "weather", {"city": "Paris"}, '{"city":"Paris"}')
    ]


def test_unknown_blocks_and_members_pass(modules: dict[str, ModuleType]):
    body = copy.deepcopy(BODY)
    body["output"]["message"]["content"].append({"citationsContent": {"citations": []}})
    body["output"]["message"]["content"][0]["cachePoint"] = {"type": "default"}
    body["trace"] = {"guardrail": {}}
    assert modules["bedrock"].validate_converse(body) is body
    event = {"newEventKind": {"x": 1}}
    assert modules["bedrock"].validate_converse_stream_event(event) is event


@pytest.mark.parametrize(
    "change, path, expected",
    [
        (lambda b: b["output"]["message"]["content"][1]["toolUse"].update(input="{}"),
         "output.message.content[1].toolUse.input", "object"),
        (lambda b: b["output"]["message"]["content"][1]["toolUse"].pop("toolUseId"),
         "output.message.content[1].toolUse.toolUseId", "string"),
        (lambda b: b["usage"].update(totalTokens="15"), "usage.totalTokens", "integer"),
        (lambda b: b["output"].pop("message"), "output.message", "object"),
    ],
    ids=["input-text", "no-id", "usage", "no-message"],
)  # fmt: skip
def test_drift_is_reported_where_it_happened(modules, change, path, expected):
    body = copy.deepcopy(BODY)
    change(body)
    with pytest.raises(modules["_runtime"].SchemaDriftError) as raised:
        modules["bedrock"].validate_converse(body)
    assert (raised.value.path, raised.value.expected) == (path, expected)


def _start(index: int, tool_id: str, name: str) -> dict[str, Any]:
    return {
        "contentBlockStart": {
            "contentBlockIndex": index,
            "start": {"toolUse": {"toolUseId": tool_id, "name": name}},
        }
    }


def _fragment(index: int, text: str) -> dict[str, Any]:
    return {
        "contentBlockDelta": {"contentBlockIndex": index, "delta": {"toolUse": {"input": text}}}
    }


def test_the_stream_joins_fragments_and_restarts_on_message_start(modules):
    stream = decoder("bedrock", "converse_stream_event").stream()
    for event in [
        {"messageStart": {"role": "assistant"}},
        _start(0, "old", "weather"),
        _fragment(0, '{"city": "Rome"}'),
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Hi"}}},
        _start(1, "t1", "weather"),
        _fragment(1, '{"city"'),
        _fragment(1, ': "Paris"}'),
        {"contentBlockStop": {"contentBlockIndex": 1}},
        _start(2, "t2", "clock"),
        {"contentBlockStop": {"contentBlockIndex": 2}},
        {"messageStop": {"stopReason": "tool_use"}},
    ]:
        stream.add(event)
    calls = stream.tool_calls(raw_reader(stream, NAMES))
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("t1", "weather", {"city": "Paris"}),
        ("t2", "clock", {}),
    ]


def test_a_stream_event_that_drifted_is_refused(modules):
    stream = decoder("bedrock", "converse_stream_event").stream()
    with pytest.raises(modules["_runtime"].SchemaDriftError) as raised:
        stream.add(_fragment(0, {"city": "Paris"}))  # input fragments are text
    assert raised.value.path == "contentBlockDelta.delta.toolUse.input"
