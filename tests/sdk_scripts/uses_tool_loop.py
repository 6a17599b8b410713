"""A user's tool loop for every API with only the generated helpers, under mypy --strict and
without a single cast (tests/test_sdk_typing.py type-checks it as the package ``gen``).

It is never run: every request and helper only has to type-check.
"""

from __future__ import annotations

import asyncio
from typing import Any

from anthropic import Anthropic
from anthropic.types import MessageParam
from gen import anthropic as claude
from gen import bedrock, cloudflare, gemini, mistral
from gen import openai as oai
from gen.handlers import (
    AsyncToolHandlers,
    HandlerOutput,
    JSONOutput,
    ToolError,
    ToolHandlers,
)
from gen.models import (
    BillingRefund,
    CalendarCreateEvent,
    CrmUpsertContact,
    FilesListDirectory,
    SearchDocuments,
    SendEmail,
    WeatherGetForecast,
    WeatherGetForecastOutput,
)
from openai import OpenAI
from openai.types.chat import ChatCompletionChunk, ChatCompletionMessageParam
from openai.types.responses import ResponseInputItemParam


class Handlers(ToolHandlers):
    def billing_refund(self, arguments: BillingRefund) -> HandlerOutput:
        if arguments.charge_id.startswith("ch_test"):
            raise ToolError("test charges cannot be refunded")
        return {"refunded": True}

    def calendar_create_event(self, arguments: CalendarCreateEvent) -> HandlerOutput:
        return arguments  # a model: sent as its canonical JSON

    def crm_upsert_contact(self, arguments: CrmUpsertContact) -> HandlerOutput:
        return "saved"

    def files_list_directory(self, arguments: FilesListDirectory) -> HandlerOutput:
        return ["a.txt", "b.txt"]

    def search_documents(self, arguments: SearchDocuments) -> HandlerOutput:
        return []

    def send_email(self, arguments: SendEmail) -> HandlerOutput:
        return None

    def weather_get_forecast(
        self, arguments: WeatherGetForecast
    ) -> WeatherGetForecastOutput | JSONOutput:
        return WeatherGetForecastOutput.model_validate({"city": "Lyon", "days": []})


class AsyncHandlers(AsyncToolHandlers):
    async def billing_refund(self, arguments: BillingRefund) -> HandlerOutput:
        return {"refunded": True}

    async def calendar_create_event(self, arguments: CalendarCreateEvent) -> HandlerOutput:
        return None

    async def crm_upsert_contact(self, arguments: CrmUpsertContact) -> HandlerOutput:
        return None

    async def files_list_directory(self, arguments: FilesListDirectory) -> HandlerOutput:
        return None

    async def search_documents(self, arguments: SearchDocuments) -> HandlerOutput:
        return None

    async def send_email(self, arguments: SendEmail) -> HandlerOutput:
        return None

    async def weather_get_forecast(self, arguments: WeatherGetForecast) -> JSONOutput:
        return {"city": "Lyon", "days": []}


def chat_loop(client: OpenAI) -> str | None:
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Refund ch_1"}]
    while True:
        completion = client.chat.completions.create(
            model="gpt-5", messages=messages, tools=oai.tool_definitions()
        )
        outcomes = oai.parse_tool_calls(completion, on_error="collect")
        if not outcomes:
            return completion.choices[0].message.content
        messages.append(oai.assistant_turn(completion))
        messages.extend(oai.run_tool_calls(Handlers(), outcomes))


def chat_loop_by_hand(client: OpenAI) -> None:
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Refund ch_1"}]
    completion = client.chat.completions.create(model="gpt-5", messages=messages)
    outcomes = oai.parse_tool_calls(completion, on_error="collect")
    messages.append(oai.assistant_turn(completion))
    for outcome in outcomes:
        if isinstance(outcome, oai.FailedCall):
            print(outcome.for_model(), outcome.wire_name, outcome.error.location)
            messages.append(oai.tool_result(outcome))
        elif outcome.name == "billing.refund":
            charge: str = outcome.arguments.charge_id
            messages.append(oai.tool_result(outcome, {"charge": charge}))
        else:
            messages.append(oai.tool_result(outcome, "not supported", is_error=True))
    outputs: list[object] = ["ok" for _ in outcomes]
    messages.extend(oai.tool_results(outcomes, outputs))
    messages.extend(mistral.tool_results(mistral.parse_tool_calls({}, on_error="collect"), []))


def chat_stream(client: OpenAI) -> None:
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Refund ch_1"}]
    stream = oai.ToolCallStream("chat")
    with client.chat.completions.stream(
        model="gpt-5", messages=messages, tools=oai.tool_definitions()
    ) as events:
        for event in events:
            if event.type == "chunk":
                # add returns the chunk as given, typed as given
                chunk: ChatCompletionChunk = stream.add(event.chunk)
                assert chunk.id
        final = events.get_final_completion()
    outcomes = stream.tool_calls(on_error="collect")
    messages.append(oai.assistant_turn(final))
    messages.extend(oai.run_tool_calls(Handlers(), outcomes))
    typed_only = stream.tool_calls()
    for call in typed_only:
        print(call.wire_name)


def responses_loop(client: OpenAI) -> None:
    items: list[ResponseInputItemParam] = [{"role": "user", "content": "Refund ch_1"}]
    answer = client.responses.create(
        model="gpt-5", input=items, tools=oai.tool_definitions(api="responses")
    )
    outcomes = oai.parse_tool_calls(answer, "responses", on_error="collect")
    items.extend(oai.assistant_turn(answer, "responses"))
    items.extend(oai.run_tool_calls(Handlers(), outcomes, "responses"))
    client.responses.create(model="gpt-5", input=items)


def messages_loop(client: Anthropic) -> None:
    messages: list[MessageParam] = [{"role": "user", "content": "Refund ch_1"}]
    reply = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=1024,
        messages=messages,
        tools=claude.tool_definitions(["billing.refund"]),
    )
    outcomes = claude.parse_tool_calls(reply, on_error="collect")
    messages.append(claude.assistant_turn(reply))
    messages.append(claude.run_tool_calls(Handlers(), outcomes))
    messages.append(asyncio.run(claude.arun_tool_calls(AsyncHandlers(), outcomes)))
    client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)


def raw_wire_loops(gemini_body: Any, converse_body: Any, workers_body: Any) -> None:
    contents: list[gemini.Content] = [gemini.assistant_turn(gemini_body)]
    contents.append(
        gemini.run_tool_calls(Handlers(), gemini.parse_tool_calls(gemini_body, on_error="collect"))
    )
    conversation: list[bedrock.ConverseMessage] = [bedrock.assistant_turn(converse_body)]
    conversation.append(bedrock.tool_results(bedrock.parse_tool_calls(converse_body), []))
    model = "@cf/meta/llama-3.3-70b-instruct-fp8-fast"
    turn: cloudflare.WorkersAssistantMessage = cloudflare.assistant_turn(workers_body, model=model)
    answers: list[cloudflare.WorkersToolMessage] = cloudflare.run_tool_calls(
        Handlers(), cloudflare.parse_tool_calls(workers_body, model=model, on_error="collect")
    )
    print(turn, answers)
