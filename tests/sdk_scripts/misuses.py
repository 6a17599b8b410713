"""Misuses that mypy --strict must reject: each line marked ``# error`` (tests/test_sdk_typing.py
checks that mypy reports exactly those lines of this file)."""

from __future__ import annotations

from anthropic import Anthropic
from gen import anthropic as claude
from gen import groq
from gen import openai as oai
from openai import OpenAI


def misuses(client: OpenAI, messages: Anthropic) -> None:
    for call in oai.parse_tool_calls({}):
        if call.name == "billing.refund":
            print(call.arguments.charge_idd)  # error
        print(call.arguments.charge_id)  # error
        if call.name == "billing.refnud":  # error
            print(call)
    print(oai.parse_output("ticket_triage", None))  # error
    print(oai.parse_output("ticket_triag", "{}"))  # error
    summary: int = oai.parse_output("ticket_triage", "{}").summary  # error
    print(summary)
    chat_tools = oai.tool_definitions(api="chat")
    client.responses.create(model="x", input="hi", tools=chat_tools)  # error
    text_format = oai.response_format("ticket_triage", "responses")
    client.chat.completions.create(model="x", messages=[], response_format=text_format)  # error
    messages.messages.create(model="x", max_tokens=1, messages=[], tools=chat_tools)  # error
    print(claude.tool_definitions(strict="always"))  # error
    print(groq.tool_definitions(api="responses"))  # error
    print(claude.request(api="chat"))  # error
    print(oai.tool_definitions(["billing.refund"], "responses"))  # error
    client.responses.create(model="x", input="hi", **oai.request())  # error
    completion = client.chat.completions.create(model="x", messages=[])
    # validate_* gives the SDK object back typed as given, no longer a dict
    print(oai.validate_chat_completion(completion)["choices"])  # error
    from gen import cohere  # no such provider module  # error

    print(cohere)
