"""Google Gemini function declarations, for ``toolgen import`` (toolgen builds no Gemini bindings
yet): ``tools[].functionDeclarations[].{name, description, parametersJsonSchema | parameters}``.

Source: the Gemini API reference, FunctionDeclaration and Schema
(https://ai.google.dev/api/caching#FunctionDeclaration, https://ai.google.dev/api/caching#Schema).
Two dialects: ``parametersJsonSchema`` is JSON Schema and is taken as it is; ``parameters`` is an
OpenAPI 3.0 subset, converted here: upper-case type names (STRING, OBJECT ...) become JSON Schema's,
``nullable: true`` becomes a type that admits null, the string-only enums of a number or integer
become numbers, ``example`` becomes ``examples``, and Gemini's own ``propertyOrdering`` and
``format: enum`` are dropped (property order is the source's). Gemini adds no nulls and no
``required``, so there is nothing else to undo. Verified on 2026-12-03."""

from __future__ import annotations

from typing import Any

from toolgen.formats.tool_format import (
    Entries,
    FoundTool,
    ImportFormat,
    ReadResult,
    ToolFormat,
    any_have,
    entries,
    finding,
    listed,
    read_schema_field,
)
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.schema import pointer as jp
from toolgen.schema import walker

JSON_SCHEMA_FIELDS = ("parametersJsonSchema", "parameters_json_schema")
OPENAPI_FIELDS = ("parameters",)
DECLARATIONS = ("functionDeclarations", "function_declarations")
TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
#: OpenAPI fields with no JSON Schema meaning that Gemini reads; dropped on import.
GEMINI_ONLY = frozenset({"propertyOrdering"})


def _declarations(tool: Any, pointer: str) -> Entries:
    if not isinstance(tool, dict):
        return []
    for key in DECLARATIONS:
        if key in tool:
            return entries(tool[key], jp.join(pointer, key))
    return []


def _is_declaration(entry: dict[str, Any]) -> bool:
    return (
        "name" in entry
        and "type" not in entry
        and any(k in entry for k in (*JSON_SCHEMA_FIELDS, *OPENAPI_FIELDS))
    )


def _find(document: Any) -> Entries | None:
    """A Tool ``{functionDeclarations}``, a list of them, a request ``{tools: [...]}``, or a bare
    list of declarations."""
    if isinstance(document, dict) and any(k in document for k in DECLARATIONS):
        return any_have(_declarations(document, ""), _is_declaration)
    tools = listed(document)
    found = [d for where, tool in tools for d in _declarations(tool, where)]
    return any_have(found, _is_declaration) or any_have(tools, _is_declaration)


def _read(entry: Any, pointer: str) -> ReadResult:
    if not isinstance(entry, dict):
        return None, [finding(pointer, "SKIPPED_TOOL", "not a function declaration")]
    for key in JSON_SCHEMA_FIELDS:
        if key in entry:
            return read_schema_field(entry, key, pointer)
    if "parameters" not in entry:  # a declaration without parameters takes no arguments
        empty = {"type": "object", "properties": {}}
        return FoundTool(entry.get("name"), entry.get("description", ""), empty, pointer), [
            finding(pointer, "NO_PARAMETERS", "no parameters: imported as an empty object")
        ]
    tool, findings = read_schema_field(entry, "parameters", pointer)
    if tool is None:
        return None, findings
    schema, converted = openapi_to_json_schema(tool.parameters, tool.pointer)
    return FoundTool(tool.name, tool.description, schema, tool.pointer), findings + converted


def openapi_to_json_schema(schema: Any, pointer: str) -> tuple[Any, list[Diagnostic]]:
    """The legacy ``parameters`` dialect as JSON Schema 2020-12, with a finding per decision."""
    findings: list[Diagnostic] = []
    lowered: list[str] = []
    result = _convert(schema, pointer, findings, lowered)
    if lowered:
        findings.append(
            finding(
                pointer,
                "OPENAPI_TYPE",
                f"{len(lowered)} OpenAPI type name(s) written as JSON Schema's "
                f"({', '.join(sorted(set(lowered)))})",
            )
        )
    return result, findings


def _convert(node: Any, pointer: str, findings: list[Diagnostic], lowered: list[str]) -> Any:
    if not isinstance(node, dict):
        return node
    node = walker.map_children(
        node, pointer, lambda child: _convert(child.schema, child.pointer, findings, lowered)
    )
    result: dict[str, Any] = {}
    for key, value in node.items():
        where = jp.join(pointer, key)
        if key == "type" and isinstance(value, str) and value != value.lower():
            if value.lower() in TYPES:
                lowered.append(value)
                result[key] = value.lower()
            elif value.upper() == "TYPE_UNSPECIFIED":
                findings.append(finding(where, "OPENAPI_TYPE", "TYPE_UNSPECIFIED: no type"))
            else:
                result[key] = value  # the loader reports it; it is no type we know
        elif key == "nullable":
            if not isinstance(value, bool):
                findings.append(
                    finding(
                        where,
                        "OPENAPI_NULLABLE",
                        "nullable is not a boolean; dropped",
                        Level.WARNING,
                    )
                )
        elif key in GEMINI_ONLY or (key == "format" and value == "enum"):
            findings.append(
                finding(where, "GEMINI_ONLY", f"{key} has no JSON Schema meaning; dropped")
            )
        elif key == "example":
            result["examples"] = [value]
        else:
            result[key] = value
    _numeric_enum(result, pointer, findings)
    if node.get("nullable") is True:
        result = _nullable(result)
        findings.append(
            finding(
                jp.join(pointer, "nullable"),
                "OPENAPI_NULLABLE",
                "nullable: true written as a schema that also accepts null",
            )
        )
    return result


def _numeric_enum(node: dict[str, Any], pointer: str, findings: list[Diagnostic]) -> None:
    """Gemini's enums hold strings only; a number or integer enum's values become numbers again."""
    kind, values = node.get("type"), node.get("enum")
    if kind not in ("integer", "number") or not isinstance(values, list):
        return
    if not all(isinstance(v, str) for v in values):
        return
    try:
        numbers = [int(v) if kind == "integer" else _number(v) for v in values]
    except ValueError:
        findings.append(
            finding(
                jp.join(pointer, "enum"),
                "ENUM_NOT_NUMBERS",
                f"the enum of a {kind} holds text that is no {kind}; kept as it is (it admits no value)",
                Level.WARNING,
            )
        )
        return
    node["enum"] = numbers
    findings.append(
        finding(jp.join(pointer, "enum"), "OPENAPI_ENUM", f"enum values written as {kind}s")
    )


def _number(text: str) -> int | float:
    value = float(text)
    return (
        int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value
    )


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    if isinstance(node.get("type"), str):
        result = {**node, "type": [node["type"], "null"]}
        if isinstance(node.get("enum"), list) and None not in node["enum"]:
            result["enum"] = [*node["enum"], None]
        return result
    if "anyOf" in node and "type" not in node:
        return {**node, "anyOf": [*node["anyOf"], {"type": "null"}]}
    return {"anyOf": [node, {"type": "null"}]}


FUNCTION_DECLARATIONS = ToolFormat(
    name="gemini",
    title="Gemini function declarations",
    find=_find,
    read=_read,
    targets=("gemini",),
)

IMPORT_FORMATS = (ImportFormat(70, FUNCTION_DECLARATIONS),)
