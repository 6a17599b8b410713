"""The provider table of the docs is what the profiles say, and every profile cites its rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolgen.cli import main
from toolgen.providers.table import (
    COLUMNS,
    entries,
    readme_with_table,
    rules_document,
    summary_table,
    variants,
)

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


def test_providers_command_prints_the_markdown_tables() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["providers", "--format", "markdown"]).output == summary_table()
    rules = runner.invoke(main, ["providers", "--rules", "--format", "markdown"])
    assert rules.exit_code == 0
    assert rules.output == rules_document()


@pytest.mark.parametrize("columns", [40, 80, 132])
@pytest.mark.parametrize("rules", [False, True])
def test_providers_command_fits_the_terminal(columns: int, rules: bool) -> None:
    """The default output is one block per provider, no line wider than the terminal."""
    args = ["providers", "--rules"] if rules else ["providers"]
    result = CliRunner().invoke(main, args, env={"COLUMNS": str(columns)})
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert max(map(len, lines)) <= columns
    headers = [line for line in lines if line and not line.startswith(" ")]
    assert [h.split(":")[0] for h in headers] == [
        name if dialect is None else f'{name}, dialect = "{dialect}"'
        for name, dialect, _ in entries()
    ]
    for column in COLUMNS:  # every field of the table is in every block
        named = [x for x in lines if x == f"  {column}" or x.startswith(f"  {column}  ")]
        assert len(named) == len(entries()), column
    for _, _, profile in entries():
        for rule in profile.rules:  # the rules, with their sources, only with --rules
            # compared without whitespace: a long word may be broken across lines
            found = "".join(result.output.split()).count("".join(rule.source.split()))
            assert (found > 0) is rules, rule


def test_providers_command_prints_json() -> None:
    result = CliRunner().invoke(main, ["providers", "--format", "json"])
    assert result.exit_code == 0
    document = json.loads(result.output)
    assert [(e["provider"], e["dialect"]) for e in document] == [
        (name, dialect) for name, dialect, _ in entries()
    ]
    for entry, (_, _, profile) in zip(document, entries(), strict=True):
        assert entry["title"] == profile.title
        assert entry["rules"] == [
            {"topic": r.topic, "fact": r.fact, "source": r.source, "checked": r.checked}
            for r in profile.rules
        ]
        assert "`" not in entry["kept"] and entry["sources"].startswith(
            f"{len(profile.rules)} rules"
        )
