"""The runner's scheduling (toolgen/infra/parallel.py): submitted work goes to the workers at once and
comes back in input order; while it keeps them busy, map() computes in this process (which would
otherwise only wait), and so does collecting work that no worker has started yet; work marked not
parallel never leaves this process."""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import subprocess
import sys
import threading
import time
from types import FrameType
from typing import Any

import pytest

from toolgen.infra.parallel import Later, Runner

#: how long a worker may take to exit before it counts as never exiting (a hang detector)
PATIENCE = 300


def _pid(_: int) -> int:
    return os.getpid()


def _slow_pid(_: int) -> int:
    time.sleep(0.01)
    return os.getpid()


def _slow_square(value: int) -> int:
    time.sleep(0.05)
    return value * value


def test_submitted_work_runs_in_the_workers_and_map_meanwhile_here() -> None:
    runner = Runner(jobs=2)
    try:
        runner.start()
        pending = runner.submit("slow", _slow_square, [(n,) for n in range(40)])
        meanwhile = runner.map("pid", _pid, [(n,) for n in range(4)])
        assert set(meanwhile) == {os.getpid()}
        assert pending.result() == [n * n for n in range(40)]
        assert pending.result() == [n * n for n in range(40)]  # collected once, kept
        afterwards = runner.map("pid", _slow_pid, [(n,) for n in range(64)])
        assert set(afterwards) - {os.getpid()}  # the workers take their share
        assert (
            runner.map("pid", _pid, [(n,) for n in range(64)], parallel=False) == [os.getpid()] * 64
        )
    finally:
        runner.close()


def test_one_job_computes_submitted_work_when_it_is_collected() -> None:
    runner = Runner(jobs=1)
    pending = runner.submit("pid", _pid, [(1,), (2,)])
    assert pending.result() == [os.getpid()] * 2


def test_collecting_takes_back_the_chunks_no_worker_started() -> None:
    """While the workers are busy, the chunks of later work wait in the pool's queue: collecting
    them computes them here (the last first) instead of waiting for a worker; the results are in
    input order, and what a worker had started comes from the worker."""
    runner = Runner(jobs=2)
    try:
        runner.start()
        busy = runner.submit("slow", _slow_square, [(n,) for n in range(64)])
        later = runner.submit("pid", _pid_of, [(n,) for n in range(40)])
        found = later.result()
        assert [n for n, _ in found] == list(range(40))
        assert {pid for _, pid in found} & {os.getpid()}
        assert busy.result() == [n * n for n in range(64)]
    finally:
        runner.close()


def _pid_of(value: int) -> tuple[int, int]:
    return value, os.getpid()


def test_later_is_finished_once() -> None:
    calls: list[int] = []

    def finish() -> int:
        calls.append(1)
        return 7

    later = Later(finish)
    assert not later.ready
    assert later.result() == 7 and later.result() == 7 and later.ready
    assert calls == [1]
    assert Later.done(None).ready and Later.done(3).result() == 3


def test_work_not_to_be_taken_back_waits_for_the_workers() -> None:
    runner = Runner(jobs=2)
    try:
        runner.start()
        busy = runner.submit("slow", _slow_square, [(n,) for n in range(16)])
        kept = runner.submit("pid", _pid_of, [(n,) for n in range(8)], take_back=False)
        found = kept.result()
        assert [n for n, _ in found] == list(range(8))
        assert os.getpid() not in {pid for _, pid in found}
        assert busy.result() == [n * n for n in range(16)]
    finally:
        runner.close()


def _stopped_by_ctrl_c() -> bool:
    """Whether SIGINT (a terminal's Ctrl-C, sent to every process of its group) interrupts the
    process this runs in."""
    try:
        signal.raise_signal(signal.SIGINT)  # its handler runs before this returns
    except KeyboardInterrupt:
        return True
    return False


def test_a_worker_is_not_interrupted_by_ctrl_c() -> None:
    """The process that started the workers stops them: a worker that died of Ctrl-C would print
    its traceback and break the pool under a build that still waits on it."""
    runner = Runner(jobs=2)
    try:
        runner.start()
        found = runner.submit("ctrl-c", _stopped_by_ctrl_c, [(), ()], take_back=False).result()
        assert found == [False, False]
        assert runner.map("pid", _pid, [(n,) for n in range(8)], take_back=False) != []
    finally:
        runner.close()


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits for other processes by pidfd")
def test_workers_exit_when_the_process_that_started_them_is_killed() -> None:
    """A killed build or watch (SIGKILL, out of memory) cannot stop its workers: they stop
    themselves instead of waiting for work forever."""
    script = (
        "import multiprocessing, os, signal\n"
        "from toolgen.infra.parallel import Runner\n"
        "runner = Runner(jobs=2)\n"
        "runner.start()\n"
        "print(*[p.pid for p in multiprocessing.active_children()], flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    killed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=PATIENCE
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    workers = [int(pid) for pid in killed.stdout.split()]
    assert len(workers) == 2
    for pid in workers:
        try:
            exited = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            assert select.select([exited], [], [], PATIENCE)[0], f"worker {pid} still runs"
        finally:
            os.close(exited)


def test_ctrl_c_in_the_pools_bookkeeping_waits_for_its_end_and_the_pool_still_closes() -> None:
    """Ctrl-C landing while the runner's first submit starts the pool's manager thread (raised
    here as that submit waits for the thread to start) still interrupts, once the submit is
    done; closing the runner then stops its workers. Raised inside, it left the thread half
    started: close() failed with RuntimeError ("cannot join thread before it is started"), and
    the workers ran on."""

    def ctrl_c_in_thread_start(frame: FrameType, event: str, arg: Any) -> None:
        caller = frame.f_back
        if (
            event == "call"
            and frame.f_code.co_name == "wait"
            and caller is not None
            and caller.f_code.co_name == "start"
            and caller.f_code.co_filename == threading.__file__
        ):
            sys.setprofile(None)
            signal.raise_signal(signal.SIGINT)

    runner = Runner(jobs=2)
    # the suite may run with SIGINT ignored (started in the background by a shell script)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sys.setprofile(ctrl_c_in_thread_start)
        with pytest.raises(KeyboardInterrupt):
            runner.start()
    finally:
        sys.setprofile(None)
        signal.signal(signal.SIGINT, previous)
        runner.close()
    assert not multiprocessing.active_children()
