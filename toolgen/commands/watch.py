"""``toolgen watch``: rebuild whenever a file of the design changes on disk, until Ctrl-C (or
SIGTERM, which stops it the same way)."""

from __future__ import annotations

import contextlib
import faulthandler
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


#: How often the watcher wakes when nothing changes: the longest its start can take to show.
READY_MS = 100

Burst = set[tuple[watchfiles.Change, str]]


@contextlib.contextmanager
def watching(design: Path, out: Path) -> Iterator[Iterator[Burst]]:
    """The bursts of changes under ``design`` (watchfiles' (change, path) pairs), each collected
    for DEBOUNCE_MS, from a watcher that runs from the moment this is entered: a file saved
    while the first build runs is reported after it, not lost. Iterating raises
    KeyboardInterrupt on Ctrl-C."""
    bursts = watchfiles.watch(
        design,
        watch_filter=design_filter(out),
        debounce=DEBOUNCE_MS,
        raise_interrupt=True,
        rust_timeout=READY_MS,
        yield_on_timeout=True,  # the first (empty) burst says that the watcher runs
    )
    with contextlib.closing(bursts):
        next(bursts)  # what it reports happened before the first build, which reads it anyway
        yield (changes for changes in bursts if changes)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """The signals that stop watch, set for as long as it runs: Ctrl-C (SIGINT) and SIGTERM (a
    process manager, an editor's task runner, ``kill``) each raise KeyboardInterrupt, so what
    watch keeps on disk between rebuilds (the spare tree beside OUT) is removed on the way out
    rather than left to the next build's recovery; SIGUSR1 prints every thread's stack to
    stderr (where a watch that does not react is waiting).

    SIGINT is set too, not left as the process found it: a shell without job control starts a
    background command (``toolgen watch ... &``, or a test suite started that way, whose
    subprocesses inherit it) with SIGINT ignored, and Python leaves an ignored SIGINT ignored,
    so Ctrl-C and ``kill -INT`` would never stop watch."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set a handler
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = {stop: signal.signal(stop, interrupt) for stop in (signal.SIGINT, signal.SIGTERM)}
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        yield
    finally:
        faulthandler.unregister(signal.SIGUSR1)
        for stop, handler in previous.items():
            signal.signal(stop, handler)
