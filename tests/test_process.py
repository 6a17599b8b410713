"""The process settings of a build (toolgen/infra/process.py): fewer collections, a hard exit that
still reports the right exit code and flushes everything the command wrote."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from toolgen.infra.process import GC_THRESHOLDS, exit_code


@pytest.mark.parametrize(("code", "expected"), [(None, 0), (0, 0), (1, 1), (2, 2), ("bye", 1)])
def test_exit_code_is_what_the_interpreter_would_use(code, expected, capsys):
    assert exit_code(code) == expected
    assert capsys.readouterr().err == ("bye\n" if code == "bye" else "")


def _run(body: str) -> subprocess.CompletedProcess[str]:
    script = f"import gc, sys\nfrom toolgen.infra.process import run_and_exit\n{body}\n"
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )


def test_run_and_exit_tunes_the_collector_and_flushes_a_piped_stdout():
    result = _run(
        "def main():\n"
        "    sys.stdout.write('x' * 100_000 + str(gc.get_threshold()))\n"
        "    raise SystemExit(3)\n"
        "run_and_exit(main)"
    )
    assert result.returncode == 3
    assert result.stdout == "x" * 100_000 + str(GC_THRESHOLDS)


def test_run_and_exit_reports_a_message_exit_like_the_interpreter():
    result = _run("def main():\n    raise SystemExit('cannot go on')\nrun_and_exit(main)")
    assert (result.returncode, result.stderr) == (1, "cannot go on\n")
    assert _run("run_and_exit(lambda: None)").returncode == 0


def test_the_real_command_writes_whole_json_and_its_summary(run_toolgen, make_design, tool):
    design = make_design(
        {
            "tools/a.yaml": tool("a", {"type": "object", "properties": {"x": {"type": "string"}}}),
            "tools/b.yaml": tool("b", {"type": "object", "properties": {"y": {"$ref": "#/nope"}}}),
        }
    )
    result = run_toolgen("build", design, "-o", design.parent / "gen", "--format", "json")
    assert result.returncode == 1
    diagnostics = json.loads(result.stdout)
    assert diagnostics and all(d["file"] == "tools/b.yaml" for d in diagnostics)
    assert "nothing written" in result.stderr


def test_build_workers_keep_the_default_collector():
    """The generator leaves cyclic garbage in the workers: collected rarely, their memory doubled."""
    from toolgen.infra.parallel import Runner

    with Runner(jobs=2) as runner:
        runner.start()
        # this process takes back what no worker has started yet: enough items for both
        found = runner.map("thresholds", worker_collector, [()] * 40)
    in_workers = {thresholds for pid, thresholds in found if pid != os.getpid()}
    assert in_workers == {_fresh_interpreter_thresholds()}


def _fresh_interpreter_thresholds() -> tuple[int, int, int]:
    """The collector's default thresholds of this Python (700 allocations through 3.12, 2000 in
    3.13), as a process that changed nothing has them."""
    answer = subprocess.run(
        [sys.executable, "-c", "import gc; print(*gc.get_threshold())"],
        capture_output=True,
        text=True,
        check=True,
    )
    first, second, third = (int(part) for part in answer.stdout.split())
    return first, second, third


def worker_collector() -> tuple[int, tuple[int, int, int]]:
    import gc
    import time

    time.sleep(0.02)
    return os.getpid(), gc.get_threshold()
