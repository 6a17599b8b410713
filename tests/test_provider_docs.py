"""The provider table of the docs is what the profiles say, and every profile cites its rules."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from toolgen.cli import main
from toolgen.providers.table import readme_with_table, rules_document, summary_table, variants

ROOT = Path(__file__).resolve().parent.parent
#: What every profile must have a sourced rule for.
TOPICS = {"keywords", "optional members", "names", "limits"}


def test_readme_table_is_written_from_the_profiles() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme_with_table(readme) == readme, "run `make provider-docs`"


def test_docs_providers_is_written_from_the_profiles() -> None:
    document = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    assert document == rules_document(), "run `make provider-docs`"


def test_every_profile_cites_a_dated_source_for_each_topic() -> None:
    for label, profile in variants():
        topics = {rule.topic for rule in profile.rules}
        assert topics >= TOPICS, f"{label} has no rule for {sorted(TOPICS - topics)}"
        for rule in profile.rules:
            assert rule.fact and rule.source, (label, rule)
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", rule.checked), (label, rule)


def test_every_variant_has_a_row() -> None:
    table = summary_table()
    for label, profile in variants():
        assert f"| {label} |" in table
        assert profile.title  # each row names a profile the build can use


def test_providers_command_prints_the_table_and_the_rules() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["providers"]).output == summary_table()
    rules = runner.invoke(main, ["providers", "--rules"])
    assert rules.exit_code == 0
    assert rules.output == rules_document()
