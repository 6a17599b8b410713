"""The property tests' profiles (tests/conftest.py): under CI a test replays the saved examples
(tests/hypothesis-examples, read-only) and then draws the same examples every run; hypothesis's
own ways of drawing the same examples (``seed()``, ``derandomize``) would turn the database off,
so conftest's ``seed_from`` sets a private attribute of hypothesis, whose meaning this checks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase, ReadOnlyDatabase

from tests.conftest import seed_from


def _property(database: Any, drawn: list[int], examples: int = 3) -> Callable[[], None]:
    """A property that fails from 700 to 720 (rarely drawn), recording what it draws."""

    @settings(database=database, max_examples=examples, phases=(Phase.reuse, Phase.generate))
    @given(st.integers(0, 1000))
    def holds(x: int) -> None:
        drawn.append(x)
        assert not 700 <= x <= 720

    return holds


def _fails(test: Callable[[], None]) -> bool:
    try:
        test()
    except AssertionError:
        return True
    return False


def test_a_seeded_test_replays_the_saved_examples(tmp_path: Path) -> None:
    saved = DirectoryBasedExampleDatabase(tmp_path)
    finding: list[int] = []
    assert _fails(_property(saved, finding, examples=3000))  # a deep run finds and saves it
    seeded = _property(ReadOnlyDatabase(saved), [])
    seed_from(seeded, "a test id")
    assert _fails(seeded)
    unsaved = _property(None, [])
    seed_from(unsaved, "a test id")
    assert not _fails(unsaved)  # three drawn examples alone do not find it


def test_a_seeded_test_draws_the_same_examples_every_run() -> None:
    runs: list[list[int]] = []
    for _ in range(2):
        drawn: list[int] = []
        test = _property(None, drawn)
        seed_from(test, "a test id")
        test()
        runs.append(drawn)
    assert runs[0] == runs[1]
    other: list[int] = []
    test = _property(None, other)
    seed_from(test, "another test id")
    test()
    assert other != runs[0]
