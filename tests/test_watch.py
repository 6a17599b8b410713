"""toolgen watch (issue 12, item 3), driven in a subprocess: a good change on disk rebuilds OUT, a
broken one prints its diagnostic and leaves the last good OUT in place, Ctrl-C stops it cleanly.
Every wait has a deadline, so a watcher that never reacts fails the test instead of hanging CI."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
S = {"type": "string"}
#: How long a wait may take before the watcher counts as hung. A deadline, not a speed check: a
#: two-core machine running the suite beside other work took over 20 s for one Ctrl-C exit.
PATIENCE = 300.0
SCHEMA = "schemas/openai/tools/t.json"


class Watcher:
    """``toolgen watch`` in a subprocess, its stderr read line by line on a thread. It starts
    with SIGINT ignored, as a shell without job control starts a background command (``toolgen
    watch ... &``, or this suite run that way): Ctrl-C must stop it all the same, whether or not
    the suite itself was started so."""

    def __init__(self, design: Path, out: Path) -> None:
        command = [sys.executable, "-m", "toolgen", "watch", str(design), "-o", str(out)]
        self.process = subprocess.Popen(
            ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *command],
            cwd=REPO,  # python -m toolgen runs the source tree's toolgen
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = PATIENCE) -> list[str]:
        """The lines printed until one containing ``text`` (fails after ``timeout`` seconds)."""
        got = self.lines_until(text, timeout)
        if got is None:
            pytest.fail(f"no line with {text!r} within {timeout} s; stderr so far: {self.seen}")
        return got

    def change_then_wait_for(self, text: str, change: Callable[[], object]) -> list[str]:
        """Make ``change`` on disk once, then wait for a line with ``text``: the watcher runs
        before its first build starts, so no change it is shown is lost."""
        change()
        return self.wait_for(text)

    def lines_until(self, text: str, timeout: float) -> list[str] | None:
        deadline = time.monotonic() + timeout
        got: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.process.poll() is not None and self.lines.empty():
                    break
                continue
            got.append(line)
            self.seen.append(line)
            if text in line:
                return got
        return None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


pytestmark = pytest.mark.slow  # a watcher process through several builds


def _one_tool_design(make_design: Callable[..., Path], tool: Callable[..., object]) -> Path:
    """A design of one tool ``t`` with one member ``a``, built for OpenAI."""
    return make_design(
        {
            "tools/t.yaml": tool("t", {"type": "object", "properties": {"a": S}}),
            "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n',
        },
    )


def test_watch_rebuilds_keeps_the_last_good_build_and_stops_on_ctrl_c(
    tmp_path: Path, make_design, tool, read_tree
) -> None:
    out = tmp_path / "gen"
    watcher = Watcher(_one_tool_design(make_design, tool), out)
    try:
        watcher.wait_for("toolgen: wrote")
        watcher.wait_for("watching")
        assert set(json.loads((out / SCHEMA).read_text())["properties"]) == {"a"}

        two_members = {"type": "object", "properties": {"a": S, "b": S}}
        printed = watcher.change_then_wait_for(
            "toolgen: wrote", lambda: make_design({"tools/t.yaml": tool("t", two_members)})
        )
        assert "toolgen: changed tools/t.yaml" in printed  # watchfiles' burst, named
        assert set(json.loads((out / SCHEMA).read_text())["properties"]) == {"a", "b"}
        good = read_tree(out)

        printed = watcher.change_then_wait_for(
            "keeps the last good build",
            lambda: make_design({"tools/t.yaml": tool("t", {"type": "strng"})}),
        )
        assert any(
            "tools/t.yaml:/parameters/type: design: INVALID_SCHEMA" in line for line in printed
        )
        assert any("build failed" in line for line in printed)
        assert read_tree(out) == good

        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=PATIENCE) == 0
        rest = watcher.wait_for("stopped")
        assert not any("Traceback" in line for line in watcher.seen), rest
        # watchfiles' own warning ("KeyboardInterrupt caught, stopping watch") is not shown
        assert not any("KeyboardInterrupt" in line for line in watcher.seen), rest
        assert read_tree(out) == good  # the last good build, whole
    finally:
        watcher.stop()


def test_watch_stops_on_sigterm_as_on_ctrl_c_and_leaves_no_tree_beside_out(
    tmp_path: Path, make_design, tool
) -> None:
    """A process manager stops watch with SIGTERM: it stops as on Ctrl-C (exit 0), and the tree
    it keeps beside OUT between rebuilds (the last write's replaced tree) goes with it. SIGUSR1
    before it only prints the stacks (docs/commands.md)."""
    out = tmp_path / "gen"
    watcher = Watcher(_one_tool_design(make_design, tool), out)
    try:
        watcher.wait_for("watching")
        two_members = {"type": "object", "properties": {"a": S, "b": S}}
        watcher.change_then_wait_for(
            "toolgen: wrote", lambda: make_design({"tools/t.yaml": tool("t", two_members)})
        )
        beside = [p.name for p in tmp_path.iterdir() if p.name.startswith(".gen.toolgen-")]
        assert any("-old-" in name or "-new-" in name for name in beside), beside  # kept

        watcher.process.send_signal(signal.SIGUSR1)  # where it waits, for a watch that hangs
        watcher.wait_for("(most recent call first)")
        watcher.process.send_signal(signal.SIGTERM)
        assert watcher.process.wait(timeout=PATIENCE) == 0
        watcher.wait_for("stopped")
        assert not any("Traceback" in line for line in watcher.seen)
        trees = [p.name for p in tmp_path.iterdir() if p.name.startswith(".gen.toolgen-")]
        assert not [name for name in trees if "-old-" in name or "-new-" in name], trees
    finally:
        watcher.stop()


def test_a_file_saved_while_the_first_build_runs_is_reported_after_it(
    tmp_path: Path, make_design, tool
) -> None:
    """The watcher runs from the moment ``watching`` is entered, before watch's first build: a
    file saved during that build (here: right after entering) comes as the first burst, where a
    watcher started after the build would never report it."""
    from toolgen.commands.watch import watching

    design = _one_tool_design(make_design, tool)
    bursts: queue.Queue[set[tuple[object, str]]] = queue.Queue()
    with watching(design, tmp_path / "gen") as changes:
        make_design({"tools/t.yaml": tool("t", {"type": "object", "properties": {"b": S}})})
        reader = threading.Thread(target=lambda: bursts.put(next(changes)), daemon=True)
        reader.start()
        try:
            burst = bursts.get(timeout=PATIENCE)
        except queue.Empty:
            pytest.fail(f"the change was not reported within {PATIENCE} s")
    assert any(path.endswith("t.yaml") for _, path in burst), burst
