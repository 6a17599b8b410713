"""The design's tools as LangChain ``StructuredTool``s (``langchain-core``, imported when the
tools are made: the package imports without it).

Each tool's ``args_schema`` is its canonical model. Given a provider (the one the chat model
talks to), a chat model that binds the tools (``bind_tools``) is given toolgen's projection for
that provider (its wire names and projected parameters), and the arguments it sends are read
back through the provider's inverse; without one, the tools take canonical arguments under
their canonical names. Either way the handler receives the canonical model. Arguments that do
not fit and a ``ToolError`` answer the model with their text (a ``ToolException``, handled: the
tool message's status is "error"); the result is the canonical JSON ``tool_outputs.dump_output``
checks, as text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._dispatch import ToolError
from ._runtime import PayloadError
from ._targets import DesignTools, ProviderBinding, selected
from ._tool_results import Answer

if TYPE_CHECKING:
    from langchain_core.tools import StructuredTool

__all__ = ["make_tools"]


def _tool_class() -> Callable[..., StructuredTool]:
    """A StructuredTool that gives its function the arguments as they were sent (LangChain's own
    parsing would fill defaults in and drop what its schema does not show) and that shows a
    chat model its ``projection`` where it has one."""
    from langchain_core.tools import StructuredTool

    class DesignTool(StructuredTool):
        projection: dict[str, Any] | None = None

        def _parse_input(
            self, tool_input: str | dict[str, Any], tool_call_id: str | None
        ) -> str | dict[str, Any]:
            return tool_input

        @property
        def tool_call_schema(self) -> Any:
            if self.projection is None:
                return super().tool_call_schema
            return {**self.projection, "description": self.description}

    return DesignTool


def _tool(
    tools: DesignTools,
    binding: ProviderBinding | None,
    name: str,
    description: str,
    tool_class: Callable[..., StructuredTool],
) -> StructuredTool:
    from langchain_core.tools import ToolException

    def arguments(payload: dict[str, Any]) -> Any:
        try:
            if binding is None:
                return tools.arguments(name, payload)
            return tools.provider_arguments(binding, name, payload)
        except PayloadError as invalid:
            raise ToolException(invalid.for_model()) from None

    def answer(value: object) -> str:
        return Answer("", name, tools.result(name, value)).text()

    def run(**payload: Any) -> str:
        try:
            return answer(tools.call(name, arguments(payload)))
        except ToolError as error:
            raise ToolException(error.message) from None

    async def arun(**payload: Any) -> str:
        try:
            return answer(await tools.acall(name, arguments(payload)))
        except ToolError as error:
            raise ToolException(error.message) from None

    return tool_class(
        name=binding.wire_names[name] if binding is not None else name,
        description=description,
        args_schema=tools.model(name),
        func=None if tools.is_async(name) else run,
        coroutine=arun,
        handle_tool_error=True,
        projection=binding.parameters(name) if binding is not None else None,
    )


def make_tools(
    tools: DesignTools,
    binding: ProviderBinding | None,
    descriptions: Mapping[str, str],
    names: Iterable[str] | None,
) -> list[StructuredTool]:
    """The tool of each tool of ``names`` (every tool, in the design's order, when None)."""
    chosen = selected(names, tuple(descriptions))
    tool_class = _tool_class()
    return [_tool(tools, binding, name, descriptions[name], tool_class) for name in chosen]
