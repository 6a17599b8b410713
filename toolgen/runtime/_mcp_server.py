"""An MCP server of the design's tools on the official SDK (``mcp`` 2.x, imported when a server
is made: the package imports without it).

``tools/list`` lists each tool with the schemas toolgen wrote for MCP's clients (the generated
``mcp`` module's ``TOOLS``). ``tools/call`` validates the arguments into the tool's canonical
model, calls its handler (``handlers.ToolHandlers`` in a worker thread, or
``AsyncToolHandlers``), checks the result against the tool's ``output:`` and answers with the
result as ``structuredContent`` and as the JSON text of a text block (clients read one or the
other). Arguments that do not fit and a ``ToolError`` answer ``isError: true`` with a message for
the model and no ``structuredContent`` (a client validates it even on errors). A result that
breaks its ``output:`` (ToolOutputError) and any other exception of a handler are logged and
answered as an internal error: their text is never sent.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import importlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from ._dispatch import ToolError
from ._json import dumps
from ._runtime import PayloadError
from ._targets import DesignTools

if TYPE_CHECKING:
    import mcp_types
    from mcp.server import Server, ServerRequestContext

__all__ = ["McpTool", "Results", "make_server", "serve"]

logger = logging.getLogger(__name__)

#: What a result carries: ``"both"`` (structuredContent and its JSON as a text block),
#: ``"structured"`` (structuredContent alone, where it is an object) or ``"text"`` (the text
#: block alone, and no outputSchema listed).
Results: TypeAlias = Literal["both", "structured", "text"]


@dataclass(frozen=True)
class McpTool:
    """One tool as ``tools/list`` shows it: its MCP name, canonical name, title, description,
    annotations (as the design wrote them) and schemas (``output_schema`` None: results as
    text)."""

    name: str
    canonical: str
    title: str | None
    description: str
    annotations: dict[str, Any] | None
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None


def _listed(tool: McpTool, results: Results) -> mcp_types.Tool:
    import mcp_types

    annotations = tool.annotations
    return mcp_types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=copy.deepcopy(tool.input_schema),
        output_schema=copy.deepcopy(tool.output_schema) if results != "text" else None,
        annotations=mcp_types.ToolAnnotations.model_validate(annotations) if annotations else None,
    )


def _error(message: str) -> mcp_types.CallToolResult:
    import mcp_types

    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text=message)], is_error=True
    )


def _answer(payload: Any, results: Results) -> mcp_types.CallToolResult:
    """A result's canonical JSON as structuredContent (an object: what every protocol version
    takes) and as text, as ``results`` says."""
    import mcp_types

    structured = payload if results != "text" and isinstance(payload, dict) else None
    text = payload if isinstance(payload, str) else dumps(payload)
    blocks = [] if results == "structured" and structured is not None else [text]
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text=block) for block in blocks],
        structured_content=structured,
    )


def make_server(
    tools: DesignTools,
    listed: Sequence[McpTool],
    *,
    name: str,
    version: str = "",
    results: Results = "both",
) -> Server[Any]:
    """The SDK's low-level ``Server`` of ``listed``, calling ``tools``' handlers."""
    import mcp_types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    by_name = {tool.name: tool for tool in listed}
    shown = mcp_types.ListToolsResult(tools=[_listed(tool, results) for tool in listed])

    async def list_tools(
        ctx: ServerRequestContext[Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        return shown

    async def call_tool(
        ctx: ServerRequestContext[Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            raise MCPError(mcp_types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        try:
            arguments = tools.arguments(tool.canonical, params.arguments or {})
        except PayloadError as invalid:
            return _error(invalid.for_model())
        try:
            payload = tools.result(tool.canonical, await tools.acall(tool.canonical, arguments))
        except ToolError as error:
            return _error(error.message)
        except Exception:
            # a bug of the handler (ToolOutputError: its result breaks the tool's output:)
            logger.exception("the handler of MCP tool %r failed", tool.name)
            raise MCPError(mcp_types.INTERNAL_ERROR, "Internal error") from None
        return _answer(payload, results)

    def input_schema(tool_name: str) -> Mapping[str, Any] | None:
        tool = by_name.get(tool_name)
        return None if tool is None else tool.input_schema

    return Server(
        name,
        version=version,
        get_tool_input_schema=input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _handlers(spec: str) -> object:
    """``module:Class`` made with no arguments (a handlers class of the package)."""
    module, _, attribute = spec.partition(":")
    if not module or not attribute:
        raise SystemExit(f"--handlers takes module:Class, not {spec!r}")
    found: Any = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    made: object = found()
    return made


def serve(
    make: Callable[[Any, str, Results], Server[Any]], prog: str, argv: Sequence[str] | None
) -> int:
    """``python -m PACKAGE.mcp``: the server of ``make(handlers, name, results)`` over stdio,
    or over streamable HTTP (``--transport streamable-http``)."""
    parser = argparse.ArgumentParser(prog=prog, description="Serve the design's tools over MCP.")
    parser.add_argument(
        "--handlers",
        required=True,
        help="module:Class of the tools' handlers, made with no arguments",
    )
    parser.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio")
    parser.add_argument("--name", default=prog.removesuffix(".mcp"), help="the server's name")
    parser.add_argument("--results", choices=("both", "structured", "text"), default="both")
    parser.add_argument("--host", default="127.0.0.1", help="streamable HTTP: the address")
    parser.add_argument("--port", type=int, default=8000, help="streamable HTTP: the port")
    options = parser.parse_args(argv)
    server = make(_handlers(options.handlers), options.name, options.results)
    if options.transport == "stdio":
        asyncio.run(_stdio(server))
    else:
        import uvicorn

        app = server.streamable_http_app(host=options.host)
        uvicorn.run(app, host=options.host, port=options.port)
    return 0


async def _stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
