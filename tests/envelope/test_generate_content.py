"""Gemini generateContent envelopes and decoders on named recordings: calls with and without ids,
a prompt blocked before any candidate, and streams whose calls come in pieces (Vertex AI's
streamFunctionCallArguments), each checked against what the recording visibly holds."""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import bodies, decoder, raw_reader, stream_events
from tests.envelope.test_corpus import NAMES

pytestmark = pytest.mark.corpus


def _body(folder: str, name: str) -> Any:
    return dict(bodies(folder))[name]


def _streamed(folder: str, name: str) -> list[tuple[str, str, Any]]:
    stream = decoder("gemini", "generate_content_chunk").stream()
    for event in dict(stream_events(folder))[name]:
        stream.add(event)
    return [(c.id, c.name, c.arguments) for c in stream.tool_calls(raw_reader(stream, NAMES))]


def test_a_blocked_prompt_has_feedback_and_no_calls(modules: dict[str, ModuleType]) -> None:
    body = _body("google-vertex/generate-content", "001.json")
    assert "candidates" not in body and body["promptFeedback"]["blockReason"] == "MODEL_ARMOR"
    assert modules["gemini"].validate_generate_content(body) is body
    assert (
        decoder("gemini", "generate_content").parse_tool_calls(body, raw_reader("gemini", NAMES))
        == []
    )


def test_calls_keep_the_id_gemini_sent_and_have_none_otherwise() -> None:
    parse = decoder("gemini", "generate_content").parse_tool_calls
    with_ids = [
        (name, body)
        for name, body in bodies("google-gla/generate-content")
        if any(
            "id" in part.get("functionCall", {})
            for part in body["candidates"][0].get("content", {}).get("parts", ())
        )
    ]
    assert with_ids  # some models send ids
    for name, body in with_ids:
        parts = body["candidates"][0]["content"]["parts"]
        sent = [p["functionCall"]["id"] for p in parts if "functionCall" in p]
        assert [c.id for c in parse(body, raw_reader(parse, NAMES))] == sent, name
    without = _body("google-vertex/generate-content", "023.json")
    calls = parse(without, raw_reader(parse, NAMES))
    assert calls and {c.id for c in calls} == {""}


def test_streams_of_whole_calls() -> None:
    assert _streamed("google-gla/generate-content-stream", "003.txt") == [
        ("", "get_capital", {"country": "France"})
    ]
    assert _streamed("google-gla/generate-content-stream", "016.txt") == [
        ("96c1su3s", "get_user_country", {})
    ]


def test_calls_streamed_in_pieces_are_put_together() -> None:
    assert _streamed("google-gla/generate-content-stream-chunks", "003.jsonl") == [
        ("", "read_theme", {}),
        ("", "read_screen", {"id": "A"}),
        ("", "read_screen", {"id": "B"}),
        ("", "read_screen", {"id": "C"}),
    ]
    assert _streamed("google-gla/generate-content-stream-chunks", "005.jsonl") == [
        (
            "",
            "writeItems",
            {
                "operations": [
                    {
                        "action": "add",
                        "description": "Fresh red apple",
                        "itemid": "apple_001",
                        "price": 0.5,
                    },
                    {
                        "action": "add",
                        "description": "Ripe yellow banana",
                        "itemid": "banana_001",
                        "price": 0.3,
                    },
                ]
            },
        )
    ]
    ((_, name, recipe),) = _streamed("google-vertex/generate-content-stream-chunks", "001.jsonl")
    assert name == "cookRecipe"
    assert recipe["recipe"]["name"] == "Lasagna"
    assert len(recipe["recipe"]["ingredients"]) == 10
    assert recipe["recipe"]["ingredients"][0] == {"amount": "16 oz", "name": "Lasagna noodles"}
    # strings continued over several parts
    assert recipe["recipe"]["steps"][1] == (
        "Cook lasagna noodles according to package directions, drain and set aside."
    )
    assert recipe["recipe"]["steps"][4] == (
        "In a 9x13 baking dish, spread a thin layer of meat sauce."
    )
    assert len(recipe["recipe"]["steps"]) == 10


def test_drift_in_a_streamed_piece_is_found_where_it_is(modules: dict[str, ModuleType]) -> None:
    ((_, events),) = [
        (n, e)
        for n, e in stream_events("google-gla/generate-content-stream-chunks")
        if n == "004.jsonl"
    ]
    event = copy.deepcopy(events[1])
    event["candidates"][0]["content"]["parts"][0]["functionCall"]["partialArgs"][0][
        "stringValue"
    ] = 7
    with pytest.raises(modules["_runtime"].SchemaDriftError) as raised:
        decoder("gemini", "generate_content_chunk").stream().add(event)
    assert raised.value.path == (
        "candidates[0].content.parts[0].functionCall.partialArgs[0].stringValue"
    )


def test_google_genai_objects_decode_as_their_json(modules: dict[str, ModuleType]) -> None:
    """Where the google-genai SDK is installed (the dev extras have it): its response objects
    give the calls of the raw JSON (json_value dumps an SDK object by alias: the wire's camelCase
    names). Its ``model_dump()`` and ``to_json_dict()`` use the SDK's snake_case names, no wire
    form: they drift (the README says to pass the object itself)."""
    genai_types = pytest.importorskip(
        "google.genai.types", reason="google-genai is in the dev extras"
    )
    parse = decoder("gemini", "generate_content").parse_tool_calls
    for folder in ("google-gla/generate-content", "google-vertex/generate-content"):
        for name, body in bodies(folder):
            sdk = genai_types.GenerateContentResponse._from_response(
                response=copy.deepcopy(body),
                kwargs={},  # it removes what it does not know
            )
            expected = [(c.id, c.name, c.arguments) for c in parse(body, raw_reader(parse, NAMES))]
            calls = parse(sdk, raw_reader(parse, NAMES))
            assert [(c.id, c.name, c.arguments) for c in calls] == expected, name
    with pytest.raises(modules["_runtime"].SchemaDriftError):
        parse(sdk.to_json_dict(), raw_reader(parse, NAMES))
