"""The package's target modules, where the design's tools run besides the providers' loops:
written only for the targets ``[toolgen] targets`` in toolgen.toml names (a design without them
builds as before). Each module imports its framework only when it is used; the package's other
modules never import a target.

- ``mcp``: an MCP server of the tools (``mcp.py``, toolgen/runtime/_mcp_server.py), their
  schemas in the form MCP's clients take (toolgen.providers.mcp);
- ``pydantic_ai``, ``openai_agents``, ``langchain``: the tools of an agent framework, each with
  a provider's projection and its inverse (the provider modules of the package;
  toolgen.providers.frameworks says which provider a framework fixes).
"""

from __future__ import annotations

from typing import Any

from toolgen.infra.diagnostics import DESIGN, Diagnostic, Level
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Contract, Design
from toolgen.load.loader import CONFIG_FILE
from toolgen.providers import BUILT_BY_DEFAULT, mcp
from toolgen.providers.frameworks import FRAMEWORK_PROVIDERS
from toolgen.render.runtime_files import copied_with_imports
from toolgen.render.templating import format_python, header, render
from toolgen.schema.names import provider_name

#: The targets a design may ask for, in the order they are written.
TARGET_NAMES: tuple[str, ...] = ("mcp", *FRAMEWORK_PROVIDERS)

#: framework target -> its fixed module (toolgen/runtime/)
_RUNTIME = {
    "pydantic_ai": "_pydantic_ai_tools",
    "openai_agents": "_agents_tools",
    "langchain": "_langchain_tools",
}


def target_diagnostics(design: Design) -> list[Diagnostic]:
    """What keeps a target the design asks for from being written, and the warnings of those
    that are."""
    targets = design.config.targets
    configured = design.config.providers or BUILT_BY_DEFAULT
    found = [
        problem
        for index, target in enumerate(targets)
        if target in FRAMEWORK_PROVIDERS
        for problem in _framework_problems(target, index, configured)
    ]
    if "mcp" in targets:
        found += mcp_rows(design.tools)[1]
    return found


def targets_built(design: Design, providers: tuple[str, ...]) -> tuple[str, ...]:
    """The targets the design asks for that the package has (``providers``: its provider
    modules): a framework whose provider this build leaves out (``--provider``) is left out with
    it."""
    return tuple(
        target
        for target in design.config.targets
        if target not in FRAMEWORK_PROVIDERS
        or (FRAMEWORK_PROVIDERS[target] in providers if FRAMEWORK_PROVIDERS[target] else providers)
    )


def target_files(design: Design, providers: tuple[str, ...], runner: Runner) -> dict[str, str]:
    """The files of every target of :func:`targets_built`; a design with
    :func:`target_diagnostics` errors is not rendered."""
    files: dict[str, str] = {}
    built = targets_built(design, providers)
    for target in built:
        if target in FRAMEWORK_PROVIDERS:
            files |= _framework_files(design, target, providers, runner)
    if "mcp" in built:
        source = render("mcp.py.j2", runner, header=header(), rows=mcp_rows(design.tools)[0])
        files["mcp.py"] = format_python(source, runner=runner)
        files |= copied_with_imports("_mcp_server", header())
    return files


def mcp_rows(tools: tuple[Contract, ...]) -> tuple[list[list[Any]], list[Diagnostic]]:
    """Each tool as ``tools/list`` shows it (the rows of the generated ``mcp.TOOLS``; a tool's
    former names, its ``aliases``, as deprecated tools of their own that call its handler), and the
    problems: a tool whose parameters no exact form carries to MCP's clients is an error; an
    ``output:`` they cannot take is a warning (the tool is listed without ``outputSchema``, its
    results go as text, still checked against it)."""
    rows: list[list[Any]] = []
    diagnostics: list[Diagnostic] = []
    by_name: dict[str, Contract] = {}
    for tool in tools:
        name = provider_name(tool.name, mcp.NAMES)
        names = [("/name", tool.name, name)]
        names += [
            (f"/aliases/{index}", alias, provider_name(alias, mcp.NAMES))
            for index, alias in enumerate(tool.aliases)
        ]
        listed_aliases: list[str] = []
        for pointer, given, listed in names:
            other = by_name.get(listed.casefold())
            if other is None:
                by_name[listed.casefold()] = tool
                listed_aliases += [listed] if pointer != "/name" else []
            else:
                message = (
                    f"{given!r} becomes {listed!r} on MCP, as a name of tool {other.name!r} "
                    f"({other.file}) does; rename one of them"
                )
                diagnostics.append(
                    Diagnostic(tool.file, pointer, mcp.NAME, "NAME_COLLISION", message)
                )
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
        rows.append(
            [name, tool.name, tool.title, tool.description, tool.annotations, schema, output]
        )
        for alias in listed_aliases:
            deprecated = f"Deprecated: renamed to {name}. {tool.description}".rstrip()
            rows.append(
                [alias, tool.name, tool.title, deprecated, tool.annotations, schema, output]
            )
    return rows, diagnostics


def _framework_problems(target: str, index: int, providers: tuple[str, ...]) -> list[Diagnostic]:
    """A framework whose provider the design builds no module for (``providers``: what
    toolgen.toml's ``[toolgen] providers`` builds) has no projection to send."""
    fixed = FRAMEWORK_PROVIDERS[target]
    needed = fixed if fixed is not None else "any provider"
    if (fixed in providers) if fixed is not None else providers:
        return []
    message = (
        f"the {target} target sends a provider's projection: it needs the module of {needed}; "
        "add it to [toolgen] providers"
    )
    pointer = f"/toolgen/targets/{index}"
    return [Diagnostic(CONFIG_FILE, pointer, DESIGN, "TARGET_WITHOUT_PROVIDER", message)]


def _framework_files(
    design: Design, target: str, providers: tuple[str, ...], runner: Runner
) -> dict[str, str]:
    """A framework's module (templates/<target>.py.j2) and the fixed modules it imports."""
    source = render(
        f"{target}.py.j2",
        runner,
        header=header(),
        descriptions=[[tool.name, tool.description] for tool in design.tools],
        providers=providers,
        provider=FRAMEWORK_PROVIDERS[target],
    )
    return {
        f"{target}.py": format_python(source, runner=runner),
        **copied_with_imports(_RUNTIME[target], header()),
    }
