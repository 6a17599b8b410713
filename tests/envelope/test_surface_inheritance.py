"""Every envelope surface toolgen ships resolves to the schema it had before the copies were
deleted (tests/envelope/surface_hashes.json, written from that tree: see surface_hashes.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.envelope.surface_hashes import surface_hashes

SNAPSHOT = Path(__file__).with_name("surface_hashes.json")


def test_every_surface_resolves_to_the_schema_of_the_snapshot():
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    found = surface_hashes()
    assert {p: sorted(s) for p, s in found.items()} == {p: sorted(s) for p, s in expected.items()}
    changed = [
        f"{provider}/{surface}"
        for provider, surfaces in expected.items()
        for surface, digest in surfaces.items()
        if found[provider][surface] != digest
    ]
    assert not changed, f"surfaces whose schema changed: {changed}"
