"""The process settings of a build (toolgen/infra/process.py): fewer collections (none in a process
that builds once), a hard exit that still reports the right exit code and flushes everything the
command wrote."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

import pytest

from toolgen.infra.process import GC_THRESHOLDS, collect_none, exit_code, hold_until_exit


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


def test_a_process_that_builds_once_stops_collecting():
    result = _run(
        "from toolgen.infra.process import collect_none\n"
        "def main():\n"
        "    collect_none()\n"
        "    print(gc.isenabled())\n"
        "run_and_exit(main)"
    )
    assert (result.returncode, result.stdout) == (0, "False\n")


def test_collect_none_leaves_a_process_that_is_not_toolgens_alone():
    """Tests and programs that call toolgen's commands keep their collector."""
    collect_none()
    assert gc.isenabled()


def test_a_process_that_builds_once_frees_nothing_it_holds_until_it_exits():
    result = _run(
        "import weakref\n"
        "from toolgen.infra.process import collect_none, hold_until_exit\n"
        "class Built: pass\n"
        "def main():\n"
        "    collect_none()\n"
        "    built = Built()\n"
        "    alive = weakref.ref(built)\n"
        "    hold_until_exit(built)\n"
        "    del built\n"
        "    print(alive() is not None)\n"
        "run_and_exit(main)"
    )
    assert (result.returncode, result.stdout) == (0, "True\n")


def test_hold_until_exit_holds_nothing_in_a_process_that_is_not_toolgens():
    import weakref

    class Built:
        pass

    built = Built()
    alive = weakref.ref(built)
    hold_until_exit(built)
    del built
    assert alive() is None


def test_the_build_command_stops_collecting_only_in_its_own_process(make_design, tool):
    from click.testing import CliRunner

    from tests.conftest import toolgen_env
    from toolgen.cli import main

    parameters = {"type": "object", "properties": {"x": {"type": "string"}}}
    design = make_design({"tools/a.yaml": tool("a", parameters)})
    script = (
        "import gc, os, sys\n"
        "from toolgen.cli import run\n"
        "real_exit = os._exit\n"
        "def exit_reporting(code):\n"
        "    sys.stderr.write(f'collecting={gc.isenabled()}\\n')\n"
        "    sys.stderr.flush()\n"
        "    real_exit(code)\n"
        "os._exit = exit_reporting\n"
        "sys.argv = ['toolgen', *sys.argv[1:]]\n"
        "run()\n"
    )
    out = str(design.parent / "gen")
    arguments = ["build", str(design), "-o", out, "--no-cache", "-q", "--provider", "openai"]
    result = subprocess.run(
        [sys.executable, "-c", script, *arguments],
        env=toolgen_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (result.returncode, result.stderr.splitlines()[-1]) == (0, "collecting=False")
    # the same command in the suite's process (as a program that calls toolgen would run it)
    assert CliRunner().invoke(main, arguments).exit_code == 0
    assert gc.isenabled()


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
    """The generator leaves cyclic garbage in the workers: collected rarely, their memory doubled.
    So they collect as a fresh interpreter does, though the process that starts them does not
    collect at all (``toolgen build``: :func:`collect_none`)."""
    from toolgen.infra.parallel import Runner

    gc.disable()
    try:
        with Runner(jobs=2) as runner:
            runner.start()
            # this process takes back what no worker has started yet: enough items for both
            found = runner.map("thresholds", worker_collector, [()] * 40)
    finally:
        gc.enable()
    in_workers = {(on, thresholds) for pid, on, thresholds in found if pid != os.getpid()}
    assert in_workers == {(True, _fresh_interpreter_thresholds())}


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


def worker_collector() -> tuple[int, bool, tuple[int, int, int]]:
    import gc
    import time

    time.sleep(0.02)
    return os.getpid(), gc.isenabled(), gc.get_threshold()
