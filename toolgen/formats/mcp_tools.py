"""MCP's ``tools/list`` result (a JSON-RPC response or its ``result``): ``tools[].{name,
description, inputSchema, outputSchema?, title?, annotations?}``; MCP is no provider, its schemas
are JSON Schema as they are."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolgen.formats.tool_format import (
    Entries,
    ImportFormat,
    ReadResult,
    ToolFormat,
    any_have,
    entries,
    json_rpc_result,
    read_schema_field,
)
from toolgen.schema import pointer as jp


def _mcp_find(document: Any) -> Entries | None:
    result, base = json_rpc_result(document)
    if not isinstance(result, dict):
        return None
    return any_have(
        entries(result.get("tools"), jp.join(base, "tools")), lambda e: "inputSchema" in e
    )


#: MCP Tool member -> the tool file's field (toolgen/load/tool_extras.py)
MCP_EXTRAS = {"title": "title", "outputSchema": "output", "annotations": "annotations"}


def _mcp_read(entry: Any, pointer: str) -> ReadResult:
    tool, findings = read_schema_field(entry, "inputSchema", pointer)
    if tool is None:
        return tool, findings
    extra = {field: entry[member] for member, field in MCP_EXTRAS.items() if member in entry}
    return replace(tool, extra=extra), findings


MCP_TOOLS = ToolFormat(
    name="mcp",
    title="MCP tools/list result",
    find=_mcp_find,
    read=_mcp_read,
)

#: MCP's tools first in the detection order.
IMPORT_FORMATS = (ImportFormat(10, MCP_TOOLS),)
