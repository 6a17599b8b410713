"""The build: design folder in, map of output files (or diagnostics) out. Nothing here writes files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolgen.compile.models import warm_up
from toolgen.infra.cache import Cache, remember
from toolgen.infra.diagnostics import Diagnostic, has_errors
from toolgen.infra.kept import Kept
from toolgen.infra.parallel import Progress, Runner, usable
from toolgen.infra.process import hold_until_exit
from toolgen.load.contracts import Design
from toolgen.load.design import load_design
from toolgen.package.assemble import render_package
from toolgen.package.targets import TARGET_NAMES, target_diagnostics
from toolgen.package.writer import Written, state_file, write_package
from toolgen.project.design_projection import ProviderProjection, project_design
from toolgen.project.satisfiable import design_diagnostics
from toolgen.providers import BUILT_BY_DEFAULT, PROVIDER_NAMES, profile_for, settings


@dataclass(frozen=True)
class BuildResult:
    files: dict[str, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    design: Design | None = None
    projections: tuple[ProviderProjection, ...] = ()
    #: each file's hash but the manifest's (what the manifest lists), computed from ``files``
    hashes: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def select_providers(design: Design, requested: Sequence[str] = ()) -> tuple[str, ...]:
    """``--provider`` wins, then ``toolgen.toml``, then every provider toolgen generates a module
    for (a projection-only provider only when asked for)."""
    chosen = tuple(requested) or design.config.providers or BUILT_BY_DEFAULT
    return tuple(name for name in PROVIDER_NAMES if name in chosen)


def analyze(
    design_root: Path, providers: Sequence[str] = (), runner: Runner | None = None
) -> BuildResult:
    """Load and project, without rendering: what ``validate`` and ``show`` need."""
    runner = runner or Runner()
    design, diagnostics = load_design(Path(design_root), settings(), runner, TARGET_NAMES)
    if design is None:
        return BuildResult({}, diagnostics)
    projections = tuple(
        project_design(design, profile_for(name, design.config.options_for(name)), runner)
        for name in select_providers(design, providers)
    )
    for projection in projections:
        diagnostics += projection.diagnostics
    diagnostics += design_diagnostics(design, projections, runner)
    diagnostics += target_diagnostics(design)
    return BuildResult({}, diagnostics, design, projections)


class Session:
    """What a process that builds again and again (``toolgen watch``) keeps from one build to
    the next: the opened cache, with the entries the last build used in memory
    (:meth:`Cache.begin`), the modules the last build rendered and formatted, by their inputs
    (:class:`Kept`: a module whose inputs did not change is not rendered or formatted again),
    and what the last write put into OUT (:class:`Written`). Everything
    kept is found by what it depends on (a cache key is a hash of its inputs; a written file by
    its text and its signature on disk), so a kept value is never used stale. :func:`build` is
    the one build of a session that keeps nothing (``keep=False``: no memory spent on a next
    build that will not come)."""

    def __init__(self, *, keep: bool = True) -> None:
        self.keep = keep
        self._cache: Cache | None = None
        self.kept = Kept() if keep else None
        self.written = Written()
        # the cache folder of the last build, when it may be written: a session that keeps
        # nothing records there what its write put into OUT, for the next process's write
        self._state_dir: Path | None = None
        # the files of the last build and their hashes (computed from those very texts)
        self._built: tuple[dict[str, str], dict[str, str]] = ({}, {})
        # the build workers, kept running between builds (Runner.keep_pool), for the jobs
        # they were started with
        self._pool: tuple[int, Executor] | None = None

    def _open_cache(self, cache_dir: Path, read_only: bool) -> Cache:
        cache = self._cache
        if cache is not None and cache.root == Path(cache_dir) and cache.read_only == read_only:
            cache.begin()
        else:
            cache = Cache(cache_dir, read_only=read_only, keep=self.keep)
            if self.keep:
                self._cache = cache
        cache.open()
        return cache

    def build(
        self,
        design_root: Path,
        providers: Sequence[str] = (),
        *,
        jobs: int = 1,
        cache_dir: Path | None = None,
        read_only_cache: bool = False,
        progress: Progress | None = None,
        max_request_tokens: int | None = None,
    ) -> BuildResult:
        """Build in memory. ``jobs`` processes share the per-contract work (the output does not
        depend on it); with ``cache_dir``, work whose inputs did not change is read from there,
        and what was computed is written there unless ``read_only_cache``.
        ``max_request_tokens``: the budget of a provider's full request (else toolgen.toml's)."""
        cache = self._open_cache(cache_dir, read_only_cache) if cache_dir is not None else None
        self._state_dir = cache.root if cache is not None and cache.writable else None
        if self.kept is not None:
            self.kept.begin()
        remember(self.keep)
        if self._pool is not None and (self._pool[0] != jobs or not usable(self._pool[1])):
            self._close_pool()
        pool = self._pool[1] if self._pool is not None else None
        with Runner(jobs, cache, progress, warm_up=warm_up, kept=self.kept, pool=pool) as runner:
            if cache is None or cache.is_empty():
                runner.start()  # most of the work is to be done: the workers start while loading
            result = _build(Path(design_root), providers, runner, max_request_tokens)
            if self.keep and pool is None:
                # a rebuild after a change of many contracts (a shared definition, toolgen.toml,
                # the first good build after failing ones) then spreads them over the workers
                # instead of computing them in this process, for want of workers worth starting
                self._close_pool()
                kept = runner.keep_pool()
                self._pool = (jobs, kept) if kept is not None else None
        self._built = (result.files, result.hashes)
        hold_until_exit(cache)
        if cache is not None:
            cache.save_indexes()
            cache.save_manifest()
            cache.prune()
            result = replace(result, diagnostics=result.diagnostics + cache.notices())
        return result

    def write(
        self, out: Path, files: dict[str, str], on_wait: Callable[[], None] | None = None
    ) -> None:
        """:func:`write_package`, reading and keeping what this session wrote last; in a
        session that keeps nothing, with the cache of its build, reading and recording there
        what the last process wrote into ``out`` (docs/cache.md, "What a rebuild trusts")."""
        if self.keep:
            write_package(out, files, on_wait, self.written)
        else:
            state = state_file(self._state_dir, out) if self._state_dir is not None else None
            hashes = self._built[1] if files is self._built[0] else None
            write_package(out, files, on_wait, state=state, hashes=hashes)

    def close(self) -> None:
        """The process builds no more: what it wrote last is handed over to the next process
        that writes OUT (recorded in the cache of its last build, its spare tree beside OUT:
        :meth:`Written.hand_over`; without a cache to record in, the spare tree goes), and the
        workers it kept running stop."""
        if self._state_dir is not None and self.written.out:
            self.written.hand_over(state_file(self._state_dir, Path(self.written.out)))
        else:
            self.written.discard()
        self._close_pool()

    def _close_pool(self) -> None:
        if self._pool is not None:
            self._pool[1].shutdown(cancel_futures=True)
            self._pool = None


def build(
    design_root: Path,
    providers: Sequence[str] = (),
    *,
    jobs: int = 1,
    cache_dir: Path | None = None,
    read_only_cache: bool = False,
    progress: Progress | None = None,
    max_request_tokens: int | None = None,
) -> BuildResult:
    """One build in a session that keeps nothing (:meth:`Session.build`)."""
    return Session(keep=False).build(
        design_root,
        providers,
        jobs=jobs,
        cache_dir=cache_dir,
        read_only_cache=read_only_cache,
        progress=progress,
        max_request_tokens=max_request_tokens,
    )


def _build(
    design_root: Path, providers: Sequence[str], runner: Runner, max_request_tokens: int | None
) -> BuildResult:
    analysis = analyze(design_root, providers, runner)
    if not analysis.ok or analysis.design is None:
        return analysis
    over = _over_budget(analysis, max_request_tokens)
    if over:
        return replace(analysis, diagnostics=analysis.diagnostics + over)
    package = render_package(analysis.design, list(analysis.projections), runner)
    diagnostics = analysis.diagnostics + package.diagnostics
    files, hashes = (
        package.hashed(analysis.design, runner.kept) if not has_errors(diagnostics) else ({}, {})
    )
    return BuildResult(files, diagnostics, analysis.design, analysis.projections, hashes)


def _over_budget(analysis: BuildResult, max_request_tokens: int | None) -> list[Diagnostic]:
    """What goes over the budget of a full request: ``max_request_tokens`` (the command line's),
    else toolgen.toml's ``[toolgen] max_request_tokens``; none without a budget."""
    assert analysis.design is not None
    source = "--max-request-tokens"
    if max_request_tokens is None:
        max_request_tokens = analysis.design.config.max_request_tokens
        source = "[toolgen] max_request_tokens in toolgen.toml"
    if max_request_tokens is None:
        return []
    # imported here: a build without a budget (most of them) does not pay for the tokenizers
    from toolgen.package.request_cost import over_budget, request_costs

    return over_budget(request_costs(analysis.projections), max_request_tokens, source)
