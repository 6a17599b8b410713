"""A user's script: the google-genai SDK with the Gemini bindings of examples/design, under mypy
--strict and without a single cast (tests/test_sdk_typing.py type-checks it as the package
``gen``).

It is never run (tests/sdk/test_google_genai.py runs the same calls on objects built from JSON,
tests/sdk/test_tool_loop_genai.py the loops through the client): every request, decoding call and
loop helper only has to type-check. What the loop helpers return goes into ``contents`` as the SDK
types it: ``list[types.ContentDict]`` (the strict check: a TypedDict whose keys or part types do
not fit is an error) or ``list[types.ContentUnionDict]`` (which takes any value when Pillow is not
installed: the SDK's ``PIL_Image`` is ``Any`` then).
"""

from __future__ import annotations

from gen import gemini
from gen.models import TicketTriage
from google import genai
from google.genai import types
from uses_tool_loop import AsyncHandlers, Handlers


def generate_content(client: genai.Client) -> None:
    # tool_definitions() is the REST `tools` value (camelCase): the SDK's models take it by alias
    config = types.GenerateContentConfig(
        tools=[types.Tool.model_validate(tool) for tool in gemini.tool_definitions()]
    )
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents="Refund ch_12345678", config=config
    )
    # returned as given, typed as given: the SDK's object (read through its attributes, no dump)
    checked: types.GenerateContentResponse = gemini.validate_generate_content(response)
    print(checked.model_version)
    for call in gemini.parse_tool_calls(response):
        if call.name == "billing.refund":
            charge_id: str = call.arguments.charge_id
            print(call.id, charge_id)
        elif call.name == "weather.get_forecast":
            print(call.arguments.model_dump(mode="json"))


def generate_content_stream(client: genai.Client) -> None:
    selected = gemini.tool_definitions(["billing.refund", "weather.get_forecast"])
    config = types.GenerateContentConfig.model_validate({"tools": selected})
    stream = gemini.ToolCallStream("generate_content")
    for chunk in client.models.generate_content_stream(
        model="gemini-2.5-flash", contents="Refund ch_12345678", config=config
    ):
        stream.add(chunk)
    for call in stream.tool_calls():
        if call.name == "billing.refund":
            reason: str = call.arguments.reason
            print(reason)


def structured_output(client: genai.Client) -> None:
    config = types.GenerateContentConfig.model_validate(gemini.response_format("ticket_triage"))
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents="Triage: charged twice", config=config
    )
    triage: TicketTriage = gemini.parse_output("ticket_triage", response.text or "")
    summary: str = triage.summary
    print(summary)


def validated_request(client: genai.Client) -> None:
    # request(): tools, toolConfig (strict=True: function calling mode VALIDATED) and the
    # output's members of GenerateContentConfig, which its model takes by their wire names
    config = types.GenerateContentConfig.model_validate(
        gemini.request(["billing.refund"], output="ticket_triage", strict=True)
    )
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents="Refund ch_12345678", config=config
    )
    print(gemini.tool_definitions(["billing.refund"], api="generate_content"))
    for call in gemini.parse_tool_calls(response):
        print(call.name)


def tool_loop(client: genai.Client) -> str | None:
    config = types.GenerateContentConfig(
        tools=[types.Tool.model_validate(tool) for tool in gemini.tool_definitions()]
    )
    contents: list[types.ContentDict] = [
        {"role": "user", "parts": [{"text": "Refund ch_12345678"}]}
    ]
    while True:
        response = client.models.generate_content(
            model="gemini-2.5-flash", contents=contents, config=config
        )
        outcomes = gemini.parse_tool_calls(response, on_error="collect")
        if not outcomes:
            return response.text
        contents.append(gemini.assistant_turn(response))
        contents.append(gemini.run_tool_calls(Handlers(), outcomes))


def tool_loop_by_hand(client: genai.Client) -> None:
    contents: list[types.ContentDict] = [{"role": "user", "parts": [{"text": "Weather?"}]}]
    response = client.models.generate_content(model="gemini-2.5-flash", contents=contents)
    outcomes = gemini.parse_tool_calls(response, on_error="collect")
    contents.append(gemini.assistant_turn(response))
    outputs: list[object] = []
    for outcome in outcomes:
        if isinstance(outcome, gemini.FailedCall):
            outputs.append(None)  # answered with its for_model() text
        elif outcome.name == "weather.get_forecast":
            outputs.append({"city": outcome.arguments.city, "days": []})
        else:
            outputs.append("not supported")
    contents.append(gemini.tool_results(outcomes, outputs))
    client.models.generate_content(model="gemini-2.5-flash", contents=contents)


def streamed_tool_loop(client: genai.Client) -> str:
    config = types.GenerateContentConfig.model_validate({"tools": gemini.tool_definitions()})
    contents: list[types.ContentDict] = [
        {"role": "user", "parts": [{"text": "Refund ch_12345678"}]}
    ]
    while True:
        stream = gemini.ToolCallStream()
        chunks: list[types.GenerateContentResponse] = []
        for chunk in client.models.generate_content_stream(
            model="gemini-2.5-flash", contents=contents, config=config
        ):
            stream.add(chunk)
            chunks.append(chunk)
        outcomes = stream.tool_calls(on_error="collect")
        if not outcomes:
            return "".join(chunk.text or "" for chunk in chunks)
        contents.append(gemini.assistant_turn(chunks))
        contents.append(gemini.run_tool_calls(Handlers(), outcomes))


async def async_tool_loop(client: genai.Client) -> None:
    contents: list[types.ContentUnionDict] = [{"role": "user", "parts": [{"text": "Refund"}]}]
    response = await client.aio.models.generate_content(model="gemini-2.5-flash", contents=contents)
    outcomes = gemini.parse_tool_calls(response, on_error="collect")
    contents.append(gemini.assistant_turn(response))
    contents.append(await gemini.arun_tool_calls(AsyncHandlers(), outcomes))
    await client.aio.models.generate_content(model="gemini-2.5-flash", contents=contents)
