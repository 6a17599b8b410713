"""What a tool-definition format is, for ``toolgen import``: where its tools sit in a document, how
one entry reads, and which of a provider's additions an import may undo; and what a module of
toolgen.formats declares (``ImportFormat``: a format at its place in the detection order).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.schema import pointer as jp

Entries = list[tuple[str, Any]]  # (JSON pointer in the source document, the entry there)


@dataclass(frozen=True)
class FoundTool:
    """One tool read from a source, its schema still in the source's dialect."""

    name: Any  # checked by the import (a source may hold anything here)
    description: Any
    parameters: Any
    pointer: str  # where ``parameters`` is in the source document
    strict: bool | None = None  # the definition's strict flag; None when it has none
    #: tool-file fields beyond name, description and parameters that the format carries
    #: (MCP: ``output``, ``title``, ``annotations``), as the tool file writes them
    extra: dict[str, Any] = field(default_factory=dict)


#: What reading one entry gives: the tool (None when the entry is no function tool) and findings.
ReadResult = tuple[FoundTool | None, list[Diagnostic]]


@dataclass(frozen=True)
class ToolFormat:
    """A format of tool definitions a provider (or MCP) uses on the wire.

    ``find`` gives the tool entries of a document, or None when the document is not in this
    format (detection tries the formats in order). ``read`` gives one entry's tool, its schema in
    JSON Schema 2020-12 (a reader converts its format's own dialect). ``strict_nulls`` says how
    a producer of this format may write an optional member in strict mode: True for a type list
    (``["string", "null"]``), False for an ``anyOf`` with a null branch; empty when strict mode
    adds no nulls. ``has_strict`` says whether an entry may carry a ``strict`` flag. ``targets``
    names the providers that read this format.
    """

    name: str
    title: str
    find: Callable[[Any], Entries | None]
    read: Callable[[Any, str], ReadResult]
    strict_nulls: tuple[bool, ...] = ()
    has_strict: bool = False
    #: The providers a design imported from this format is built for (toolgen.toml's list); empty
    #: for a format of no provider (MCP, BFCL): the default build's providers.
    targets: tuple[str, ...] = ()


def finding(pointer: str, code: str, message: str, level: Level = Level.INFO) -> Diagnostic:
    """A finding of a reader; the import fills in the source file and the format."""
    return Diagnostic("", pointer, "", code, message, level)


def entries(value: Any, pointer: str) -> Entries:
    """The items of a list with their pointers (nothing when ``value`` is not a list)."""
    if not isinstance(value, list):
        return []
    return [(jp.join(pointer, index), item) for index, item in enumerate(value)]


def any_have(found: Entries, check: Callable[[dict[str, Any]], bool]) -> Entries | None:
    """``found`` when some entry passes ``check`` (a request may mix function tools with built-in
    ones, which ``read`` skips), else None: the document is not in this format."""
    if any(isinstance(entry, dict) and check(entry) for _, entry in found):
        return found
    return None


def listed(document: Any, key: str = "tools") -> Entries:
    """The entries of a bare list, or of ``document[key]`` (a request body or a wrapper)."""
    if isinstance(document, dict):
        return entries(document.get(key), jp.join("", key))
    return entries(document, "")


def json_rpc_result(document: Any) -> tuple[Any, str]:
    """The ``result`` of a JSON-RPC response, else the document itself (with its pointer)."""
    if isinstance(document, dict) and "jsonrpc" in document and "result" in document:
        return document["result"], "/result"
    return document, ""


def read_schema_field(
    entry: dict[str, Any], key: str, pointer: str, *, strict: Any = None
) -> ReadResult:
    """The common shape: ``{name, description, <key>: schema}``; a schema given as JSON text (some
    SDKs serialize it) is parsed."""
    where = jp.join(pointer, key)
    if key not in entry:
        return None, [finding(pointer, "MISSING_SCHEMA", f"no {key!r} in this tool", Level.ERROR)]
    schema = entry[key]
    if isinstance(schema, str):
        try:
            schema = json.loads(schema)
        except ValueError as error:
            return None, [
                finding(where, "INVALID_SCHEMA_TEXT", f"not JSON text: {error}", Level.ERROR)
            ]
    return (
        FoundTool(
            entry.get("name"),
            entry.get("description", ""),
            schema,
            where,
            strict if isinstance(strict, bool) else None,
        ),
        [],
    )


def not_a_function_tool(entry: Any, pointer: str) -> Diagnostic:
    kind = entry.get("type") if isinstance(entry, dict) else None
    what = f"a {kind!r} tool" if isinstance(kind, str) else "not a function tool"
    return finding(pointer, "SKIPPED_TOOL", f"{what} without a JSON Schema; skipped")


@dataclass(frozen=True)
class ImportFormat:
    """A tool-definition format ``toolgen import`` reads, at its place in the detection order:
    a document is read by the first format (lowest rank) whose layout it has."""

    rank: int
    format: ToolFormat
