"""Diagnostics are values: collected by every stage, sorted, then reported once by the CLI."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass

#: The provider slot of a diagnostic that no provider raised (loading, meta-validation, examples).
DESIGN = "design"


class Level(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"  # a decision worth knowing about (toolgen import reports its choices so)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding about the design: where (file and JSON pointer), for whom, what and why.

    ``file`` is relative to the design folder, in POSIX form; ``pointer`` is a JSON pointer into that
    file's document ("" is the whole document).
    """

    file: str
    pointer: str
    provider: str
    code: str
    message: str
    level: Level = Level.ERROR

    def format(self) -> str:
        prefix = "" if self.level is Level.ERROR else f"{self.level}: "
        return f"{self.file}:{self.pointer}: {self.provider}: {self.code} {prefix}{self.message}"

    def to_dict(self) -> dict[str, str]:
        return {key: str(value) for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, value: dict[str, str]) -> Diagnostic:
        """The inverse of :meth:`to_dict`."""
        fields = {key: value[key] for key in ("file", "pointer", "provider", "code", "message")}
        return cls(**fields, level=Level(value["level"]))


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The stable report order: by file, then pointer, provider and code; duplicates dropped."""
    return sorted(set(diagnostics))


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.level is Level.ERROR for d in diagnostics)


def format_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "".join(d.format() + "\n" for d in sort_diagnostics(diagnostics))


# -- one line per problem -------------------------------------------------------------------------

#: The contracts a diagnostic concerns, as (kind, name) with kind "tool" or "output": those that
#: reach its node (the design knows; see toolgen.commands.reporting.reach_of).
Reach = Callable[[Diagnostic], Iterable[tuple[str, str]]]


def _nobody(_diagnostic: Diagnostic) -> Iterable[tuple[str, str]]:
    return ()


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass(frozen=True)
class Problem:
    """The diagnostics of one node (a file and a pointer) with one code and level, whichever
    providers raised them and however many contracts reach the node: one problem to fix."""

    file: str
    pointer: str
    code: str
    level: Level
    diagnostics: tuple[Diagnostic, ...]  # distinct, in the report order
    contracts: frozenset[tuple[str, str]]  # (kind, name) of the tools and outputs reaching it

    @property
    def providers(self) -> tuple[str, ...]:
        """The provider slots of its diagnostics (``design`` is no provider), sorted."""
        return tuple(sorted({d.provider for d in self.diagnostics} - {DESIGN}))

    def counts(self) -> str:
        """``24 tools, 7 providers`` (an output counted apart); a count of one provider names it."""
        tools = sum(kind == "tool" for kind, _ in self.contracts)
        outputs = len(self.contracts) - tools
        parts = [_plural(tools, "tool")] if tools else []
        parts += [_plural(outputs, "output")] if outputs else []
        providers = self.providers
        if len(providers) == 1:
            parts.append(providers[0])
        elif providers:
            parts.append(f"{len(providers)} providers")
        return ", ".join(parts)

    def format(self, width: int | None = None) -> str:
        """One line: the diagnostic as it is when it is alone (one provider slot, one contract at
        most), else ``file:pointer: CODE message (N tools, M providers)``, the message the first
        provider's, which it names (``file:pointer: PROVIDER: CODE ...``) when the providers'
        messages differ (each names its provider's title); the message cut to keep the line
        within ``width`` (the rest is in ``--verbose``): only a node's place, code and counts
        longer than that make a longer line, whose message is an ellipsis."""
        first = self.diagnostics[0]
        prefix = "" if self.level is Level.ERROR else f"{self.level}: "
        slots = {d.provider for d in self.diagnostics}
        if len(slots) == 1 and len(self.contracts) <= 1:
            head, tail = f"{self.file}:{self.pointer}: {first.provider}: {self.code} {prefix}", ""
        else:
            whose = f"{first.provider}: " if len({d.message for d in self.diagnostics}) > 1 else ""
            head = f"{self.file}:{self.pointer}: {whose}{self.code} {prefix}"
            tail = f" ({self.counts()})"
        message = first.message
        if width is not None and len(head) + len(message) + len(tail) > width:
            room = width - len(head) - len(tail) - 1  # 1: the ellipsis
            message = message[: max(room, 0)].rstrip() + "…"  # never empty: a line has 5 fields
        return head + message + tail


_LEVEL_ORDER = {Level.ERROR: 0, Level.WARNING: 1, Level.INFO: 2}


def group_problems(diagnostics: Iterable[Diagnostic], reach: Reach = _nobody) -> list[Problem]:
    """The distinct problems of ``diagnostics``, in the report order (file, pointer, code). A
    problem's contracts come from ``reach``, not from how many diagnostics name its node: a
    definition shared by 24 tools is one problem whether 24 projections or one reported it."""
    grouped: dict[tuple[str, str, str, Level], list[Diagnostic]] = {}
    for diagnostic in sort_diagnostics(diagnostics):
        key = (diagnostic.file, diagnostic.pointer, diagnostic.code, diagnostic.level)
        grouped.setdefault(key, []).append(diagnostic)
    return [
        Problem(
            file,
            pointer,
            code,
            level,
            tuple(found),
            frozenset(label for d in found for label in reach(d)),
        )
        for (file, pointer, code, level), found in sorted(
            grouped.items(), key=lambda item: (*item[0][:3], _LEVEL_ORDER[item[0][3]])
        )
    ]


def summary_lines(problems: Sequence[Problem]) -> list[str]:
    """One line per code of an error or a warning (errors first; a note is a decision, not a
    problem): how many problems, and the contracts and providers they concern, e.g.
    ``toolgen: 1 UNSUPPORTED_NOT error (24 tools, 7 providers)``."""
    by_code: dict[tuple[Level, str], list[Problem]] = {}
    for problem in problems:
        if problem.level is not Level.INFO:
            by_code.setdefault((problem.level, problem.code), []).append(problem)
    lines = []
    for (level, code), found in sorted(
        by_code.items(), key=lambda item: (_LEVEL_ORDER[item[0][0]], item[0][1])
    ):
        whole = Problem(
            "",
            "",
            code,
            level,
            tuple(d for p in found for d in p.diagnostics),
            frozenset(c for p in found for c in p.contracts),
        )
        counts = whole.counts()
        lines.append(
            f"toolgen: {len(found)} {code} {level}{'' if len(found) == 1 else 's'}"
            + (f" ({counts})" if counts else "")
        )
    return lines


def format_problems(
    diagnostics: Iterable[Diagnostic],
    reach: Reach = _nobody,
    *,
    width: int | None = None,
    verbose: bool = False,
) -> str:
    """The text report: one line per problem (each within ``width``), or with ``verbose`` every
    distinct diagnostic in full, each problem's followed by the contracts that reach its node when
    they are several; then, when there is more than one problem, a summary line per code."""
    problems = group_problems(diagnostics, reach)
    lines = []
    for problem in problems:
        if not verbose:
            lines.append(problem.format(width))
            continue
        lines += [d.format() for d in problem.diagnostics]
        if len(problem.contracts) > 1:
            names = ", ".join(f"{kind} {name}" for kind, name in sorted(problem.contracts))
            lines.append(f"  reached by {names}")
    if len(problems) > 1:
        lines += summary_lines(problems)
    return "".join(line + "\n" for line in lines)
