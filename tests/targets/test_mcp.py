"""``gen.mcp``: the design's tools as an MCP server, driven by the official SDK's client (in
memory, and over stdio from a subprocess)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest
from jsonschema import Draft202012Validator

from toolgen.schema import walker

mcp = pytest.importorskip("mcp", reason="the MCP SDK is in the dev extras")

from mcp.shared.exceptions import MCPError  # noqa: E402

from tests.targets.conftest import PACKAGE, REPO  # noqa: E402

T = TypeVar("T")

#: a call of notes.tag with a map, the member that accepts null set to null, a value of any type
TAG = {"note_id": "n1", "weights": {"b": 2, "a": 1}, "folder": None, "meta": [1, {"x": None}]}


def _with_client(gen: ModuleType, handlers: object, use: Callable[[Any], Awaitable[T]]) -> T:
    """``use(client)`` with the SDK's client connected in memory to ``gen.mcp.server(handlers)``
    (the initialize handshake and JSON-RPC framing of today's clients: mode "legacy")."""

    async def run() -> T:
        async with mcp.Client(gen.mcp.server(handlers), mode="legacy") as client:
            return await use(client)

    return asyncio.run(run())


def _refs(schema: Any) -> list[str]:
    return [n["$ref"] for n, _ in walker.walk(schema) if isinstance(n, dict) and "$ref" in n]


def test_every_tool_is_listed_as_every_client_takes_it(gen: ModuleType, handlers_module: Any):
    async def listed(client: Any) -> Any:
        return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in _with_client(gen, handlers_module.Handlers(), listed)}
    assert set(tools) == {*gen.TOOLS, "notes.label"}  # canonical names are MCP names here
    for tool in tools.values():
        schema = tool.input_schema
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and "properties" in schema
        assert not {"anyOf", "oneOf", "allOf"} & set(schema), tool.name
        refs = _refs(schema)
        assert all(ref.startswith("#/$defs/") for ref in refs), (tool.name, refs)
        assert {ref.split("/")[2] for ref in refs} == set(schema.get("$defs", {})), tool.name
    with_output = {name for name, tool in tools.items() if tool.output_schema is not None}
    assert with_output == {"notes.tag", "notes.label", "weather.get_forecast"}
    tag = tools["notes.tag"]
    assert tag.title == "Tag a note"
    assert tag.annotations.idempotent_hint is True and tag.annotations.open_world_hint is False
    assert tag.input_schema["properties"]["weights"]["additionalProperties"] == {
        "type": "integer",
        "minimum": 0,
    }
    # billing.refund reaches Money and, through it, Currency: both, and nothing else
    assert set(tools["billing.refund"].input_schema["$defs"]) == {"Money", "Currency"}


@pytest.mark.parametrize("kind", ["Handlers", "AsyncHandlers"])
def test_a_call_reaches_the_handler_canonical_and_answers_both_ways(
    gen: ModuleType, handlers_module: Any, calls: list[Any], kind: str
):
    async def call(client: Any) -> Any:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        return listed["notes.tag"].output_schema, await client.call_tool("notes.tag", TAG)

    output_schema, result = _with_client(gen, getattr(handlers_module, kind)(), call)
    assert calls == [("notes.tag", TAG)]
    assert result.is_error is False
    assert result.structured_content == {"note_id": "n1", "tags": ["a", "b"]}
    Draft202012Validator(output_schema).validate(result.structured_content)
    assert [block.type for block in result.content] == ["text"]
    assert json.loads(result.content[0].text) == result.structured_content


def test_a_former_name_is_listed_deprecated_and_calls_the_renamed_tool(
    gen: ModuleType, handlers_module: Any, calls: list[Any]
):
    async def call(client: Any) -> Any:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        return listed, await client.call_tool("notes.label", TAG)

    listed, result = _with_client(gen, handlers_module.Handlers(), call)
    alias, tool = listed["notes.label"], listed["notes.tag"]
    assert alias.description == f"Deprecated: renamed to notes.tag. {tool.description}"
    assert (alias.input_schema, alias.output_schema) == (tool.input_schema, tool.output_schema)
    assert calls == [("notes.tag", TAG)]
    assert result.structured_content == {"note_id": "n1", "tags": ["a", "b"]}


def test_an_absent_member_stays_absent(gen: ModuleType, handlers_module: Any, calls: list[Any]):
    async def call(client: Any) -> Any:
        return await client.call_tool("notes.tag", {"note_id": "n2", "weights": {}})

    _with_client(gen, handlers_module.Handlers(), call)
    assert calls == [("notes.tag", {"note_id": "n2", "weights": {}})]


def test_invalid_arguments_and_a_tool_error_answer_is_error_without_structured_content(
    gen: ModuleType, handlers_module: Any, calls: list[Any]
):
    async def call(client: Any) -> Any:
        invalid = await client.call_tool("notes.tag", {"note_id": "n3", "weights": {"a": -1}})
        failed = await client.call_tool("notes.tag", {"note_id": "missing", "weights": {}})
        return invalid, failed

    invalid, failed = _with_client(gen, handlers_module.Handlers(), call)
    assert calls == [("notes.tag", {"note_id": "missing", "weights": {}})]  # not the invalid one
    for result in (invalid, failed):
        assert result.is_error is True and result.structured_content is None
    assert "arguments.weights.a" in invalid.content[0].text
    assert failed.content[0].text == "note 'missing' does not exist"


def test_a_result_that_breaks_its_output_is_an_internal_error_not_sent(
    gen: ModuleType, handlers_module: Any, calls: list[Any]
):
    async def call(client: Any) -> Any:
        try:
            await client.call_tool("notes.tag", {"note_id": "broken", "weights": {}})
        except MCPError as error:
            return error
        return None

    error = _with_client(gen, handlers_module.Handlers(), call)
    assert isinstance(error, MCPError)
    assert error.message == "Internal error"  # no word of the result or the schema


def test_results_may_be_text_alone(gen: ModuleType, handlers_module: Any, calls: list[Any]):
    async def call(client: Any) -> Any:
        listed = (await client.list_tools()).tools
        return listed, await client.call_tool("notes.tag", TAG)

    server = gen.mcp.server(handlers_module.Handlers(), results="text")

    async def run() -> Any:
        async with mcp.Client(server, mode="legacy") as client:
            return await call(client)

    listed, result = asyncio.run(run())
    assert all(tool.output_schema is None for tool in listed)
    assert result.structured_content is None
    assert json.loads(result.content[0].text) == {"note_id": "n1", "tags": ["a", "b"]}


def test_python_m_serves_over_stdio(gen: ModuleType, package_root: Path):
    """``python -m PACKAGE.mcp --handlers module:Class`` in a subprocess answers initialize,
    tools/list and tools/call."""
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(package_root), str(REPO)]),
        "TOOLGEN_TARGETS_PACKAGE": PACKAGE,
    }
    parameters = mcp.StdioServerParameters(
        command=sys.executable,
        args=["-m", f"{PACKAGE}.mcp", "--handlers", "tests.targets.handlers:Handlers"],
        env=environment,
        cwd=str(package_root),
    )

    async def run() -> Any:
        async with mcp.Client(parameters, mode="legacy") as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            tools = client.server_capabilities.tools
            return client.server_info, tools, names, await client.call_tool("notes.tag", TAG)

    server_info, capability, names, result = asyncio.run(run())
    assert server_info is not None and server_info.name == PACKAGE  # what initialize answered
    assert capability is not None
    assert sorted(names) == sorted([*gen.TOOLS, "notes.label"])
    assert result.structured_content == {"note_id": "n1", "tags": ["a", "b"]}


def test_python_m_serves_streamable_http_with_the_sdks_app(
    gen: ModuleType, handlers_module: Any, monkeypatch: pytest.MonkeyPatch
):
    """``--transport streamable-http``: the SDK's Starlette app under uvicorn, where asked."""
    uvicorn = pytest.importorskip("uvicorn")
    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(options, app=app))
    handlers = "tests.targets.handlers:Handlers"
    options = ["--transport", "streamable-http", "--port", "8765", "--name", "notes"]
    assert gen.mcp.main(["--handlers", handlers, *options]) == 0
    assert (served["host"], served["port"]) == ("127.0.0.1", 8765)
    assert type(served["app"]).__name__ == "Starlette"
