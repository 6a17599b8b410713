"""What the commands print of their diagnostics: one line per problem (a node and a code; see
:func:`toolgen.infra.diagnostics.format_problems`), with the tools and outputs of the design that
reach the node counted, or every diagnostic with ``--verbose``, or the JSON list."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable

from toolgen.infra.diagnostics import (
    Diagnostic,
    Level,
    Reach,
    format_problems,
    group_problems,
    sort_diagnostics,
)
from toolgen.load.contracts import Contract, Design

#: The line width where stderr is no terminal (a CI log): wide enough for a pointer and a reason.
UNBOUNDED_WIDTH = 120


def _within(pointer: str, prefix: str) -> bool:
    return pointer == prefix or pointer.startswith(prefix + "/")


def reach_of(design: Design | None) -> Reach:
    """The contracts whose schema holds a diagnostic's node: a tool or output for what is in its
    own file, and every contract that references a shared definition for what is inside that
    definition (through the loader's bundle: the definitions a contract reaches)."""
    where: dict[str, list[tuple[str, tuple[str, str]]]] = {}
    contracts: Iterable[Contract] = design.contracts if design is not None else ()
    for contract in contracts:
        label = ("output" if contract.kind == "output" else "tool", contract.name)
        where.setdefault(contract.file, []).append(("", label))
        shared = [*contract.shared.values()]
        if contract.output is not None:
            shared += contract.output.shared.values()
        for definition in shared:
            where.setdefault(definition.file, []).append((definition.pointer, label))

    def reach(diagnostic: Diagnostic) -> Iterable[tuple[str, str]]:
        return {
            label
            for prefix, label in where.get(diagnostic.file, ())
            if not prefix or _within(diagnostic.pointer, prefix)
        }

    return reach


def terminal_width() -> int:
    """``COLUMNS``, else the columns of the terminal stderr is (where the report goes), else
    :data:`UNBOUNDED_WIDTH`."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, ValueError, OSError):  # no stderr, or no terminal behind it
        return UNBOUNDED_WIDTH


def diagnostics_text(
    diagnostics: Iterable[Diagnostic],
    design: Design | None = None,
    *,
    verbose: bool = False,
    width: int | None = None,
) -> str:
    """The text report of ``diagnostics`` about ``design`` (see the module)."""
    return format_problems(
        diagnostics,
        reach_of(design),
        width=width if width is not None else terminal_width(),
        verbose=verbose,
    )


def diagnostics_json(diagnostics: Iterable[Diagnostic], design: Design | None = None) -> str:
    """Every diagnostic as a JSON object (``Diagnostic.to_dict``) with ``reached_by``: the tools
    and outputs of ``design`` whose schema holds its node, as ``["tool", name]`` pairs (none when
    the design did not load)."""
    reach = reach_of(design)
    listed = [
        {**d.to_dict(), "reached_by": [list(label) for label in sorted(reach(d))]}
        for d in sort_diagnostics(diagnostics)
    ]
    return json.dumps(listed, indent=2) + "\n"


def problem_counts(diagnostics: Iterable[Diagnostic]) -> tuple[int, int]:
    """(errors, warnings) as the report shows them: distinct problems, not diagnostics."""
    problems = group_problems(diagnostics)
    errors = sum(p.level is Level.ERROR for p in problems)
    warnings = sum(p.level is Level.WARNING for p in problems)
    return errors, warnings
