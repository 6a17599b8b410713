"""What ``toolgen watch`` says around each rebuild: the files that changed, how long the rebuild
took, and which diagnostics are worth printing again (toolgen/commands/watch.py watches)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from enum import Enum
from pathlib import Path

from toolgen.infra.diagnostics import Diagnostic, Level

#: How many changed files the line before a rebuild names; the others are counted.
NAMED_CHANGES = 5

#: A burst of changes as watchfiles reports it: (what happened, the file's path); what happened
#: is a ``watchfiles.Change`` (added, modified or deleted), read here by its name only.
Changes = Collection[tuple[Enum, str]]


def describe_changes(changes: Changes, design: Path) -> str:
    """The files of a burst, relative to DESIGN, in name order: ``tools/a.yaml, tools/b.yaml
    (deleted) and 3 more``. A file only added or only deleted says so; any other (an editor's
    save by replacement is a deletion and an addition) is just named."""
    design = design.absolute()
    happened: dict[str, set[str]] = {}
    for change, path in changes:
        where = Path(path).absolute()
        name = where.relative_to(design).as_posix() if design in where.parents else str(where)
        happened.setdefault(name, set()).add(change.name)
    named = []
    for name in sorted(happened)[:NAMED_CHANGES]:
        kinds = happened[name]
        kind = next(iter(kinds)) if len(kinds) == 1 else "modified"
        named.append(name if kind == "modified" else f"{name} ({kind})")
    more = len(happened) - len(named)
    return ", ".join(named) + (f" and {more} more" if more else "")


class Repeats:
    """The warnings of a watch session's last build: a rebuild prints the warnings that build
    did not have, and every error; :attr:`left_out` counts what it did not print. A warning
    that went away and comes back is printed again."""

    def __init__(self) -> None:
        self.last: frozenset[Diagnostic] = frozenset()
        self.left_out = 0

    def new(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics of this build to print."""
        found = list(diagnostics)
        shown = [d for d in found if d.level is Level.ERROR or d not in self.last]
        self.left_out = len(found) - len(shown)
        self.last = frozenset(d for d in found if d.level is not Level.ERROR)
        return shown


def took(seconds: float) -> str:
    """A rebuild's duration as the watch line prints it: ``0.42 s``, ``12.3 s``."""
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"
