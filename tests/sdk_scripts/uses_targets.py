"""A user's code of the package's targets under mypy --strict, without a cast
(tests/test_sdk_typing.py type-checks it beside ``gen``; the handlers are
uses_tool_loop.py's). It is never run: it only has to type-check."""

from __future__ import annotations

from typing import Any

import mcp
from gen import mcp as gen_mcp
from mcp.server import Server
from mcp_types import CallToolResult
from starlette.applications import Starlette
from uses_tool_loop import AsyncHandlers, Handlers

server: Server[Any] = gen_mcp.server(Handlers(), name="example", version="1.0")
async_server: Server[Any] = gen_mcp.server(AsyncHandlers(), results="text")
app: Starlette = server.streamable_http_app()
listed: tuple[gen_mcp.McpTool, ...] = gen_mcp.TOOLS
first_schema: dict[str, Any] = listed[0].input_schema


async def refund() -> CallToolResult:
    async with mcp.Client(server) as client:
        names: list[str] = [tool.name for tool in (await client.list_tools()).tools]
        assert "billing.refund" in names
        return await client.call_tool("billing.refund", {"charge_id": "ch_12345678"})


def serve() -> int:
    return gen_mcp.main(["--handlers", "handlers:Handlers"])


# The agent frameworks' tools, typed as each framework takes them.
from agents import Agent as AgentsAgent  # noqa: E402
from agents import Tool  # noqa: E402
from gen import langchain as gen_langchain  # noqa: E402
from gen import openai_agents as gen_agents  # noqa: E402
from gen import pydantic_ai as gen_pydantic_ai  # noqa: E402
from langchain_core.tools import StructuredTool  # noqa: E402
from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.toolsets import FunctionToolset  # noqa: E402

toolset: FunctionToolset[Any] = gen_pydantic_ai.toolset(Handlers(), provider="anthropic")
agent: Agent[None, str] = Agent("test", toolsets=[toolset])
some = gen_pydantic_ai.toolset(AsyncHandlers(), provider="openai", names=["billing.refund"])
function_tools: list[Tool] = gen_agents.function_tools(Handlers())
agents_agent = AgentsAgent(name="refunds", tools=gen_agents.function_tools(AsyncHandlers()))
chain_tools: list[StructuredTool] = gen_langchain.tools(Handlers(), provider="openai")
canonical_tools: list[StructuredTool] = gen_langchain.tools(AsyncHandlers(), ["send_email"])
