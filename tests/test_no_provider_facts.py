"""No provider is named outside toolgen/providers (its envelopes included) and toolgen/formats (the
providers' tool-definition formats ``toolgen import`` reads): the build, the compilers, the wire
APIs, the fixed runtime modules and the templates know a provider only through its profile."""

from __future__ import annotations

import re
from pathlib import Path

from toolgen.providers import PROVIDER_NAMES

REPO = Path(__file__).resolve().parents[1]
ALLOWED = (REPO / "toolgen" / "providers", REPO / "toolgen" / "formats")


def _scanned() -> list[Path]:
    files = [*(REPO / "toolgen").rglob("*"), *(REPO / "templates").rglob("*")]
    return sorted(
        path
        for path in files
        if path.is_file()
        and "__pycache__" not in path.parts
        and not any(path.is_relative_to(folder) for folder in ALLOWED)
    )


def test_no_provider_name_outside_the_provider_modules():
    word = re.compile(r"\b(" + "|".join(map(re.escape, PROVIDER_NAMES)) + r")\b", re.IGNORECASE)
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in _scanned()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if word.search(line)
    ]
    assert not found, "provider names outside toolgen/providers:\n" + "\n".join(found)


def test_the_scan_sees_the_core_the_runtime_and_the_templates():
    scanned = {path.relative_to(REPO).as_posix() for path in _scanned()}
    assert {
        "toolgen/package/assemble.py",
        "toolgen/runtime/_runtime.py",
        "templates/provider.py.j2",
        "toolgen/apis/chat.py",
    } <= (scanned)
    assert not any(path.startswith("toolgen/providers/") for path in scanned)
