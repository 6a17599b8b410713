"""Running the build's per-contract work: across processes, through the cache, with progress.

A :class:`Runner` maps a module-level function over explicit, picklable argument tuples and
returns the results in input order, so the output never depends on which worker finished first.
Results found in the cache are not computed; the others run in a pool of spawned processes
(``--jobs``) or, for one job or a handful of items, in this process.

The build makes one runner and hands it to each stage; a stage hands it on to what it calls
(black formatting, the models step). A function run through :meth:`Runner.submit` with
``with_runner=True`` receives the runner that runs it as its ``runner`` argument: the build's own
in this process, a one-job runner without a cache in a worker.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from queue import SimpleQueue
from types import FrameType
from typing import Any, Generic, TextIO, TypeVar

from toolgen.infra.cache import Cache, code_fingerprint, digest
from toolgen.infra.kept import Kept

R = TypeVar("R")
T = TypeVar("T")

#: fewer items than this run in this process while no worker runs yet: starting a worker
#: (imports) costs about a second; once the workers run (:meth:`Runner.start`), any two items go
MIN_PARALLEL_ITEMS = 32


#: how the progress line names the runner's stages
STAGE_LABELS = {
    "meta": "meta-validation",
    "checks": "reference checks",
    "projection": "projection",
    "canonical": "canonicalizers",
    "models": "models",
    "shared": "shared models",
    "black": "formatting",
    "black-part": "formatting",
}


#: whether threads have signal masks here (POSIX; not Windows)
SIGNAL_MASKS = hasattr(signal, "pthread_sigmask")


def default_jobs() -> int:
    return os.cpu_count() or 1


class Progress:
    """``toolgen: models 120/3635`` on one terminal line, once a build has run for a second."""

    DELAY = 1.0
    INTERVAL = 0.1

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.started = time.monotonic()
        self._last = 0.0
        self._shown = False

    @classmethod
    def for_terminal(cls, quiet: bool, stream: TextIO | None = None) -> Progress:
        """Shown only on a terminal, outside CI (``CI`` set) and without ``--quiet``."""
        stream = stream or sys.stderr or sys.__stderr__
        if stream is None:  # an interpreter without a standard error (pythonw)
            return cls(io.StringIO(), False)
        enabled = not quiet and not os.environ.get("CI") and stream.isatty()
        return cls(stream, enabled)

    def update(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started < self.DELAY or (now - self._last < self.INTERVAL and done < total):
            return
        self._last = now
        self._shown = True
        label = STAGE_LABELS.get(stage, stage)
        self.stream.write(f"\r\x1b[Ktoolgen: {label} {done}/{total}")
        self.stream.flush()

    def finish(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


def _apply(function: Callable[..., R], chunk: list[tuple[Any, ...]], with_runner: bool) -> list[R]:
    """``function`` over a chunk of arguments, in a worker."""
    if not with_runner:
        return [function(*arguments) for arguments in chunk]
    runner = Runner()
    return [function(*arguments, runner=runner) for arguments in chunk]


def _started() -> None:
    """A no-op task: submitting one per job makes the pool spawn every worker now."""


def _start_worker(warm_up: Callable[[], None] | None) -> None:
    """What a worker runs first. Ctrl-C at a terminal interrupts every process of its group:
    the worker ignores it, and goes on until the process that started it stops it (a worker
    that died of it would print its traceback, and break the pool while that process still
    waits on it). A worker exits when that process is gone (killed: nothing else would stop
    it, and it would wait for work forever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if SIGNAL_MASKS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by whole() so far
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()
    if warm_up is not None:
        warm_up()


def _exit_with(parent: int) -> None:
    """Wait for the process that started this worker to end, then end this one."""
    multiprocessing.connection.wait([parent])
    os._exit(1)


@contextlib.contextmanager
def whole() -> Iterator[None]:
    """A step of the pool's bookkeeping (submit, cancel, a future's state) run whole: Ctrl-C
    (SIGINT), or another signal this process turns into an exception (watch's SIGTERM),
    landing in it is held until it ends, then delivered again. concurrent.futures is not safe
    against an exception raised at any point: one raised while ``submit`` starts the pool's
    manager thread leaves it half started (closing the pool then fails with RuntimeError, and
    leaves the workers running), one raised in a lock's ``__exit__`` leaves the lock taken
    (the manager thread waits for it forever, and so does closing the pool, which joins it).
    Only the main thread runs signal handlers; waiting for results is not a step (it is
    interrupted as it should be, see :class:`_Completed`).

    The step also blocks SIGINT in this thread (this process still gets it, through another of
    its threads or when the step ends): a worker the step spawns keeps that mask, so a Ctrl-C
    while it starts (its imports take a second or more) cannot kill it, with a traceback,
    before :func:`_start_worker` ignores it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[signal.Signals] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signal.Signals(signum))

    raising = [s for s in (signal.SIGINT, signal.SIGTERM) if callable(signal.getsignal(s))]
    previous = {s: signal.signal(s, hold) for s in raising}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if SIGNAL_MASKS else None
    try:
        yield
    finally:
        if mask is not None:
            # one sent to this thread meanwhile waits in it: taken here, and raised below, rather
            # than handled wherever the interpreter next checks (a gc callback swallows it)
            if signal.SIGINT in signal.sigpending():
                signal.sigwait({signal.SIGINT})
                held.append(signal.SIGINT)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)  # its handler runs now


def usable(pool: Executor) -> bool:
    """Whether ``pool`` still takes work: a worker that died (killed, out of memory) breaks a
    process pool for good, and a pool kept between builds must then be replaced."""
    try:
        with whole():
            pool.submit(_started)
    except (BrokenExecutor, RuntimeError):  # broken, or shut down
        return False
    return True


class Later(Generic[T]):
    """A value whose work was handed to the workers (:meth:`Runner.submit`): ``finish`` puts it
    together from their results when :meth:`result` is first called; this process meanwhile
    renders the next module instead of waiting."""

    def __init__(self, finish: Callable[[], T]) -> None:
        self._finish: Callable[[], T] | None = finish
        self._value: T | None = None

    @classmethod
    def done(cls, value: T) -> Later[T]:
        later: Later[T] = cls(lambda: value)
        later.result()
        return later

    @property
    def ready(self) -> bool:
        """Whether :meth:`result` returns without work (a value given as it is, or collected)."""
        return self._finish is None

    def result(self) -> T:
        if self._finish is not None:
            self._value, self._finish = self._finish(), None
        return self._value  # type: ignore[return-value]  # T itself may include None


def stored_later(
    cache: Cache,
    stage: str,
    made_from: Any,
    make: Callable[[], Later[T]],
    encode: Callable[[T], Any],
    decode: Callable[[Any], T],
) -> Later[T]:
    """A whole result (a module, a set of modules) from ``cache`` by ``made_from``, everything
    it is a function of besides toolgen's code; else ``make()``, stored when it is ready. For
    a process that builds once: what an edit leaves as it was is read, not made again (a
    process that builds again keeps such results in memory). ``decode`` raises TypeError,
    ValueError, KeyError or IndexError for an entry of another shape (then a miss)."""
    key = digest(code_fingerprint(), stage, made_from)
    found = cache.get(stage, key)
    if found is not None:
        try:
            return Later.done(decode(found))
        except (TypeError, ValueError, KeyError, IndexError):
            cache.hits[stage] -= 1
            cache.misses[stage] += 1
    made = make()

    def stored() -> T:
        value = made.result()
        cache.put(stage, key, encode(value))
        return value

    return Later(stored)


def text_of(value: Any) -> str:
    """``value`` when it is a text (:func:`stored_later`'s ``decode`` of a module's text)."""
    if type(value) is not str:
        raise TypeError(f"not a text: {type(value).__name__}")
    return value


class Pending(Later[list[R]]):
    """Results of :meth:`Runner.submit`, ready when :meth:`result` returns."""


class _Completed(Iterator[tuple[int, R]]):
    """(index, result) of the workers' chunks, in the order they finish. A chunk still waiting
    in the pool's queue when its results are asked for is taken back and computed in this
    process (``compute``), the last submitted first: this process would otherwise only wait,
    while the workers take the queue from its other end.

    This process waits for a chunk on a queue each finished future is put on (by the pool's
    thread), not in ``concurrent.futures.wait``: a Ctrl-C raised there can leave futures'
    locks taken (it takes them one by one), and the pool's thread then blocked on them for
    good; a Ctrl-C in ``SimpleQueue.get`` leaves nothing taken."""

    def __init__(
        self,
        futures: dict[Future[list[R]], list[int]],
        compute: Callable[[list[int]], list[R]] | None,
        report: Callable[[int], None],
        done: int,
    ) -> None:
        self.futures = list(futures)
        self._results = self._read(futures, compute, report, done)

    @staticmethod
    def _read(
        futures: dict[Future[list[R]], list[int]],
        compute: Callable[[list[int]], list[R]] | None,
        report: Callable[[int], None],
        done: int,
    ) -> Iterator[tuple[int, R]]:
        waiting = list(futures)  # in submission order
        finishing: SimpleQueue[Future[list[R]]] = SimpleQueue()
        with whole():
            for future in waiting:
                future.add_done_callback(finishing.put)
        while waiting:
            taken = None
            with whole():
                finished = [future for future in waiting if future.done()]
                if not finished and compute is not None:
                    # cancel() fails once a worker took the chunk (or the pool queued it for one)
                    taken = next((f for f in reversed(waiting) if f.cancel()), None)
            if taken is not None and compute is not None:
                waiting.remove(taken)
                chunk = futures[taken]
                yield from zip(chunk, compute(chunk), strict=True)
                done += len(chunk)
                report(done)
                continue
            if not finished:
                finishing.get()  # one has finished (or was taken back): look again
                continue
            with whole():
                results = [future.result() for future in finished]
            for future, result in zip(finished, results, strict=True):
                waiting.remove(future)
                chunk = futures[future]
                yield from zip(chunk, result, strict=True)
                done += len(chunk)
                report(done)

    def __next__(self) -> tuple[int, R]:
        return next(self._results)


class Runner:
    def __init__(
        self,
        jobs: int = 1,
        cache: Cache | None = None,
        progress: Progress | None = None,
        warm_up: Callable[[], None] | None = None,
        kept: Kept | None = None,
        pool: Executor | None = None,
    ) -> None:
        """``warm_up``: a module-level function each worker runs first, while the parent is
        still loading the design (the imports of the stages' libraries cost a second or two).
        ``kept``: results of pure functions the last build of this process used
        (toolgen/infra/kept.py); a worker's runner has none. ``pool``: workers started (and
        warmed up) before this runner, which it uses and leaves running (:meth:`keep_pool`)."""
        self.jobs = max(1, jobs)
        self.cache = cache
        self.kept = kept
        self.progress = progress
        self.warm_up = warm_up
        self._pool: Executor | None = pool
        self._pool_kept = pool is not None  # close() leaves it to its owner
        self._submitted: list[Future[Any]] = []  # the workers' share of submit() calls

    def map(
        self,
        stage: str,
        function: Callable[..., R],
        arguments: Sequence[tuple[Any, ...]],
        key: Callable[[tuple[Any, ...]], str] | None = None,
        **options: Any,
    ) -> list[R]:
        """``[function(*a) for a in arguments]``; with ``key``, results come from and go to the
        cache (``encode``/``decode`` turn a result into a JSON value and back). Computed here
        while the workers are busy with submitted work (this process would only wait for them),
        or with ``parallel=False`` (work too cheap to send)."""
        return self.submit(stage, function, arguments, key, waiting=True, **options).result()

    def submit(
        self,
        stage: str,
        function: Callable[..., R],
        arguments: Sequence[tuple[Any, ...]],
        key: Callable[[tuple[Any, ...]], str] | None = None,
        encode: Callable[[R], Any] = lambda value: value,
        decode: Callable[[Any], R] = lambda value: value,
        *,
        parallel: bool = True,
        waiting: bool = False,
        indexed: bool = False,
        with_runner: bool = False,
        take_back: bool = True,
        keep_decoded: bool = False,
    ) -> Pending[R]:
        """:meth:`map`, with the work handed to the workers now and collected by
        ``result()``: this process can do other work meanwhile (with one job, or too few
        items, the work is done by ``result()``). ``indexed``: the stage's values are small,
        read through the cache's index (:meth:`Cache.index`). ``with_runner``: ``function``
        takes a ``runner`` keyword, the runner that runs it (see the module docstring).
        ``take_back=False``: collecting waits for the workers rather than computing a chunk no
        worker has started here (work whose libraries only the workers have imported).
        ``keep_decoded``: in a process that builds again (:attr:`kept`), the results are kept by
        their cache keys as they are, not read from the cache and decoded again; only for
        results their users never change."""
        results: list[Any] = [None] * len(arguments)
        held = self.kept if keep_decoded and self.cache is not None and key is not None else None
        if indexed and self.cache is not None:
            self.cache.index(stage)
        keys: list[str | None] = [None] * len(arguments)
        todo: list[int] = []
        for index, item in enumerate(arguments):
            if self.cache is not None and key is not None:
                keys[index] = key(item)
                if held is not None:
                    kept = held.get((stage, keys[index]))
                    if kept is not None and self.cache.touch(stage, keys[index] or ""):
                        results[index] = kept[0]
                        continue
                found = self.cache.get(stage, keys[index] or "")
                if found is not None:
                    try:
                        results[index] = decode(found)
                        if held is not None:
                            held.put((stage, keys[index]), (results[index],))
                        continue
                    except (TypeError, ValueError, KeyError, IndexError):
                        # an entry of another shape: a miss, recomputed
                        self.cache.hits[stage] -= 1
                        self.cache.misses[stage] += 1
            todo.append(index)
        if not parallel or (waiting and self._busy()):
            least = len(todo) + 1  # in this process
        elif self._pool is None:
            least = MIN_PARALLEL_ITEMS
        else:
            least = 2 if waiting else 1
        computed = self._compute(
            stage,
            function,
            arguments,
            todo,
            len(arguments) - len(todo),
            least,
            with_runner,
            take_back,
        )
        if not waiting and isinstance(computed, _Completed):
            self._submitted += computed.futures

        def collect() -> list[R]:
            for index, result in computed:
                results[index] = result
                cache_key = keys[index]
                if self.cache is not None and cache_key is not None:
                    self.cache.put(stage, cache_key, encode(result))
                    if held is not None:
                        held.put((stage, cache_key), (result,))
            return results

        return Pending(collect)

    def _compute(
        self,
        stage: str,
        function: Callable[..., R],
        arguments: Sequence[tuple[Any, ...]],
        todo: list[int],
        done: int,
        least: int,
        with_runner: bool,
        take_back: bool = True,
    ) -> Iterator[tuple[int, R]]:
        """The results of ``todo``, as they come: computed in this process while the iterator
        is read, or (``least`` items or more, and more than one job) submitted to the workers
        before this returns."""
        total = len(arguments)
        self._report(stage, done, total)
        if self.jobs == 1 or len(todo) < least:

            def in_process(done: int) -> Iterator[tuple[int, R]]:
                for index in todo:
                    if with_runner:
                        yield index, function(*arguments[index], runner=self)
                    else:
                        yield index, function(*arguments[index])
                    done += 1
                    self._report(stage, done, total)

            return in_process(done)
        # small chunks keep every worker busy to the end; not so small that pickling dominates
        size = max(1, min(16, len(todo) // (self.jobs * 8)))
        chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
        pool = self._executor()
        with whole():
            futures: dict[Future[list[R]], list[int]] = {
                pool.submit(_apply, function, [arguments[i] for i in chunk], with_runner): chunk
                for chunk in chunks
            }

        def compute(chunk: list[int]) -> list[R]:  # a chunk taken back from the pool's queue
            if with_runner:
                return [function(*arguments[index], runner=self) for index in chunk]
            return [function(*arguments[index]) for index in chunk]

        def report(count: int) -> None:
            self._report(stage, count, total)

        return _Completed(futures, compute if take_back else None, report, done)

    def map_by_identity(
        self,
        stage: str,
        tag: Hashable,
        given: Any,
        function: Callable[..., R],
        items: Sequence[tuple[Hashable, Any]],
        arguments: Callable[[Any], tuple[Any, ...]],
        key: Callable[[tuple[Any, ...]], str],
        then: Callable[[tuple[Any, ...], R, str | None], T],
        **options: Any,
    ) -> list[T]:
        """``then(its arguments, result, its cache key)`` of each result of :meth:`map` over
        ``arguments(object)`` of each of ``items`` (name, object), results that are a function
        of the object and of ``given`` alone (None: of something else too; nothing is kept).

        In a process that builds again (:attr:`kept`), an item whose object is the one the last
        call with this stage, ``tag`` and an equal ``given`` had under its name gets what that
        call gave it, as it was: its arguments and key are not made, and the cache counts the
        entry that call used as used again (Cache.use_all). The objects are those a process
        hands its next build as they were (a contract the loader kept); the record of the last
        call holds them, so no other takes their ids."""
        kept = self.kept if given is not None else None
        record = ("by identity", stage, tag)
        recorded = kept.get(record) if kept is not None else None
        last: dict[Hashable, tuple[Any, T, str | None]] = (
            recorded[1] if recorded is not None and recorded[0] == given else {}
        )
        results: list[Any] = [None] * len(items)
        used: list[str | None] = [None] * len(items)
        todo: list[int] = []
        for index, (name, of) in enumerate(items):
            found = last.get(name)
            if found is not None and found[0] is of:
                results[index], used[index] = found[1], found[2]
            else:
                todo.append(index)
        carried = [k for k in used if k is not None]
        if self.cache is not None and carried:
            self.cache.use_all(stage, carried)
        made = [arguments(items[index][1]) for index in todo]
        keys: dict[int, str] = {}

        def keyed(arguments: tuple[Any, ...]) -> str:
            found = keys[id(arguments)] = key(arguments)
            return found

        changed: dict[Hashable, tuple[Any, T, str | None]] = {}
        computed = self.map(stage, function, made, keyed, **options)
        for index, one, result in zip(todo, made, computed, strict=True):
            used[index] = keys.get(id(one))
            results[index] = then(one, result, used[index])
            name, of = items[index]
            changed[name] = (of, results[index], used[index])
        if kept is not None:
            if len(items) == len(last) and all(name in last for name in changed):
                now = {**last, **changed}  # the last call's names: only the changed ones
            else:
                now = {
                    name: (of, result, key)
                    for (name, of), result, key in zip(items, results, used, strict=True)
                }
            kept.put(record, (given, now))
        return results

    def keeping(self, key: Hashable, compute: Callable[[], Later[T]]) -> Later[T]:
        """``compute()``, or in a process that builds again (:attr:`kept`) the value the last
        build computed for ``key`` (everything the value is a function of)."""
        kept = self.kept
        if kept is None:
            return compute()
        found = kept.get(key)
        if found is not None:
            return Later.done(found)
        pending = compute()

        def keep() -> T:
            value = pending.result()
            kept.put(key, value)
            return value

        return Later(keep)

    def _busy(self) -> bool:
        """Whether submitted work is still running or waiting in the workers."""
        with whole():
            self._submitted = [future for future in self._submitted if not future.done()]
        return bool(self._submitted)

    def _report(self, stage: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.update(stage, done, total)

    def start(self) -> None:
        """Start the workers now (with more than one job), so that their imports overlap the
        parent's loading; without this they start when a stage first has enough items."""
        if self.jobs > 1 and self._pool is None:
            pool = self._executor()
            with whole():
                for _ in range(self.jobs):
                    pool.submit(_started)

    def keep_pool(self) -> Executor | None:
        """The workers, left running when this runner closes, for the next build of a process
        that builds again (``toolgen watch``): started now if no stage needed them, so they
        warm up while the process waits for the next change. A rebuild that changes a few
        contracts has too few items to start workers for (:data:`MIN_PARALLEL_ITEMS`); with
        them running, any two items go to them. None with one job."""
        if self.jobs == 1:
            return None
        self.start()
        self._pool_kept = True
        return self._pool

    def _executor(self) -> Executor:
        if self._pool is None:
            # spawn: workers start clean (no copied locks or half-written state of this process)
            with whole():
                self._pool = ProcessPoolExecutor(
                    self.jobs,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.warm_up,),
                )
        return self._pool

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (a later stage that needs them starts them again), unless they are
        kept (:meth:`keep_pool`, or given): then only this runner lets go of them."""
        if self._pool is not None and not self._pool_kept:
            self._pool.shutdown(cancel_futures=True)
        self._pool = None
        self._pool_kept = False
        if self.progress is not None:
            self.progress.finish()
