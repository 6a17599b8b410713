"""Lint of generated code, shared by the tests: ruff (its defaults and the project's rules) and
mypy --strict, run in subprocesses on a folder of generated packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes_stub import add_fakes_stub

REPO = Path(__file__).resolve().parents[1]

#: (id, ruff arguments): ruff's own defaults, and the project's rule set. E501 is left out of the
#: latter: black keeps long string literals (design patterns, descriptions) whole.
RUFF_CONFIGS = [
    ("ruff-defaults", ["--isolated", "--target-version", "py311"]),
    ("ruff-project-rules", ["--config", str(REPO / "pyproject.toml"), "--extend-ignore", "E501"]),
]


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def assert_ruff_clean(folder: Path, config: list[str]) -> None:
    result = subprocess.run(
        [tool("ruff"), "check", "--no-cache", *config, "."],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def assert_mypy_strict_clean(folder: Path, *packages: str) -> None:
    tool("mypy")
    for package in packages:
        if (folder / package / "testing").is_dir():
            add_fakes_stub(folder / package)
    args = [arg for package in packages for arg in ("-p", package)]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--strict",
            "--python-version",
            "3.11",
            *args,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
