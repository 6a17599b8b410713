"""Fixtures of the targets' tests: one package of the example design and ``notes.tag`` (a map,
a member that accepts null and may be absent, a value of any type, an ``output:``, a title and
annotations) with every target, and the handlers the tests give it."""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from toolgen.build import build
from toolgen.package.writer import write_package

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "toolgen_targets_test_gen"
#: the design's toolgen.toml: two provider modules (the adapters' projections; Anthropic's caps
#: strict tools per request), every target
CONFIG = (
    '[toolgen]\nproviders = ["openai", "anthropic"]\n'
    'targets = ["mcp", "pydantic_ai", "openai_agents", "langchain"]\n'
)


def design_folder(root: Path) -> Path:
    """The example design with ``tests/targets/notes_tag.yaml`` and CONFIG, under ``root``."""
    shutil.copytree(REPO / "examples" / "design", root, dirs_exist_ok=True)
    shutil.copy(Path(__file__).with_name("notes_tag.yaml"), root / "tools")
    (root / "toolgen.toml").write_text(CONFIG, encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def package_root(tmp_path_factory: pytest.TempPathFactory, suite_cache: Path) -> Path:
    """The folder holding the built package as PACKAGE."""
    root = tmp_path_factory.mktemp("targets")
    result = build(design_folder(root / "design"), cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_package(root / PACKAGE, result.files)
    return root


@pytest.fixture(scope="session")
def gen(package_root: Path) -> Iterator[ModuleType]:
    """The package, imported."""
    sys.path.insert(0, str(package_root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(package_root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="session")
def handlers_module(gen: ModuleType) -> ModuleType:
    """``tests/targets/handlers.py`` bound to the package: sync and async handlers that record
    the canonical payload each call reaches them with."""
    module = importlib.import_module("tests.targets.handlers")
    return module.bind(gen)


@pytest.fixture
def calls(handlers_module: Any) -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What the handlers received in this test: (canonical tool name, canonical payload)."""
    handlers_module.CALLS.clear()
    yield handlers_module.CALLS
    handlers_module.CALLS.clear()
