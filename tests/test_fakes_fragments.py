"""The fakes of each API's runtime module on their own: whatever the text and the arguments, the fragments of
every stream join to exactly what the body carries, the same input gives the same bytes, and an
unknown API is an error. (tests/sdk/test_fakes.py checks the fakes against the built package.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import fake_builders as _fakes

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
ARGUMENTS = st.dictionaries(st.text(), JSON, max_size=4)
TEXT = st.none() | st.text()


def _joined(api: str, events: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """(the streamed text, the streamed argument strings in call order) of a stream."""
    text, arguments = "", {}
    for event in events:
        if api == "chat":
            for choice in event["choices"]:
                text += choice["delta"].get("content") or ""
                for delta in choice["delta"].get("tool_calls") or ():
                    piece = delta["function"].get("arguments", "")
                    arguments[delta["index"]] = arguments.get(delta["index"], "") + piece
        elif api == "responses":
            if event["type"] == "response.output_text.delta":
                text += event["delta"]
            elif event["type"] == "response.function_call_arguments.delta":
                index = event["output_index"]
                arguments[index] = arguments.get(index, "") + event["delta"]
        elif api == "messages":
            delta = event.get("delta", {})
            if delta.get("type") == "text_delta":
                text += delta["text"]
            elif delta.get("type") == "input_json_delta":
                arguments[event["index"]] = (
                    arguments.get(event["index"], "") + delta["partial_json"]
                )
        else:
            block = event.get("contentBlockDelta")
            if block is not None and "text" in block["delta"]:
                text += block["delta"]["text"]
            elif block is not None:
                index = block["contentBlockIndex"]
                arguments[index] = arguments.get(index, "") + block["delta"]["toolUse"]["input"]
    return text, [arguments[index] for index in sorted(arguments)]


@settings(deadline=None)  # the machine may be busy: time is no property here
@given(st.lists(st.tuples(st.text(min_size=1), ARGUMENTS), max_size=3), TEXT)
def test_stream_fragments_join_to_the_text_and_the_arguments(
    calls: list[tuple[str, Any]], text: str | None
) -> None:
    for api in ("chat", "responses", "messages", "converse"):
        streamed_text, streamed = _joined(api, _fakes.stream(api, calls, text=text))
        assert streamed_text == (text or "")
        assert [json.loads(a) for a in streamed] == [a for _, a in calls]


@settings(deadline=None)  # the machine may be busy: time is no property here
@given(st.lists(st.tuples(st.text(min_size=1), ARGUMENTS), max_size=3), TEXT)
def test_the_same_input_gives_the_same_bytes(
    calls: list[tuple[str, Any]], text: str | None
) -> None:
    for api in _fakes.APIS:
        first = json.dumps(
            [_fakes.response(api, calls, text=text), _fakes.stream(api, calls, text=text)]
        )
        again = json.dumps(
            [_fakes.response(api, calls, text=text), _fakes.stream(api, calls, text=text)]
        )
        assert first == again


def test_an_unknown_shape_is_a_value_error_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="'native'"):
        _fakes.stream("run", [], shape="raw")
    with pytest.raises(ValueError, match="'native'"):
        _fakes.response("run", [], shape="raw")


def test_a_variant_is_a_keyword_of_its_api_alone() -> None:
    with pytest.raises(TypeError, match="lenient"):
        _fakes.response("responses", [], lenient=True)
    with pytest.raises(TypeError, match="shape"):
        _fakes.stream("chat", [], shape="native")
