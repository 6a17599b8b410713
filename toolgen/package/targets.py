"""The package's target modules, where the design's tools run besides the providers' loops:
written only for the targets ``[toolgen] targets`` in toolgen.toml names (a design without them
builds as before). Each module imports its framework only when it is used; the package's other
modules never import a target.

- ``mcp``: an MCP server of the tools (``mcp.py``, toolgen/runtime/_mcp_server.py), their
  schemas in the form MCP's clients take (toolgen.providers.mcp).
"""

from __future__ import annotations

from typing import Any

from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Contract, Design
from toolgen.providers import mcp
from toolgen.render.runtime_files import copied_with_imports
from toolgen.render.templating import format_python, header, render
from toolgen.schema.names import provider_name

#: The targets a design may ask for, in the order they are written.
TARGET_NAMES: tuple[str, ...] = ("mcp",)


def target_files(design: Design, runner: Runner) -> tuple[dict[str, str], list[Diagnostic]]:
    """The files of every target the design asks for, and what keeps one from being written
    (then it has no files)."""
    files: dict[str, str] = {}
    diagnostics: list[Diagnostic] = []
    if "mcp" in design.config.targets:
        rows, found = mcp_rows(design.tools)
        diagnostics += found
        if not any(d.level is Level.ERROR for d in found):
            source = render("mcp.py.j2", runner, header=header(), rows=rows)
            files["mcp.py"] = format_python(source, runner=runner)
            files |= copied_with_imports("_mcp_server", header())
    return files, diagnostics


def mcp_rows(tools: tuple[Contract, ...]) -> tuple[list[list[Any]], list[Diagnostic]]:
    """Each tool as ``tools/list`` shows it (the rows of the generated ``mcp.TOOLS``), and the
    problems: a tool whose parameters no exact form carries to MCP's clients is an error; an
    ``output:`` they cannot take is a warning (the tool is listed without ``outputSchema``, its
    results go as text, still checked against it)."""
    rows: list[list[Any]] = []
    diagnostics: list[Diagnostic] = []
    by_name: dict[str, Contract] = {}
    for tool in tools:
        name = provider_name(tool.name, mcp.NAMES)
        other = by_name.setdefault(name.casefold(), tool)
        if other is not tool:
            message = (
                f"tool {tool.name!r} becomes {name!r} on MCP, as {other.name!r} ({other.file}) "
                "does; rename one of them"
            )
            diagnostics.append(Diagnostic(tool.file, "/name", mcp.NAME, "NAME_COLLISION", message))
        schema, problems = mcp.project(tool.schema)
        diagnostics += [
            Diagnostic(*tool.locate(pointer), mcp.NAME, code, message)
            for pointer, code, message in problems
        ]
        output = None
        if tool.output is not None:
            output, problems = mcp.project(tool.output.schema)
            diagnostics += [
                Diagnostic(
                    *tool.output.locate(pointer),
                    mcp.NAME,
                    code,
                    f"{message}; the tool is listed without outputSchema (its results go as "
                    "text, checked against output: all the same)",
                    Level.WARNING,
                )
                for pointer, code, message in problems
            ]
        row = [name, tool.name, tool.title, tool.description, tool.annotations, schema, output]
        rows.append(row)
    return rows, diagnostics
