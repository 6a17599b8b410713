"""End-to-end cases: every case under tests/cases builds exactly to its reviewed output (make golden)."""

from __future__ import annotations

import pytest

from tests.golden import case_dirs, expected_files, render_case


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_case_builds_to_its_reviewed_output(case):
    files, diagnostics = render_case(case)
    assert diagnostics == (case / "diagnostics.txt").read_text(encoding="utf-8")
    expected = expected_files(case)
    assert sorted(files) == sorted(expected), (
        "the set of generated files changed; run make golden and review"
    )
    for path, text in files.items():
        assert text == expected[path], (
            f"{path} differs from the reviewed output; run make golden and review"
        )
