"""Until toolgen/runtime/_fakes.py lands (issue 21, item 2, written apart from the forward writer):
a stand-in with its interface, written into a built package that lacks it so that the package's
``testing`` modules import, lint and type-check. The merge removes this module and its callers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

STUB = '''"""A stand-in for _fakes (tests/fakes_stub.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def response(
    api: str, calls: Sequence[tuple[str, Any]], *, text: str | None = None
) -> dict[str, Any]:
    raise NotImplementedError


def stream(
    api: str, calls: Sequence[tuple[str, Any]], *, text: str | None = None
) -> list[dict[str, Any]]:
    raise NotImplementedError
'''


def add_fakes_stub(package: Path) -> None:
    """The stand-in as ``package/_fakes.py``, where toolgen has no ``_fakes`` to copy there."""
    if importlib.util.find_spec("toolgen.runtime._fakes") is None:
        (package / "_fakes.py").write_text(STUB, encoding="utf-8")
