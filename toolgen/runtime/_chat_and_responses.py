"""The request side of a provider that speaks both Chat Completions and the Responses API: one
``api`` argument picks the API, and the overloads give each API's own param type."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, overload

from ._chat_completions import (
    ChatCompletionFunctionToolParam,
    ChatCompletionsRequests,
    ChatRequest,
    ResponseFormatJSONSchema,
)
from ._contracts import NO_LIMITS, Contracts, RequestPlan, Strict, StrictToolLimits
from ._responses import (
    FunctionToolParam,
    ResponseFormatTextJSONSchemaConfigParam,
    ResponsesRequest,
    ResponsesRequests,
)

__all__ = ["ChatAndResponsesRequests"]

_APIS = ("chat", "responses")


def _unknown(api: str) -> ValueError:
    return ValueError(f"unknown api {api!r}; expected one of {_APIS}")


class ChatAndResponsesRequests:
    """Definitions, formats and requests for Chat Completions (``api="chat"``, the default) or
    the Responses API (``api="responses"``)."""

    def __init__(
        self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits = NO_LIMITS
    ) -> None:
        self._chat = ChatCompletionsRequests(tools, outputs, limits=limits)
        self._responses = ResponsesRequests(tools, outputs, limits=limits)

    @overload
    def tool_definition(
        self, name: str, api: Literal["chat"] = "chat", *, strict: Strict = "auto"
    ) -> ChatCompletionFunctionToolParam: ...
    @overload
    def tool_definition(
        self, name: str, api: Literal["responses"], *, strict: Strict = "auto"
    ) -> FunctionToolParam: ...

    def tool_definition(
        self, name: str, api: Literal["chat", "responses"] = "chat", *, strict: Strict = "auto"
    ) -> ChatCompletionFunctionToolParam | FunctionToolParam:
        """The function-tool definition of canonical tool ``name`` for ``api``: an entry of
        Chat Completions' ``tools`` or of the Responses API's ``tools``."""
        if api == "responses":
            return self._responses.tool_definition(name, strict=strict)
        if api == "chat":
            return self._chat.tool_definition(name, strict=strict)
        raise _unknown(api)

    @overload
    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["chat"] = "chat",
        strict: Strict = "auto",
    ) -> list[ChatCompletionFunctionToolParam]: ...
    @overload
    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["responses"],
        strict: Strict = "auto",
    ) -> list[FunctionToolParam]: ...

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["chat", "responses"] = "chat",
        strict: Strict = "auto",
    ) -> list[ChatCompletionFunctionToolParam] | list[FunctionToolParam]:
        """Definitions of the tools ``names`` (all tools when None), for the ``tools`` request
        field of ``api`` (``MAX_TOOLS`` of the provider module: how many one request takes, when
        known); ``strict=False`` sends them with the strict flag off."""
        if api == "responses":
            return self._responses.tool_definitions(names, strict=strict)
        if api == "chat":
            return self._chat.tool_definitions(names, strict=strict)
        raise _unknown(api)

    @overload
    def response_format(
        self, name: str, api: Literal["chat"] = "chat"
    ) -> ResponseFormatJSONSchema: ...
    @overload
    def response_format(
        self, name: str, api: Literal["responses"]
    ) -> ResponseFormatTextJSONSchemaConfigParam: ...

    def response_format(
        self, name: str, api: Literal["chat", "responses"] = "chat"
    ) -> ResponseFormatJSONSchema | ResponseFormatTextJSONSchemaConfigParam:
        """The structured-output format of canonical output ``name``: Chat Completions'
        ``response_format`` or the Responses API's ``text.format``."""
        if api == "responses":
            return self._responses.text_format(name)
        if api == "chat":
            return self._chat.response_format(name)
        raise _unknown(api)

    @overload
    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["chat"] = "chat",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[ChatRequest]: ...
    @overload
    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["responses"],
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[ResponsesRequest]: ...

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["chat", "responses"] = "chat",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[ChatRequest] | RequestPlan[ResponsesRequest]:
        """The plan of one request of ``api`` of the tools ``names`` (all tools when None) and
        the structured output ``output`` (``ChatCompletionsRequests.plan_request``)."""
        if api == "responses":
            return self._responses.plan_request(
                names, output=output, strict=strict, tool_choice=tool_choice
            )
        if api == "chat":
            return self._chat.plan_request(
                names, output=output, strict=strict, tool_choice=tool_choice
            )
        raise _unknown(api)

    @overload
    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["chat"] = "chat",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> ChatRequest: ...
    @overload
    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["responses"],
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> ResponsesRequest: ...

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["chat", "responses"] = "chat",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> ChatRequest | ResponsesRequest:
        """The tools-and-output members of one request of ``api``, ready to spread into
        ``chat.completions.create`` or ``responses.create`` (``plan_request(...).members``)."""
        if api == "responses":
            return self._responses.request(
                names, output=output, strict=strict, tool_choice=tool_choice
            )
        if api == "chat":
            return self._chat.request(names, output=output, strict=strict, tool_choice=tool_choice)
        raise _unknown(api)
