"""Without ../shared/corpus the suite says so once, in one line (issue 37, item 5): the tests
that read it are skipped (outside CI) and counted, not listed one summary line per place that
skips."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_TESTS = """
import pytest
from tests.conftest import skip_without_corpus

@pytest.mark.parametrize("n", range(4))
def test_reads_the_corpus(n):
    skip_without_corpus("the shared corpus is not at /nowhere/corpus")

@pytest.fixture
def envelopes():
    skip_without_corpus("corpus not found at /nowhere/corpus/envelopes")

def test_reads_the_envelopes(envelopes):
    pass

def test_skipped_for_another_reason():
    pytest.skip("a framework is not installed")
"""


def test_a_missing_corpus_is_one_line(tmp_path: Path):
    (tmp_path / "test_skips.py").write_text(_TESTS)
    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-ra",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    about = [line for line in lines if "corpus" in line]
    assert len(about) == 2, done.stdout  # the one line, and the count in the last
    assert about[0].startswith("5 tests skipped: they read the shared corpus, which is not at ")
    assert "../shared/corpus, beside the clone" in about[0]
    assert lines[-1].startswith("1 skipped, 5 without corpus in "), lines[-1]
    # a skip for another reason is listed as before
    assert any(line.startswith("SKIPPED [1]") and "framework" in line for line in lines)
