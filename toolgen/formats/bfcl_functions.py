"""BFCL (Berkeley Function Calling Leaderboard) function docs, for ``toolgen import``."""

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
from toolgen.schema import walker

# -- BFCL (Berkeley Function Calling Leaderboard) function docs: no provider either ---------------
# [{name, description, parameters: {type: "dict", properties, required}}] with Python and Java
# type names; they are written as JSON Schema's (an unknown name is left for the loader to report).

BFCL_TYPES: dict[str, str | None] = {
    "dict": "object",
    "HashMap": "object",
    "float": "number",
    "double": "number",
    "long": "integer",
    "String": "string",
    "char": "string",
    "Array": "array",
    "ArrayList": "array",
    "tuple": "array",
    "Boolean": "boolean",
    "any": None,  # any value: no type
    "": None,
}


def _bfcl_find(document: Any) -> Entries | None:
    return any_have(
        listed(document),
        lambda e: (
            "name" in e
            and isinstance(e.get("parameters"), dict)
            and e["parameters"].get("type") == "dict"
        ),
    )


def _bfcl_types(node: Any, pointer: str, renamed: list[str]) -> Any:
    if not isinstance(node, dict):
        return node
    node = walker.map_children(
        node, pointer, lambda child: _bfcl_types(child.schema, child.pointer, renamed)
    )
    kind = node.get("type")
    if not isinstance(kind, str) or kind not in BFCL_TYPES:
        return node
    renamed.append(kind)
    json_type = BFCL_TYPES[kind]
    if json_type is None:
        return {k: v for k, v in node.items() if k != "type"}
    return {**node, "type": json_type}


def bfcl_json_schema(schema: Any) -> Any:
    """A copy of a BFCL schema with JSON Schema type names (keyword-driven: names stay names)."""
    return _bfcl_types(schema, "", [])


def _bfcl_read(entry: Any, pointer: str) -> ReadResult:
    if not isinstance(entry, dict):
        return None, [not_a_function_tool(entry, pointer)]
    tool, findings = read_schema_field(entry, "parameters", pointer)
    if tool is None:
        return None, findings
    renamed: list[str] = []
    schema = _bfcl_types(tool.parameters, tool.pointer, renamed)
    if renamed:
        findings.append(
            finding(
                tool.pointer,
                "BFCL_TYPE",
                f"{len(renamed)} BFCL type name(s) written as JSON Schema's "
                f"({', '.join(sorted(set(renamed), key=str))}; any: no type)",
            )
        )
    return FoundTool(tool.name, tool.description, schema, tool.pointer), findings


BFCL_FUNCTIONS = ToolFormat(
    name="bfcl", title="BFCL function docs", find=_bfcl_find, read=_bfcl_read
)

#: After the OpenAI forms, whose entries carry a type; before the bare declaration list of
#: Gemini (whose entries BFCL's roots of type "dict" would not match anyway).
IMPORT_FORMATS = (ImportFormat(60, BFCL_FUNCTIONS),)
