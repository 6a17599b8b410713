"""The per-contract cache keys (issue 11, a rebuild's fixed cost): each contract is keyed by a
fingerprint of the design text it was loaded from, not by a conversion of its whole dataclass.

What must hold: the key changes whenever the result could (the contract's file, a definition
file it reaches, a shared definition's design-wide name, its path, toolgen.toml's options for the
projection), and stays the same when only something else changed, so that its stages are cache
hits. Loading reads the folder with os.scandir and resolves paths only behind symbolic links:
it must find the files pathlib's rglob finds and still refuse links that lead outside.
"""

from __future__ import annotations

import dataclasses
import json
import marshal
import os
from pathlib import Path
from typing import Any

import pytest

from tests.test_scale import MONEY
from toolgen.build import Session, analyze, build
from toolgen.compile.models import generate
from toolgen.infra import cache as cache_module
from toolgen.infra.cache import INDEX_FILE, Cache
from toolgen.infra.parallel import Runner
from toolgen.load import sources
from toolgen.load.contracts import Contract
from toolgen.load.design import load_design
from toolgen.load.loader import SCHEMA_SUFFIXES, design_files
from toolgen.providers import settings


def _files(tool, count: int = 4) -> dict[str, Any]:
    """t0 and t1 use defs/money.yaml's Money; the others use nothing shared."""
    files: dict[str, Any] = {"defs/money.yaml": MONEY}
    for index in range(count):
        properties: dict[str, Any] = {"query": {"type": "string", "description": f"q{index}"}}
        if index < 2:
            properties["price"] = {"$ref": "../defs/money.yaml#/$defs/Money"}
        files[f"tools/t{index}.yaml"] = tool(
            f"t{index}", {"type": "object", "properties": properties, "required": ["query"]}
        )
    return files


def _contracts(design: Path) -> dict[str, Contract]:
    loaded, diagnostics = load_design(design, settings())
    assert loaded is not None, diagnostics
    return {c.name: c for c in loaded.contracts}


def _fingerprints(design: Path) -> dict[str, str]:
    found = {name: c.fingerprint for name, c in _contracts(design).items()}
    assert all(found.values()), "a loaded contract without a fingerprint"
    return found


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {name for name in before if before[name] != after.get(name)}


def test_the_fingerprint_changes_with_the_contract_file_and_the_files_it_reaches(make_design, tool):
    design = make_design(_files(tool))
    before = _fingerprints(design)
    assert len(set(before.values())) == len(before)
    assert _fingerprints(make_design(_files(tool), "copy")) == before  # only text counts

    t2 = design / "tools" / "t2.yaml"
    t2.write_text(t2.read_text().replace("q2", "the second query"))
    after = _fingerprints(design)
    assert _changed(before, after) == {"t2"}

    money = design / "defs" / "money.yaml"
    money.write_text(money.read_text() + "# a comment: same schemas, other bytes\n")
    assert _changed(after, _fingerprints(design)) == {"t0", "t1"}


def test_the_fingerprint_changes_with_the_file_name(make_design, tool):
    # the name defaults to the file's stem, and diagnostics name the file
    files = _files(tool)
    files["tools/t3.yaml"].pop("name")
    before = _fingerprints(make_design(files))
    files["tools/renamed.yaml"] = files.pop("tools/t3.yaml")
    after = _fingerprints(make_design(files, "renamed"))
    assert before["t3"] not in after.values()
    assert _changed({k: v for k, v in before.items() if k != "t3"}, after) == set()


def test_the_fingerprint_changes_when_a_clash_elsewhere_renames_a_shared_definition(
    make_design, tool
):
    """Shared definitions get design-wide names: a second Money in another file, used by a new
    tool, renames money.yaml's Money in t0 and t1, whose files did not change."""
    files = _files(tool)
    design = make_design(files)
    before = _contracts(design)
    files["defs/other.yaml"] = MONEY
    files["tools/t9.yaml"] = tool(
        "t9", {"type": "object", "properties": {"p": {"$ref": "../defs/other.yaml#/$defs/Money"}}}
    )
    after = _contracts(make_design(files, "clash"))
    assert list(after["t0"].shared) != list(before["t0"].shared)  # the premise: renamed
    assert after["t0"].schema != before["t0"].schema
    assert after["t0"].fingerprint != before["t0"].fingerprint
    assert after["t1"].fingerprint != before["t1"].fingerprint
    assert after["t2"].fingerprint == before["t2"].fingerprint


def test_a_changed_copy_of_a_contract_is_keyed_by_its_fields(make_design, tool):
    contract = _contracts(make_design(_files(tool)))["t2"]
    assert contract.identity() == ["fingerprint", contract.fingerprint]
    copy = dataclasses.replace(contract, schema={"type": "object"})
    assert copy.fingerprint == ""
    assert copy.identity() == cache_module.plain(copy)
    assert copy.identity() != contract.identity()


def _analyze(design: Path, cache_dir: Path) -> tuple[Any, Cache]:
    cache = Cache(cache_dir)
    with Runner(1, cache) as runner:
        result = analyze(design, ("openai",), runner)
        planned, shared = generate._plan(result.design)
        keys = [
            generate._cache_key((p, {n: shared[n] for n in p.contract.shared}, "# h"))
            for p in planned
        ]
    return (result, keys), cache


def _summary(result: Any) -> Any:
    return (
        [d.to_dict() for d in result.diagnostics],
        [(p.contract.name, p.schema, p.strict) for p in result.projections[0].tools],
    )


def test_an_edit_elsewhere_leaves_the_other_contracts_cache_hits(make_design, tool, tmp_path):
    design = make_design(_files(tool))
    cache_dir = tmp_path / "cache"
    (_, keys), _ = _analyze(design, cache_dir)
    t3 = design / "tools" / "t3.yaml"
    t3.write_text(t3.read_text().replace("q3", "the third query"))
    (result, after), cache = _analyze(design, cache_dir)
    assert (cache.misses["meta"], cache.hits["meta"]) == (1, 4)
    assert (cache.misses["checks"], cache.hits["checks"]) == (1, 3)
    assert (cache.misses["projection"], cache.hits["projection"]) == (1, 3)
    assert [a == b for a, b in zip(keys, after, strict=True)] == [True, True, True, False]
    assert _summary(result) == _summary(analyze(design, ("openai",)))


def test_toolgen_toml_options_are_in_the_projection_key(make_design, tool, tmp_path):
    files = _files(tool)
    files["tools/t3.yaml"]["parameters"]["properties"]["query"]["type"] = ["string", "null"]
    files["tools/t3.yaml"]["parameters"]["required"] = []
    design = make_design(files)
    cache_dir = tmp_path / "cache"
    _analyze(design, cache_dir)
    (design / "toolgen.toml").write_text('[providers.openai]\noptional_nullable = "error"\n')
    (result, _), cache = _analyze(design, cache_dir)
    assert cache.misses["projection"] == 4
    assert cache.hits["checks"] == 4
    assert any(d.code == "OPTIONAL_NULLABLE" and d.level == "error" for d in result.diagnostics)
    assert _summary(result) == _summary(analyze(design, ("openai",)))


def test_a_rebuild_converts_no_contract_for_its_keys(make_design, tool, tmp_path, monkeypatch):
    """``plain()`` of every contract was most of a rebuild's key cost; the keys of loaded
    contracts are their fingerprints."""
    design = make_design(_files(tool))
    cache_dir = tmp_path / "cache"
    _analyze(design, cache_dir)
    converted: list[str] = []
    real = cache_module.plain

    def counting(value: Any) -> Any:
        if isinstance(value, Contract) or (
            isinstance(value, tuple | list) and any(isinstance(v, Contract) for v in value)
        ):
            converted.append(repr(value)[:60])
        return real(value)

    for module in (
        "toolgen.infra.cache",
        "toolgen.load.loader",
        "toolgen.project.design_projection",
        "toolgen.load.contracts",
    ):
        monkeypatch.setattr(f"{module}.plain", counting, raising=False)
    monkeypatch.setattr(generate, "plain", counting, raising=False)
    _analyze(design, cache_dir)
    assert converted == []


def test_a_renamed_shared_definition_is_never_served_stale(make_design, tool, tmp_path):
    """End to end: after the clash above, the cached build is the uncached one."""
    files = _files(tool, 3)
    design = make_design(files)
    cache_dir = tmp_path / "cache"
    assert build(design, ("openai",), cache_dir=cache_dir).ok
    files["defs/other.yaml"] = MONEY
    files["tools/t9.yaml"] = tool(
        "t9", {"type": "object", "properties": {"p": {"$ref": "../defs/other.yaml#/$defs/Money"}}}
    )
    make_design(files)
    cached = build(design, ("openai",), cache_dir=cache_dir)
    uncached = build(design, ("openai",))
    assert cached.ok and cached.files == uncached.files
    assert "class MoneyMoney" in uncached.files["models/_shared.py"]  # the premise: renamed


# --------------------------------------------------------------------------------------------
# loading: references only the bytes can rule out, the folder listing, symbolic links
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "t.json",
            '{"name": "t", "parameters": {"type": "object", "properties": '
            '{"p": {"\\u0024ref": "../defs/money.yaml#/$defs/Money"}}}}',
        ),
        (
            "t.yaml",
            'name: t\nparameters:\n  type: object\n  properties:\n    p: {"\\x24ref": '
            '"../defs/money.yaml#/$defs/Money"}\n',
        ),
    ],
)
def test_a_reference_spelled_with_escapes_is_bundled(make_design, name, text):
    design = make_design({"defs/money.yaml": MONEY, f"tools/{name}": text})
    assert b"$ref" not in (design / "tools" / name).read_bytes()
    contract = _contracts(design)["t"]
    assert list(contract.shared) == ["Money"]
    assert contract.schema["properties"]["p"] == {"$ref": "#/$defs/Money"}


def _rglob_files(root: Path) -> list[str]:
    """design_files as it was written with pathlib (the reference the scan must agree with)."""
    found = []
    for folder in ("tools", "outputs", "defs"):
        base = root / folder
        if base.is_dir():
            found += [
                p.relative_to(root).as_posix()
                for p in base.rglob("*")
                if p.is_file() and p.suffix.lower() in SCHEMA_SUFFIXES
            ]
    return sorted(found)


def test_the_listing_finds_what_rglob_finds(tmp_path, tool):
    outside = tmp_path / "elsewhere"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "x.yaml").write_text("{}")
    (outside / "y.json").write_text("{}")
    root = tmp_path / "design"
    for relative in (
        "tools/a.yaml",
        "tools/B.JSON",
        "tools/.hidden.yml",
        "tools/.json",
        "tools/..json",
        "tools/no_suffix",
        "tools/a.json.",
        "tools/readme.txt",
        "tools/deep/er/c.yml",
        "tools/dir.yaml/d.yaml",
        "defs/e.yaml",
        "outputs/f.json",
    ):
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    (root / "tools" / "linked_dir").symlink_to(outside / "sub")  # not followed below a folder
    (root / "tools" / "linked.json").symlink_to(outside / "y.json")
    (root / "tools" / "dangling.json").symlink_to(tmp_path / "nothing.json")
    (root / "defs" / "inside.yaml").symlink_to(root / "defs" / "e.yaml")
    (root / "outputs" / "fifo.json").parent.mkdir(exist_ok=True)
    os.mkfifo(root / "outputs" / "fifo.json")
    assert design_files(root) == _rglob_files(root)
    assert "tools/linked.json" in design_files(root)

    linked_root = tmp_path / "linked"
    linked_root.mkdir()
    (linked_root / "tools").symlink_to(outside)  # a linked folder itself is listed, as by rglob
    assert (
        design_files(linked_root)
        == _rglob_files(linked_root)
        == ["tools/sub/x.yaml", "tools/y.json"]
    )


def test_files_behind_a_link_outside_are_refused_and_links_inside_are_read(tmp_path, tool):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.json").write_text(json.dumps(tool("secret", {"type": "object"})))
    root = tmp_path / "design"
    (root / "tools").mkdir(parents=True)
    (root / "tools" / "t.json").write_text(json.dumps(tool("t", {"type": "object"})))
    (root / "tools" / "alias.json").symlink_to(root / "tools" / "t.json")
    (root / "outputs").symlink_to(outside)
    design, diagnostics = load_design(root, settings())
    assert {(d.file, d.code) for d in diagnostics} == {
        ("outputs/secret.json", "OUTSIDE_DESIGN"),
        ("tools/t.json", "DUPLICATE_NAME"),  # the link was read: the same tool twice
    }
    assert design is not None and [c.name for c in design.contracts] == ["t"]


@pytest.mark.parametrize(
    ("text", "code", "pointer"),
    [
        (
            '{"parameters": {"properties": {"a": {"maximum": 1e999}}}}',
            "PARSE_ERROR",
            "/parameters/properties/a/maximum",
        ),
        ('{"a": [1.5, -1e400]}', "PARSE_ERROR", "/a/1"),
        ("[" * 64 + "]" * 64, None, None),
        ("[" * 65 + "]" * 65, "TOO_DEEP", "/0" * 64),
        ('{"a": "' + "{" * 70 + '"}', None, None),  # braces in a string: checked, and valid
    ],
)
def test_json_checked_without_a_walk_keeps_its_errors(text, code, pointer):
    """A JSON file of few objects and arrays, with finite numbers, skips the nesting walk; the
    others are walked, with the errors' pointers."""
    if code is None:
        assert sources.parse(text, ".json") is not None
        return
    with pytest.raises(sources.SourceError) as raised:
        sources.parse(text, ".json")
    assert (raised.value.code, raised.value.pointer) == (code, pointer)


# --------------------------------------------------------------------------------------------
# the index of a stage's small entries
# --------------------------------------------------------------------------------------------


def test_an_indexed_stage_is_read_from_its_index_and_hands_out_copies(tmp_path):
    cache = Cache(tmp_path)
    cache.index("meta")
    cache.put("meta", "a" * 64, [{"x": 1}])
    cache.put("meta", "b" * 64, [])
    cache.save_indexes()
    for entry in (tmp_path / "meta").glob("??/*.json"):
        entry.unlink()  # only the index is left
    again = Cache(tmp_path)
    again.index("meta")
    first = again.get("meta", "a" * 64)
    assert first == [{"x": 1}]
    first[0]["x"] = 2  # what a caller does with a value never reaches the index
    assert again.get("meta", "a" * 64) == [{"x": 1}]
    assert again.get("meta", "c" * 64) is None
    assert (again.hits["meta"], again.misses["meta"]) == (2, 1)
    again.save_indexes()  # used a and not b: the index keeps what this build used
    third = Cache(tmp_path)
    third.index("meta")
    assert third.get("meta", "b" * 64) is None
    assert third.get("meta", "a" * 64) == [{"x": 1}]


@pytest.mark.parametrize(
    "content",
    [
        b"\xff{",
        marshal.dumps({"format": "toolgen-cache-index-1", "stage": "other", "entries": {}}),
        marshal.dumps({"stage": "meta", "entries": {}}),  # of no format: another's
    ],
)
def test_a_broken_or_foreign_index_only_costs_reads(make_design, tool, tmp_path, content):
    """The indexes a watch session reads (a process that builds once reads these stages a few
    dozen contracts an entry: toolgen.infra.cache.grouped_results)."""
    design = make_design(_files(tool, 3))
    cache_dir = tmp_path / "cache"
    expected = build(design, ("openai",)).files
    assert Session().build(design, ("openai",), cache_dir=cache_dir).files == expected
    indexes = sorted(cache_dir.glob(f"*/{INDEX_FILE}"))
    assert {p.parts[-3] for p in indexes} == {
        *("meta", "checks", "canonical-globals", "satisfiable", "forward-plans")
    }
    for index in indexes:
        index.write_bytes(content)
    watching = Session()
    assert watching.build(design, ("openai",), cache_dir=cache_dir).files == expected
    assert watching._cache is not None
    assert sum(watching._cache.misses.values()) == 0  # read from the entries' own files
    assert build(design, ("openai",), cache_dir=cache_dir).files == expected
