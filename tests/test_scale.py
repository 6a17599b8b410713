"""The build at scale (issue 11): --jobs, the incremental cache, progress, black in parts.

Every build here is small; the pool and the cutting of large modules are forced on by lowering
their thresholds, so the machinery that a 3,000-tool design uses runs on a few tools.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from toolgen.build import build
from toolgen.infra import parallel
from toolgen.infra.cache import MANIFEST_FILE, Cache
from toolgen.infra.parallel import Progress, Runner
from toolgen.render import formatting
from toolgen.render.formatting import black_format

MONEY = {
    "$defs": {
        "Money": {
            "type": "object",
            "properties": {"amount": {"type": "integer"}, "currency": {"type": "string"}},
            "required": ["amount", "currency"],
        }
    }
}


#: a union whose branch tests contracts share (and a pattern: a hoisted constant)
CHOICE = {
    "anyOf": [
        {"type": "string", "pattern": "^[a-z]+$"},
        {"type": "object", "properties": {"n": {"type": "integer"}, "note": {"type": "string"}}},
    ]
}


def _design(
    make_design, tool, count: int, money_users: int = 1, name: str = "design", unions: bool = False
) -> Path:
    files: dict[str, object] = {"defs/money.yaml": MONEY}
    for index in range(count):
        properties: dict[str, object] = {"query": {"type": "string", "description": f"q{index}"}}
        if index < money_users:
            properties["price"] = {"$ref": "../defs/money.yaml#/$defs/Money"}
        if unions:
            properties["choice"] = CHOICE
        files[f"tools/t{index}.yaml"] = tool(
            f"t{index}", {"type": "object", "properties": properties, "required": ["query"]}
        )
    return make_design(files, name)


def _build(design: Path, **options) -> dict[str, str]:
    result = build(design, ("openai",), **options)
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.files


# --------------------------------------------------------------------------------------------
# black in parts
# --------------------------------------------------------------------------------------------


def _formatted_sources(design: Path, monkeypatch) -> list[tuple[str, tuple]]:
    """The (source, literals) of every module the build of ``design`` formats."""
    sources: list[tuple[str, tuple]] = []
    real = formatting.submit_format  # what every module's formatting goes through

    def recorded(source: str, literals=(), *, runner: Runner):
        sources.append((source, tuple(literals)))
        return real(source, literals, runner=runner)

    monkeypatch.setattr(formatting, "submit_format", recorded)
    build(design, ("openai",))
    monkeypatch.undo()
    return sources


def test_black_in_parts_gives_the_bytes_of_black_on_the_whole_module(example_design, monkeypatch):
    """Every generated module of the example design, cut as finely as it can be (every module,
    groups of one or two parts), formats to what black gives for the module whole."""
    sources = _formatted_sources(example_design, monkeypatch)
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    monkeypatch.setattr(formatting, "GROUP_PARTS", 2)
    monkeypatch.setattr(formatting, "GROUP_MIN_CHARS", 0)
    cut = given = 0
    for source, literals in sources:
        whole = formatting.written_out(source, literals)
        plan = formatting._plan(whole)
        cut += plan is not None
        given += len(literals)
        assert formatting.format_python(source, literals, runner=Runner()) == black_format(whole)
    assert cut >= 5, "the example design no longer exercises the cutting"
    # the provider's tables module (6) and models/__init__.pyi's __all__; the provider module's
    # name tables are JSON rows now, one string each
    assert given >= 7, "the tables modules no longer give their tables as data"


def test_cuts_found_in_the_text_hold_for_generated_modules(example_design, monkeypatch):
    """The cuts found without parsing the module hold for the generated modules (each part
    parses alone and ends with a definition, after joining a few), so no module is parsed whole."""
    sources = _formatted_sources(example_design, monkeypatch)
    monkeypatch.setattr(formatting, "GROUP_PARTS", 2)
    monkeypatch.setattr(formatting, "GROUP_MIN_CHARS", 0)
    planned = 0
    for source, literals in sources:
        text, given = formatting._cut_literals(source, literals)
        plan = formatting._quick_plan(text, given)
        if plan is None:
            continue
        planned += 1
        checked = formatting._check_parts(plan, Runner())
        assert checked is not None, source[:2000]
        plan, parts = checked
        fragments = [black_format(s) for s in plan.sources()[len(parts) :]]
        whole = formatting.written_out(source, literals)
        assert plan.assemble(parts + fragments) == black_format(whole)
    assert planned >= 5, "the example design no longer exercises the cutting"


@pytest.mark.parametrize(
    "source",
    [
        # a "def" line after a blank line inside a string, and inside brackets
        'def f():\n    return 1\n\nX = """\n\ndef g(): pass\n"""\n\ndef h():\n  pass\n',
        "def f():\n    return 1\n\nX = (\n    a\n\n@ b\n)\n\ndef h():\n  pass\n",
        # a comment between two definitions, a decorator apart from its function
        "def f():\n    return 1\n# note\n\ndef g():\n  pass\n\ndef h(): pass\n",
        "def f():\n    return 1\n\n@dec\n\ndef g():\n  pass\n\ndef h(): pass\n",
    ],
)
def test_cuts_found_in_the_text_that_do_not_hold_are_not_used(source, monkeypatch):
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    monkeypatch.setattr(formatting, "GROUP_PARTS", 1)
    assert formatting._quick_plan(source) is not None
    assert formatting.format_python(source, runner=Runner()) == black_format(source)


def test_a_module_that_cannot_be_cut_is_formatted_whole(monkeypatch):
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    source = "x = 1\n# a comment\ndef f():\n  return {'a': 1}\n"
    assert formatting._plan(source) is None
    assert formatting.format_python(source, runner=Runner()) == black_format(source)


@pytest.mark.parametrize("group_parts", [1, 2])
def test_large_tuples_are_cut_like_lists_and_dicts(group_parts, monkeypatch):
    """A one-line tuple assignment is formatted in groups of elements (of one element too), with
    black's bytes; lines that only look like one (operators between parenthesized parts, one
    element) are left whole."""
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    monkeypatch.setattr(formatting, "GROUP_PARTS", group_parts)
    monkeypatch.setattr(formatting, "_whole", None)  # never the fallback: formatted in parts
    names = ", ".join(repr(f"tool_number_{i}") for i in range(40))
    source = (
        f"NAMES: tuple[str, ...] = ({names})\n"
        f"SUM = ({' + '.join(['a_long_name'] * 12)}) * ({' + '.join(['b_long_name'] * 12)})\n"
        f"ONE = ({'x_very_long_name_' * 15!r},)\n"
        f"NESTED = (('a', 'b'), {names}, ('c',))\n"
        "\n\ndef f():\n    return NAMES\n\n\ndef g():\n    return ONE\n"
    )
    plan = formatting._quick_plan(source)
    assert plan is not None
    assert [literal.opening for literal in plan.literals] == ["(", "("]
    assert formatting.format_python(source, runner=Runner()) == black_format(source)


def test_a_one_tool_rebuild_formats_a_small_part_of_the_package(
    make_design, tool, tmp_path, monkeypatch
):
    """After a changed tool, black sees the changed contract's pieces and the small heads of the
    modules, not the tables of every tool (the design hash and the name tables change nothing);
    a changed description is in JSON texts and laid out lines only: black sees nothing."""
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    formatted: list[str] = []
    real = formatting.black_format
    monkeypatch.setattr(formatting, "black_format", lambda s: formatted.append(s) or real(s))
    design = _design(make_design, tool, 30)
    cache_dir = tmp_path / "cache"
    _build(design, cache_dir=cache_dir)
    full = sum(map(len, formatted))
    formatted.clear()
    changed = design / "tools" / "t3.yaml"
    changed.write_text(changed.read_text().replace("q3", "the third query"))
    rebuilt = _build(design, cache_dir=cache_dir)
    assert "the third query" in rebuilt["_tables_openai.py"]
    assert sum(map(len, formatted)) < 0.1 * full


# --------------------------------------------------------------------------------------------
# --jobs
# --------------------------------------------------------------------------------------------


def test_parallel_build_is_byte_identical_to_one_job(make_design, tool, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PARALLEL_ITEMS", 1)
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    design = _design(make_design, tool, 6)
    started = []
    real_executor = parallel.Runner._executor
    monkeypatch.setattr(
        parallel.Runner, "_executor", lambda self: started.append(1) or real_executor(self)
    )
    assert _build(design, jobs=2) == _build(design, jobs=1)
    assert started, "the two-job build never used its worker processes"


# --------------------------------------------------------------------------------------------
# the cache
# --------------------------------------------------------------------------------------------


def test_a_build_with_a_cache_does_not_compile_the_templates_again(
    make_design, tool, tmp_path, monkeypatch
):
    """The compiled templates are kept in the cache folder: a new process (here: a fresh
    template environment) loads them instead of compiling, with the same output."""
    import jinja2

    from toolgen.render import templating

    design = _design(make_design, tool, 2)
    cache = tmp_path / "cache"
    templating.environment.cache_clear()
    first = _build(design, cache_dir=cache)
    assert list(cache.glob("jinja-*/*"))
    compiled: list[str | None] = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(
        jinja2.Environment,
        "compile",
        lambda self, source, name=None, *a, **k: (
            compiled.append(name) or real(self, source, name, *a, **k)
        ),
    )
    templating.environment.cache_clear()
    try:
        assert _build(design, cache_dir=cache) == first
    finally:
        templating.environment.cache_clear()
    assert compiled == []


def test_cached_uncached_and_partly_cached_builds_are_identical(
    make_design, tool, tmp_path, monkeypatch
):
    from toolgen.compile.canonical import caching

    monkeypatch.setattr(caching, "GROUP_SIZE", 1)  # a group of canonical units per contract
    design = _design(make_design, tool, 4, money_users=3, unions=True)
    cache = tmp_path / "cache"
    uncached = _build(design)
    assert "_admits_1" in uncached["_canonical_openai.py"]  # the units share branch tests
    assert _build(design, cache_dir=cache) == uncached  # filling the cache
    assert _build(design, cache_dir=cache) == uncached  # all from the cache
    entries = sorted(cache.rglob("*.json"))
    for entry in entries[::2]:  # half of the entries gone
        entry.unlink()
    # and the manifest, which holds the last build's entries too (docs/cache.md)
    (cache / MANIFEST_FILE).unlink()
    assert _build(design, cache_dir=cache) == uncached
    # the canonical module linked from units read and units compiled, either way round
    for parity in (0, 1):
        groups = sorted((cache / "canonical-group").rglob("*.json"))
        assert len(groups) == 4
        for group in groups[parity::2]:
            group.unlink()
        (cache / MANIFEST_FILE).unlink()
        assert _build(design, cache_dir=cache) == uncached
    assert not list(cache.rglob(".tmp-*")), "a temporary file was left in the cache"


def test_a_corrupt_entry_is_ignored_and_recomputed(make_design, tool, tmp_path):
    design = _design(make_design, tool, 3)
    cache = tmp_path / "cache"
    expected = _build(design, cache_dir=cache)
    entries = sorted(cache.rglob("*.json"))
    for index, entry in enumerate(entries):
        # truncated, not JSON, JSON of another key, a value of the wrong shape
        entry.write_bytes(
            [b'{"key": "', b"\xff\x00garbage", b'{"key": "other", "value": 1}', b"[]"][index % 4]
        )
    result = build(design, ("openai",), cache_dir=cache)
    assert result.files == expected
    assert _build(design, cache_dir=cache) == expected


def _misses(design: Path, cache_dir: Path, monkeypatch) -> Cache:
    """Build through the cache and return the cache object the build used (its counters)."""
    caches: list[Cache] = []
    real_init = Cache.__init__

    def spy(self: Cache, root: Path, *args: Any, **options: Any) -> None:
        real_init(self, root, *args, **options)
        caches.append(self)

    monkeypatch.setattr(Cache, "__init__", spy)
    _build(design, cache_dir=cache_dir)
    monkeypatch.undo()
    return caches[-1]


def test_a_changed_tool_recomputes_only_that_tool(make_design, tool, tmp_path, monkeypatch):
    design = _design(make_design, tool, 5)
    cache_dir = tmp_path / "cache"
    _build(design, cache_dir=cache_dir)
    assert sum(_misses(design, cache_dir, monkeypatch).misses.values()) == 0

    changed = _design(make_design, tool, 5, name="design")  # same files ...
    (changed / "tools" / "t3.yaml").write_text(
        (changed / "tools" / "t3.yaml").read_text().replace("q3", "the third query")
    )
    cache = _misses(changed, cache_dir, monkeypatch)
    assert cache.misses["models"] == 1
    assert cache.misses["meta"] == 1
    assert cache.misses["checks"] == 1
    assert (cache.misses["projection"], cache.hits["projection"]) == (1, 4)
    assert (cache.misses["canonical"], cache.hits["canonical"]) == (1, 4)  # one unit compiled
    assert cache.hits["models"] == 4
    assert cache.hits["checks"] == 4
    assert cache.hits["shared"] == 1
    # the checks for unsatisfiable nodes (its schema, its projection) and the testing fakes'
    # forward plans of the other tools are read, not walked again
    assert (cache.misses["satisfiable"], cache.hits["satisfiable"]) == (2, 8)
    assert (cache.misses["forward-plans"], cache.hits["forward-plans"]) == (1, 4)


def test_a_changed_tool_reads_the_other_canonical_units_from_its_group(
    make_design, tool, tmp_path, monkeypatch
):
    """Canonical units are cached in groups of consecutive contracts (here one each), a unit with
    the projection it was made from: a unit made from another projection is not used."""
    from toolgen.compile.canonical import caching

    monkeypatch.setattr(caching, "GROUP_SIZE", 1)  # t0 | t1 | t2 | t3 | t4
    design = _design(make_design, tool, 5)
    cache_dir = tmp_path / "cache"
    expected = _build(design, cache_dir=cache_dir)
    changed = design / "tools" / "t3.yaml"
    changed.write_text(changed.read_text().replace("q3", "the third query"))
    cache = _misses(design, cache_dir, monkeypatch)
    # every group is found by its contracts' names; t3's holds a unit of t3's old projection
    assert (cache.misses["canonical-group"], cache.hits["canonical-group"]) == (0, 5)
    assert (cache.misses["canonical"], cache.hits["canonical"]) == (1, 4)
    changed.write_text(changed.read_text().replace("the third query", "q3"))
    assert _build(design, cache_dir=cache_dir) == expected


def test_a_changed_shared_definition_recomputes_exactly_its_users(
    make_design, tool, tmp_path, monkeypatch
):
    design = _design(make_design, tool, 6, money_users=2)
    cache_dir = tmp_path / "cache"
    _build(design, cache_dir=cache_dir)
    money = design / "defs" / "money.yaml"
    money.write_text(money.read_text().replace("amount", "amount_minor"))
    cache = _misses(design, cache_dir, monkeypatch)
    assert cache.misses["models"] == 2  # t0 and t1 reach Money; t2..t5 do not
    assert cache.hits["models"] == 4
    assert (cache.misses["checks"], cache.hits["checks"]) == (2, 4)
    assert (cache.misses["projection"], cache.hits["projection"]) == (2, 4)
    assert (cache.misses["canonical"], cache.hits["canonical"]) == (2, 4)
    assert cache.misses["meta"] == 1  # the definitions file itself
    assert cache.misses["shared"] == 1  # models/_shared.py


def test_the_cache_is_pruned_to_its_bound_keeping_what_the_last_build_used(
    make_design, tool, tmp_path, monkeypatch
):
    import os
    import time

    from toolgen.infra import cache as cache_module

    design = _design(make_design, tool, 4)
    cache_dir = tmp_path / "cache"
    _build(design, cache_dir=cache_dir)
    first = set(_entry_files(cache_dir))
    old = time.time() - 10
    for entry in first:  # written earlier than the next build's entries
        os.utime(entry, (old, old))
    stale_temporary = next(iter(first)).parent / ".tmp-killed"
    stale_temporary.write_text("{")
    ancient = time.time() - 2 * cache_module.STALE_TEMPORARY_SECONDS
    os.utime(stale_temporary, (ancient, ancient))
    (design / "tools" / "t2.yaml").write_text(
        (design / "tools" / "t2.yaml").read_text().replace("q2", "the second query")
    )
    monkeypatch.setattr(Cache.__init__, "__defaults__", (0,))  # max_bytes 0: prune all it may
    cache = _misses(design, cache_dir, monkeypatch)
    remaining = set(_entry_files(cache_dir))
    assert {str(entry) for entry in remaining} == cache.used, (
        "an entry the build used went, or an unused one stayed"
    )
    assert first - remaining, "the entries of the changed tool's previous version stayed"
    assert not stale_temporary.exists()
    monkeypatch.undo()
    assert _build(design, cache_dir=cache_dir) == _build(design)
    assert sum(_misses(design, cache_dir, monkeypatch).misses.values()) == 0


def test_cli_cache_beside_the_design_never_inside_out(cli, make_design, tool, tmp_path):
    design = _design(make_design, tool, 1)
    out = tmp_path / "gen"
    assert cli("build", design, "-o", out, "-q", "--provider", "openai").exit_code == 0
    assert (design.parent / ".toolgen-cache").is_dir()
    assert not list(out.rglob("*toolgen-cache*"))

    result = cli("build", design, "-o", out, "--cache-dir", out / "cache")
    assert result.exit_code == 2
    assert "must not be inside OUT" in result.stderr

    shutil.rmtree(design.parent / ".toolgen-cache")
    assert cli("build", design, "-o", out, "--no-cache", "--provider", "openai").exit_code == 0
    assert not (design.parent / ".toolgen-cache").exists()


# --------------------------------------------------------------------------------------------
# progress
# --------------------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("terminal", "quiet", "ci", "shown"),
    [
        (True, False, None, True),
        (False, False, None, False),
        (True, True, None, False),
        (True, False, "true", False),
    ],
)
def test_progress_only_on_a_terminal_outside_ci_and_not_quiet(
    monkeypatch, terminal, quiet, ci, shown
):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    stream = _Terminal() if terminal else io.StringIO()
    progress = Progress.for_terminal(quiet, stream)
    progress.started -= Progress.DELAY  # the build has been running for a while
    progress.update("models", 3, 10)
    progress.update("models", 10, 10)
    progress.finish()
    assert ("models 10/10" in stream.getvalue()) is shown
    if shown:
        assert "models 3/10" in stream.getvalue()
        assert stream.getvalue().endswith("\r\x1b[K")  # the line is cleared at the end


def test_no_progress_without_a_standard_error(monkeypatch):
    """pythonw, or a service, runs with ``sys.stderr`` None: a build shows no progress then,
    rather than failing on ``None.isatty()``."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys, "stderr", None)
    monkeypatch.setattr(sys, "__stderr__", None)
    progress = Progress.for_terminal(quiet=False)
    assert not progress.enabled
    progress.update("models", 10, 10)
    progress.finish()


def test_no_progress_for_a_short_build():
    stream = _Terminal()
    progress = Progress(stream, enabled=True)
    progress.update("models", 1, 2)
    assert stream.getvalue() == ""


def test_a_cache_under_its_bound_is_not_walked_after_a_build(
    make_design, tool, tmp_path, monkeypatch
):
    """Pruning walks the cache only when what it holds may pass the bound: the size the last walk
    found plus what builds wrote since."""
    design = _design(make_design, tool, 3)
    cache_dir = tmp_path / "cache"
    _build(design, cache_dir=cache_dir)

    def size() -> int:
        return sum(p.stat().st_size for p in _entry_files(cache_dir))

    assert int((cache_dir / "size").read_text()) == size()
    walks: list[Path] = []
    real_glob = Path.glob
    monkeypatch.setattr(
        Path, "glob", lambda self, pattern: walks.append(self) or real_glob(self, pattern)
    )
    walked = []
    for bound in (10**9, 0):
        cache = Cache(cache_dir, max_bytes=bound)
        cache.put("stage", "ab" * 32, {"value": bound})
        cache.prune()
        walked.append(len(walks))
    monkeypatch.undo()
    assert walked == [0, 1]
    kept = _entry_files(cache_dir)
    assert [p.parent.parent.name for p in kept] == ["stage"], "all but what the last one used"
    assert (cache_dir / "size").read_text() == str(size())


def test_a_prune_leaves_room_so_the_next_builds_do_not_walk(tmp_path, monkeypatch):
    """A prune goes down to PRUNED_SHARE of the bound: pruned only to the bound itself, the
    cache would be walked again by the next build that adds an entry (seconds, each rebuild of a
    watch session over a large design)."""
    from toolgen.infra.cache import PRUNED_SHARE

    cache_dir = tmp_path / "cache"
    earlier = Cache(cache_dir)
    for index in range(10):  # 10 entries of about 1 kB that no later build uses
        earlier.put("stage", f"{index:02d}" * 32, {"value": "x" * 1000})
    earlier.prune()
    entry = _entry_files(cache_dir)[0].stat().st_size
    bound = int(5.5 * entry)
    walks: list[Path] = []
    real_glob = Path.glob
    monkeypatch.setattr(
        Path, "glob", lambda self, pattern: walks.append(self) or real_glob(self, pattern)
    )
    for build_index in range(2):  # each adds one entry of the same size
        cache = Cache(cache_dir, max_bytes=bound)
        cache.put("stage", f"b{build_index}" * 32, {"value": "y" * 1000})
        cache.prune()
        if build_index == 0:
            pruned = sum(p.stat().st_size for p in _entry_files(cache_dir))
    monkeypatch.undo()
    assert pruned <= PRUNED_SHARE * bound
    assert len(walks) == 1, "the build after the prune walked the cache again"


#: ``Path.glob`` itself, where a test counts the calls of the build's
_GLOB = Path.glob


def _entry_files(cache_dir: Path) -> list[Path]:
    """The files where the cache keeps entries: each entry's, and each indexed stage's index
    (``<stage>/index/index.marshal``), which pruning counts and removes as one."""
    return sorted(
        path
        for path in _GLOB(cache_dir, "*/*/*")
        if path.is_file() and not path.name.startswith(".tmp-")
    )
