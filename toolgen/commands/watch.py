"""``toolgen watch``: rebuild whenever a file of the design changes on disk, until Ctrl-C."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import watchfiles

#: How long a burst of changes (an editor's save, a git checkout) is collected before one rebuild.
DEBOUNCE_MS = 200


def design_filter(out: Path) -> Callable[[watchfiles.Change, str], bool]:
    """The changes that matter: watchfiles' defaults (no .git, editor swap files, caches), and
    nothing toolgen writes itself, should OUT or its staging folders sit inside the design."""
    default = watchfiles.DefaultFilter()
    out = out.absolute()
    staging = f".{out.name}.toolgen-"

    def accept(change: watchfiles.Change, path: str) -> bool:
        where = Path(path).absolute()
        if where == out or out in where.parents:
            return False
        return default(change, path) and not any(p.startswith(staging) for p in where.parts)

    return accept


def watch(design: Path, out: Path, rebuild: Callable[[], object]) -> None:
    """Call ``rebuild()`` after each burst of changes under ``design``; returns on Ctrl-C."""
    try:
        for _ in watchfiles.watch(
            design, watch_filter=design_filter(out), debounce=DEBOUNCE_MS, raise_interrupt=False
        ):
            rebuild()
    except KeyboardInterrupt:  # during a rebuild: the writer has already put OUT back whole
        return
