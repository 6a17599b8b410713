"""The generated models package passes ruff and mypy (run as subprocesses; skipped when missing)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from models_support import EXAMPLES, load, materialize, write_design
from test_generate import MONEY_DEFS, WEATHER

BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lint")
    design = write_design(
        root / "design",
        tools={"weather.get": WEATHER, "refund": {"type": "object", "properties": {
            "amount": {"$ref": "../defs/money.json#/$defs/Money"}}}},
        outputs={"tree": {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
                          "$defs": {"Node": {"type": "object", "properties": {"kids": {
                              "type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}},
        defs={"money": MONEY_DEFS},
    )
    materialize(load(design), root)
    if any(EXAMPLES.glob("tools/*")):
        materialize(load(EXAMPLES), root)
    return root


def test_ruff(generated: Path) -> None:
    # E501: black leaves long string literals (patterns, descriptions) as they are.
    result = subprocess.run(
        [_tool("ruff"), "check", "--no-cache", "--isolated", "--target-version", "py311",
         "--line-length", "100", "--select", "E,F,W,I,B,UP,SIM", "--ignore", "E501", "."],
        cwd=generated, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy(generated: Path) -> None:
    packages = sorted(p.name for p in generated.iterdir() if (p / "__init__.py").is_file())
    result = subprocess.run(
        [_tool("mypy"), "--no-incremental", "--python-version", "3.11",
         "--disallow-untyped-defs", "--warn-unused-ignores", "--no-implicit-optional",
         *[arg for p in packages for arg in ("-p", p)]],
        cwd=generated, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
