"""The generated models package passes ruff and mypy (run as subprocesses; skipped when missing)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from models_support import EXAMPLES, load, materialize, write_design
from test_generate import MONEY_DEFS, WEATHER

from tests.lint_support import RUFF_CONFIGS, assert_mypy_strict_clean, assert_ruff_clean

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lint")
    design = write_design(
        root / "design",
        tools={
            "weather.get": WEATHER,
            "refund": {
                "type": "object",
                "properties": {"amount": {"$ref": "../defs/money.json#/$defs/Money"}},
            },
        },
        outputs={
            "tree": {
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/Node"}},
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                        },
                    }
                },
            }
        },
        defs={"money": MONEY_DEFS},
    )
    materialize(load(design), root)
    if any(EXAMPLES.glob("tools/*")):
        materialize(load(EXAMPLES), root)
    return root


@pytest.mark.parametrize("config", [c for _, c in RUFF_CONFIGS], ids=[i for i, _ in RUFF_CONFIGS])
def test_ruff(generated: Path, config: list[str]) -> None:
    assert_ruff_clean(generated, config)


def test_mypy_strict(generated: Path) -> None:
    packages = sorted(p.name for p in generated.iterdir() if (p / "__init__.py").is_file())
    assert_mypy_strict_clean(generated, *packages)
