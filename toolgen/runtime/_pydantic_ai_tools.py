"""The design's tools as a pydantic-ai toolset (``pydantic-ai-slim``, imported when a toolset is
made: the package imports without it).

Each tool goes to the agent's model as the projection toolgen built for the model's provider
(its wire name, projected parameters and strict flag); the arguments the model sends are read
back through that provider's inverse and validated into the canonical model before the handler
runs. Arguments that do not fit ask the model to retry (``ModelRetry``, with the canonical path
and the rule broken); a ``ToolError`` is a failure the model sees (``ToolFailed``); the result is
the canonical JSON ``tool_outputs.dump_output`` checks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._dispatch import ToolError
from ._runtime import PayloadError
from ._targets import DesignTools, ProviderBinding, selected

if TYPE_CHECKING:
    # submodules only: ``from pydantic_ai import`` reads as an import of the package's own
    # ``pydantic_ai`` module to isort
    from pydantic_ai.tools import Tool
    from pydantic_ai.toolsets import FunctionToolset

__all__ = ["make_toolset"]


def _tool(
    tools: DesignTools, binding: ProviderBinding, name: str, description: str, strict: bool
) -> Tool[Any]:
    from pydantic_ai.exceptions import ModelRetry, ToolFailed
    from pydantic_ai.tools import Tool

    async def run(**payload: Any) -> Any:
        try:
            arguments = tools.provider_arguments(binding, name, payload)
        except PayloadError as invalid:
            raise ModelRetry(invalid.for_model()) from None
        try:
            value = await tools.acall(name, arguments)
        except ToolError as error:
            raise ToolFailed(error.message) from None
        return tools.result(name, value)

    function: Callable[..., Awaitable[Any]] = run
    tool: Tool[Any] = Tool.from_schema(
        function,
        name=binding.wire_names[name],
        description=description,
        json_schema=binding.parameters(name),
    )
    tool.strict = strict
    return tool


def make_toolset(
    tools: DesignTools,
    binding: ProviderBinding,
    descriptions: Mapping[str, str],
    names: Iterable[str] | None,
) -> FunctionToolset[Any]:
    """A ``FunctionToolset`` of the tools ``names`` (every tool of ``binding``'s provider, in
    the design's order, when None)."""
    from pydantic_ai.toolsets import FunctionToolset

    chosen = selected(names, tuple(binding.wire_names))
    strict = binding.strict_plan(list(chosen))
    return FunctionToolset(
        [_tool(tools, binding, name, descriptions[name], name in strict) for name in chosen]
    )
