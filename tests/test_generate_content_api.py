"""toolgen/runtime/_generate_content.py as source: request builders and decoders, with stand-in
validators (the generated ones are exercised over the recordings in tests/envelope)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.envelope.support import raw_reader
from toolgen.runtime._contracts import Contracts
from toolgen.runtime._generate_content import (
    GenerateContentDecoder,
    GenerateContentOpenApiRequests,
    GenerateContentRequests,
    GenerateContentToolCallStream,
)
from toolgen.runtime._runtime import PayloadError, SchemaDriftError

NAMES = {"getWeather": "weather.get", "read_theme": "read_theme", "read_screen": "read_screen"}


def _accept(data: object) -> dict[str, Any]:
    assert isinstance(data, dict)
    return data


def _refuse(data: object) -> dict[str, Any]:
    raise SchemaDriftError("gemini", "generate_content", "", "object", "array")


DECODER = GenerateContentDecoder("gemini", _accept, _accept)


def _response(*parts: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}}], **extra}


def _chunk(call: dict[str, Any], index: int | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"functionCall": call}]}}
    if index is not None:
        candidate["index"] = index
    return {"candidates": [candidate], "modelVersion": "m", "usageMetadata": {}}


def _calls(calls: list[Any]) -> list[tuple[str, str, str, Any]]:
    return [(c.id, c.name, c.raw_arguments, c.arguments) for c in calls]


# -- requests --------------------------------------------------------------------------------

TOOLS = Contracts(
    "tool",
    ("weather.get", "read_theme"),
    {"weather.get": "getWeather", "read_theme": "read_theme"},
    {"weather.get": "Weather of a city.", "read_theme": ""},
    {"weather.get": {"type": "object"}, "read_theme": {"type": "object", "properties": {}}},
)
OUTPUTS = Contracts("output", ("triage",), {"triage": "triage"}, {"triage": ""}, {"triage": {}})


def test_declarations_carry_the_schema_where_each_request_class_puts_it() -> None:
    json_schema = GenerateContentRequests(TOOLS, OUTPUTS)
    openapi = GenerateContentOpenApiRequests(TOOLS, OUTPUTS)
    assert json_schema.tool_definition("weather.get") == {
        "name": "getWeather",
        "description": "Weather of a city.",
        "parametersJsonSchema": {"type": "object"},
    }
    assert openapi.tool_definition("weather.get") == {
        "name": "getWeather",
        "description": "Weather of a city.",
        "parameters": {"type": "object"},
    }
    # an empty description is left out; the schema is a fresh copy each time
    theme = openapi.tool_definition("read_theme")
    assert theme == {"name": "read_theme", "parameters": {"type": "object", "properties": {}}}
    assert theme["parameters"] is not openapi.tool_definition("read_theme")["parameters"]


def test_tools_hold_every_declaration_in_one_tool() -> None:
    requests = GenerateContentRequests(TOOLS, OUTPUTS)
    (tool,) = requests.tool_definitions()
    assert [d["name"] for d in tool["functionDeclarations"]] == ["getWeather", "read_theme"]
    (only,) = requests.tool_definitions(["read_theme"])
    assert [d["name"] for d in only["functionDeclarations"]] == ["read_theme"]
    assert requests.tool_definitions([]) == []
    with pytest.raises(KeyError):
        requests.tool_definitions(["nope"])


def test_response_format_names_json_and_the_schema_member() -> None:
    assert GenerateContentRequests(TOOLS, OUTPUTS).response_format("triage") == {
        "responseMimeType": "application/json",
        "responseJsonSchema": {},
    }
    assert GenerateContentOpenApiRequests(TOOLS, OUTPUTS).response_format("triage") == {
        "responseMimeType": "application/json",
        "responseSchema": {},
    }


# -- responses -------------------------------------------------------------------------------


def test_calls_of_the_first_candidate_with_their_id_or_none() -> None:
    body = _response(
        {"text": "Let me look.", "thoughtSignature": "c2ln"},
        {"functionCall": {"name": "getWeather", "args": {"city": "Oslo"}}},
        {"functionCall": {"name": "read_theme", "id": "x1"}},
    )
    body["candidates"].append(
        {"content": {"parts": [{"functionCall": {"name": "read_screen", "args": {}}}]}}
    )
    calls = DECODER.parse_tool_calls(body, raw_reader(DECODER, NAMES))
    assert _calls(calls) == [
        ("", "weather.get", '{"city":"Oslo"}', {"city": "Oslo"}),
        ("x1", "read_theme", "{}", {}),
    ]


@pytest.mark.parametrize(
    "body",
    [
        {"promptFeedback": {"blockReason": "SAFETY"}},
        {"candidates": []},
        {"candidates": [{"finishReason": "MODEL_ARMOR"}]},
        {"candidates": [{"content": {}, "finishReason": "SAFETY"}]},
        {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS"}]},
    ],
)
def test_blocked_or_empty_responses_have_no_calls(body: dict[str, Any]) -> None:
    assert DECODER.parse_tool_calls(body, raw_reader(DECODER, NAMES)) == []


def test_the_validator_runs_first() -> None:
    with pytest.raises(SchemaDriftError):
        GenerateContentDecoder("gemini", _refuse, _accept).parse_tool_calls(
            _response(), raw_reader(DECODER, NAMES)
        )
    with pytest.raises(SchemaDriftError):
        GenerateContentDecoder("gemini", _accept, _refuse).stream().add(_chunk({}))


def test_canonicalize_sees_the_canonical_name() -> None:
    seen = []

    def canonicalize(name: str, payload: Any) -> Any:
        seen.append(name)
        return {"canonical": payload}

    body = _response({"functionCall": {"name": "getWeather", "args": {"n": "1"}}})
    (call,) = DECODER.parse_tool_calls(body, raw_reader(DECODER, NAMES, canonicalize))
    assert seen == ["weather.get"]
    assert (call.arguments, call.raw_arguments) == ({"canonical": {"n": "1"}}, '{"n":"1"}')


def test_unknown_tool_is_a_payload_error() -> None:
    body = _response({"functionCall": {"name": "nope", "args": {}}})
    with pytest.raises(PayloadError) as raised:
        DECODER.parse_tool_calls(body, raw_reader(DECODER, NAMES))
    assert raised.value.code == "UNKNOWN_TOOL"


# -- streams ---------------------------------------------------------------------------------


def _stream(*chunks: dict[str, Any]) -> GenerateContentToolCallStream:
    stream = DECODER.stream()
    for chunk in chunks:
        stream.add(chunk)
    return stream


def test_whole_calls_in_chunks() -> None:
    stream = _stream(
        {"candidates": [{"content": {"parts": [{"text": "Hi"}]}}]},
        _chunk({"name": "getWeather", "args": {"city": "Oslo"}, "id": "a"}),
        _chunk({"name": "read_theme"}),
        {"candidates": [{"content": {"parts": []}, "finishReason": "STOP"}]},
    )
    assert _calls(stream.tool_calls(raw_reader(stream, NAMES))) == [
        ("a", "weather.get", '{"city":"Oslo"}', {"city": "Oslo"}),
        ("", "read_theme", "{}", {}),
    ]


def test_streamed_arguments_are_joined_at_their_paths() -> None:
    """The shape of the recorded streamFunctionCallArguments streams: strings go on while
    willContinue, numbers come whole, an empty functionCall ends the call."""
    stream = _stream(
        _chunk({"name": "getWeather", "willContinue": True}),
        _chunk(
            {
                "partialArgs": [
                    {"jsonPath": "$.items[0].name", "stringValue": "Bos", "willContinue": True}
                ],
                "willContinue": True,
            }
        ),
        _chunk(
            {
                "partialArgs": [
                    {"jsonPath": "$.items[0].name", "stringValue": "ton", "willContinue": True}
                ],
                "willContinue": True,
            }
        ),
        _chunk(
            {
                "partialArgs": [{"jsonPath": "$.items[0].name", "stringValue": ""}],
                "willContinue": True,
            }
        ),
        _chunk(
            {
                "partialArgs": [
                    {"jsonPath": "$.items[0].price", "numberValue": 0.5},
                    {"jsonPath": "$.items[1]['odd key']", "boolValue": True},
                    {"jsonPath": '$.items[1]["none"]', "nullValue": "NULL_VALUE"},
                    {"jsonPath": "$.label", "stringValue": "x"},
                ],
                "willContinue": True,
            }
        ),
        _chunk({}),
        _chunk({"name": "read_screen", "willContinue": True}),
        _chunk({"partialArgs": [{"jsonPath": "$.id", "stringValue": "B"}]}),
    )
    expected = {
        "items": [{"name": "Boston", "price": 0.5}, {"odd key": True, "none": None}],
        "label": "x",
    }
    calls = stream.tool_calls(raw_reader(stream, NAMES))
    assert [(c.name, c.arguments) for c in calls] == [
        ("weather.get", expected),
        ("read_screen", {"id": "B"}),
    ]


def test_a_second_string_at_a_path_replaces_the_first_unless_it_goes_on() -> None:
    stream = _stream(
        _chunk(
            {
                "name": "read_screen",
                "partialArgs": [
                    {"jsonPath": "$.id", "stringValue": "A"},
                    {"jsonPath": "$.id", "stringValue": "B"},
                ],
            }
        )
    )
    assert stream.tool_calls(raw_reader(stream, NAMES))[0].arguments == {"id": "B"}


def test_other_candidates_are_not_read() -> None:
    stream = _stream(_chunk({"name": "getWeather", "args": {}}, index=1))
    assert stream.tool_calls(raw_reader(stream, NAMES)) == []


@pytest.mark.parametrize(
    "path", ["id", "$", "$.", "$[x]", "$.items[1]", "$.id.deeper", "$.id[0]", "$['a'"]
)
def test_arguments_at_impossible_paths_are_payload_errors(path: str) -> None:
    stream = _stream(
        _chunk(
            {
                "name": "read_screen",
                "partialArgs": [
                    {"jsonPath": "$.id", "stringValue": "A"},
                    {"jsonPath": path, "stringValue": "B"},
                ],
            }
        )
    )
    with pytest.raises(PayloadError) as raised:
        stream.tool_calls(raw_reader(stream, NAMES))
    assert (raised.value.code, raised.value.tool) == ("INVALID_ARGUMENTS", "read_screen")
    assert "B" not in str(raised.value)


def test_argument_parts_of_no_call_are_a_payload_error() -> None:
    stream = _stream(_chunk({"partialArgs": [{"jsonPath": "$.id", "stringValue": "A"}]}))
    with pytest.raises(PayloadError):
        stream.tool_calls(raw_reader(stream, NAMES))


def test_args_given_with_the_name_are_not_mutated_by_later_parts() -> None:
    args = {"items": [{"name": "a"}]}
    stream = _stream(
        _chunk({"name": "getWeather", "args": args, "willContinue": True}),
        _chunk({"partialArgs": [{"jsonPath": "$.items[0].name", "stringValue": "b"}]}),
    )
    assert stream.tool_calls(raw_reader(stream, NAMES))[0].arguments == {"items": [{"name": "b"}]}
    assert args == {"items": [{"name": "a"}]}
