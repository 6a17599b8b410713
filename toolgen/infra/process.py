"""Settings of a toolgen process that runs a build: fewer garbage collections (none in a
process that builds once), and an exit that does not free what the build holds.

A build holds millions of small, long-lived objects (the design, its projections, the generated
text); CPython's default thresholds collect every 700 allocations (2,000 from 3.13) and keep
traversing them, about a sixth of a rebuild's time. So the CLI process collects less often. The
build workers keep the default: datamodel-code-generator leaves cyclic garbage behind each model,
and collecting it rarely doubled their memory (a full corpus build for every provider peaked at
2.5 GiB instead of 0.86 GiB). A process that runs one build and exits (``toolgen build``) does
not collect at all (:func:`collect_none`). At exit the interpreter would free the objects one by
one, a few tenths of a second that nobody waits for usefully.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable
from typing import NoReturn

#: allocations between collections of the youngest generation, and the ratios of the older two
GC_THRESHOLDS = (50_000, 20, 10)


#: whether this process is toolgen's own (:func:`run_and_exit`), not a test runner or another
#: program that calls toolgen's commands
_own_process = False
#: whether it builds once, then exits (:func:`collect_none`)
_builds_once = False
#: what it holds until it exits (:func:`hold_until_exit`)
_held: list[object] = []


def collect_less() -> None:
    """Raise the collector's thresholds (in the CLI process, not in the build workers)."""
    gc.set_threshold(*GC_THRESHOLDS)


def collect_none() -> None:
    """In toolgen's own process, for a command that builds once and exits: no cyclic garbage
    collection from now on. What the build allocates here is nearly all long-lived and acyclic
    (the design, the cache's values, the generated text), yet every young collection traverses
    it: a one-tool rebuild of a 3,920-tool design spent 0.07-0.09 s of its 1.5 s in seven of
    them. The cycles that the code generators leave are made in the workers, or here for a
    handful of changed contracts: the main process of a full build of that design peaked at
    341 MB instead of 302 MB. Pausing collection for the build alone would not do: the first
    collection after it traverses everything the build allocated (45 ms)."""
    global _builds_once
    if _own_process:
        gc.disable()
        _builds_once = True


def hold_until_exit(*values: object) -> None:
    """In a process that builds once (:func:`collect_none`): ``values`` are not freed before
    it exits, as nothing else is (:func:`run_and_exit`). Freeing a build's result and its
    cache's entries when the functions that hold them return took 26 ms of a one-tool rebuild
    of a 3,920-tool design; elsewhere, nothing is held."""
    if _builds_once:
        _held.extend(values)


def exit_code(code: object) -> int:
    """What the interpreter does with ``SystemExit(code)``: None is 0, an int is itself, anything
    else is printed to stderr and is 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def run_and_exit(main: Callable[[], object]) -> NoReturn:
    """Run ``main`` (a click command in standalone mode, which ends in ``SystemExit``) and exit
    at once, without tearing the heap down. Only for a process's entry point: every resource a
    command holds (worker pools, locks, temporary folders) is released inside the command, and
    only the standard streams need flushing."""
    global _own_process
    _own_process = True
    collect_less()
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = exit_code(stop.code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    os._exit(code)
