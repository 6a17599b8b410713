"""The build cache keeps out of the way (issue 18, item 5): its folder ignores itself (git, backup
tools), a cache that cannot be written is skipped with one notice, and ``build --check`` changes
no file, the cache's included."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from toolgen.infra import cache as cache_module
from toolgen.infra.cache import CACHE_FOLDER, MARKERS

PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["city"],
}
SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55\n"


@pytest.fixture
def design(make_design, tool) -> Path:
    return make_design(
        {
            "tools/forecast.yaml": tool("forecast", PARAMETERS),
            "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n',
        }
    )


def build(cli, design: Path, out: Path, *options: str | Path):
    return cli("build", design, "-o", out, "-j", "1", "--format", "json", *options)


def notices(result) -> list[dict[str, str]]:
    return [d for d in json.loads(result.stdout) if d["code"] == "CACHE_SKIPPED"]


def files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root`` with its bytes and modification time."""
    return {
        path.relative_to(root).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_the_cache_folder_holds_a_gitignore_and_a_cachedir_tag(cli, design, tmp_path) -> None:
    assert build(cli, design, tmp_path / "gen").exit_code == 0
    folder = tmp_path / CACHE_FOLDER
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    tag = (folder / "CACHEDIR.TAG").read_text()
    assert tag.startswith(SIGNATURE) and "toolgen" in tag
    assert {name: (folder / name).read_text() for name in MARKERS} == MARKERS


def test_git_add_all_stages_nothing_of_the_cache(cli, design, tmp_path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert build(cli, design, tmp_path / "gen").exit_code == 0
    assert any((tmp_path / CACHE_FOLDER).glob("*/*/*.json"))  # the cache has entries
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    staged = subprocess.run(
        ["git", "-C", str(tmp_path), "diff", "--cached", "--name-only"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert "design/tools/forecast.yaml" in staged and "gen/__init__.py" in staged
    assert [path for path in staged if CACHE_FOLDER in path] == []


def test_a_cache_without_markers_gets_them_on_next_use(cli, design, tmp_path) -> None:
    assert build(cli, design, tmp_path / "gen").exit_code == 0
    folder = tmp_path / CACHE_FOLDER
    for name in MARKERS:
        (folder / name).unlink()
    assert build(cli, design, tmp_path / "gen").exit_code == 0
    assert {name: (folder / name).read_text() for name in MARKERS} == MARKERS


def test_a_cache_dir_holding_other_files_gets_no_markers(cli, design, tmp_path) -> None:
    """A ``--cache-dir`` that is not toolgen's (a `*` there would hide its files from git)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert build(cli, design, tmp_path / "gen", "--cache-dir", folder).exit_code == 0
    assert any(folder.glob("*/*/*.json"))
    assert not [name for name in MARKERS if (folder / name).exists()]


def test_a_cache_that_cannot_be_created_is_skipped_with_one_notice(cli, design, tmp_path) -> None:
    assert build(cli, design, tmp_path / "cached").exit_code == 0
    blocked = tmp_path / "a-file" / "cache"
    blocked.parent.write_text("not a folder")
    result = build(cli, design, tmp_path / "gen", "--cache-dir", blocked)
    assert result.exit_code == 0, result.stderr
    [notice] = notices(result)
    assert notice["level"] == "info"
    assert str(blocked) in notice["message"] and "Not a directory" in notice["message"]
    assert files_of(tmp_path / "gen") == files_of(tmp_path / "cached")


def test_a_cache_whose_writes_fail_is_skipped_with_one_notice(
    cli, design, tmp_path, monkeypatch
) -> None:
    """The folder and its markers exist, then every write fails (a read-only file system, a
    full disk): many entries are not written, one notice says so, the output is the same."""
    assert build(cli, design, tmp_path / "cached").exit_code == 0
    for stage in (tmp_path / CACHE_FOLDER).iterdir():
        if stage.is_dir():
            shutil.rmtree(stage)
        elif stage.name.startswith("manifest"):  # it holds the last build's entries too
            stage.unlink()

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(cache_module.tempfile, "mkstemp", refuse)
    result = build(cli, design, tmp_path / "gen")
    assert result.exit_code == 0, result.stderr
    [notice] = notices(result)
    assert "Read-only file system" in notice["message"]
    assert files_of(tmp_path / "gen") == files_of(tmp_path / "cached")
    assert not any((tmp_path / CACHE_FOLDER).glob("*/*/*.json"))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anyway")
def test_a_design_whose_parent_is_read_only_builds(cli, make_design, tool, tmp_path) -> None:
    design = make_design({"tools/forecast.yaml": tool("forecast", PARAMETERS)}, name="ro/design")
    (tmp_path / "ro").chmod(0o555)
    try:
        result = build(cli, design, tmp_path / "gen", "--provider", "openai")
    finally:
        (tmp_path / "ro").chmod(0o755)
    assert result.exit_code == 0, result.stderr
    [notice] = notices(result)
    assert "Permission denied" in notice["message"]


def test_check_of_an_up_to_date_out_changes_no_file(cli, design, tmp_path) -> None:
    """Not OUT, and not the cache: a check that misses entries and has no index (as when another
    toolgen filled the cache) writes neither entries nor indexes nor compiled templates."""
    out = tmp_path / "gen"
    assert build(cli, design, out).exit_code == 0
    folder = tmp_path / CACHE_FOLDER
    for stage in ("black", "checks-group", "meta-group"):
        shutil.rmtree(folder / stage)
    for compiled in folder.glob("jinja-*"):
        shutil.rmtree(compiled)
    before = files(tmp_path)
    result = build(cli, design, out, "--check")
    assert result.exit_code == 0, result.stderr
    assert notices(result) == []
    assert files(tmp_path) == before
    # the same state is one a build writes to: the check above could have failed
    assert build(cli, design, out).exit_code == 0
    assert files(tmp_path) != before


def test_check_without_a_cache_creates_none(cli, design, tmp_path) -> None:
    out = tmp_path / "gen"
    assert build(cli, design, out, "--no-cache").exit_code == 0
    assert build(cli, design, out, "--check").exit_code == 0
    assert not (tmp_path / CACHE_FOLDER).exists()


def files_of(root: Path) -> dict[str, bytes]:
    return {path: data for path, (data, _) in files(root).items()}
