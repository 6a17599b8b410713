"""Shared fixtures of toolgen's tests: design folders written from dicts, the corpus, the CLI.

Helpers are fixtures (never imported from this module), so test folders with their own
conftest.py do not clash with this one.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import is_hypothesis_test, settings
from hypothesis.database import (
    DirectoryBasedExampleDatabase,
    MultiplexedDatabase,
    ReadOnlyDatabase,
)

from tests import strategy_speed

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"

#: The examples a deep run found failing (``make test-deep``), committed: every run replays them
#: before drawing its own, so what a deep run finds fails CI until it is fixed.
SAVED_EXAMPLES = REPO / "tests" / "hypothesis-examples"
_SAVED = DirectoryBasedExampleDatabase(SAVED_EXAMPLES)
#: TOOLGEN_DEEP (make test-deep): more examples (TOOLGEN_EXAMPLES_SCALE), random, and what
#: fails is written into SAVED_EXAMPLES.
DEEP = bool(os.environ.get("TOOLGEN_DEEP"))

# Property tests under CI: the saved examples (read-only), then the same drawn examples every
# run (a seed per test, pytest_runtest_setup below), so a failure replays; hypothesis's own
# derandomize would read no database. Elsewhere random, to find new ones, and a failure is
# kept in .hypothesis/ beside the saved ones.
settings.register_profile("ci", database=ReadOnlyDatabase(_SAVED))
settings.register_profile("deep", database=_SAVED)
settings.register_profile(
    "dev",
    database=MultiplexedDatabase(
        DirectoryBasedExampleDatabase(REPO / ".hypothesis" / "examples"), ReadOnlyDatabase(_SAVED)
    ),
)
SEEDED = bool(os.environ.get("CI")) and not DEEP
settings.load_profile("deep" if DEEP else "ci" if SEEDED else "dev")


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """(After hypothesis's own start: hypothesis-jsonschema loads hypothesis's character tables
    when it is imported, which hypothesis asks not to be done while plugins and conftest files
    load.)"""
    strategy_speed.install()


def seed_from(test: Any, name: str) -> None:
    """Make the property test ``test`` draw from a seed of ``name``: the same examples, as many,
    every run. hypothesis's own ``seed()`` and ``derandomize`` also turn its database off (the
    saved examples would not replay), so this sets the attribute ``seed()`` sets and nothing
    else (tests/test_saved_examples.py checks that the saved examples still replay)."""
    digest = hashlib.sha256(name.encode()).digest()
    function = getattr(test, "__func__", test)
    function._hypothesis_internal_use_seed = int.from_bytes(digest[:8], "big")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Under CI, each property test draws from a seed of its own test id (after the saved
    examples)."""
    test = getattr(item, "obj", None)
    if SEEDED and test is not None and is_hypothesis_test(test):
        seed_from(test, item.nodeid)


@pytest.fixture(scope="session")
def suite_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build cache for the suite's builds of the same design (the example design is built
    for every provider by several modules): shared by the xdist workers of one run, under the
    run's own temporary folder. The cache's correctness is tested on its own (test_scale.py)."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "toolgen-cache"


@pytest.fixture(scope="session", autouse=True)
def unbounded_reports() -> None:
    """Reports as a pipe gets them, whole (toolgen.commands.reporting.terminal_width):
    pytest-xdist's workers run with ``COLUMNS=80``; a test of the width sets its own."""
    os.environ.pop("COLUMNS", None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules that hold a test marked ``slow`` run first (in their order), so that on
    several workers (xdist hands out a module at a time) no long module is left for the end,
    with the other workers idle."""
    slow = {item.module.__name__ for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.module.__name__ not in slow)


#: What the reason of every skip for want of the corpus starts with.
NO_CORPUS_REASON = "needs the shared corpus"
#: The category of those skips (``pytest_report_teststatus``): counted in the run's last line
#: ("N without corpus") and named once by :func:`pytest_terminal_summary`, instead of a line of
#: ``-ra``'s summary for each place that skips (hundreds of tests).
NO_CORPUS = "without corpus"


def skip_without_corpus(reason: str) -> None:
    """Skip a test that reads ../shared/corpus, which is absent: unless ``CI`` is set (.ci/run
    sets it), where a missing corpus is a failure, not 518 quiet skips."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the corpus is required)")
    pytest.skip(f"{NO_CORPUS_REASON}: {reason}")


def pytest_report_teststatus(report: pytest.TestReport) -> tuple[str, str, str] | None:
    """A skip of :func:`skip_without_corpus` is filed under :data:`NO_CORPUS`, not "skipped"."""
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and NO_CORPUS_REASON in str(longrepr[2]):
        return NO_CORPUS, "s", "SKIPPED (no corpus)"
    return None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line for every test skipped for want of the corpus (README.md, "Set up")."""
    skipped = len(terminalreporter.stats.get(NO_CORPUS, ()))
    if skipped:
        terminalreporter.write_line(
            f"{skipped} tests skipped: they read the shared corpus, which is not at {CORPUS} "
            "(../shared/corpus, beside the clone; see README.md, Set up)"
        )


EXAMPLE_DESIGN = REPO / "examples" / "design"

# The source tree's toolgen must be importable even when the editable install is missing, and
# the test helpers (strict_checker) whatever pytest's import mode.
for _path in (REPO, REPO / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

FileValue = str | bytes | Mapping[str, Any] | Sequence[Any] | bool | int | float | None


def write_design(root: Path, files: Mapping[str, FileValue]) -> Path:
    """Write a design folder from ``{"tools/a.yaml": {...}, "toolgen.toml": "..."}``.

    A str or bytes value is written as it is; any other value is dumped as JSON for ``.json``
    names and as YAML (keys in authored order) otherwise.
    """
    root.mkdir(parents=True, exist_ok=True)
    for relative, value in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(value, bytes):
            path.write_bytes(value)
        elif isinstance(value, str):
            path.write_text(value, encoding="utf-8")
        elif relative.endswith(".json"):
            path.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")
        else:
            path.write_text(
                yaml.safe_dump(value, sort_keys=False, allow_unicode=True), encoding="utf-8"
            )
    return root


def tool_file(
    name: str, parameters: Any, description: str = "A tool.", **extra: Any
) -> dict[str, Any]:
    """The content of a ``tools/NAME.yaml`` file."""
    return {"name": name, "description": description, "parameters": parameters, **extra}


def output_file(
    name: str, schema: Any, description: str = "An output.", **extra: Any
) -> dict[str, Any]:
    """The content of an ``outputs/NAME.yaml`` file."""
    return {"name": name, "description": description, "schema": schema, **extra}


@pytest.fixture
def make_design(tmp_path: Path) -> Callable[..., Path]:
    """``make_design(files, name="design")``: a design folder under tmp_path (see write_design)."""

    def make(files: Mapping[str, FileValue], name: str = "design") -> Path:
        return write_design(tmp_path / name, files)

    return make


@pytest.fixture
def tool() -> Callable[..., dict[str, Any]]:
    return tool_file


@pytest.fixture
def output() -> Callable[..., dict[str, Any]]:
    return output_file


@pytest.fixture
def project_one(tmp_path: Path) -> Callable[..., tuple[Any, list[Any]]]:
    """``project_one(parameters, **tool_fields)``: the OpenAI strict projection of a one-tool
    design, through the real loading path, as (projected schema or None, every diagnostic of the
    run). The tool asks for strict mode explicitly, so what strict mode refuses stays an error.

    The tool lives in ``tools/t.yaml`` (so diagnostics point at ``/parameters/...`` of that file).
    """
    from toolgen.build import analyze

    counter = iter(range(1_000_000))

    def project(
        parameters: Any, *, extra_files: Mapping[str, FileValue] | None = None, **fields: Any
    ) -> tuple[Any, list[Any]]:
        fields.setdefault("name", "t")
        fields.setdefault("description", "A tool.")
        fields.setdefault("providers", {"openai": {"strict": True}})
        root = write_design(
            tmp_path / f"design{next(counter)}",
            {"tools/t.json": {**fields, "parameters": parameters}, **(extra_files or {})},
        )
        result = analyze(root, ("openai",))
        if not result.projections:
            return None, list(result.diagnostics)
        projected = result.projections[0].tools[0].schema
        return projected, list(result.diagnostics)

    return project


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The shared real-world corpus (``<repo>/../shared/corpus``); skips when absent."""
    if not (CORPUS / "tools").is_dir():
        skip_without_corpus(f"the shared corpus is not at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def example_design() -> Path:
    """The example design of the repository; skips while it has no tools."""
    if not any((EXAMPLE_DESIGN / "tools").glob("*.*")):
        pytest.skip(f"no example design at {EXAMPLE_DESIGN}")
    return EXAMPLE_DESIGN


def toolgen_env(**extra: str) -> dict[str, str]:
    """The environment of a ``python -m toolgen`` subprocess that uses the source tree."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


@pytest.fixture
def run_toolgen() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run_toolgen(*args, cwd=None, env=None)``: ``python -m toolgen ARGS`` in a subprocess."""

    def run(
        *args: str | Path,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = 120,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "toolgen", *map(str, args)],
            cwd=cwd,
            env=toolgen_env(**(env or {})),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    return run


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (relative POSIX path -> bytes), ``__pycache__`` excluded."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture
def read_tree() -> Callable[[Path], dict[str, bytes]]:
    return tree


@pytest.fixture
def cli() -> Iterator[Callable[..., Any]]:
    """``cli(*args)``: the click command run in-process (CliRunner); result has exit_code,
    stdout and stderr kept apart."""
    from click.testing import CliRunner

    from toolgen.cli import main

    runner = CliRunner()

    def invoke(*args: str | Path) -> Any:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    yield invoke


@pytest.fixture
def import_package(tmp_path: Path) -> Iterator[Callable[[Mapping[str, str]], Any]]:
    """Write a build's file map as a uniquely named package under tmp_path and import it."""
    import importlib
    import itertools
    import sys

    counter = itertools.count()
    imported: list[str] = []

    def load(files: Mapping[str, str]) -> Any:
        name = f"toolgen_built_{tmp_path.name}_{next(counter)}".replace("-", "_")
        for relative, text in files.items():
            target = tmp_path / "packages" / name / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        imported.append(name)
        importlib.invalidate_caches()  # the finder cached the folder's listing before these files
        return importlib.import_module(name)

    sys.path.insert(0, str(tmp_path / "packages"))
    try:
        yield load
    finally:
        sys.path.remove(str(tmp_path / "packages"))
        for name in imported:
            for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[module]
