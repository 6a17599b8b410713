"""What ``toolgen watch`` keeps between its rebuilds (toolgen.build.Session: the cache's entries in
memory, what the last write put into OUT) is never used stale: after every edit of a sequence,
OUT holds byte for byte what a fresh build without a cache makes of the design as it is then."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolgen import __version__
from toolgen.build import build
from toolgen.cli import EXIT_DESIGN, EXIT_OK, watch_rebuilder
from toolgen.infra.cache import Cache
from toolgen.package.assemble import MANIFEST
from toolgen.package.writer import Written, write_package

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "design"
S = {"type": "string"}
INT = {"type": "integer"}
PROVIDERS = '[toolgen]\nproviders = ["openai", "anthropic"]\n'


def _fresh(design: Path) -> dict[str, bytes]:
    """What a cold build (no cache, a fresh session) makes of ``design``."""
    result = build(design)
    assert result.ok, result.diagnostics
    return {path: text.encode("utf-8") for path, text in result.files.items()}


@pytest.mark.slow  # a dozen builds of a small design for two providers
def test_watch_rebuilds_equal_a_cold_build_after_every_edit(
    tmp_path: Path,
    make_design: Callable[..., Path],
    tool: Callable[..., dict[str, Any]],
    read_tree: Callable[[Path], dict[str, bytes]],
) -> None:
    pagination = {
        "type": "object",
        "properties": {"page": INT, "size": {"type": "integer", "maximum": 100}},
        "required": ["page"],
    }
    uses_shared = {
        "type": "object",
        "properties": {"q": S, "page": {"$ref": "../defs/common.yaml#/$defs/Pagination"}},
        "required": ["q"],
    }
    design = make_design(
        {
            "toolgen.toml": PROVIDERS,
            "defs/common.yaml": {"$defs": {"Pagination": pagination}},
            "tools/search.yaml": tool("search", uses_shared),
            "tools/get_user.yaml": tool("get_user", {"type": "object", "properties": {"id": INT}}),
            "tools/ping.yaml": tool("ping", {"type": "object", "properties": {"host": S}}),
        }
    )
    out, cache = tmp_path / "gen", tmp_path / "cache"
    rebuild = watch_rebuilder(design, out, (), "text", cache)

    def check(expected_code: int = EXIT_OK) -> dict[str, bytes]:
        assert rebuild() == expected_code
        built = read_tree(out)
        assert built == _fresh(design)
        return built

    check()
    check()  # nothing changed: every value from the session

    # a tool changes: its description and a member
    make_design(
        {
            "tools/get_user.yaml": tool(
                "get_user",
                {"type": "object", "properties": {"id": INT, "verbose": {"type": "boolean"}}},
                description="Get a user by id.",
            )
        }
    )
    check()
    # a tool is added, then another deleted
    make_design({"tools/add.yaml": tool("add", {"type": "object", "properties": {"x": INT}})})
    check()
    (design / "tools" / "ping.yaml").unlink()
    check()
    # the shared definition changes: every tool that refers to it is rebuilt
    pagination["properties"]["size"]["maximum"] = 50
    make_design({"defs/common.yaml": {"$defs": {"Pagination": pagination}}})
    check()
    # an envelope override added, then changed: the provider's envelope module follows it
    extra = {"type": "object", "required": ["id"], "properties": {"id": S}}
    make_design({"envelopes/openai/extra.json": extra})
    check()
    make_design({"envelopes/openai/extra.json": {**extra, "required": []}})
    check()
    # a broken tool: the build fails, and OUT keeps the last good build
    good = read_tree(out)
    make_design({"tools/add.yaml": tool("add", {"type": "strng"})})
    assert rebuild() == EXIT_DESIGN
    assert read_tree(out) == good
    # fixed, as it was before it broke
    make_design({"tools/add.yaml": tool("add", {"type": "object", "properties": {"x": INT}})})
    assert check() == good
    # a generated file edited by hand (the same size, in place; then replaced) is written again
    target = out / "handlers.py"
    text = target.read_bytes()
    time.sleep(0.05)  # past the file system's clock tick: the edit gets its own time
    with open(target, "r+b") as file:
        file.write(b"#" if text[:1] != b"#" else b"!")
    check()
    replaced = out / "models" / "__init__.py"
    replaced.unlink()
    replaced.write_bytes(b"x" * len(_fresh(design)["models/__init__.py"]))
    check()
    # the cache deleted under the watcher: rebuilt the same
    for entry in sorted(cache.rglob("*"), reverse=True):
        if entry.is_file():
            entry.unlink()
    make_design({"tools/get_user.yaml": tool("get_user", {"type": "object", "properties": {}})})
    check()


def test_a_kept_cache_reads_the_last_builds_entries_from_memory(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache", keep=True)
    cache.open()
    cache.put("stage", "k1", {"a": [1]})
    cache.put("stage", "k2", "two")
    first = cache.get("stage", "k1")
    assert first == {"a": [1]}
    first["a"].append(2)  # what a build does to a value is not kept
    for entry in (tmp_path / "cache" / "stage").rglob("*.json"):
        entry.unlink()  # the files are gone: the next build reads memory
    cache.begin()
    assert cache.get("stage", "k1") == {"a": [1]}
    assert cache.hits["stage"] == 1 and not cache.misses
    cache.begin()  # k2 was not used by the last build, and is still kept (a few bytes)
    assert cache.get("stage", "k2") == "two"
    cache.put("stage", "big", "x" * 1000)
    for entry in (tmp_path / "cache" / "stage").rglob("*.json"):
        entry.unlink()
    cache.begin()
    assert cache.get("stage", "k1") == {"a": [1]}
    cache.begin()  # what is kept weighs more than twice the last build's: only that stays
    assert cache.get("stage", "big") is None
    assert cache.get("stage", "k2") is None
    assert cache.get("stage", "k1") == {"a": [1]}
    assert cache.misses["stage"] == 2


def test_a_value_from_memory_is_the_files_json_value_and_a_fresh_copy_each_time(
    tmp_path: Path,
) -> None:
    cache = Cache(tmp_path / "cache", keep=True)
    cache.open()
    cache.put("stage", "k", {"t": (1, 2.5, "é"), "n": None, "b": True})
    expected = {"t": [1, 2.5, "é"], "n": None, "b": True}  # JSON: a tuple comes back a list
    for _ in range(3):  # from the text, then from marshal's bytes, twice
        cache.begin()
        value = cache.get("stage", "k")
        assert value == expected and type(value["t"]) is list
        value["t"].append("changed")


def test_a_value_no_utf8_file_can_hold_is_not_written(tmp_path: Path) -> None:
    """A lone surrogate (the design loader refuses them, but a cache must not end a build with a
    traceback): its entry is not written, and an index is written without it, also when a kept
    cache read it from memory."""
    cache = Cache(tmp_path / "cache", keep=True)
    cache.open()
    cache.index("indexed")
    cache.put("indexed", "bad", "\ud800")
    cache.put("indexed", "good", "fine")
    cache.put("plain", "bad", ["\udfff"])
    cache.save_indexes()
    cache.begin()
    cache.index("indexed")
    assert cache.get("indexed", "bad") == "\ud800"  # from memory
    assert cache.get("indexed", "good") == "fine"
    cache.save_indexes()
    reader = Cache(tmp_path / "cache")
    reader.index("indexed")
    assert reader.get("indexed", "good") == "fine"
    assert reader.get("indexed", "bad") is None and reader.get("plain", "bad") is None


def test_a_cache_that_is_not_kept_holds_nothing_for_a_next_build(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    cache.open()
    cache.put("stage", "k1", 1)
    for entry in (tmp_path / "cache" / "stage").rglob("*.json"):
        entry.unlink()
    cache.begin()
    assert cache.get("stage", "k1") is None


def test_a_kept_cache_keeps_what_it_read_from_a_file_and_from_an_index(tmp_path: Path) -> None:
    writer = Cache(tmp_path / "cache")
    writer.open()
    writer.index("indexed")
    writer.put("indexed", "i1", [1, "x"])
    writer.put("plain", "p1", {"b": None, "c": "é"})
    writer.save_indexes()
    reader = Cache(tmp_path / "cache", keep=True)
    reader.index("indexed")
    assert reader.get("indexed", "i1") == [1, "x"]
    assert reader.get("plain", "p1") == {"b": None, "c": "é"}
    for entry in (tmp_path / "cache").rglob("*.json"):
        entry.unlink()  # entries and index
    reader.begin()
    reader.index("indexed")
    assert reader.get("indexed", "i1") == [1, "x"]
    assert reader.get("plain", "p1") == {"b": None, "c": "é"}
    assert reader.hits == {"indexed": 1, "plain": 1} and not reader.misses


def test_written_files_edited_by_hand_are_written_again(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    files = {"a.py": "A = 1\n", "b.py": "B = 2\n"}
    files[MANIFEST] = json.dumps({"files": dict.fromkeys(files, "")})
    written = Written()
    write_package(out, files, written=written)
    assert set(written.files) == set(files)
    time.sleep(0.05)
    (out / "a.py").write_text("A = 9\n")  # same size, in place
    (out / "b.py").unlink()
    (out / "b.py").write_text("B = 8\n")  # same size, another file
    write_package(out, files, written=written)
    assert (out / "a.py").read_text() == "A = 1\n"
    assert (out / "b.py").read_text() == "B = 2\n"
    # unchanged files keep their inode: linked, not written
    before = os.stat(out / "a.py").st_ino
    write_package(out, {**files, "b.py": "B = 3\n"}, written=written)
    assert os.stat(out / "a.py").st_ino == before
    assert (out / "b.py").read_text() == "B = 3\n"


def test_an_edit_that_puts_the_times_back_is_written_again(tmp_path: Path) -> None:
    """A same-size edit of an OUT file in place, its times put back at once (as ``cp -p`` or an
    editor may): only the change time, which nobody can set, tells it."""
    out = tmp_path / "gen"
    files = {"a.py": "A = 1\n", MANIFEST: json.dumps({"files": {"a.py": ""}})}
    written = Written()
    write_package(out, files, written=written)
    time.sleep(0.06)  # past the racy window: the next write keeps a.py by its signature
    write_package(out, files, written=written)
    before = os.stat(out / "a.py")
    (out / "a.py").write_text("A = 9\n")
    os.utime(out / "a.py", ns=(before.st_atime_ns, before.st_mtime_ns))
    write_package(out, files, written=written)
    assert (out / "a.py").read_text() == "A = 1\n"


def test_an_edit_in_the_same_clock_tick_as_the_write_is_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file system whose clock did not tick between toolgen's write and a user's same-size
    edit, the edit leaves every time as it was: a signature taken within the racy window of the
    file's change proves nothing, so the next write reads the file. The clock is made coarse here
    by giving each inode the times it was first seen with."""
    from toolgen.infra import file_state
    from toolgen.package import writer

    first_seen: dict[int, tuple[int, int, int, int]] = {}

    def coarse(status: os.stat_result) -> tuple[int, int, int, int]:
        found = file_state.signature_of(status)
        kept = first_seen.setdefault(status.st_ino, found)
        return (found[0], found[1], kept[2], kept[3])

    monkeypatch.setattr(writer, "signature_of", coarse)
    out = tmp_path / "gen"
    files = {"a.py": "A = 1\n", MANIFEST: json.dumps({"files": {"a.py": ""}})}
    written = Written()
    write_package(out, files, written=written)
    write_package(out, files, written=written)
    (out / "a.py").write_text("A = 9\n")  # same size, in place, no tick since
    write_package(out, files, written=written)
    assert (out / "a.py").read_text() == "A = 1\n"


def test_a_watch_write_reads_a_file_it_left_once_then_keeps_it_by_its_signature(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolgen.package import writer

    reads: list[str] = []
    holds = writer._holds
    monkeypatch.setattr(
        writer, "_holds", lambda path, data: reads.append(path) or holds(path, data)
    )
    out = tmp_path / "gen"
    files = {"a.py": "A = 1\n", "b/c.py": "C = 1\n", MANIFEST: json.dumps({"files": {}})}
    written = Written()
    write_package(out, files, written=written)
    for _ in range(2):  # the write that linked each file, then the one that read it once
        time.sleep(0.06)
        write_package(out, files, written=written)
    reads.clear()
    time.sleep(0.06)
    write_package(out, files, written=written)
    assert reads == []


def test_the_spare_tree_is_ignored_by_git_and_its_gitignore_never_reaches_out(
    tmp_path: Path,
) -> None:
    """The spare tree beside OUT (a copy of the package, while watch runs) would be untracked in
    the user's repository, so ``git add -A`` would commit it and ruff check it: it holds a
    .gitignore of ``*``, which no write carries into OUT, and a .gitignore of the user's in OUT
    stays theirs."""
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    out = tmp_path / "gen"
    files = {"a.py": "A = 1\n", MANIFEST: json.dumps({"files": {"a.py": ""}})}
    written = Written()
    write_package(out, files, written=written)
    write_package(out, {**files, "a.py": "A = 2\n"}, written=written)
    assert written.spare is not None
    assert Path(written.spare, ".gitignore").read_text().endswith("\n*\n")
    assert not (out / ".gitignore").exists()
    untracked = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert sorted(untracked) == ["?? gen/.toolgen-manifest.json", "?? gen/a.py"]
    (out / ".gitignore").write_text("mine\n")
    for _ in range(2):
        write_package(out, files, written=written)
        assert (out / ".gitignore").read_text() == "mine\n"
    written.discard()


def test_settle_takes_the_signatures_a_first_write_could_not_so_the_next_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolgen.package import writer

    out = tmp_path / "gen"
    files = {f"m{index}.py": f"X = {index}\n" for index in range(70)}
    files[MANIFEST] = json.dumps({"files": dict.fromkeys(files, "")})
    written = Written()
    write_package(out, files, written=written)
    assert written.settle(least=len(files) + 1) == 0  # fewer waiting than asked: not worth it
    assert written.settle() == len(files)
    assert all(signature is not None for _, signature in written.files.values())
    reads: list[str] = []
    holds = writer._holds
    monkeypatch.setattr(
        writer, "_holds", lambda path, data: reads.append(path) or holds(path, data)
    )
    write_package(out, files, written=written)
    assert reads == []
    (out / "m1.py").write_text("X = 9\n")  # same size, in place: the signature sees it
    write_package(out, files, written=written)
    assert (out / "m1.py").read_text() == "X = 1\n"


def test_a_watch_sessions_first_build_leaves_every_file_of_out_with_its_signature(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    ping = {"type": "object", "properties": {"host": S}}
    tools = {f"tools/ping{index}.yaml": tool(f"ping{index}", ping) for index in range(12)}
    design = make_design({"toolgen.toml": PROVIDERS, **tools})
    rebuild = watch_rebuilder(design, tmp_path / "gen", (), "text", tmp_path / "cache")
    assert rebuild() == EXIT_OK
    files = rebuild.session.written.files
    assert len(files) > 64 and all(signature is not None for _, signature in files.values())
    rebuild.close()


def test_kept_values_are_found_by_values_written_apart() -> None:
    from dataclasses import dataclass

    from toolgen.infra.kept import plain_key

    @dataclass(frozen=True)
    class Point:
        x: int

    # equal in Python, or alike in JSON, written differently by a template: different keys
    assert len({plain_key(1), plain_key(True), plain_key(1.0), plain_key("1")}) == 4
    assert plain_key((1, 2)) != plain_key([1, 2])
    assert plain_key({1: "a"}) != plain_key({"1": "a"})
    assert plain_key({"a": 1, "b": 2}) != plain_key({"b": 2, "a": 1})  # the order is written
    assert plain_key({"a": [1, None]}) == plain_key({"a": [1, None]})
    # an object could compare by identity, or change in place: no key
    assert plain_key({"p": Point(1)}) is None
    assert plain_key([object()]) is None


def test_kept_lets_go_of_what_builds_no_longer_use() -> None:
    from toolgen.infra.kept import Kept

    kept = Kept()
    for name in "abc":
        kept.put(name, name.upper())
    kept.begin()
    assert kept.get("a") == "A"
    kept.begin()  # three kept, one used: more than twice as many, only "a" stays
    assert kept.get("b") is None
    assert kept.get("a") == "A"
    kept.put("d", "D")
    kept.begin()  # "a" and "d" used, nothing else kept
    assert kept.get("d") == "D"
    kept.begin()  # two kept, one used: both stay (a module's parts, spared by the module)
    assert kept.get("a") == "A"


def test_a_kept_template_text_is_rendered_again_when_a_template_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    import toolgen.render.templating as templating
    from toolgen.infra.kept import Kept
    from toolgen.infra.parallel import Runner

    copy = tmp_path / "templates"
    shutil.copytree(templating.templates_dir(), copy)
    monkeypatch.setattr(templating, "templates_dir", lambda: copy)
    templating.environment.cache_clear()
    try:
        runner = Runner(kept=Kept())
        first = templating.render("models_base.py.j2", runner, header="# h")
        runner.kept.begin()
        assert templating.render("models_base.py.j2", runner, header="# h") == first
        time.sleep(0.05)  # past the file system's clock tick
        template = copy / "models_base.py.j2"
        template.write_text(template.read_text() + "# edited\n")
        runner.kept.begin()
        assert templating.render("models_base.py.j2", runner, header="# h").endswith("# edited\n")
    finally:
        monkeypatch.undo()
        templating.environment.cache_clear()


def test_the_spare_tree_becomes_the_next_staging_tree_and_never_leaks_into_out(
    tmp_path: Path, read_tree: Callable[[Path], dict[str, bytes]]
) -> None:
    """The tree a write replaced is the next write's staging tree: its files that are still
    OUT's, unchanged, stay; whatever else it holds (files OUT held two writes ago, files and
    ``__pycache__`` folders added to OUT by hand then, files edited in place through a shared
    link) never reaches OUT."""
    out = tmp_path / "gen"

    def package(**texts: str) -> dict[str, str]:
        files = dict(texts)
        files[MANIFEST] = json.dumps({"files": dict.fromkeys(texts, "")})
        return files

    written = Written()
    first = package(**{"a.py": "A = 1\n", "sub/b.py": "B = 1\n", "sub/c.py": "C = 1\n"})
    write_package(out, first, written=written)
    inode = os.stat(out / "a.py").st_ino
    # OUT is used as a package meanwhile, and a file is added to it by hand
    (out / "sub" / "__pycache__").mkdir()
    (out / "sub" / "__pycache__" / "b.cpython-311.pyc").write_bytes(b"stale")
    (out / "mine.txt").write_text("mine")
    second = package(**{"a.py": "A = 1\n", "sub/b.py": "B = 2\n", "d/e.py": "E = 1\n"})
    write_package(out, second, written=written)
    assert written.spare is not None and os.path.isdir(written.spare)
    expected = {path: text.encode() for path, text in second.items()} | {
        b"mine.txt".decode(): b"mine"
    }
    assert read_tree(out) == expected and not (out / "sub" / "__pycache__").exists()
    # the spare tree (the first write's) now stages the third: sub/c.py, the stale
    # __pycache__ and the hand-added file of two writes ago must not come back
    (out / "mine.txt").unlink()
    time.sleep(0.05)
    with open(out / "a.py", "r+b") as file:  # in place: the spare tree's a.py is the same inode
        file.write(b"Z")
    third = package(**{"a.py": "A = 1\n", "sub/b.py": "B = 2\n", "d/e.py": "E = 1\n"})
    write_package(out, third, written=written)
    assert read_tree(out) == {path: text.encode() for path, text in third.items()}
    assert not (out / "sub" / "__pycache__").exists()
    # unchanged since it was rewritten: the same inode from now on, without a link or a write
    inode = os.stat(out / "a.py").st_ino
    for _ in range(2):
        write_package(out, third, written=written)
        assert read_tree(out) == {path: text.encode() for path, text in third.items()}
        assert os.stat(out / "a.py").st_ino == inode
    # a file where a folder was: the spare tree is not used, the result is the same
    fourth = package(**{"a.py": "A = 1\n", "sub": "S = 1\n"})
    write_package(out, fourth, written=written)
    write_package(out, fourth, written=written)
    assert read_tree(out) == {path: text.encode() for path, text in fourth.items()}
    spare = written.spare
    written.discard()
    assert spare is not None and not os.path.exists(spare) and written.spare is None


def test_a_session_reports_what_a_cold_build_reports_after_every_edit(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    """The diagnostics of a session's builds (file, pointer, provider, code, message) are a cold
    build's: a file broken then fixed, one added and deleted, the same bytes under a name that
    parses them otherwise (YAML text in a .json file)."""
    from toolgen.build import Session

    design = make_design(
        {
            "toolgen.toml": PROVIDERS,  # what is remembered is per design file, not per provider
            "tools/a.yaml": tool("a", {"type": "object", "properties": {"x": S}}),
            "tools/b.yaml": tool("b", {"type": "object", "properties": {"y": INT}}),
        }
    )
    session = Session()

    def check() -> list[dict[str, Any]]:
        found = session.build(design, cache_dir=tmp_path / "cache").diagnostics
        expected = build(design).diagnostics
        assert [d.to_dict() for d in found] == [d.to_dict() for d in expected]
        return [d.to_dict() for d in found]

    check()
    make_design({"tools/b.yaml": tool("b", {"type": "strng"})})
    assert any(d["code"] == "INVALID_SCHEMA" for d in check())
    make_design({"tools/b.yaml": tool("b", {"type": "object", "properties": {"y": INT}})})
    check()
    yaml_text = (design / "tools" / "a.yaml").read_bytes()
    assert not yaml_text.lstrip().startswith(b"{")  # YAML that is not JSON
    (design / "tools" / "c.json").write_bytes(yaml_text.replace(b"name: a", b"name: c"))
    assert any(d["code"] == "PARSE_ERROR" and d["file"] == "tools/c.json" for d in check())
    (design / "tools" / "c.json").unlink()
    (design / "tools" / "a.yaml").rename(design / "tools" / "a.json")
    assert any(d["code"] == "PARSE_ERROR" and d["file"] == "tools/a.json" for d in check())
    (design / "tools" / "a.json").rename(design / "tools" / "a.yaml")
    check()


def test_a_remembered_digest_is_the_digest_of_its_parts() -> None:
    """Parts alike in JSON but of other types (1, True, 1.0; a tuple and a list) have their own
    bytes, so each finds its own digest, the one computed without remembering."""
    from toolgen.infra.cache import digest, remember

    parts = [(1,), (True,), (1.0,), ("1",), ((1, 2),), ([1, 2],), ({"a": 1},), ({1: "a"},)]
    parts += [("fp", "stage", ["fingerprint", "abc"], None), ("x" * 1000, [{"b": [None]}])]
    remember(False)
    expected = [digest(*p) for p in parts]
    try:
        remember(True)
        for _ in range(3):  # computed, then found
            assert [digest(*p) for p in parts] == expected
            remember(True)
        assert digest(object) == digest(object)  # no plain bytes: computed every time
    finally:
        remember(False)


def test_kept_decoded_results_are_the_cache_entries_and_keep_them_used(tmp_path: Path) -> None:
    """A stage's results kept decoded (Runner.submit(keep_decoded=True)) are found by the cache
    key, counted as the cache's hits and written into its index as if read: a fresh process
    finds them there."""
    from toolgen.infra.kept import Kept
    from toolgen.infra.parallel import Runner

    calls: list[int] = []

    def square(n: int) -> list[int]:
        calls.append(n)
        return [n * n]

    cache, kept = Cache(tmp_path / "cache", keep=True), Kept()
    cache.open()

    def run(items: list[int]) -> list[list[int]]:
        kept.begin()
        cache.begin()
        runner = Runner(cache=cache, kept=kept)
        found = runner.map(
            "sq",
            square,
            [(n,) for n in items],
            key=lambda a: f"k{a[0]}",
            parallel=False,
            indexed=True,
            keep_decoded=True,
        )
        cache.save_indexes()
        return found

    first = run([1, 2, 3])
    assert calls == [1, 2, 3]
    second = run([1, 2, 4])
    assert calls == [1, 2, 3, 4] and second == [[1], [4], [16]]
    assert second[0] is first[0]  # kept as it was, not decoded again
    assert cache.hits["sq"] == 2 and cache.misses["sq"] == 1
    fresh = Cache(tmp_path / "cache")
    fresh.index("sq")
    for entry in (tmp_path / "cache" / "sq").glob("k*/*.json"):
        entry.unlink()  # only the index is left
    assert [fresh.get("sq", f"k{n}") for n in (1, 2, 4)] == [[1], [4], [16]]


def test_touch_all_is_a_touch_of_each_key(tmp_path: Path) -> None:
    """Cache.touch_all (a stage handing on what it kept) counts, keeps, indexes and spares from
    pruning what touch of each key does, and returns the keys touch would refuse."""

    def cache(name: str) -> Cache:
        made = Cache(tmp_path / name, keep=True)
        made.open()
        made.index("ix")
        for key in ("a", "b", "c"):
            made.put("ix", key, key)
            made.put("plain", key, key)
        made.save_indexes()
        made.begin()
        made.index("ix")
        made.get("plain", "c")
        return made

    one, every = cache("one"), cache("every")
    for stage in ("ix", "plain"):
        refused = [key for key in ("a", "x", "b") if not one.touch(stage, key)]
        assert every.touch_all(stage, ["a", "x", "b"]) == refused == ["x"]
    assert one.hits == every.hits and one.hits["ix"] == 2
    assert {p.replace("/one/", "/") for p in one.used} == {
        p.replace("/every/", "/") for p in every.used
    }
    assert one._using == every._using and one._indexed == every._indexed
    assert one._index_changed == every._index_changed


def test_map_by_identity_hands_on_what_it_gave_the_same_object(tmp_path: Path) -> None:
    """Runner.map_by_identity: an item whose object is the last call's under its name (and
    whose ``given`` is equal) gets what it got then, no function call, no key made, its cache
    entry counted as used again; another object, another name or another ``given`` is
    computed; without a session nothing is kept."""
    from toolgen.infra.kept import Kept
    from toolgen.infra.parallel import Runner

    calls: list[str] = []
    keyed: list[str] = []

    def shout(text: str) -> list[str]:
        calls.append(text)
        return [text.upper()]

    def key(arguments: tuple[Any, ...]) -> str:
        keyed.append(arguments[0])
        return f"k-{arguments[0]}"

    cache, kept = Cache(tmp_path / "cache", keep=True), Kept()
    cache.open()

    def run(items: list[tuple[str, list[str]]], given: Any = 1) -> list[Any]:
        kept.begin()
        cache.begin()
        runner = Runner(cache=cache, kept=kept)
        return runner.map_by_identity(
            "up",
            "tag",
            given,
            shout,
            items,
            lambda of: (of[0],),
            key,
            lambda arguments, result, used: (result, used),
            parallel=False,
            indexed=True,
        )

    a, b, c = ["a"], ["b"], ["c"]
    first = run([("a", a), ("b", b)])
    assert first == [(["A"], "k-a"), (["B"], "k-b")] and calls == ["a", "b"]
    calls.clear(), keyed.clear()
    second = run([("a", a), ("b", ["b"]), ("c", c)])  # b: an equal list, another object
    assert second[0] is first[0] and keyed == ["b", "c"] and calls == ["c"]  # b: from the cache
    assert cache.hits["up"] == 2 and cache.misses["up"] == 1  # a carried, b read, c computed
    calls.clear(), keyed.clear()
    assert run([("c", c), ("a", a)])[1] is first[0] and calls == keyed == []
    assert run([("a", a)], given=2)[0] is not first[0] and keyed == ["a"]
    keyed.clear()
    assert run([("x", a)], given=2)[0] is not first[0] and keyed == ["a"]  # another name
    alone = Runner().map_by_identity(
        "up", "tag", 1, shout, [("a", a)], lambda of: (of[0],), key, lambda _, r, k: (r, k)
    )
    assert alone == [(["A"], None)]


def test_a_value_kept_by_identity_is_found_for_that_object_only() -> None:
    from toolgen.infra.kept import Kept, by_identity

    kept = Kept()
    first, equal = {"a": [1]}, {"a": [1]}
    calls: list[object] = []

    def text_of(value: object) -> str:
        calls.append(value)
        return repr(value)

    assert by_identity(kept, "t", first, lambda: text_of(first)) == "{'a': [1]}"
    kept.begin()
    assert by_identity(kept, "t", first, lambda: text_of(first)) == "{'a': [1]}"
    assert by_identity(kept, "other", first, lambda: text_of(first)) == "{'a': [1]}"
    assert by_identity(kept, "t", equal, lambda: text_of(equal)) == "{'a': [1]}"
    assert calls == [first, first, equal]  # the same object under its tag only
    assert by_identity(None, "t", first, lambda: text_of(first)) and len(calls) == 4


def test_values_kept_each_by_identity_are_found_for_those_objects_only() -> None:
    from toolgen.infra.kept import Kept, each_by_identity

    kept = Kept()
    first, second, equal = {"a": [1]}, {"b": 2}, {"a": [1]}
    calls: list[object] = []

    def text_of(value: object) -> str:
        calls.append(value)
        return repr(value)

    assert each_by_identity(kept, "t", [first, second], text_of) == ["{'a': [1]}", "{'b': 2}"]
    kept.begin()
    calls.clear()
    # in another order, with an equal object that is another one, and twice the same
    found = each_by_identity(kept, "t", [second, equal, first, first], text_of)
    assert found == ["{'b': 2}", "{'a': [1]}", "{'a': [1]}", "{'a': [1]}"]
    assert calls == [equal]
    assert each_by_identity(kept, "other", [first], text_of) == ["{'a': [1]}"]
    assert calls == [equal, first]  # under its tag only
    kept.begin()
    calls.clear()
    each_by_identity(kept, "t", [second], text_of)
    kept.begin()
    each_by_identity(kept, "t", [first, second], text_of)
    assert calls == [first]  # what a build did not have is let go with it
    assert each_by_identity(None, "t", [first], text_of) == ["{'a': [1]}"]
    # a stage run for each provider, under a tag of each: both kept
    kept.begin()
    each_by_identity(kept, ("t", "a"), [first], text_of)
    each_by_identity(kept, ("t", "b"), [equal], text_of)
    kept.begin()
    calls.clear()
    each_by_identity(kept, ("t", "a"), [first], text_of)
    each_by_identity(kept, ("t", "b"), [equal], text_of)
    assert calls == []


def test_an_entry_held_decoded_is_read_from_its_file_once_the_value_is_let_go(
    tmp_path: Path,
) -> None:
    """A stage without an index lets the cache drop an entry's text while the build holds its
    value decoded (Cache.touch); a build that no longer holds it reads the entry's file."""
    from toolgen.infra.kept import Kept
    from toolgen.infra.parallel import Runner

    calls: list[int] = []

    def double(n: int) -> dict[str, int]:
        calls.append(n)
        return {"n": 2 * n}

    cache = Cache(tmp_path / "cache", keep=True)
    cache.open()

    def run(kept: Kept) -> list[dict[str, int]]:
        kept.begin()
        cache.begin()
        runner = Runner(cache=cache, kept=kept)
        items = [(n,) for n in (1, 2)]
        return runner.map("d", double, items, key=lambda a: f"k{a[0]}", keep_decoded=True)

    kept = Kept()
    assert run(kept) == [{"n": 2}, {"n": 4}]
    assert run(kept) == [{"n": 2}, {"n": 4}]  # held decoded: the cache keeps no text
    assert cache.hits["d"] == 2 and all(text is None for text, _ in cache._using["d"].values())
    assert run(Kept()) == [{"n": 2}, {"n": 4}]  # nothing held: read from the files
    assert calls == [1, 2] and cache.hits["d"] == 2


def test_without_an_exchange_the_spare_tree_is_never_an_old_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read_tree: Callable[[Path], dict[str, bytes]]
) -> None:
    """Where renameat2 cannot exchange, OUT is replaced by two renames and the previous tree is
    the "old" one, which a later build's recovery would put back as OUT were this process killed
    with OUT gone: the spare tree takes the staging tree's name at once."""
    import toolgen.package.writer as writer

    monkeypatch.setattr(writer, "_exchange", lambda first, second: False)
    out = tmp_path / "gen"
    written = Written()
    for version in range(3):
        files = {"a.py": f"A = {version}\n", "b.py": "B = 1\n"}
        files[MANIFEST] = json.dumps({"files": dict.fromkeys(files, "")})
        write_package(out, files, written=written)
        assert read_tree(out) == {path: text.encode() for path, text in files.items()}
        assert written.spare is not None and ".toolgen-new-" in written.spare
        assert not list(tmp_path.glob(".gen.toolgen-old-*"))
    written.discard()


@pytest.mark.slow  # the example design for four providers, through four edits
def test_no_build_changes_a_kept_value_in_place(
    tmp_path: Path, make_design: Callable[..., Path]
) -> None:
    """A session hands its next build the very objects it kept (decoded results, values kept by
    the identity of another): a stage that changed one in place would change what a later build
    reads. After every build of a sequence, each value kept before it that is still kept, the
    same object, pickles to the bytes it pickled to then."""
    design = tmp_path / "design"
    shutil.copytree(EXAMPLE, design)
    (design / "toolgen.toml").write_text(
        '[toolgen]\nproviders = ["openai", "anthropic", "gemini", "bedrock"]\n', encoding="utf-8"
    )
    rebuild = watch_rebuilder(design, tmp_path / "gen", (), "text", tmp_path / "cache")
    kept = rebuild.session.kept
    assert kept is not None

    def snapshot() -> dict[Any, tuple[Any, bytes]]:
        # Kept's two generations (read here only: nothing else may look inside)
        values = {**kept._last, **kept._now}
        return {key: (value, pickle.dumps(value)) for key, value in values.items()}

    def edit(relative: str, old: str, new: str) -> None:
        path = design / relative
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    edits = [
        ("tools/refund.yaml", "description: ", "description: Now "),
        ("defs/money.yaml", "description: ", "description: Some "),
        ("defs/money.yaml", "minimum: 0", "minimum: 1"),
        ("outputs/ticket_triage.yaml", "description: ", "description: The "),
    ]
    assert rebuild() == EXIT_OK
    before = snapshot()
    compared = 0
    for relative, old, new in edits:
        edit(relative, old, new)
        assert rebuild() == EXIT_OK
        after = snapshot()
        for key, (value, pickled) in before.items():
            if key in after and after[key][0] is value:
                compared += 1
                assert after[key][1] == pickled, (relative, key)
        before = after
    assert compared > 100  # most values were handed on, and compared


def test_a_watch_write_keeps_files_added_to_out_and_reads_a_replaced_manifest(
    tmp_path: Path,
) -> None:
    """A write after this process's last one into OUT takes the files OUT owns from that write
    while OUT's manifest is still the file it wrote: a file the user added to OUT since is still
    carried over, and a manifest replaced since is read again (it names what OUT owns)."""
    out = tmp_path / "gen"
    written = Written()

    def files(version: int) -> dict[str, str]:
        made = {"a.py": f"A = {version}\n", "pkg/b.py": "B = 1\n"}
        made[MANIFEST] = json.dumps({"files": dict.fromkeys(made, "")})
        return made

    write_package(out, files(1), written=written)
    (out / "notes.txt").write_text("mine\n")
    (out / "pkg" / "extra.py").write_text("X = 1\n")
    write_package(out, files(2), written=written)
    assert (out / "notes.txt").read_text() == "mine\n"
    assert (out / "pkg" / "extra.py").read_text() == "X = 1\n"
    # OUT's manifest replaced by one that claims notes.txt: toolgen's then, and no longer made
    time.sleep(0.05)
    (out / MANIFEST).unlink()
    (out / MANIFEST).write_text(
        json.dumps({"files": {**dict.fromkeys(files(2), ""), "notes.txt": ""}})
    )
    write_package(out, files(3), written=written)
    assert not (out / "notes.txt").exists()
    assert (out / "pkg" / "extra.py").read_text() == "X = 1\n"
    assert (out / "a.py").read_text() == "A = 3\n"
    written.discard()


@pytest.mark.parametrize(
    "hashes",
    [
        {},
        {"a.py": "1" * 64},
        {"é/ü.py": "x", 'q"uote\\.py': "y", "tab\t\u2028\x01.py": "z", "models/tools/a.py": "w"},
    ],
)
def test_the_manifest_text_is_the_json_text_of_the_manifest(hashes: dict[str, str]) -> None:
    from toolgen.package.assemble import manifest_text
    from toolgen.package.schema_texts import json_text

    expected = json_text(
        {"toolgen_version": __version__, "design_hash": "d\u00e9", "files": hashes}
    )
    assert manifest_text("d\u00e9", hashes) == expected


def test_a_files_hash_is_kept_for_that_text_object_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    from toolgen.infra.kept import Kept
    from toolgen.package import assemble

    hashed: list[str] = []

    def sha(text: str) -> str:
        hashed.append(text)
        return hashlib.sha256(text.encode()).hexdigest()

    monkeypatch.setattr(assemble, "_sha256", sha)
    kept = Kept()
    a, b = "A = 1\n", "".join(["B = ", "2\n"])
    assert assemble._file_hashes({"a.py": a, "b.py": b}, kept) == {"a.py": sha(a), "b.py": sha(b)}
    kept.begin()
    hashed.clear()
    # the same object under another path, a text equal to a kept one but another object, a new
    c = "".join(["B = ", "2\n"])
    found = assemble._file_hashes({"x.py": b, "a.py": c, "c.py": "C\n"}, kept)
    assert found == {"x.py": sha(b), "a.py": sha(c), "c.py": sha("C\n")}
    hashed_by_build = hashed[:2]
    assert hashed_by_build == [c, "C\n"] and hashed_by_build[0] is c  # b was not hashed again


def test_the_package_init_formatted_with_a_stand_in_hash_is_as_formatted_with_the_hash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``__init__.py`` is formatted with a stand-in for the design's hash (the rest of it does not
    change with an edit, so a session formats it once); the bytes must be black's of the module
    with the hash itself."""
    import re

    from toolgen.build import analyze
    from toolgen.infra.parallel import Runner
    from toolgen.package import assemble

    design = analyze(EXAMPLE).design
    assert design is not None and assemble._DESIGN_HASH.fullmatch(design.hash)
    with_stand_in = assemble._package_init(design, ("openai", "gemini"), Runner()).result()
    monkeypatch.setattr(assemble, "_DESIGN_HASH", re.compile("(?!)"))  # matches nothing
    with_hash = assemble._package_init(design, ("openai", "gemini"), Runner()).result()
    assert with_stand_in == with_hash
    assert f'\nDESIGN_HASH = "{design.hash}"\n' in with_hash


@pytest.mark.slow  # six builds of a small design
def test_a_providers_own_canonical_module_follows_the_inverse_work_of_its_contracts(
    tmp_path: Path,
    make_design: Callable[..., Path],
    tool: Callable[..., dict[str, Any]],
    read_tree: Callable[[Path], dict[str, bytes]],
) -> None:
    """A provider that adds no nulls gets its own canonical module only while one of its
    contracts has an enum it writes as text (Gemini's OpenAPI dialect; what the inverse does is
    kept by each contract's projection): a member made such an enum, then plain again."""
    plain = {"type": "object", "properties": {"level": INT}, "required": ["level"]}
    levels = {"type": "object", "properties": {"level": {**INT, "enum": [1, 2]}}}
    levels["required"] = ["level"]
    design = make_design(
        {
            "toolgen.toml": '[toolgen]\nproviders = ["gemini"]\n[providers.gemini]\ndialect = "openapi"\n',
            "tools/a.yaml": tool("a", plain),
            "tools/b.yaml": tool("b", {"type": "object", "properties": {"x": S}}),
        }
    )
    out = tmp_path / "gen"
    rebuild = watch_rebuilder(design, out, (), "text", tmp_path / "cache")
    seen = []
    for parameters in (plain, levels, plain, levels):
        make_design({"tools/a.yaml": tool("a", parameters)})
        assert rebuild() == EXIT_OK
        built = read_tree(out)
        assert built == _fresh(design)
        seen.append("_canonical_gemini.py" in built)
    assert seen == [False, True, False, True]  # the enum read back by a module of its own


def test_the_spare_trees_listing_is_the_same_through_a_folders_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolgen.package import writer

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.py").write_text("x = 1\n")
    (tmp_path / "g.py").write_text("")
    (tmp_path / "link.py").symlink_to(tmp_path / "g.py")
    through: dict[str, Any] = {}
    writer._list(str(tmp_path), "", through)
    monkeypatch.setattr(writer, "_SCANDIR_FD", False)
    by_path: dict[str, Any] = {}
    writer._list(str(tmp_path), "", by_path)
    assert through == by_path
    assert set(by_path) == {"a", "a/b", "a/b/f.py", "g.py", "link.py"}
    assert by_path["link.py"] is None and by_path["a"] == writer._FOLDER


def test_each_by_identity_holds_the_last_builds_items_only() -> None:
    """The map of the build before the last is let go when the next build begins: a session
    holds two builds' items (the large texts of the changed files among them), not three."""
    import gc
    import weakref

    from toolgen.infra.kept import Kept, each_by_identity

    class Item:
        pass

    kept = Kept()
    first, second = Item(), Item()
    gone = weakref.ref(first)
    each_by_identity(kept, "t", [first], id)
    kept.begin()
    each_by_identity(kept, "t", [second], id)
    kept.begin()
    del first
    each_by_identity(kept, "t", [second], id)
    gc.collect()
    assert gone() is None
