"""bench/RESULTS.md: each benchmark owns one ``## Title`` section and replaces only that one."""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).with_name("RESULTS.md")


def write_section(title: str, section: str) -> None:
    """Replace the section headed ``## {title}`` with ``section`` (or append it)."""
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.is_file() else "# Benchmark results\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    found = pattern.search(text)
    text = (
        pattern.sub(lambda _: section + "\n", text)
        if found
        else text.rstrip("\n") + "\n\n" + section
    )
    RESULTS.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
