"""Shipped code, templates and envelope schemas cite public sources (a documentation page, an SDK
type), never the notes beside this repository that a user of toolgen does not have."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PRIVATE = re.compile(r"PROVIDERS\.md|DESIGN\.md|\.\./shared/|shared/corpus")
#: the docs say where the test corpus is expected (``../shared/corpus``), and cite no notes
NOTES = re.compile(r"PROVIDERS\.md|DESIGN\.md")


def test_no_shipped_file_cites_the_private_notes():
    files = [
        *((path, PRIVATE) for path in (REPO / "toolgen").rglob("*")),
        *((path, PRIVATE) for path in (REPO / "templates").rglob("*")),
        *((path, NOTES) for path in (REPO / "docs").rglob("*")),
    ]
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}"
        for path, pattern in sorted(files)
        if path.is_file() and path.suffix in {".py", ".j2", ".json", ".md"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "citations of notes users do not have:\n" + "\n".join(found)
