"""Handlers of the example design's tools, for the pages of docs/ that run them (docs/mcp.md,
docs/pydantic-ai.md, docs/openai-agents.md, docs/langchain.md): each answers with a small
result; ``billing.refund`` of charge ``ch_00000000`` fails with a ToolError."""

from __future__ import annotations

from gen import models
from gen.handlers import HandlerOutput, JSONOutput, ToolError, ToolHandlers


class Handlers(ToolHandlers):
    def billing_refund(self, arguments: models.BillingRefund) -> HandlerOutput:
        if arguments.charge_id == "ch_00000000":
            raise ToolError("no such charge")
        return {"refund_id": "re_1", "charge_id": arguments.charge_id}

    def calendar_create_event(self, arguments: models.CalendarCreateEvent) -> HandlerOutput:
        return {"event_id": "ev_1"}

    def crm_upsert_contact(self, arguments: models.CrmUpsertContact) -> HandlerOutput:
        # the members the model gave: canonical (no nulls for what it left out)
        return {"contact": arguments.name, "given": sorted(arguments.model_fields_set)}

    def files_list_directory(self, arguments: models.FilesListDirectory) -> HandlerOutput:
        return ["a.txt", "b.txt"]

    def search_documents(self, arguments: models.SearchDocuments) -> HandlerOutput:
        return []

    def send_email(self, arguments: models.SendEmail) -> HandlerOutput:
        return "sent"

    def weather_get_forecast(
        self, arguments: models.WeatherGetForecast
    ) -> models.WeatherGetForecastOutput | JSONOutput:
        return models.WeatherGetForecastOutput.model_validate({"city": arguments.city, "days": []})
