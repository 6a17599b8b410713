"""The end-to-end cases under tests/cases: build each design and compare with its reviewed output.

``python -m tests.golden`` (``make golden``) rewrites every case's ``expected/`` and
``diagnostics.txt`` from the current toolgen; review the diff before committing it.

The fixed modules (verbatim copies of toolgen/runtime under the header) are left out of the
cases: they do not depend on the design, and tests/test_runtime_copies.py checks every copy.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from toolgen.build import build
from toolgen.infra.diagnostics import format_text
from toolgen.render.runtime_files import is_copy
from toolgen.render.templating import header

CASES = Path(__file__).parent / "cases"


def case_dirs() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if (p / "design").is_dir())


def render_case(case: Path) -> tuple[dict[str, str], str]:
    """(files of the package, text of the diagnostics) for one case; paths are design-relative."""
    result = build(case / "design")
    if not result.ok or result.design is None:
        return {}, format_text(result.diagnostics)
    head = header()
    files = {path: text for path, text in result.files.items() if not is_copy(path, text, head)}
    return files, format_text(result.diagnostics)


def expected_files(case: Path) -> dict[str, str]:
    expected = case / "expected"
    if not expected.is_dir():
        return {}
    return {
        p.relative_to(expected).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(expected.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def regenerate(case: Path) -> None:
    files, diagnostics = render_case(case)
    shutil.rmtree(case / "expected", ignore_errors=True)
    for path, text in files.items():
        target = case / "expected" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (case / "diagnostics.txt").write_text(diagnostics, encoding="utf-8")


def main() -> None:
    for case in case_dirs():
        regenerate(case)
        print(
            f"regenerated {case.relative_to(Path.cwd()) if case.is_relative_to(Path.cwd()) else case}"
        )
    sys.exit(0)


if __name__ == "__main__":
    main()
