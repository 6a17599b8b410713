"""The runner's scheduling (toolgen/infra/parallel.py): submitted work goes to the workers at once and
comes back in input order; while it keeps them busy, map() computes in this process (which would
otherwise only wait); work marked not parallel never leaves this process."""

from __future__ import annotations

import os
import time

from toolgen.infra.parallel import Runner


def _pid(_: int) -> int:
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
        afterwards = runner.map("pid", _pid, [(n,) for n in range(64)])
        assert os.getpid() not in afterwards
        assert (
            runner.map("pid", _pid, [(n,) for n in range(64)], parallel=False) == [os.getpid()] * 64
        )
    finally:
        runner.close()


def test_one_job_computes_submitted_work_when_it_is_collected() -> None:
    runner = Runner(jobs=1)
    pending = runner.submit("pid", _pid, [(1,), (2,)])
    assert pending.result() == [os.getpid()] * 2
