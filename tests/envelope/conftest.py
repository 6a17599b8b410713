"""Fixtures of the envelope tests: the generated package, built once and imported."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import PACKAGE, write_package
from toolgen.compile.validators import load_envelope_schemas
from toolgen.providers import PROFILES, envelope_providers


@pytest.fixture(scope="session")
def package_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("generated")
    write_package(root / PACKAGE)
    sys.path.insert(0, str(root))
    try:
        yield root / PACKAGE
    finally:
        sys.path.remove(str(root))


@pytest.fixture(scope="session")
def modules(package_dir: Path) -> dict[str, ModuleType]:
    """provider -> generated envelope module; ``"_runtime"`` -> the runtime."""
    loaded = {p: importlib.import_module(f"{PACKAGE}._envelopes_{p}") for p in envelope_providers()}
    loaded["_runtime"] = importlib.import_module(f"{PACKAGE}._runtime")
    return loaded


@pytest.fixture(scope="session")
def schemas() -> dict[str, dict[str, Any]]:
    return {p: load_envelope_schemas(p, {}, PROFILES[p].apis) for p in envelope_providers()}
