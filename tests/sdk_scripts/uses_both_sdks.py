"""A user's script: both official SDKs with the bindings of examples/design, under mypy --strict
and without a single cast (tests/test_sdk_typing.py type-checks it as the package ``gen``).

It is never run: every request and decoding call only has to type-check.
"""

from __future__ import annotations

from anthropic import Anthropic
from anthropic.types import Message
from gen import anthropic as claude
from gen import bedrock, cerebras, deepseek, groq, mistral, openrouter, xai
from gen import openai as oai
from gen.models import TicketTriage
from openai import OpenAI, pydantic_function_tool
from openai.types.chat import ChatCompletion


def chat_completions(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model="gpt-5",
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        tools=oai.tool_definitions(),
        response_format=oai.response_format("ticket_triage"),
    )
    # validate_* returns what it was given, typed as given (no dump of an SDK object)
    checked: ChatCompletion = oai.validate_chat_completion(completion)
    print(checked.id)
    for call in oai.parse_tool_calls(completion.model_dump()):
        if call.name == "billing.refund":
            charge_id: str = call.arguments.charge_id
            print(charge_id)
        elif call.name == "weather.get_forecast":
            print(call.arguments.model_dump(mode="json"))
    triage: TicketTriage = oai.parse_output(
        "ticket_triage", completion.choices[0].message.content or ""
    )
    summary: str = triage.summary
    print(summary)

    stream = oai.ToolCallStream("chat")
    with client.chat.completions.stream(
        model="gpt-5",
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        tools=oai.tool_definitions(["billing.refund"], api="chat"),
        response_format=oai.response_format("ticket_triage"),
    ) as events:
        for event in events:
            if event.type == "chunk":
                stream.add(event.chunk.model_dump())
    for streamed in stream.tool_calls():
        if streamed.name == "billing.refund":
            reason: str = streamed.arguments.reason
            print(reason)

    # The SDK's parse helper with toolgen's projection and inverse.
    parsed = client.chat.completions.parse(
        model="gpt-5",
        messages=[{"role": "user", "content": "Triage this ticket"}],
        tools=[pydantic_function_tool(oai.tool_model("billing.refund"))],
        response_format=oai.output_model("ticket_triage"),
    )
    answer = parsed.choices[0].message.parsed
    if answer is not None:
        category: str = answer.category
        print(category)


def responses(client: OpenAI) -> None:
    response = client.responses.create(
        model="gpt-5",
        input="Refund ch_12345678",
        tools=oai.tool_definitions(api="responses"),
        text={"format": oai.response_format("ticket_triage", "responses")},
    )
    for call in oai.parse_tool_calls(response.model_dump(), "responses"):
        if call.name == "send_email":
            print(call.arguments.model_dump(mode="json"))
    stream = oai.ToolCallStream("responses")
    with client.responses.stream(
        model="gpt-5",
        input="Refund ch_12345678",
        tools=oai.tool_definitions(["billing.refund"], api="responses"),
        text={"format": oai.response_format("ticket_triage", "responses")},
    ) as events:
        for event in events:
            stream.add(event.model_dump())
    for streamed in stream.tool_calls():
        if streamed.name == "crm.upsert_contact":
            print(streamed.arguments.model_dump(mode="json"))
    parsed = client.responses.parse(
        model="gpt-5", input="Triage this ticket", text_format=oai.output_model("ticket_triage")
    )
    if parsed.output_parsed is not None:
        priority: str = parsed.output_parsed.priority
        print(priority)


def messages(client: Anthropic) -> None:
    message = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        tools=claude.tool_definitions(),
        output_config={"format": claude.output_format("ticket_triage")},
    )
    same_message: Message = claude.validate_message(message)
    print(same_message.id)
    for call in claude.parse_tool_calls(message.model_dump()):
        if call.name == "billing.refund":
            charge_id: str = call.arguments.charge_id
            print(charge_id)
    stream = claude.ToolCallStream("messages")
    with client.messages.stream(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        tools=claude.tool_definitions(["billing.refund", "send_email"], strict=True),
        output_config={"format": claude.output_format("ticket_triage")},
    ) as events:
        for event in events:
            stream.add(event.model_dump())
    for streamed in stream.tool_calls():
        if streamed.name == "send_email":
            print(streamed.arguments.model_dump(mode="json"))
    triage = claude.parse_output("ticket_triage", '{"category": "billing"}')
    entities: int = len(triage.entities)
    print(entities)


def openai_compatible(client: OpenAI) -> None:
    """Groq and Cerebras through the openai client (``OpenAI(base_url=...)``)."""
    completion = client.chat.completions.create(
        model="llama-4",
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        tools=groq.tool_definitions(),
        response_format=cerebras.response_format("ticket_triage"),
    )
    for call in groq.parse_tool_calls(completion.model_dump()):
        if call.name == "billing.refund":
            print(call.arguments.reason)


def whole_requests(client: OpenAI, anthropic_client: Anthropic) -> None:
    """``request()`` spread into each SDK's create call: tools, output and tool choice of one
    request, planned together."""
    client.chat.completions.create(
        model="gpt-5",
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        **oai.request(output="ticket_triage", tool_choice="billing.refund"),
    )
    client.responses.create(
        model="gpt-5",
        input="Refund ch_12345678",
        **oai.request(["billing.refund"], output="ticket_triage", api="responses"),
    )
    plan = claude.plan_request(output="ticket_triage")
    print(plan.explain(), sorted(plan.strict))
    anthropic_client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        **plan.members,
    )
    with anthropic_client.messages.stream(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=[{"role": "user", "content": "Refund ch_12345678"}],
        **claude.request(["send_email"], strict=True, tool_choice="send_email"),
    ) as events:
        for event in events:
            print(event.type)
    json_mode = deepseek.plan_request(output="ticket_triage")
    client.chat.completions.create(
        model="deepseek-chat",
        messages=[
            {"role": "system", "content": json_mode.instructions},
            {"role": "user", "content": "Triage: charged twice"},
        ],
        **json_mode.members,
    )


def one_spelling(names: list[str]) -> None:
    """The same call, written once, for every provider where the concept exists: names first,
    the API and strictness by keyword."""
    print(oai.tool_definitions(names, api="chat", strict="auto"))
    print(oai.tool_definitions(names, api="responses", strict=False))
    print(claude.tool_definitions(names, api="messages", strict=True))
    print(bedrock.tool_definitions(names, api="converse", strict="auto"))
    print(groq.tool_definitions(names, api="chat", strict="auto"))
    print(cerebras.tool_definitions(names, api="chat", strict="auto"))
    print(deepseek.tool_definitions(names, api="chat", strict="auto"))
    print(mistral.tool_definitions(names, api="chat", strict="auto"))
    print(xai.tool_definitions(names, api="responses", strict="auto"))
    print(openrouter.tool_definitions(names, api="responses", strict="auto"))
    print(oai.request(names, output="ticket_triage", api="chat", strict="auto"))
    print(claude.request(names, output="ticket_triage", api="messages", strict="auto"))
    print(bedrock.request(names, output="ticket_triage", api="converse", strict=True))
    print(groq.request(names, output="ticket_triage", api="chat", strict=False))


def main() -> None:
    chat_completions(OpenAI())
    responses(OpenAI())
    messages(Anthropic())
    openai_compatible(OpenAI(base_url="http://127.0.0.1:1/v1"))
    whole_requests(OpenAI(), Anthropic())
    one_spelling(["billing.refund"])
