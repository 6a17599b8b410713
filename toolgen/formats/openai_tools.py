"""OpenAI's tool definitions, for ``toolgen import``: Chat Completions' and the Responses API's."""

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
from toolgen.schema import pointer as jp

# -- import: the tool definitions this provider takes, read back into design files -------------
# Chat Completions: tools[].{type: "function", function: {name, description, parameters, strict}};
# Responses: tools[].{type: "function", name, description, parameters, strict}. Other tool types
# (web_search, file_search, custom ...) have no JSON Schema and are skipped.


def _chat_find(document: Any) -> Entries | None:
    return any_have(
        listed(document),
        lambda e: e.get("type") == "function" and isinstance(e.get("function"), dict),
    )


def _chat_read(entry: Any, pointer: str) -> ReadResult:
    function = entry.get("function") if isinstance(entry, dict) else None
    if not isinstance(function, dict):
        return None, [not_a_function_tool(entry, pointer)]
    return read_schema_field(
        function, "parameters", jp.join(pointer, "function"), strict=function.get("strict")
    )


def _responses_find(document: Any) -> Entries | None:
    return any_have(listed(document), lambda e: e.get("type") == "function" and "parameters" in e)


def _responses_read(entry: Any, pointer: str) -> ReadResult:
    if not isinstance(entry, dict) or entry.get("type") != "function":
        return None, [not_a_function_tool(entry, pointer)]
    return read_schema_field(entry, "parameters", pointer, strict=entry.get("strict"))


#: Strict mode writes an optional member as a required one that accepts null: as a type list
#: here, as an anyOf with a null branch by the OpenAI-compatible providers without type lists.
CHAT_TOOLS = ToolFormat(
    name="openai-chat",
    title="OpenAI Chat Completions tools",
    find=_chat_find,
    read=_chat_read,
    strict_nulls=(True, False),
    has_strict=True,
    targets=("openai",),
)
RESPONSES_TOOLS = ToolFormat(
    name="openai-responses",
    title="OpenAI Responses API tools",
    find=_responses_find,
    read=_responses_read,
    strict_nulls=(True,),
    has_strict=True,
    targets=("openai",),
)

IMPORT_FORMATS = (ImportFormat(30, CHAT_TOOLS), ImportFormat(40, RESPONSES_TOOLS))
