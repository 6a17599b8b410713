"""The pre-commit hooks of .pre-commit-hooks.yaml (issue 12, item 4), run as a user would: through
``pre-commit try-repo`` on a temporary repository. pre-commit installs toolgen from this repository
into a fresh virtualenv with pip (so it needs the package index: about a minute), hence slow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
#: Output of a pip that could not reach a package index: then the test cannot run here.
_OFFLINE = (
    "NewConnectionError",
    "Temporary failure in name resolution",
    "No matching distribution",
)


def test_the_hooks_file_declares_both_hooks() -> None:
    hooks = {
        hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    }
    assert set(hooks) == {"toolgen-check", "toolgen-diff"}
    assert hooks["toolgen-check"]["entry"] == "toolgen build --check"
    assert hooks["toolgen-diff"]["entry"] == "toolgen diff --git HEAD --fail-on breaking"
    assert all(
        hook["pass_filenames"] is False and hook["language"] == "python" for hook in hooks.values()
    )


@pytest.mark.slow
def test_hooks_through_pre_commit_try_repo(tmp_path: Path, make_design, tool, run_toolgen) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    consumer = tmp_path / "consumer"
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
    }

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-C", str(consumer), *args], check=True, capture_output=True, env=env
        )

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

    # A breaking change (member b removed), with gen/ regenerated: check passes, diff fails.
    del parameters["properties"]["b"]
    make_design({"tools/t.yaml": tool("t", parameters)}, name="consumer/design")
    assert run_toolgen("build", design, "-o", consumer / "gen").returncode == 0
    git("add", ".")

    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "--all-files"],
        cwd=consumer,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout + done.stderr
    if (
        done.returncode != 0
        and "Installing environment" in output
        and any(s in output for s in _OFFLINE)
    ):
        pytest.skip(
            "pre-commit could not install toolgen's hook environment: pip reached no package index"
        )
    lines = output.splitlines()
    assert any(
        line.startswith("toolgen build --check") and line.endswith("Passed") for line in lines
    ), output
    assert any(
        line.startswith("toolgen diff") and line.endswith("Failed") for line in lines
    ), output
    assert "tools/t.yaml:/parameters/properties/b: design: BREAKING member removed" in output
    assert done.returncode == 1
