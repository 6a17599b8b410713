"""Misuses of the tool loop that mypy --strict must reject: each line marked ``# error``
(tests/test_sdk_typing.py checks that mypy reports exactly those lines of this file)."""

from __future__ import annotations

from anthropic import Anthropic
from anthropic.types import MessageParam
from gen import anthropic as claude
from gen import openai as oai
from gen.handlers import HandlerOutput, ToolHandlers
from gen.models import BillingRefund, SendEmail, WeatherGetForecast
from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam
from openai.types.responses import ResponseInputItemParam
from uses_tool_loop import Handlers


class WrongModel(Handlers):
    def billing_refund(self, arguments: SendEmail) -> HandlerOutput:  # error
        return None

    def weather_get_forecast(self, arguments: WeatherGetForecast) -> SendEmail:  # error
        return SendEmail.model_validate({})


class WrongOutput(Handlers):
    def billing_refund(self, arguments: BillingRefund) -> HandlerOutput:
        return object()  # error


class NoForecast(ToolHandlers):
    def billing_refund(self, arguments: BillingRefund) -> HandlerOutput:
        return None


def misuses(client: OpenAI, other: Anthropic) -> None:
    completion = client.chat.completions.create(model="x", messages=[])
    outcomes = oai.parse_tool_calls(completion, on_error="collect")
    oai.run_tool_calls(NoForecast(), outcomes)  # error
    print(outcomes[0].arguments)  # error
    print(oai.parse_tool_calls(completion, on_error="ignore"))  # error
    messages: list[ChatCompletionMessageParam] = []
    messages.append(oai.tool_results(outcomes, []))  # error
    messages.append(oai.tool_result("call_1", "ok"))  # error
    items: list[ResponseInputItemParam] = []
    items.extend(oai.tool_results(outcomes, [], "chat"))  # error
    history: list[MessageParam] = []
    history.append(oai.assistant_turn(completion))  # error
    history.extend(claude.tool_results(outcomes, []))  # error
    print(other)
