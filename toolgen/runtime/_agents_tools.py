"""The design's tools as ``FunctionTool``s of the Agents SDK (its ``agents`` package, imported
when the tools are made: the package imports without it).

Each tool's ``params_json_schema`` is toolgen's projection for the SDK's provider (with its
strict flag: ``strict_json_schema``); ``on_invoke_tool`` reads the arguments back through that
provider's inverse and validates them into the canonical model before the handler runs. A call
that cannot run (arguments that do not fit, a ``ToolError``) answers the model as the provider
module's ``tool_results`` does: its text, marked as an error; the result is the canonical JSON
``tool_outputs.dump_output`` checks, as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._dispatch import ToolError
from ._json import JsonRefused, loads
from ._runtime import PayloadError
from ._targets import DesignTools, ProviderBinding, selected
from ._tool_results import Answer, _marked_text

if TYPE_CHECKING:
    from agents import FunctionTool, Tool
    from agents.tool_context import ToolContext

__all__ = ["make_function_tools"]


def _tool(
    tools: DesignTools, binding: ProviderBinding, name: str, description: str, strict: bool
) -> FunctionTool:
    from agents import FunctionTool

    wire = binding.wire_names[name]

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        call_id = context.tool_call_id
        try:
            try:
                payload = loads(arguments)
            except JsonRefused as refused:
                raise PayloadError(
                    binding.provider, name, call_id, "(root)", refused.reason, "INVALID_ARGUMENTS"
                ) from None
            parsed = tools.provider_arguments(binding, name, payload, call_id)
        except PayloadError as invalid:
            return _marked_text(Answer(call_id, wire, invalid.for_model(), True))
        try:
            value = await tools.acall(name, parsed)
        except ToolError as error:
            return _marked_text(Answer(call_id, wire, error.message, True))
        return Answer(call_id, wire, tools.result(name, value)).text()

    return FunctionTool(
        name=wire,
        description=description,
        params_json_schema=binding.parameters(name),
        on_invoke_tool=invoke,
        strict_json_schema=strict,
    )


def make_function_tools(
    tools: DesignTools,
    binding: ProviderBinding,
    descriptions: Mapping[str, str],
    names: Iterable[str] | None,
) -> list[Tool]:
    """The ``FunctionTool`` of each tool of ``names`` (every tool, in the design's order, when
    None), in a list of the SDK's ``Tool`` (what ``Agent(tools=...)`` takes)."""
    chosen = selected(names, tuple(binding.wire_names))
    strict = binding.strict_plan(list(chosen))
    made: list[Tool] = [
        _tool(tools, binding, name, descriptions[name], name in strict) for name in chosen
    ]
    return made
