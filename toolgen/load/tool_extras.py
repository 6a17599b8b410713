"""What a tool file holds beside its parameters: ``output`` (a JSON Schema of what the tool's
handler returns: MCP's ``Tool.outputSchema``), ``title`` and ``annotations`` (MCP's ``Tool.title``
and ``Tool.annotations``: a display name and hints such as ``readOnlyHint``, kept as written), and
``aliases`` (the names the tool had before a rename: the MCP server still answers calls under
them, listed as deprecated).

The output schema is checked against the meta-schema and bundled like the parameters; it becomes
the tool's ``Contract.output`` (kind "tool_output"), which no provider sees: the package models it
and checks handler results against it (``OUT/tool_outputs.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from toolgen.infra.cache import digest
from toolgen.infra.diagnostics import DESIGN, Diagnostic
from toolgen.load.contracts import Contract, SharedDef
from toolgen.schema import pointer as jp

#: the fields of a tool file this module reads
TOOL_EXTRAS = ("output", "title", "annotations", "aliases")

#: MCP ToolAnnotations members and the JSON type each must have (others are kept unchecked)
ANNOTATION_TYPES: dict[str, tuple[type, str]] = {
    "title": (str, "a string"),
    "readOnlyHint": (bool, "true or false"),
    "destructiveHint": (bool, "true or false"),
    "idempotentHint": (bool, "true or false"),
    "openWorldHint": (bool, "true or false"),
}


def extras_problems(file: str, document: dict[str, Any]) -> list[Diagnostic]:
    """What is wrong with a tool file's ``title`` and ``annotations``, and an ``output: false``
    (``output`` is a schema: the meta-schema checks it with the parameters)."""

    def problem(pointer: str, message: str) -> Diagnostic:
        return Diagnostic(file, pointer, DESIGN, "INVALID_FIELD", message)

    found: list[Diagnostic] = []
    if document.get("output", True) is False:
        found.append(
            problem(
                "/output",
                "output: false admits no result, so every call of the tool would fail; leave"
                " output out (or write true) for a tool whose results are not checked",
            )
        )
    aliases = document.get("aliases", [])
    if not isinstance(aliases, list):
        found.append(problem("/aliases", "aliases must be a list of the tool's former names"))
    else:
        for index, alias in enumerate(aliases):
            if not isinstance(alias, str) or alias.strip() != alias or alias == "":
                message = "an alias must be a non-empty string without surrounding spaces"
                found.append(problem(f"/aliases/{index}", message))
            elif alias == document.get("name") or alias in aliases[:index]:
                found.append(problem(f"/aliases/{index}", f"{alias!r} is named twice"))
    if "title" in document and not isinstance(document["title"], str):
        found.append(problem("/title", "title must be a string"))
    annotations = document.get("annotations", {})
    if not isinstance(annotations, dict):
        return [
            *found,
            problem("/annotations", "annotations must be a mapping (MCP ToolAnnotations)"),
        ]
    for key, (kind, what) in ANNOTATION_TYPES.items():
        value = annotations.get(key)
        if key in annotations and not isinstance(value, kind):
            found.append(problem(jp.join("/annotations", key), f"annotations.{key} must be {what}"))
    return found


def alias_collisions(tools: Mapping[str, tuple[str, tuple[str, ...]]]) -> list[Diagnostic]:
    """An alias that is another tool's name or alias (``tools``: file -> the tool's name and
    aliases): a call under it could not say which tool it meant."""
    owners: dict[str, str] = {name: file for file, (name, _) in tools.items()}
    found: list[Diagnostic] = []
    for file, (_, aliases) in tools.items():
        for index, alias in enumerate(aliases):
            other = owners.setdefault(alias, file)
            if other != file:
                message = f"alias {alias!r} is also the name or an alias of the tool in {other}"
                found.append(
                    Diagnostic(file, f"/aliases/{index}", DESIGN, "DUPLICATE_NAME", message)
                )
    return found


def tool_output(
    file: str,
    info: dict[str, Any],
    bundled: tuple[Any, dict[str, SharedDef]] | None,
    fingerprint: Callable[[dict[str, SharedDef]], str],
) -> Contract | None:
    """The ``output:`` of the tool loaded from ``file`` as a contract (None when it declares
    none): the bundled schema, named after the tool, located at ``/output`` of its file;
    ``fingerprint`` gives what it was loaded from, for the cache (as the tool's own)."""
    if bundled is None:
        return None
    schema, used = bundled
    if schema is True:  # admits any result: the same as no output schema
        return None
    contract = Contract(
        kind="tool_output",
        name=info["name"],
        description=schema.get("description", "") if isinstance(schema, dict) else "",
        schema=schema,
        file=file,
        pointer=info["output"],
        shared=used,
    )
    contract.set_fingerprint(digest("tool_output", fingerprint(used)))
    return contract
