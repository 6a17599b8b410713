"""Lint of generated code, shared by the tests: ruff (its defaults and the project's rules),
mypy --strict and pyright, run in subprocesses on a folder of generated packages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]

#: (id, ruff arguments): ruff's own defaults, and the project's rule set. E501 is left out of the
#: latter: black keeps long string literals (design patterns, descriptions) whole.
RUFF_CONFIGS = [
    ("ruff-defaults", ["--isolated", "--target-version", "py311"]),
    ("ruff-project-rules", ["--config", str(REPO / "pyproject.toml"), "--extend-ignore", "E501"]),
]

#: what pyright is asked: the checks of its "standard" mode (Pylance's default is "basic", a subset)
PYRIGHT_CONFIG = {"typeCheckingMode": "standard", "pythonVersion": "3.11"}


def pyright_report(root: Path, include: list[str]) -> dict[str, Any]:
    """pyright (basedpyright: pyright with node in its wheel) over the files and folders
    ``include`` of ``root``, with this interpreter's packages: its JSON report."""
    (root / "pyrightconfig.json").write_text(
        json.dumps({**PYRIGHT_CONFIG, "include": include}), encoding="utf-8"
    )
    result = subprocess.run(
        [tool("basedpyright"), "--outputjson", "--pythonpath", sys.executable],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        report: dict[str, Any] = json.loads(result.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"pyright wrote no report: {result.stdout[-2000:]}{result.stderr[-2000:]}")
    return report


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
