"""``toolgen watch``: rebuild whenever a file of the design changes on disk, until Ctrl-C (or
SIGTERM, which stops it the same way)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

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


def watch(
    design: Path, out: Path, rebuild: Callable[[set[tuple[watchfiles.Change, str]]], object]
) -> None:
    """Call ``rebuild(changes)`` after each burst of changes under ``design`` (what changed:
    watchfiles' (change, path) pairs); returns on Ctrl-C."""
    try:
        for changes in watchfiles.watch(
            design, watch_filter=design_filter(out), debounce=DEBOUNCE_MS, raise_interrupt=False
        ):
            rebuild(changes)
    except KeyboardInterrupt:  # during a rebuild: the writer has already put OUT back whole
        return


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a process manager, an editor's task runner, ``kill``) stops watch as Ctrl-C does,
    so what it keeps on disk between rebuilds (the spare tree beside OUT) is removed on the way
    out rather than left to the next build's recovery."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
