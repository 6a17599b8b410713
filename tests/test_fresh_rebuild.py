"""A fresh-process rebuild after one changed tool (issue 37, item 8): what the last process
wrote is recorded in the cache, so the next one reads the few files that changed, not every
file of OUT and every cache entry, and keeps every guarantee of the writer (docs/cache.md,
"What a rebuild trusts"). Counters, not timings."""

from __future__ import annotations

import builtins
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolgen.build import Session, build
from toolgen.infra import cache as cache_module
from toolgen.infra import file_state
from toolgen.infra.cache import MANIFEST_DELTA_FILE, MANIFEST_FILE, Cache
from toolgen.package import handlers, writer
from toolgen.package.assemble import MANIFEST
from toolgen.package.writer import OutputError, check_paths, spare_path, write_package

S = {"type": "string"}


def package(texts: dict[str, str]) -> dict[str, str]:
    """``texts`` with a manifest that lists each one's hash, as a build's."""
    hashes = {path: hashlib.sha256(text.encode()).hexdigest() for path, text in texts.items()}
    return {**texts, MANIFEST: json.dumps({"files": hashes}, indent=2)}


def version(changed: int | None = None) -> dict[str, str]:
    """Forty modules; ``changed``: the one whose text is another."""
    texts = {f"pkg/m{i}.py": f"VALUE = {i}\n" * 20 for i in range(40)}
    if changed is not None:
        texts[f"pkg/m{changed}.py"] = "CHANGED = True\n"
    return package(texts)


def in_tree(read: list[str], root: Path) -> set[str]:
    """The paths of ``read`` that lie in a tree beside OUT (OUT, a staging or spare tree) under
    ``root``, relative to their tree."""
    found = set()
    for path in read:
        tree, *rest = Path(path).relative_to(root).parts
        if tree.startswith((".gen.", "gen")) and rest:
            found.add("/".join(rest))
    return found


def counting_reads(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[str]:
    """The paths ``module`` opens for reading from now on."""
    read: list[str] = []

    def counting_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "r" in mode:
            read.append(str(path))
        return builtins.open(path, mode, *args, **kwargs)

    monkeypatch.setattr(module, "open", counting_open, raising=False)
    return read


@pytest.fixture
def settled_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signature proves something as soon as it is taken: a test does not wait out the racy
    window (toolgen/infra/file_state.py) of the files it has just written."""
    monkeypatch.setattr(file_state, "RACY_NS", 0)


# --------------------------------------------------------------------------------------------
# The writer: the record of the last write
# --------------------------------------------------------------------------------------------


def test_a_fresh_write_reads_only_the_files_that_changed(
    tmp_path, monkeypatch, settled_at_once, read_tree
):
    out, state = tmp_path / "gen", tmp_path / "cache" / "written" / "gen.marshal"
    write_package(out, version(), state=state)  # and a copy of links beside OUT, the spare
    read = counting_reads(monkeypatch, writer)
    write_package(out, version(1), state=state)
    write_package(out, version(2), state=state)
    assert read_tree(out) == {p: t.encode() for p, t in version(2).items()}
    # the changed file (and the previous one at its place) and the manifest, not the other 38
    assert in_tree(read, tmp_path) <= {"pkg/m1.py", "pkg/m2.py", MANIFEST}, read
    # without the record, every file of OUT is read back to be compared
    read.clear()
    write_package(out, version(3))
    assert len(read) >= 38


def test_a_hand_edited_replaced_or_deleted_out_file_is_restored(
    tmp_path, settled_at_once, read_tree
):
    out, state = tmp_path / "gen", tmp_path / "cache" / "written" / "gen.marshal"
    write_package(out, version(), state=state)
    write_package(out, version(1), state=state)
    assert (spare_path(out) / ".gitignore").read_text().endswith("\n*\n")
    with open(out / "pkg/m5.py", "a", encoding="utf-8") as file:  # in place: the spare's inode
        file.write("EDITED = True\n")
    (out / "pkg/m6.tmp").write_text("REPLACED = True\n")
    os.replace(out / "pkg/m6.tmp", out / "pkg/m6.py")  # an editor's save: another inode
    (out / "pkg/m7.py").unlink()
    (out / "notes.txt").write_text("mine\n")  # a file toolgen did not write: carried over
    write_package(out, version(1), state=state)
    assert read_tree(out) == {
        **{p: t.encode() for p, t in version(1).items()},
        "notes.txt": b"mine\n",
    }


def test_a_foreign_or_broken_record_is_no_record(tmp_path, read_tree):
    out, state = tmp_path / "gen", tmp_path / "written.marshal"
    write_package(out, version(), state=state)
    for junk in (b"", b"not marshal", json.dumps({"files": {}}).encode()):
        state.write_bytes(junk)
        write_package(out, version(len(junk) % 40), state=state)
        assert read_tree(out) == {p: t.encode() for p, t in version(len(junk) % 40).items()}
    spare_path(out).mkdir(exist_ok=True)
    write_package(out, version(8))  # a write that keeps no record: the spare tree goes
    assert not spare_path(out).exists()


def test_the_cache_keeps_the_records_of_the_last_written_outs(tmp_path, monkeypatch):
    """An OUT moved or deleted leaves its record behind: the folder keeps the records written
    last (here 3), the one just written among them."""
    monkeypatch.setattr(writer, "KEPT_RECORDS", 3)
    states = []
    for index in range(5):
        out = tmp_path / f"gen{index}"
        states.append(writer.state_file(tmp_path / "cache", out))
        write_package(out, version(), state=states[-1])
        os.utime(states[-1], ns=(index * 10**9, index * 10**9))  # in the order written
    kept = sorted(p.name for p in (tmp_path / "cache" / "written").iterdir())
    assert kept == sorted(p.name for p in states[2:])


def test_the_record_never_takes_a_folder_that_is_not_toolgens(tmp_path, settled_at_once):
    out, state = tmp_path / "gen", tmp_path / "written.marshal"
    write_package(out, version(), state=state)
    (out / MANIFEST).unlink()
    with pytest.raises(OutputError, match="manifest"):
        write_package(out, version(1), state=state)


@pytest.mark.parametrize(
    "path",
    ["a.py", "a/b/c.json", ".toolgen-manifest.json", "a/.x", "a/./b", "./a", "a//b", "/a", "a/",
     "..", "a/../b", "a\\b", "", ".", "a/.", "..a", "a..", "a/..b"],
)  # fmt: skip
def test_paths_checked_as_strings_agree_with_pathlib(path):
    """A path the string test lets through is one the pathlib test accepts; the others are
    asked of pathlib, as before."""
    if writer._plain_path(path):
        assert not writer._leaves(path)
    try:
        check_paths({path: ""})
        accepted = True
    except OutputError:
        accepted = False
    assert accepted == (not writer._leaves(path))


# --------------------------------------------------------------------------------------------
# The cache: one manifest read for thousands of entries
# --------------------------------------------------------------------------------------------


def test_a_fresh_cache_reads_the_last_builds_entries_from_one_manifest(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    first = Cache(root)
    first.open()
    for index in range(50):
        first.put("models", f"{index:064x}", {"index": index, "pair": (index, "x")})
    first.put("black", "f" * 64, "text")
    first.save_manifest()
    second = Cache(root)
    read = counting_reads(monkeypatch, cache_module)
    values = [second.get("models", f"{index:064x}") for index in range(50)]
    # as from the entry's file: JSON values (a tuple comes back a list)
    assert values == [{"index": index, "pair": [index, "x"]} for index in range(50)]
    assert second.get("black", "f" * 64) == "text"
    assert [Path(path).name for path in read] == [MANIFEST_FILE, MANIFEST_DELTA_FILE]
    # an entry the manifest does not hold is read from its file
    first.put("models", "e" * 64, [1])
    assert second.get("models", "e" * 64) == [1]
    assert len(read) == 3
    # each get is a copy of its own
    values[0]["index"] = -1
    assert second.get("models", f"{0:064x}") == {"index": 0, "pair": [0, "x"]}
    # the values put as text come back the same once the manifest holds their bytes
    second.save_manifest()
    third = Cache(root)
    assert [third.get("models", f"{index:064x}") for index in range(50)] == [
        {"index": index, "pair": [index, "x"]} for index in range(50)
    ]
    assert len(read) == 5  # the manifest, and its delta: the entry the second build added


def test_a_rebuild_writes_what_changed_beside_the_manifest_until_it_is_much(tmp_path):
    """A build that adds or changes few of the manifest's entries (a group of results kept
    under the same key changes its value) writes them to the manifest's delta, not the whole
    manifest again; a delta that outgrows its share of the manifest is folded in."""
    root = tmp_path / "cache"

    def build_with(values: dict[str, object]) -> Cache:
        cache = Cache(root)
        cache.open()
        for key, value in values.items():
            if cache.get("stage", key) != value:
                cache.put("stage", key, value)
        cache.save_manifest()
        return cache

    keys = [f"{index:064x}" for index in range(40)]
    build_with({key: ["x" * 100, index] for index, key in enumerate(keys)})
    manifest = (root / MANIFEST_FILE).read_bytes()
    build_with({key: ["x" * 100, index] for index, key in enumerate(keys)} | {keys[3]: "new"})
    assert (root / MANIFEST_FILE).read_bytes() == manifest
    assert (root / MANIFEST_DELTA_FILE).stat().st_size < len(manifest) // 8
    read = Cache(root)
    assert read.get("stage", keys[3]) == "new" and read.get("stage", keys[4]) == ["x" * 100, 4]
    assert read._manifest is not None and len(read._manifest["stage"]) == 40
    # a build that changes nothing writes neither
    written = {
        name: (root / name).stat().st_mtime_ns for name in (MANIFEST_FILE, MANIFEST_DELTA_FILE)
    }
    build_with({key: ["x" * 100, index] for index, key in enumerate(keys)} | {keys[3]: "new"})
    assert {name: (root / name).stat().st_mtime_ns for name in written} == written
    # changed in many entries: the manifest whole, without the delta
    build_with({key: ["y" * 100, index] for index, key in enumerate(keys)})
    assert (root / MANIFEST_FILE).read_bytes() != manifest
    assert not (root / MANIFEST_DELTA_FILE).exists()
    assert Cache(root).get("stage", keys[3]) == ["y" * 100, 3]


def test_a_broken_manifest_costs_reads_not_values(tmp_path):
    root = tmp_path / "cache"
    first = Cache(root)
    first.open()
    first.put("models", "a" * 64, {"v": 1})
    first.save_manifest()
    (root / MANIFEST_FILE).write_bytes(b"\x00junk")
    assert Cache(root).get("models", "a" * 64) == {"v": 1}


# --------------------------------------------------------------------------------------------
# Through a build
# --------------------------------------------------------------------------------------------


def _tools(tool: Callable[..., dict[str, Any]], description: str) -> dict[str, Any]:
    return {
        f"tools/t{i}.yaml": tool(f"t{i}", {"type": "object", "properties": {"a": S}}, description)
        for i in range(3)
    }


def test_a_fresh_build_records_its_write_and_the_next_takes_it(
    tmp_path, make_design, tool, monkeypatch, settled_at_once, read_tree
):
    """Three builds as three processes would run them (a session that keeps nothing each): the
    third reads back none of OUT's unchanged files and renders no handlers module; its OUT is
    the one a build without a cache writes."""
    out, cache = tmp_path / "gen", tmp_path / "cache"
    for description in ("First.", "Second."):
        design = make_design(_tools(tool, description))
        session = Session(keep=False)
        last = session.build(design, ("openai",), cache_dir=cache)
        session.write(out, last.files)
    assert list((cache / "written").iterdir()) and spare_path(out).is_dir()

    def no_render(*args: object) -> str:
        raise AssertionError("the handlers module was rendered again")

    design = make_design(_tools(tool, "Third."))
    monkeypatch.setattr(handlers, "_source", no_render)
    read = counting_reads(monkeypatch, writer)
    session = Session(keep=False)
    result = session.build(design, ("openai",), cache_dir=cache)
    session.write(out, result.files)
    changed = {path for path, text in result.files.items() if last.files.get(path) != text}
    assert len(changed) < len(result.files) // 2
    assert in_tree(read, tmp_path) <= changed, in_tree(read, tmp_path) - changed
    monkeypatch.undo()
    assert read_tree(out) == {p: t.encode() for p, t in build(design, ("openai",)).files.items()}


@pytest.mark.parametrize("hand_over", [True, False])
def test_a_watch_session_hands_its_write_over_to_the_next_process(
    tmp_path, make_design, tool, monkeypatch, settled_at_once, read_tree, hand_over
):
    """A session that builds again (``toolgen watch``) records, when it stops, what it wrote
    last, as a fresh build does: the next process reads back none of OUT's unchanged files.
    Without it (the spare tree removed, no record), that process reads OUT back whole."""
    out, cache = tmp_path / "gen", tmp_path / "cache"
    watching = Session()
    for description in ("First.", "Second."):
        last = watching.build(make_design(_tools(tool, description)), ("openai",), cache_dir=cache)
        watching.write(out, last.files)
        watching.written.settle(least=0)
    if not hand_over:
        monkeypatch.setattr(watching, "_state_dir", None)  # as a watch without a cache
    watching.close()
    assert spare_path(out).is_dir() is hand_over
    assert (cache / "written").is_dir() is hand_over
    monkeypatch.undo()

    design = make_design(_tools(tool, "Third."))
    read = counting_reads(monkeypatch, writer)
    fresh = Session(keep=False)
    result = fresh.build(design, ("openai",), cache_dir=cache)
    fresh.write(out, result.files)
    changed = {path for path, text in result.files.items() if last.files.get(path) != text}
    if hand_over:
        assert in_tree(read, tmp_path) <= changed, in_tree(read, tmp_path) - changed
    else:
        assert len(in_tree(read, tmp_path) - changed) > len(result.files) // 2
    monkeypatch.undo()
    assert read_tree(out) == {p: t.encode() for p, t in build(design, ("openai",)).files.items()}


def test_a_file_is_kept_by_the_hash_of_its_text_not_by_a_manifests_claim(
    tmp_path, settled_at_once, read_tree
):
    out, state = tmp_path / "gen", tmp_path / "written.marshal"
    write_package(out, version(), state=state)
    claimed = {**version(1), MANIFEST: version()[MANIFEST]}  # m1 changed, its old hash listed
    write_package(out, claimed, state=state)
    assert read_tree(out) == {p: t.encode() for p, t in claimed.items()}


@pytest.fixture
def fresh_fingerprint(monkeypatch: pytest.MonkeyPatch):
    """code_fingerprint as in a new process (no cache opened, nothing computed), put back
    after the test."""
    monkeypatch.setattr(cache_module, "_fingerprint_record", None)
    cache_module.code_fingerprint.cache_clear()
    yield
    monkeypatch.undo()
    cache_module.code_fingerprint.cache_clear()


def test_the_fingerprint_comes_from_the_caches_record_while_its_evidence_holds(
    tmp_path, monkeypatch, settled_at_once, fresh_fingerprint
):
    computed = cache_module._computed_fingerprint()
    Cache(tmp_path / "cache").open()
    assert cache_module.code_fingerprint() == computed
    assert (tmp_path / "cache" / cache_module.FINGERPRINT_FILE).is_file()

    def not_again() -> str:
        raise AssertionError("toolgen's files were read again")

    # a new process: the record, without reading toolgen's files
    monkeypatch.setattr(cache_module, "_fingerprint_record", None)
    cache_module.code_fingerprint.cache_clear()
    monkeypatch.setattr(cache_module, "_computed_fingerprint", not_again)
    Cache(tmp_path / "cache").open()
    assert cache_module.code_fingerprint() == computed
    # one of toolgen's files with another signature: computed again
    record = cache_module.marshal.loads((tmp_path / "cache" / "fingerprint").read_bytes())
    version, path, signatures = record["evidence"]
    (first, (inode, size, mtime, ctime)), *rest = signatures
    record["evidence"] = (version, path, ((first, (inode, size, mtime, ctime + 1)), *rest))
    (tmp_path / "cache" / "fingerprint").write_bytes(cache_module.marshal.dumps(record))
    monkeypatch.setattr(cache_module, "_fingerprint_record", None)
    cache_module.code_fingerprint.cache_clear()
    monkeypatch.setattr(cache_module, "_computed_fingerprint", lambda: "computed again")
    Cache(tmp_path / "cache").open()
    assert cache_module.code_fingerprint() == "computed again"
