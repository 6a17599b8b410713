"""Fixtures of the model-generation tests (helpers live in models_support.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# toolgen is not installed in the venv (no editable install): make the source tree importable.
_REPO = Path(__file__).resolve().parents[2]
if str(_REPO) not in sys.path:
    sys.path.insert(0, str(_REPO))

from models_support import Built, load, materialize, write_design  # noqa: E402


@pytest.fixture
def build(tmp_path: Path) -> Iterator[Callable[..., Built]]:
    """build(tools=..., outputs=..., defs=...) -> an imported generated package."""
    sys.path.insert(0, str(tmp_path))
    packages: list[str] = []

    def _build(**contracts: Any) -> Built:
        root = write_design(tmp_path / f"design{len(packages)}", **contracts)
        built = materialize(load(root), tmp_path)
        packages.append(built.package)
        return built

    yield _build
    sys.path.remove(str(tmp_path))
    for name in list(sys.modules):
        if name.split(".")[0] in packages:
            del sys.modules[name]
