"""A watch that talks (issue 37, item 7): each rebuild names the files that changed and says how
long it took; a warning the last build printed is not printed again, a new one is, errors always
are. The rebuild callback of ``toolgen watch`` driven in this process (test_watch.py drives the
command itself)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolgen.cli import EXIT_DESIGN, EXIT_OK, watch_rebuilder
from toolgen.commands.watch_report import Repeats, describe_changes, took
from toolgen.infra.diagnostics import Diagnostic, Level

S = {"type": "string"}
#: an object root without members, left open: EMPTY_ROOT_CLOSED, a warning
NO_MEMBERS = {"type": "object"}


class Change(enum.IntEnum):  # watchfiles.Change's members, which the report reads by name
    added = 1
    modified = 2
    deleted = 3


def test_the_changed_files_are_named_relative_to_the_design(tmp_path: Path):
    design = tmp_path / "design"
    changes = {
        (Change.modified, str(design / "tools" / "b.yaml")),
        (Change.deleted, str(design / "tools" / "a.yaml")),
        (Change.added, str(design / "defs" / "new.yaml")),
        # an editor's save by replacement: deleted and added in one burst
        (Change.deleted, str(design / "toolgen.toml")),
        (Change.added, str(design / "toolgen.toml")),
    }
    assert describe_changes(changes, design) == (
        "defs/new.yaml (added), toolgen.toml, tools/a.yaml (deleted), tools/b.yaml"
    )
    many = {(Change.modified, str(design / "tools" / f"t{n:02}.yaml")) for n in range(24)}
    assert describe_changes(many, design) == (
        "tools/t00.yaml, tools/t01.yaml, tools/t02.yaml, tools/t03.yaml, tools/t04.yaml and 19 more"
    )


def test_warnings_of_the_last_build_are_left_out_and_errors_never():
    def warning(code: str) -> Diagnostic:
        return Diagnostic("tools/t.yaml", "", "openai", code, "a warning", Level.WARNING)

    error = Diagnostic("tools/t.yaml", "/parameters", "design", "INVALID_SCHEMA", "an error")
    repeats = Repeats()
    assert repeats.new([warning("A"), error]) == [warning("A"), error]
    assert repeats.left_out == 0
    assert repeats.new([warning("A"), warning("B"), error]) == [warning("B"), error]
    assert repeats.left_out == 1
    assert repeats.new([warning("B")]) == []
    assert repeats.left_out == 1
    # gone for a build, then back: printed again
    assert repeats.new([warning("A"), warning("B")]) == [warning("A")]


def test_took_is_short():
    assert took(0.4213) == "0.42 s"
    assert took(12.34) == "12.3 s"


@pytest.mark.slow  # five builds of a small design
def test_a_rebuild_names_its_changes_times_itself_and_prints_only_new_warnings(
    tmp_path: Path,
    make_design: Callable[..., Path],
    tool: Callable[..., dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
):
    design = make_design(
        {
            "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n',
            "tools/empty.yaml": tool("empty", NO_MEMBERS),
            "tools/ping.yaml": tool("ping", {"type": "object", "properties": {"host": S}}),
        }
    )
    rebuild = watch_rebuilder(design, tmp_path / "gen", (), "text", tmp_path / "cache")
    try:
        assert rebuild() == EXIT_OK
        first = capsys.readouterr().err.splitlines()
        assert [line for line in first if "EMPTY_ROOT_CLOSED" in line] != []
        assert first[-1].startswith("toolgen: built in ") and first[-1].endswith(" s"), first

        make_design({"tools/ping.yaml": tool("ping", {"type": "object", "properties": {"h": S}})})
        assert rebuild({(Change.modified, str(design / "tools" / "ping.yaml"))}) == EXIT_OK
        second = capsys.readouterr().err.splitlines()
        assert second[0] == "toolgen: changed tools/ping.yaml"
        assert not [line for line in second if "EMPTY_ROOT_CLOSED" in line], second
        assert "0 error(s), 1 warning(s)" in second[-2]  # the summary counts it
        assert second[-1].startswith("toolgen: rebuilt in ")
        assert second[-1].endswith("; 1 warning(s) as in the last build, not repeated"), second

        make_design({"tools/more.yaml": tool("more", NO_MEMBERS)})
        assert rebuild({(Change.added, str(design / "tools" / "more.yaml"))}) == EXIT_OK
        third = capsys.readouterr().err.splitlines()
        assert third[0] == "toolgen: changed tools/more.yaml (added)"
        new = [line for line in third if "EMPTY_ROOT_CLOSED" in line]
        assert len(new) == 1 and new[0].startswith("tools/more.yaml:"), third

        make_design({"tools/ping.yaml": tool("ping", {"type": "strng"})})
        assert rebuild({(Change.modified, str(design / "tools" / "ping.yaml"))}) == EXIT_DESIGN
        failed = capsys.readouterr().err.splitlines()
        assert any("INVALID_SCHEMA" in line for line in failed), failed
        assert failed[-2].endswith("keeps the last good build")
        assert failed[-1].startswith("toolgen: rebuilt in ")

        make_design({"tools/ping.yaml": tool("ping", {"type": "strng", "description": "x"})})
        assert rebuild({(Change.modified, str(design / "tools" / "ping.yaml"))}) == EXIT_DESIGN
        again = capsys.readouterr().err.splitlines()
        assert any("INVALID_SCHEMA" in line for line in again), again  # errors every time
    finally:
        rebuild.close()
