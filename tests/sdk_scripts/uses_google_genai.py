"""A user's script: the google-genai SDK with the Gemini bindings of examples/design, under mypy
--strict and without a single cast (tests/test_sdk_typing.py type-checks it as the package
``examplegen``).

It is never run (tests/sdk/test_google_genai.py runs the same calls on objects built from JSON):
every request and decoding call only has to type-check.
"""

from __future__ import annotations

from examplegen import gemini
from examplegen.models import TicketTriage
from google import genai
from google.genai import types


def generate_content(client: genai.Client) -> None:
    # tool_definitions() is the REST `tools` value (camelCase): the SDK's models take it by alias
    config = types.GenerateContentConfig(
        tools=[types.Tool.model_validate(tool) for tool in gemini.tool_definitions()]
    )
    response = client.models.generate_content(
        model="gemini-2.5-flash", contents="Refund ch_12345678", config=config
    )
    gemini.validate_generate_content(response)
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
