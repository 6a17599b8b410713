"""The request side of a provider that speaks both Chat Completions and the Responses API: one
``api`` argument picks the API, and the overloads give each API's own param type."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, overload

from ._chat_completions import (
    ChatCompletionFunctionToolParam,
    ChatCompletionsRequests,
    ResponseFormatJSONSchema,
)
from ._contracts import Contracts
from ._responses import (
    FunctionToolParam,
    ResponseFormatTextJSONSchemaConfigParam,
    ResponsesRequests,
)

__all__ = ["ChatAndResponsesRequests"]

_APIS = ("chat", "responses")


def _unknown(api: str) -> ValueError:
    return ValueError(f"unknown api {api!r}; expected one of {_APIS}")


class ChatAndResponsesRequests:
    """Definitions and formats for Chat Completions (``api="chat"``, the default) or the
    Responses API (``api="responses"``)."""

    def __init__(self, tools: Contracts, outputs: Contracts, *, strict: bool = True) -> None:
        self._tools = tools
        self._chat = ChatCompletionsRequests(tools, outputs, strict=strict)
        self._responses = ResponsesRequests(tools, outputs, strict=strict)

    @overload
    def tool_definition(
        self, name: str, api: Literal["chat"] = "chat"
    ) -> ChatCompletionFunctionToolParam: ...
    @overload
    def tool_definition(self, name: str, api: Literal["responses"]) -> FunctionToolParam: ...

    def tool_definition(
        self, name: str, api: Literal["chat", "responses"] = "chat"
    ) -> ChatCompletionFunctionToolParam | FunctionToolParam:
        """The function-tool definition of canonical tool ``name`` for ``api``: an entry of
        Chat Completions' ``tools`` or of the Responses API's ``tools``."""
        if api == "responses":
            return self._responses.tool_definition(name)
        if api == "chat":
            return self._chat.tool_definition(name)
        raise _unknown(api)

    @overload
    def tool_definitions(
        self, api: Literal["chat"] = "chat", names: Iterable[str] | None = None
    ) -> list[ChatCompletionFunctionToolParam]: ...
    @overload
    def tool_definitions(
        self, api: Literal["responses"], names: Iterable[str] | None = None
    ) -> list[FunctionToolParam]: ...

    def tool_definitions(
        self, api: Literal["chat", "responses"] = "chat", names: Iterable[str] | None = None
    ) -> list[ChatCompletionFunctionToolParam] | list[FunctionToolParam]:
        """Definitions of the tools ``names`` (all tools when None), for the ``tools`` request
        field (``MAX_TOOLS`` of the provider module: how many one request takes, when known)."""
        if api == "responses":
            return self._responses.tool_definitions(names)
        if api == "chat":
            return self._chat.tool_definitions("chat", names)
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
