"""AWS Bedrock Converse tool definitions, for ``toolgen import`` (toolgen builds no Bedrock
bindings yet): ``toolConfig.tools[].toolSpec{name, description, inputSchema{json}, strict?}``.

Source: the Bedrock Converse API reference, ToolSpecification and ToolInputSchema
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html). Strict
mode on Claude models adds no nulls, so there is nothing to undo; entries without a toolSpec (a
``cachePoint``, a system tool) are skipped. Verified on 2026-12-03."""

from __future__ import annotations

from typing import Any

from toolgen.formats.tool_format import (
    Entries,
    FoundTool,
    ImportFormat,
    ReadResult,
    ToolFormat,
    any_have,
    finding,
    listed,
    not_a_function_tool,
    read_schema_field,
)
from toolgen.infra.diagnostics import Level
from toolgen.schema import pointer as jp


def _find(document: Any) -> Entries | None:
    if isinstance(document, dict) and isinstance(document.get("toolConfig"), dict):
        found = [("/toolConfig" + where, e) for where, e in listed(document["toolConfig"])]
        return any_have(found, lambda e: "toolSpec" in e)
    return any_have(listed(document), lambda e: "toolSpec" in e)


def _read(entry: Any, pointer: str) -> ReadResult:
    spec = entry.get("toolSpec") if isinstance(entry, dict) else None
    if not isinstance(spec, dict):
        return None, [not_a_function_tool(entry, pointer)]
    where = jp.join(pointer, "toolSpec")
    schema = spec.get("inputSchema")
    if not isinstance(schema, dict) or "json" not in schema:
        return None, [
            finding(where, "MISSING_SCHEMA", "no inputSchema.json in this toolSpec", Level.ERROR)
        ]
    tool, findings = read_schema_field(schema, "json", jp.join(where, "inputSchema"))
    if tool is None:
        return None, findings
    strict = spec.get("strict")
    return (
        FoundTool(
            spec.get("name"),
            spec.get("description", ""),
            tool.parameters,
            tool.pointer,
            strict if isinstance(strict, bool) else None,
        ),
        findings,
    )


TOOL_CONFIG = ToolFormat(
    name="bedrock",
    title="Bedrock Converse toolConfig",
    find=_find,
    read=_read,
    has_strict=True,
    targets=("bedrock",),
)

IMPORT_FORMATS = (ImportFormat(20, TOOL_CONFIG),)
