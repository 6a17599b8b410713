"""Shipped code, templates and envelope schemas cite public sources (a documentation page, an SDK
type), never the notes beside this repository that a user of toolgen does not have."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRIVATE = re.compile(r"PROVIDERS\.md|\.\./shared/|shared/corpus")


def test_no_shipped_file_cites_the_private_notes():
    files = [
        *(REPO / "toolgen").rglob("*"),
        *(REPO / "templates").rglob("*"),
        REPO / "docs/providers.md",
    ]
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}"
        for path in sorted(files)
        if path.is_file() and path.suffix in {".py", ".j2", ".json", ".md"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert not found, "citations of notes users do not have:\n" + "\n".join(found)
