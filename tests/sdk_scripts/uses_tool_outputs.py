"""A handler's result through the generated tool_outputs module, typed per tool (mypy --strict,
no cast); each line marked ``# error`` is a misuse mypy must reject (tests/test_sdk_typing.py)."""

from __future__ import annotations

from gen import models
from gen.tool_outputs import (
    JSON,
    ToolOutputError,
    dump_output,
    output_model,
    validate_output,
)


def handler_result(city: str) -> models.WeatherGetForecastOutput:
    return models.WeatherGetForecastOutput(city=city, days=[])


def uses() -> JSON:
    forecast: models.WeatherGetForecastOutput = validate_output(
        "weather.get_forecast", {"city": "Paris", "days": []}
    )
    model: type[models.WeatherGetForecastOutput] = output_model("weather.get_forecast")
    print(model, forecast.city)
    anything: object = handler_result("Lyon")
    try:
        sent: JSON = dump_output("weather.get_forecast", anything)
    except ToolOutputError as error:
        print(error.tool, error.location)
        raise
    return sent


def misuses() -> None:
    wrong: models.BillingRefund = validate_output("weather.get_forecast", {})  # error
    print(wrong, output_model("billing.refund"))  # error
    print(validate_output("weather.get_forecst", {}))  # error
