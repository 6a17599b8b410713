"""The runner's scheduling (toolgen/infra/parallel.py): submitted work goes to the workers at once and
comes back in input order; while it keeps them busy, map() computes in this process (which would
otherwise only wait), and so does collecting work that no worker has started yet; work marked not
parallel never leaves this process."""

from __future__ import annotations

import os
import time

from toolgen.infra.parallel import Later, Runner


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
