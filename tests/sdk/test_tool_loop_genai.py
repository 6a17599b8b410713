"""The Gemini tool loop through google-genai's client against the loopback server, with only the
generated helpers: turn 1 asks for two calls at once (the first signed, the second with arguments
the canonical model rejects); the request of turn 2 replays the model's content and answers both
calls by Gemini's rules (PROVIDERS.md, "Returning tool results"; checked on the recorded body);
turn 2 answers with the corrected call (no id, as the Gemini API often sends them); turn 3 ends in
text. The same loop streamed (``generate_content_stream``, server-sent events), its turn replayed
from the list of its chunks.

What the SDK does on the way (checked here, so a change shows): a ``thoughtSignature`` is bytes in
its objects and goes back on the wire in URL-safe base64 (the same bytes); a function declaration's
members go out in snake_case (``parameters_json_schema``: the proto field name, which proto3 JSON
parsing accepts beside the camelCase one), the schema itself unchanged.
"""

from __future__ import annotations

import base64
import copy
import json
from types import ModuleType
from typing import Any

import pytest

from tests.sdk.bodies import PAYLOADS, response_body
from tests.sdk.loopback import Loopback
from tests.sdk.test_tool_loop import BAD_REFUND, FORECAST, REFUND, check_for_model, handlers
from tests.sdk.test_tool_loop_wire import gemini_parts

types = pytest.importorskip("google.genai.types", reason="google-genai is in the dev extras")

MODEL = "gemini-test"
#: opaque bytes whose standard base64 has "+" and "/": the SDK sends them back URL-safe
SIGNATURE = base64.b64encode(b"\xfb\xef\xbe signed \xff\xfe").decode()
FORECAST_OUTPUT = {"city": "Lyon", "days": [{"date": "2026-12-04", "high": 21, "low": 12}]}


def signature_bytes(value: str) -> bytes:
    return base64.urlsafe_b64decode(value.replace("+", "-").replace("/", "_"))


def same_bytes(content: dict[str, Any]) -> dict[str, Any]:
    """``content`` with each ``thoughtSignature`` as the bytes it encodes (either alphabet)."""
    content = copy.deepcopy(content)
    for part in content["parts"]:
        if "thoughtSignature" in part:
            part["thoughtSignature"] = signature_bytes(part["thoughtSignature"])
    return content


def config(gen: ModuleType) -> Any:
    return types.GenerateContentConfig(
        tools=[types.Tool.model_validate(tool) for tool in gen.gemini.tool_definitions()]
    )


def turn_one(gen: ModuleType) -> list[dict[str, Any]]:
    parts = gemini_parts(gen, [("c1", FORECAST, PAYLOADS[FORECAST]), ("c2", REFUND, BAD_REFUND)])
    parts[0]["thoughtSignature"] = SIGNATURE  # Gemini 3 signs the first of parallel calls
    return [{"text": "Checking both.", "thought": True}, *parts]


def turn_two(gen: ModuleType) -> list[dict[str, Any]]:
    (part,) = gemini_parts(gen, [("", REFUND, PAYLOADS[REFUND])])
    del part["functionCall"]["id"]
    return [part]


def check_request(body: dict[str, Any], received: dict[str, Any]) -> list[dict[str, Any]]:
    """Gemini's rules on a recorded request: the model's content as received (the signature the
    same bytes), then one user content with one functionResponse per functionCall part, in
    order, the name the wire name, the id echoed when the call had one, ``response`` an object
    with ``output`` or ``error``. Returns the functionResponses."""
    replayed, answer = body["contents"][-2:]
    assert same_bytes(replayed) == same_bytes(received)
    calls = [part["functionCall"] for part in received["parts"] if "functionCall" in part]
    assert answer["role"] == "user"
    assert [list(part) for part in answer["parts"]] == [["functionResponse"]] * len(calls)
    responses = [part["functionResponse"] for part in answer["parts"]]
    for response, call in zip(responses, calls, strict=True):
        assert response["name"] == call["name"]
        assert response.get("id") == call.get("id")
        assert isinstance(response["response"], dict)
        assert set(response["response"]) in ({"output"}, {"error"})
    return responses


def check_declarations(gen: ModuleType, body: dict[str, Any]) -> None:
    """The tools of the request: every declaration, its schema unchanged. The SDK writes the
    declaration's members in snake_case; either spelling is the same field to the API."""
    (tool,) = body["tools"]
    declarations = tool["functionDeclarations"]
    gemini = gen.gemini
    assert [d["name"] for d in declarations] == [gemini.PROVIDER_NAMES[n] for n in gemini.TOOLS]
    for declaration, name in zip(declarations, gemini.TOOLS, strict=True):
        schema = declaration.get("parametersJsonSchema", declaration.get("parameters_json_schema"))
        assert schema == gemini.parameters(name)


def test_three_turns(gen: ModuleType, server: Loopback, genai_client: Any) -> None:
    gemini, ran = gen.gemini, []
    turns = [turn_one(gen), turn_two(gen), [{"text": "Done: refunded."}]]
    for parts in turns:
        server.reply_json(response_body(parts))
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Weather, and a refund"}]}]
    for _ in range(3):
        response = genai_client.models.generate_content(
            model=MODEL, contents=contents, config=config(gen)
        )
        outcomes = gemini.parse_tool_calls(response, on_error="collect")
        if not outcomes:
            break
        contents.append(gemini.assistant_turn(response))
        contents.append(gemini.run_tool_calls(handlers(gen, ran), outcomes))
    assert response.text == "Done: refunded."
    assert ran == [FORECAST, REFUND]
    paths = [path for path, _ in server.requests]
    assert paths == [f"/v1beta/models/{MODEL}:generateContent"] * 3
    check_declarations(gen, server.requests[0][1])
    first = server.requests[1][1]
    answers = check_request(first, {"role": "model", "parts": turns[0]})
    assert [a["id"] for a in answers] == ["c1", "c2"]
    assert answers[0]["response"] == {"output": FORECAST_OUTPUT}
    check_for_model(answers[1]["response"]["error"])
    signed = first["contents"][1]["parts"][1]["thoughtSignature"]
    assert signed == base64.urlsafe_b64encode(signature_bytes(SIGNATURE)).decode() != SIGNATURE
    second = server.requests[2][1]
    assert second["contents"][:3] == first["contents"]  # the conversation goes on as it was
    (answer,) = check_request(second, {"role": "model", "parts": turns[1]})
    assert "id" not in answer  # the call had none: Gemini matches by name and order
    assert answer["response"] == {"output": PAYLOADS[REFUND]}


def test_the_replay_is_what_the_sdk_itself_sends(
    gen: ModuleType, server: Loopback, genai_client: Any
) -> None:
    """``assistant_turn`` of the SDK's response goes on the wire as the SDK's own replay of
    ``response.candidates[0].content`` does."""
    server.reply_json(response_body(turn_one(gen)))
    user = {"role": "user", "parts": [{"text": "Weather, and a refund"}]}
    response = genai_client.models.generate_content(model=MODEL, contents=[user])
    answers = gen.gemini.tool_results(
        gen.gemini.parse_tool_calls(response, on_error="collect"), [FORECAST_OUTPUT, None]
    )
    for turn in (gen.gemini.assistant_turn(response), response.candidates[0].content):
        server.reply_json(response_body([{"text": "ok"}]))
        genai_client.models.generate_content(model=MODEL, contents=[user, turn, answers])
    assert server.requests[1][1] == server.requests[2][1]


def chunks_of(parts: list[dict[str, Any]], *, last: dict[str, Any] | None = None) -> list[Any]:
    """A stream of one chunk per part, then a chunk holding only the finish reason (and ``last``
    as its one part when given)."""
    chunks = [response_body([part]) for part in parts]
    for chunk in chunks:
        del chunk["candidates"][0]["finishReason"]
    end = response_body([last] if last is not None else [])
    if last is None:
        del end["candidates"][0]["content"]
    return [*chunks, end]


def test_three_turns_streamed(gen: ModuleType, server: Loopback, genai_client: Any) -> None:
    gemini, ran, kinds = gen.gemini, [], []
    turns = [turn_one(gen), turn_two(gen)]
    server.reply_stream("generate_content", chunks_of(turns[0]))
    server.reply_stream("generate_content", chunks_of(turns[1]))
    server.reply_stream(
        "generate_content", chunks_of([{"text": "Done: "}], last={"text": "refunded."})
    )
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Weather, and a refund"}]}]
    for _ in range(3):
        stream = gemini.ToolCallStream()
        chunks = []
        for chunk in genai_client.models.generate_content_stream(
            model=MODEL, contents=contents, config=config(gen)
        ):
            stream.add(chunk)
            chunks.append(chunk)
        outcomes = stream.tool_calls(on_error="collect")
        kinds.append([type(outcome).__name__ for outcome in outcomes])
        if not outcomes:
            break
        contents.append(gemini.assistant_turn(chunks))
        contents.append(gemini.run_tool_calls(handlers(gen, ran), outcomes))
    assert "".join(chunk.text or "" for chunk in chunks) == "Done: refunded."
    assert ran == [FORECAST, REFUND]
    assert kinds == [["ToolCall", "FailedCall"], ["ToolCall"], []]
    paths = [path for path, _ in server.requests]
    assert paths == [f"/v1beta/models/{MODEL}:streamGenerateContent?alt=sse"] * 3
    check_declarations(gen, server.requests[0][1])
    answers = check_request(server.requests[1][1], {"role": "model", "parts": turns[0]})
    assert answers[0]["response"] == {"output": FORECAST_OUTPUT}
    check_for_model(answers[1]["response"]["error"])
    (answer,) = check_request(server.requests[2][1], {"role": "model", "parts": turns[1]})
    assert answer["response"] == {"output": PAYLOADS[REFUND]}


def test_a_signature_alone_in_the_last_chunk_is_replayed(gen: ModuleType) -> None:
    """Streams may end with an empty text part holding the signature: a part like any other."""
    signed_end = {"text": "", "thoughtSignature": base64.b64encode(b"end").decode()}
    ended = chunks_of([{"text": "Sure."}], last=signed_end)
    objects = [types.GenerateContentResponse.model_validate(chunk) for chunk in ended]
    for form in (ended, objects):
        turn = gen.gemini.assistant_turn(form)
        assert same_bytes(turn) == same_bytes(
            {"role": "model", "parts": [{"text": "Sure."}, signed_end]}
        )


def test_a_streamed_turn_is_every_part_of_the_first_candidate_in_order(gen: ModuleType) -> None:
    gemini = gen.gemini
    parts = turn_one(gen)
    chunks = chunks_of(parts[:2], last=parts[2])
    other = response_body([{"text": "another candidate"}])
    other["candidates"][0]["index"] = 1
    chunks.insert(1, other)
    for form in (chunks, [types.GenerateContentResponse.model_validate(c) for c in chunks]):
        turn = gemini.assistant_turn(form)
        assert same_bytes(turn) == same_bytes({"role": "model", "parts": parts})
    assert json.loads(json.dumps(gemini.assistant_turn(chunks))) == {
        "role": "model",
        "parts": parts,
    }
    with pytest.raises(gemini.SchemaDriftError):
        gemini.assistant_turn([])  # no content at all: drift, as a response without one is
    with pytest.raises(gemini.SchemaDriftError):
        gemini.assistant_turn([{"candidates": "no list"}])
