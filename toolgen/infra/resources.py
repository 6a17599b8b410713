"""Where toolgen's own files are: its package folder and its templates, inside the wheel or in
the source tree."""

from __future__ import annotations

from pathlib import Path

#: the ``toolgen`` package folder
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def templates_dir() -> Path:
    """The packaged templates (inside the wheel), or the source tree's top-level ``templates/``."""
    packaged = PACKAGE_DIR / "templates"
    if packaged.is_dir():
        return packaged
    return PACKAGE_DIR.parent / "templates"
