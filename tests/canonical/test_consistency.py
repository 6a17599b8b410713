"""Every profile's emitted schemas (the hard cases and the example design, as each profile
projects them) pass the consistency check of tests/schema_consistency.py; and the check itself
finds what it is for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.canonical.conftest import EXAMPLE_DESIGN
from tests.canonical.support import load_and_project
from tests.schema_consistency import inconsistencies
from toolgen.providers import PROFILES

PROFILE_NAMES = sorted(PROFILES) + ["gemini:openapi"]


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("design", ["hard", "example"])
def test_emitted_schemas_are_consistent(hard_design: Path, design: str, profile: str) -> None:
    provider, _, dialect = profile.partition(":")
    root = hard_design if design == "hard" else EXAMPLE_DESIGN
    _, projection = load_and_project(root, provider, dialect or None)
    emitted = [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]
    assert emitted
    problems = {p.contract.name: found for p in emitted if (found := inconsistencies(p.schema))}
    assert not problems


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string", "enum": ["a", None]}, ["/: None is not of type ['string']"]),
        ({"type": "STRING", "enum": ["a", None], "nullable": True}, []),
        ({"type": "integer", "const": True}, ["/: True is not of type ['integer']"]),
        ({"type": "number", "enum": [1, 2.5]}, []),
        ({"anyOf": [{"type": "string", "enum": []}]}, ["/anyOf/0: an empty enum"]),
        ({"enum": [1, "a", None]}, []),
    ],
)
def test_the_check_finds_what_it_is_for(schema, expected):
    assert inconsistencies(schema) == expected
