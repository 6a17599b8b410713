"""Anthropic's tool definitions, for ``toolgen import``: the ``tools`` of a Messages request."""

from __future__ import annotations

from typing import Any

from toolgen.formats.tool_format import (
    Entries,
    ImportFormat,
    ReadResult,
    ToolFormat,
    any_have,
    listed,
    not_a_function_tool,
    read_schema_field,
)

# -- import: tools[].{name, description, input_schema, strict?} of a Messages request -----------
# Server tools (web_search_..., bash_..., text_editor_...) have no input_schema and are skipped.
# Strict tool use adds no nulls (optional members stay optional): nothing to undo in an import
# (a schema over the cap of optional members is the design's, read as it was sent).


def _tools_find(document: Any) -> Entries | None:
    return any_have(listed(document), lambda e: "input_schema" in e)


def _tools_read(entry: Any, pointer: str) -> ReadResult:
    if not isinstance(entry, dict) or "input_schema" not in entry:
        return None, [not_a_function_tool(entry, pointer)]
    return read_schema_field(entry, "input_schema", pointer, strict=entry.get("strict"))


TOOLS = ToolFormat(
    name="anthropic",
    title="Anthropic Messages tools",
    find=_tools_find,
    read=_tools_read,
    has_strict=True,
    targets=("anthropic",),
)

IMPORT_FORMATS = (ImportFormat(50, TOOLS),)
