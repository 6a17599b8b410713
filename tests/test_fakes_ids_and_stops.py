"""The fakes (each API's ``fake_response``, ``fake_stream``) say what a provider says (issue 34, mutation survivors):
each call has an id of its own, and the stop reason matches the content: tool use exactly when
there are calls, on every API and in every stream, wherever the API has such members."""

from __future__ import annotations

from typing import Any

import pytest

from tests import fake_builders as _fakes

CALLS = [("lookup", {"q": "a"}), ("lookup", {"q": "a"}), ("other", {})]
#: (api, keywords of the builders): every variant the fakes build
VARIANTS = [
    ("chat", {}),
    ("chat", {"lenient": True}),
    ("responses", {}),
    ("messages", {}),
    ("converse", {}),
    ("generate_content", {}),
    ("run", {"shape": "native"}),
    ("run", {"shape": "chat"}),
    ("run", {"shape": "responses"}),
]
IDS = [f"{api}-{'-'.join(map(str, keywords.values()))}".rstrip("-") for api, keywords in VARIANTS]


def _values(node: Any, key: str) -> list[Any]:
    """Every value of a member named ``key``, at any depth, in document order."""
    found: list[Any] = []
    if isinstance(node, dict):
        for name, value in node.items():
            if name == key:
                found.append(value)
            found += _values(value, key)
    elif isinstance(node, list):
        for item in node:
            found += _values(item, key)
    return found


def _objects(node: Any) -> list[dict[str, Any]]:
    """Every object of ``node``, at any depth, in document order."""
    if isinstance(node, dict):
        return [node] + [found for value in node.values() for found in _objects(value)]
    if isinstance(node, list):
        return [found for item in node for found in _objects(item)]
    return []


def _call_ids(api: str, body: Any) -> list[str]:
    """The distinct ids of the calls of a body or stream, in order (the events of one streamed
    call may each repeat its id)."""
    objects = _objects(body)
    if api == "messages":
        ids = [o["id"] for o in objects if o.get("type") == "tool_use"]
    elif api == "converse":
        ids = [o["toolUse"]["toolUseId"] for o in objects if "toolUseId" in o.get("toolUse", {})]
    elif api == "responses":
        ids = [o["call_id"] for o in objects if o.get("type") == "function_call"]
    else:  # chat: the tool_calls entries (a stream's first delta of each call has its id)
        ids = [call["id"] for o in objects for call in o.get("tool_calls") or () if "id" in call]
    return list(dict.fromkeys(ids))


def _stop_reasons(api: str, body: Any) -> list[Any]:
    """Every stop reason a body or stream states (a stream states it in one event)."""
    key = {
        "chat": "finish_reason",
        "messages": "stop_reason",
        "converse": "stopReason",
        "generate_content": "finishReason",
    }.get(api)
    if key is None:
        return []
    return [value for value in _values(body, key) if value is not None]


def _tool_use_reason(api: str) -> str | None:
    """The stop reason that says tool use (None: the API has no such reason)."""
    return {"chat": "tool_calls", "messages": "tool_use", "converse": "tool_use"}.get(api)


def _bodies(api: str, keywords: dict[str, Any], calls: list[Any]) -> list[Any]:
    return [
        _fakes.response(api, calls, **keywords),
        _fakes.stream(api, calls, **keywords),
        _fakes.response(api, calls, text="Let me look.", **keywords),
        _fakes.stream(api, calls, text="Let me look.", **keywords),
    ]


@pytest.mark.parametrize(("api", "keywords"), VARIANTS, ids=IDS)
def test_each_call_has_an_id_of_its_own(api: str, keywords: dict[str, Any]) -> None:
    wire = keywords.get("shape", api) if api == "run" else api
    if wire in ("generate_content", "native"):
        pytest.skip("generateContent and Workers AI's native calls carry no id")
    for body in _bodies(api, keywords, CALLS):
        ids = _call_ids(wire, body)
        assert len(ids) == len(CALLS), ids


@pytest.mark.parametrize(("api", "keywords"), VARIANTS, ids=IDS)
def test_the_stop_reason_says_tool_use_exactly_when_there_are_calls(
    api: str, keywords: dict[str, Any]
) -> None:
    wire = keywords.get("shape", api) if api == "run" else api
    tool_use = _tool_use_reason(wire)
    for calls in (CALLS, CALLS[:1], []):
        for body in _bodies(api, keywords, calls):
            reasons = _stop_reasons(wire, body)
            if wire in ("responses", "native"):
                assert reasons == []  # no stop reason in these APIs
            elif wire == "generate_content":
                assert reasons == ["STOP"]  # Gemini says STOP with calls and without
            else:
                assert reasons == [tool_use if calls else {"chat": "stop"}.get(wire, "end_turn")]
