"""Work a build does once, not once per asker (issue 37, item 8: a fresh one-tool rebuild of a
large design spends its time in such repeated walks). Counted, not timed."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

from toolgen.build import analyze
from toolgen.project.design_projection import ProviderProjection

SMALL = Path(__file__).parent / "cases" / "small" / "design"


def test_a_projection_s_inverse_notes_walk_its_records_once(monkeypatch) -> None:
    (projection,) = analyze(SMALL, ("openai",)).projections
    walks = []
    strict_contracts = ProviderProjection.strict_contracts

    def counted(self: ProviderProjection) -> tuple:
        walks.append(self)
        return strict_contracts(self)

    monkeypatch.setattr(ProviderProjection, "strict_contracts", counted)
    notes = [projection.inverse_notes() for _ in range(3)]
    assert len(walks) == 1
    assert notes[0]  # the small design's records hold rewrites that change payloads
    assert notes == [notes[0]] * 3
    # a projection made from another (dataclasses.replace) walks its own records
    other = dataclasses.replace(projection, outputs=())
    other.inverse_notes()
    assert walks == [projection, other]


def test_a_build_without_a_budget_does_not_import_the_request_costs() -> None:
    """A fresh process pays for every module it imports (the cost module's tables, 11 ms)."""
    check = (
        "import sys, toolgen.cli, toolgen.build; "
        "sys.exit('toolgen.package.request_cost' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0
