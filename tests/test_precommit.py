"""The pre-commit hooks of .pre-commit-hooks.yaml (issue 12, item 4), run through ``pre-commit
try-repo`` on a temporary repository.

Tests run offline, and a ``language: python`` hook makes pre-commit pip-install toolgen from a
package index. So the hooks repository of the test is this repository's hooks file with
``language: system`` and the entries' ``toolgen`` spelled ``python -m toolgen`` with this
interpreter and this source tree (every other field as shipped): pre-commit then runs the toolgen
under test, not whichever is first on PATH. What is not covered is pip installing toolgen, which
the wheel test (tests/test_wheel.py) covers offline."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]


def test_the_hooks_file_declares_its_hooks() -> None:
    hooks = {
        hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    }
    assert set(hooks) == {"toolgen-check", "toolgen-diff", "toolgen-request-budget"}
    assert hooks["toolgen-check"]["entry"] == "toolgen build --check"
    assert hooks["toolgen-diff"]["entry"] == "toolgen diff --git HEAD --fail-on breaking"
    assert hooks["toolgen-request-budget"]["entry"] == "toolgen validate"
    assert all(
        hook["pass_filenames"] is False and hook["language"] == "python" for hook in hooks.values()
    )


@pytest.mark.slow
def test_hooks_through_pre_commit_try_repo(tmp_path: Path, make_design, tool, run_toolgen) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    consumer = tmp_path / "consumer"
    hooks_repo = tmp_path / "hooks"
    hooks_repo.mkdir()
    shipped = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    (hooks_repo / ".pre-commit-hooks.yaml").write_text(
        yaml.safe_dump([_under_test(hook) for hook in shipped], sort_keys=False)
    )
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "GIT_", "PRE_COMMIT"))
        },
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "PYTHONPATH": str(REPO),  # python -m toolgen imports the source tree under test
    }

    def git(*args: str, repo: Path = consumer) -> None:
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)

    git("init", "-q", "-b", "main", repo=hooks_repo)
    git("add", ".", repo=hooks_repo)
    git("commit", "-q", "-m", "hooks", repo=hooks_repo)

    config = '[toolgen]\nproviders = ["openai"]\n'
    parameters = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
    }
    design = make_design(
        {"tools/t.yaml": tool("t", parameters), "toolgen.toml": config}, name="consumer/design"
    )
    assert run_toolgen("build", design, "-o", consumer / "gen").returncode == 0
    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-q", "-m", "first")
    committed = subprocess.run(
        ["git", "-C", str(consumer), "ls-files"], check=True, capture_output=True, text=True
    ).stdout.split()
    assert "design/tools/t.yaml" in committed
    assert not [path for path in committed if ".toolgen-cache" in path]  # it ignores itself

    # A breaking change (member b removed), with gen/ regenerated: check passes, diff fails.
    del parameters["properties"]["b"]
    make_design({"tools/t.yaml": tool("t", parameters)}, name="consumer/design")
    assert run_toolgen("build", design, "-o", consumer / "gen").returncode == 0
    git("add", ".")

    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks_repo), "--all-files"],
        cwd=consumer,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    lines = output.splitlines()
    assert any(
        line.startswith("toolgen build --check") and line.endswith("Passed") for line in lines
    ), output
    assert any(line.startswith("toolgen diff") and line.endswith("Failed") for line in lines), (
        output
    )
    # no budget in the consumer's toolgen.toml: the request costs what it costs
    assert any(
        line.startswith("toolgen validate --max-request-tokens") and line.endswith("Passed")
        for line in lines
    ), output
    assert "tools/t.yaml:/parameters/properties/b: design: BREAKING member removed" in output
    assert done.returncode == 1


def _under_test(hook: dict[str, object]) -> dict[str, object]:
    """A shipped hook as a system hook running this interpreter's ``-m toolgen``."""
    entry = str(hook["entry"])
    assert entry.startswith("toolgen ")
    python = f"{shlex.quote(sys.executable)} -m toolgen"
    return {**hook, "language": "system", "entry": python + entry.removeprefix("toolgen")}
