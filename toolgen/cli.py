"""The command line: build, validate, show, import, diff, watch, providers."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from toolgen import __version__
from toolgen.commands import RECORD_FILE
from toolgen.commands.watch_report import Changes, Repeats, describe_changes, took
from toolgen.formats import IMPORT_FORMATS
from toolgen.infra.cache import CACHE_FOLDER, default_cache_dir
from toolgen.infra.diagnostics import Diagnostic, Level, sort_diagnostics
from toolgen.infra.process import collect_none, hold_until_exit, run_and_exit
from toolgen.providers import PROVIDER_NAMES

# What a command runs is imported when it runs (the build's stages import black, jinja2,
# jsonschema ...): ``toolgen --help`` and the start of every command pay only for click and the
# provider registry that the options' choices name.
if TYPE_CHECKING:
    from toolgen.build import BuildResult, Session
    from toolgen.load.contracts import Design

EXIT_OK, EXIT_DESIGN, EXIT_USAGE = 0, 1, 2

_design_argument = click.argument(
    "design", type=click.Path(exists=True, file_okay=False, path_type=Path), metavar="DESIGN"
)
_provider_option = click.option(
    "--provider",
    "providers",
    multiple=True,
    type=click.Choice(PROVIDER_NAMES),
    help="Build only for this provider (repeatable). Default: [toolgen] providers in "
    "toolgen.toml, else every provider toolgen supports.",
)
_format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How diagnostics are printed: text on stderr, one line per problem (a node and a code, "
    "with the tools and providers it concerns counted), or every diagnostic as a JSON list on "
    "stdout for CI tools.",
)
_verbose_option = click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Print every diagnostic in full ('file:pointer: provider: CODE message'), each problem's "
    "followed by the tools and outputs that reach it, instead of one line per problem.",
)


_budget_option = click.option(
    "--max-request-tokens",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Fail when a provider's full request (every tool and the largest output) costs more "
    "than N tokens, naming the tools that cost most (see toolgen show --cost). Default: "
    "[toolgen] max_request_tokens in toolgen.toml, else no budget.",
)


def _out_option(help_text: str) -> Callable[[Any], Any]:
    return click.option(
        "-o",
        "--out",
        "out",
        required=True,
        type=click.Path(file_okay=False, path_type=Path),
        help=help_text,
    )


def _scale_options(command: Callable[..., None]) -> Callable[..., None]:
    """--jobs, --no-cache, --cache-dir and --quiet: how a build uses the machine."""
    for option in reversed(
        (
            click.option(
                "-j",
                "--jobs",
                type=click.IntRange(min=1),
                default=None,
                help="Processes for the per-contract work (models, formatting, meta-validation). "
                "Default: the number of cores. The output is the same for any number.",
            ),
            click.option(
                "--no-cache",
                is_flag=True,
                help="Compute everything; neither read nor write the build cache.",
            ),
            click.option(
                "--cache-dir",
                type=click.Path(file_okay=False, path_type=Path),
                default=None,
                help=f"Where the build cache lives. Default: {CACHE_FOLDER}/ beside DESIGN. "
                "Entries are keyed by content (toolgen's code, options, each contract and the shared "
                "definitions it reaches); deleting the folder is always safe.",
            ),
            click.option(
                "-q",
                "--quiet",
                is_flag=True,
                help="No progress line. Progress is shown only on a terminal, for builds longer "
                "than a second, and never when CI is set.",
            ),
        )
    ):
        command = option(command)
    return command


def _cache_dir(design: Path, cache_dir: Path | None, no_cache: bool) -> Path | None:
    if no_cache:
        return None
    return cache_dir if cache_dir is not None else default_cache_dir(design)


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve() == folder.resolve() or folder.resolve() in path.resolve().parents


def _run_build(
    design: Path,
    providers: tuple[str, ...],
    jobs: int | None,
    cache_dir: Path | None,
    quiet: bool,
    *,
    read_only_cache: bool = False,
    session: Session | None = None,
    max_request_tokens: int | None = None,
) -> BuildResult:
    from toolgen.build import Session
    from toolgen.infra.parallel import Progress, default_jobs

    return (session or Session(keep=False)).build(
        design,
        providers,
        jobs=jobs or default_jobs(),
        cache_dir=cache_dir,
        read_only_cache=read_only_cache,
        progress=Progress.for_terminal(quiet),
        max_request_tokens=max_request_tokens,
    )


def _report(
    diagnostics: list[Diagnostic],
    output_format: str,
    design: Design | None = None,
    *,
    verbose: bool = False,
) -> None:
    """Diagnostics as JSON on stdout, or as text on stderr: one line per problem, counted over
    the contracts of ``design`` that reach it (toolgen/commands/reporting.py)."""
    from toolgen.commands.reporting import diagnostics_json, diagnostics_text

    if output_format == "json":
        click.echo(diagnostics_json(diagnostics, design), nl=False)
    elif diagnostics:
        click.echo(diagnostics_text(diagnostics, design, verbose=verbose), nl=False, err=True)


def _summary(diagnostics: list[Diagnostic]) -> str:
    """The problems the report shows (a node and a code each), by level."""
    from toolgen.commands.reporting import problem_counts

    errors, warnings = problem_counts(diagnostics)
    return f"{errors} error(s), {warnings} warning(s)"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolgen")
def main() -> None:
    """Generate provider bindings for LLM tools from canonical JSON Schema.

    A design folder holds tools/NAME.yaml (name, description, parameters), outputs/NAME.yaml
    (name, description, schema), shared schemas in defs/ and an optional toolgen.toml.
    `toolgen build design/ -o gen/` writes the Python package gen/ with, per provider, the
    projected schemas, name maps and bindings; a contract a provider cannot represent is an
    error naming the file, the JSON pointer and the provider.

    Exit codes: 0 success, 1 design errors or a failed --check, 2 usage errors.
    """


def run() -> NoReturn:
    """The console script (and ``python -m toolgen``): :func:`main` in a process tuned for a
    build (toolgen/infra/process.py). Tests call :func:`main` through click's runner instead."""
    run_and_exit(main)


@main.command("build")
@_design_argument
@_out_option("The package folder to write (created; replaced atomically on later builds).")
@_provider_option
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing (not even the build cache, which is only read); exit 1 and list the "
    "files when OUT differs from what the build would write.",
)
@_format_option
@_budget_option
@_verbose_option
@_scale_options
def build_command(
    design: Path,
    out: Path,
    providers: tuple[str, ...],
    check: bool,
    output_format: str,
    max_request_tokens: int | None,
    verbose: bool,
    jobs: int | None,
    no_cache: bool,
    cache_dir: Path | None,
    quiet: bool,
) -> None:
    """Build the bindings of DESIGN into the package OUT.

    Per-contract work runs on every core (--jobs) and is cached by content, so a rebuild after a
    small change redoes only what it touches. Builds into one OUT take turns: a second build
    waits for the first (a lock file beside OUT), and a killed build leaves OUT as it was.
    """
    cache = _cache_dir(design, cache_dir, no_cache)
    if cache is not None and _inside(cache, out):
        click.echo(f"toolgen: the cache folder {cache} must not be inside OUT {out}", err=True)
        sys.exit(EXIT_USAGE)
    collect_none()  # this process builds once, then exits
    sys.exit(
        _build_into(
            design,
            out,
            providers,
            output_format,
            check=check,
            jobs=jobs,
            cache=cache,
            quiet=quiet,
            max_request_tokens=max_request_tokens,
            verbose=verbose,
        )
    )


def _build_into(
    design: Path,
    out: Path,
    providers: tuple[str, ...],
    output_format: str,
    *,
    check: bool,
    jobs: int | None = None,
    cache: Path | None = None,
    quiet: bool = False,
    session: Session | None = None,
    max_request_tokens: int | None = None,
    verbose: bool = False,
    shown: Callable[[list[Diagnostic]], list[Diagnostic]] | None = None,
) -> int:
    """One build of DESIGN into OUT (or compared with OUT), reported; returns the exit code.
    ``session``: what a process that builds again keeps between its builds (``toolgen watch``);
    ``shown``: which of the diagnostics to print (watch leaves out the warnings it printed for
    the last build); the summary counts them all."""
    from toolgen.build import Session
    from toolgen.package.writer import OutputError

    session = session or Session(keep=False)
    # --check changes no file: it reads the cache, and writes neither it nor OUT
    result = _run_build(
        design,
        providers,
        jobs,
        cache,
        quiet,
        read_only_cache=check,
        session=session,
        max_request_tokens=max_request_tokens,
    )
    hold_until_exit(result)
    _report(
        shown(result.diagnostics) if shown else result.diagnostics,
        output_format,
        result.design,
        verbose=verbose,
    )
    if not result.ok:
        click.echo(
            f"toolgen: build failed: {_summary(result.diagnostics)}; nothing written", err=True
        )
        return EXIT_DESIGN
    if check:
        _check(out, result)
        return EXIT_OK
    try:
        session.write(out, result.files, on_wait=lambda: _waiting(out))
    except OutputError as error:
        click.echo(f"toolgen: {error}", err=True)
        return EXIT_USAGE
    except OSError as error:  # permissions, a full disk: the previous OUT is left as it was
        click.echo(f"toolgen: cannot write {out}: {error}", err=True)
        return EXIT_USAGE
    providers_built = ", ".join(p.profile.name for p in result.projections)
    click.echo(
        f"toolgen: wrote {out} ({len(result.files)} files; {providers_built}; {_summary(result.diagnostics)})",
        err=True,
    )
    return EXIT_OK


def _waiting(out: Path) -> None:
    click.echo(f"toolgen: another build is writing {out}; waiting for it to finish", err=True)


def _check(out: Path, result: BuildResult) -> None:
    from toolgen.package.writer import compare

    differences = compare(out, result.files)
    if differences:
        for difference in differences:
            click.echo(f"{out / difference.path}: {difference.change}", err=True)
        click.echo(
            f"toolgen: {out} is out of date ({len(differences)} file(s)); run toolgen build",
            err=True,
        )
        sys.exit(EXIT_DESIGN)
    click.echo(f"toolgen: {out} is up to date", err=True)


@main.command("validate")
@_design_argument
@_provider_option
@_format_option
@_budget_option
@_verbose_option
@_scale_options
def validate_command(
    design: Path,
    providers: tuple[str, ...],
    output_format: str,
    max_request_tokens: int | None,
    verbose: bool,
    jobs: int | None,
    no_cache: bool,
    cache_dir: Path | None,
    quiet: bool,
) -> None:
    """Check DESIGN as a build would (loading, meta-validation, examples, every provider projection,
    envelope overrides, models, the request budget); write nothing but the build cache."""
    cache = _cache_dir(design, cache_dir, no_cache)
    result = _run_build(
        design, providers, jobs, cache, quiet, max_request_tokens=max_request_tokens
    )
    _report(result.diagnostics, output_format, result.design, verbose=verbose)
    click.echo(f"toolgen: {_summary(result.diagnostics)}", err=True)
    sys.exit(EXIT_OK if result.ok else EXIT_DESIGN)


@main.command("show")
@_design_argument
@click.argument("name", required=False)
@click.option(
    "--provider",
    type=click.Choice(PROVIDER_NAMES),
    help="The provider whose projection to show (required without --cost; with --cost, "
    "default: the design's providers).",
)
@click.option(
    "--cost",
    is_flag=True,
    help="Print what each request costs instead: per provider and tool (or only NAME) the "
    "bytes and tokens of its definition and the share of its description and schema, and the "
    "full request (every tool and the largest output) by part.",
)
@_format_option
@_verbose_option
def show_command(
    design: Path,
    name: str | None,
    provider: str | None,
    cost: bool,
    output_format: str,
    verbose: bool,
) -> None:
    """Print the PROVIDER projection of the tool or output NAME (its canonical name) as JSON,
    or (--cost) what the requests of the design cost."""
    from toolgen.build import analyze

    if cost:
        sys.exit(_show_cost(design, name, provider, output_format))
    if name is None or provider is None:
        click.echo("toolgen: show needs NAME and --provider (or --cost)", err=True)
        sys.exit(EXIT_USAGE)
    result = analyze(design, (provider,))
    if result.design is None:
        _report(result.diagnostics, output_format, verbose=verbose)
        sys.exit(EXIT_DESIGN)
    projection = result.projections[0]
    found = [p for p in (*projection.tools, *projection.outputs) if p.contract.name == name]
    if not found and not result.ok:
        # NAME may be a contract whose file (or a file it references) did not load: a design error.
        _report(result.diagnostics, output_format, result.design, verbose=verbose)
        click.echo(
            f"toolgen: no tool or output named {name!r} loaded; the design has errors", err=True
        )
        sys.exit(EXIT_DESIGN)
    if not found:
        known = ", ".join(sorted(c.name for c in result.design.contracts))
        click.echo(
            f"toolgen: no tool or output named {name!r} for {provider}; known: {known}", err=True
        )
        sys.exit(EXIT_USAGE)
    projected = found[0]
    own = [
        d
        for d in result.diagnostics
        if d.file
        in {projected.contract.file, *(s.file for s in projected.contract.shared.values())}
    ]
    _report(sort_diagnostics(own), "text", result.design, verbose=verbose)
    if projected.schema is None:
        sys.exit(EXIT_DESIGN)
    if not projected.strict:
        click.echo(f"toolgen: {provider} takes {name!r} with its strict flag off", err=True)
    for line in projected.renamed_members():
        click.echo(f"toolgen: {line}", err=True)
    click.echo(json.dumps(projected.schema, indent=2, ensure_ascii=False))


def _show_cost(design: Path, name: str | None, provider: str | None, output_format: str) -> int:
    """``toolgen show --cost``: the table on stdout; diagnostics as for ``validate``."""
    from toolgen.build import analyze
    from toolgen.commands.cost_report import cost_report
    from toolgen.package.request_cost import request_costs

    result = analyze(design, (provider,) if provider else ())
    if not result.ok:
        _report(result.diagnostics, output_format)
        click.echo(f"toolgen: {_summary(result.diagnostics)}; no cost to show", err=True)
        return EXIT_DESIGN
    costs = request_costs(result.projections)
    known = {contract.name for c in costs for contract in (*c.tools, *c.outputs)}
    if name is not None and name not in known:
        click.echo(f"toolgen: no tool or output named {name!r} is sent", err=True)
        return EXIT_USAGE
    click.echo(cost_report(costs, name), nl=False)
    return EXIT_OK


@main.command("diff")
@click.argument(
    "designs",
    nargs=-1,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="[OLD] NEW",
)
@click.option(
    "--git",
    "rev",
    metavar="REV",
    help="Compare DESIGN as committed at REV (a commit, branch or tag) with the working tree; "
    "then give one folder, DESIGN (default: design).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How changes are printed on stdout: lines 'file:pointer: provider: "
    "BREAKING|NEEDS_HANDLER|COMPATIBLE what', or a JSON list.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "handler", "any"]),
    default=None,
    help="Exit 1 when there is a breaking change; with 'handler', also when a tool was added "
    "(ToolHandlers subclasses need its method); with 'any', on any change. Default: exit 0 "
    "whatever changed. Errors on either side exit 1 whatever this says.",
)
@_verbose_option
def diff_command(
    designs: tuple[Path, ...],
    rev: str | None,
    output_format: str,
    fail_on: str | None,
    verbose: bool,
) -> None:
    """Show what changed from the design OLD to NEW, per tool, output and provider, and whether
    it breaks callers or stored payloads (decided by schema semantics, not by text), or needs a
    handler (a tool added). The providers that see the same change share its line (--verbose:
    a line each). Errors of either side are printed, and exit 1."""
    from toolgen.commands.diff import diff_designs
    from toolgen.commands.diff import format_json as format_diff_json
    from toolgen.commands.diff import format_text as format_diff_text

    expected = "one folder with --git" if rev is not None else "two folders, OLD and NEW"
    if len(designs) > (1 if rev is not None else 2) or (rev is None and len(designs) != 2):
        raise click.UsageError(f"expected {expected}, got {len(designs)}")
    with tempfile.TemporaryDirectory(prefix="toolgen-diff-") as scratch:
        if rev is not None:
            new_root = designs[0] if designs else Path("design")
            old_root, old_label = _design_at(new_root, rev, Path(scratch)), f"{new_root} at {rev}"
        else:
            old_root, new_root = designs
            old_label = str(old_root)
        old = _analyzed_side(old_root, old_label, verbose)
        new = _analyzed_side(new_root, str(new_root), verbose)
    changes = diff_designs(old, new)
    if output_format == "json":
        click.echo(format_diff_json(changes), nl=False)
    else:
        click.echo(format_diff_text(changes, verbose=verbose), nl=False)
    unbuilt = [
        label
        for result, label in ((old, old_label), (new, str(new_root)))
        if _side_errors(result, label, verbose)
    ]
    breaking = sum(change.breaking for change in changes)
    handlers = sum(change.needs_handler for change in changes)
    click.echo(
        f"toolgen: {breaking} breaking, {handlers} needing a handler, "
        f"{len(changes) - breaking - handlers} compatible change(s)",
        err=True,
    )
    if unbuilt:
        click.echo(f"toolgen: {' and '.join(unbuilt)} would not build", err=True)
        sys.exit(EXIT_DESIGN)
    if (
        (fail_on == "any" and changes)
        or (fail_on in ("breaking", "handler") and breaking)
        or (fail_on == "handler" and handlers)
    ):
        sys.exit(EXIT_DESIGN)


def _design_at(design: Path, rev: str, scratch: Path) -> Path | None:
    from toolgen.commands.gitrev import GitError, export_design

    if not design.is_dir():
        raise click.UsageError(f"{design} is not a folder")
    try:
        return export_design(design, rev, scratch)
    except GitError as error:
        click.echo(f"toolgen: cannot read {design} at {rev}: {error}", err=True)
        sys.exit(EXIT_USAGE)


def _analyzed_side(root: Path | None, label: str, verbose: bool = False) -> BuildResult:
    """One side of a diff, loaded and projected; exits 1 when it cannot be compared. A folder that
    did not exist (at a git revision) is an empty design."""
    from toolgen.build import BuildResult, analyze
    from toolgen.commands.diff import blocking_diagnostics
    from toolgen.load.contracts import Config, Design

    if root is None:
        click.echo(f"toolgen: {label} does not exist; every contract is new", err=True)
        return BuildResult({}, [], Design(label, (), (), {}, Config(), ""), ())
    result = analyze(root)
    blocking = blocking_diagnostics(result)
    if blocking:
        _report(blocking, "text", result.design, verbose=verbose)
        click.echo(
            f"toolgen: {label} has design errors ({_summary(blocking)}); cannot compare", err=True
        )
        sys.exit(EXIT_DESIGN)
    return result


def _side_errors(result: BuildResult, label: str, verbose: bool) -> bool:
    """Print the errors of one side of a diff that did not keep it from being compared (what a
    provider cannot take, an unsatisfiable schema ...): that side would not build. Whether it did."""
    errors = [d for d in result.diagnostics if d.level is Level.ERROR]
    if errors:
        click.echo(f"toolgen: {label} has errors ({_summary(errors)}):", err=True)
        _report(errors, "text", result.design, verbose=verbose)
    return bool(errors)


@main.command("providers")
@click.option(
    "--rules", is_flag=True, help="Also list every rule of every profile with its source and date."
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="text: one block per provider, wrapped to the terminal; markdown: the docs' tables; "
    "json: every profile with its rules.",
)
def providers_command(rules: bool, output_format: str) -> None:
    """What each provider profile keeps, drops, rewrites and rejects."""
    from toolgen.providers.table import render as render_providers

    width = shutil.get_terminal_size().columns
    click.echo(render_providers(output_format, rules=rules, width=width), nl=False)


@main.command("watch")
@_design_argument
@_out_option("The package folder to write (replaced atomically on every good build).")
@_provider_option
@_format_option
@_verbose_option
def watch_command(
    design: Path, out: Path, providers: tuple[str, ...], output_format: str, verbose: bool
) -> None:
    """Build DESIGN into OUT, then rebuild whenever a file of DESIGN changes, until Ctrl-C
    (or SIGTERM).

    Each rebuild names the files that changed and says how long it took; a warning the last
    build printed is not printed again (errors always are). A build with errors prints its
    diagnostics and writes nothing: OUT keeps the last good build.
    """
    # imported when used: watchfiles is slow to import
    from toolgen.commands.watch import stop_signals, watching

    with stop_signals():
        rebuild: Rebuilder | None = None
        try:
            # each rebuild redoes only the contracts that changed
            rebuild = watch_rebuilder(
                design, out, providers, output_format, default_cache_dir(design), verbose=verbose
            )
            with watching(design, out) as bursts:  # before the first build: no change is lost
                if rebuild() == EXIT_USAGE:
                    sys.exit(EXIT_USAGE)  # OUT is not toolgen's: no later build could write it
                click.echo(f"toolgen: watching {design} (Ctrl-C to stop)", err=True)
                for changes in bursts:
                    rebuild(changes)
        except KeyboardInterrupt:  # at any time: the writer put OUT back whole
            pass
        finally:
            if rebuild is not None:
                rebuild.close()
    click.echo("toolgen: stopped", err=True)


def watch_rebuilder(
    design: Path,
    out: Path,
    providers: tuple[str, ...],
    output_format: str,
    cache: Path,
    *,
    verbose: bool = False,
) -> Rebuilder:
    """What ``toolgen watch`` calls for its first build and after each burst of changes (one
    build of DESIGN into OUT, reported; returns the exit code). bench.build times it."""

    from toolgen.build import Session

    return Rebuilder(design, out, providers, output_format, cache, Session(), verbose=verbose)


class Rebuilder:
    """One build of DESIGN into OUT per call, reported, in a session kept between the calls
    (what one build keeps for the next); :meth:`close` when the process builds no more. Text
    reports leave out the warnings the last build printed (toolgen/commands/watch_report.py)."""

    def __init__(
        self,
        design: Path,
        out: Path,
        providers: tuple[str, ...],
        output_format: str,
        cache: Path,
        session: Session,
        *,
        verbose: bool = False,
    ) -> None:
        self.design, self.out, self.providers = design, out, providers
        self.output_format, self.cache, self.session = output_format, cache, session
        self.builds = 0
        self.verbose = verbose  # every diagnostic in full, not one line per problem
        self.repeats = Repeats()

    def __call__(self, changes: Changes = ()) -> int:
        """One build; ``changes``: the burst of changes it follows (named before it starts)."""
        if changes:
            click.echo(f"toolgen: changed {describe_changes(changes, self.design)}", err=True)
        started = time.perf_counter()
        code = _build_into(
            self.design,
            self.out,
            self.providers,
            self.output_format,
            check=False,
            cache=self.cache,
            session=self.session,
            verbose=self.verbose,
            # JSON goes to tools, which want each build's whole list
            shown=self.repeats.new if self.output_format == "text" else None,
        )
        if code == EXIT_DESIGN and self.builds:
            click.echo(f"toolgen: {self.out} keeps the last good build", err=True)
        done = "built" if not self.builds else "rebuilt"
        left_out = self.repeats.left_out if self.output_format == "text" else 0
        repeated = f"; {left_out} warning(s) as in the last build, not repeated" if left_out else ""
        click.echo(f"toolgen: {done} in {took(time.perf_counter() - started)}{repeated}", err=True)
        self.builds += 1
        # after a first write, which linked every file of OUT, while the report is read: the
        # next rebuild then keeps them by their signatures instead of reading them all
        self.session.written.settle()
        return code

    def close(self) -> None:
        self.session.close()


@main.group("canary")
def canary_group() -> None:
    """Record providers' answers as golden fixtures, and check them offline for envelope drift."""


@canary_group.command("record")
@_design_argument
@click.option("--provider", required=True, type=click.Choice(PROVIDER_NAMES))
@click.option("--api", "apis", multiple=True, help="Only this API (repeatable). Default: all.")
@click.option(
    "--out", required=True, type=click.Path(file_okay=False, path_type=Path), help="Fixtures."
)
@click.option(
    "--base-url",
    help="Any compatible endpoint (a gateway, a test server), as the provider's own SDK takes "
    "it as its base URL.",
)
@click.option("--model", help="The model to ask. Default: a small one of the provider.")
@click.option("--tool", help="The tool to force. Default: the first the provider takes.")
@click.option("--output", help="The structured output to ask for. Default: the first.")
@click.option(
    "--max-body-mib",
    type=click.FloatRange(min=0, min_open=True),
    help="Refuse an answer whose body is larger (MiB). Default: 8.",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds one request may take, from connecting to the body's last byte. Default: 120.",
)
def canary_record_command(
    design: Path,
    provider: str,
    apis: tuple[str, ...],
    out: Path,
    base_url: str | None,
    model: str | None,
    tool: str | None,
    output: str | None,
    max_body_mib: float | None,
    deadline: float | None,
) -> None:
    """Send the smallest real requests per API of PROVIDER (a forced tool call, a structured
    output, a stream; the key from the provider's usual environment variable) and write the
    answers as fixtures, identifiers and free text replaced by placeholders. A redirect is
    refused (the key goes to no other host)."""
    from toolgen.commands.canary import Limits, RecordOptions, exit_code, record

    limits = Limits()
    if max_body_mib is not None:
        limits = replace(limits, max_body=int(max_body_mib * 1024 * 1024))
    if deadline is not None:
        limits = replace(limits, deadline=deadline)
    options = RecordOptions(provider, apis, base_url, model, tool, output, limits)
    written, findings = record(design, options, out, os.environ)
    for finding in findings:
        click.echo(finding.format(), err=True)
    click.echo(f"toolgen: recorded {len(written)} fixture(s) into {out}", err=True)
    sys.exit(exit_code(findings))


@canary_group.command("check")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "-o",
    "gen",
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="The generated package whose validators and decoders read the fixtures.",
)
@click.option(
    "--since",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Fixtures of an earlier recording: additive drift already in them is not reported.",
)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
def canary_check_command(folder: Path, gen: Path, since: Path | None, output_format: str) -> None:
    """Run GEN's validators and decoders over the fixtures in FOLDER, offline. Exit 1 on breaking
    drift (provider, API, fixture, path); additive drift (what the envelope schema does not
    declare) is a notice."""
    from toolgen.commands.canary import check, exit_code

    findings = check(folder, gen, since)
    if output_format == "json":
        click.echo(json.dumps([f.to_dict() for f in findings], indent=2))
    else:
        for finding in findings:
            click.echo(finding.format(), err=True)
    breaking = sum(f.level != "additive" for f in findings)
    click.echo(
        f"toolgen: {breaking} breaking, {len(findings) - breaking} additive finding(s)", err=True
    )
    sys.exit(exit_code(findings))


_IMPORT_HELP = f"""Turn tool definitions (JSON files: {", ".join(f.title for f in IMPORT_FORMATS)})
into design files.

What a provider's strict mode added is undone where that can be told; every such decision, and
every tool that could not be imported, is reported against the source file and pointer. Exit 1
when a source or a tool could not be imported (the others are written)."""


@main.command("import", help=_IMPORT_HELP)
@click.argument(
    "sources",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="SOURCE...",
)
@_out_option("The design folder to write tools/NAME.yaml into (created when missing).")
@click.option(
    "--format",
    "source_format",
    type=click.Choice([f.name for f in IMPORT_FORMATS]),
    help="Read every SOURCE in this format instead of detecting it from the content.",
)
@click.option("--force", is_flag=True, help="Replace tool files that exist already.")
@click.option(
    "--provider",
    "providers",
    multiple=True,
    type=click.Choice(PROVIDER_NAMES),
    help="Name this provider in the toolgen.toml written (repeatable). Default: the providers "
    "the source format targets; the default build's for MCP and BFCL.",
)
@click.option(
    "--update",
    is_flag=True,
    help=f"Merge SOURCE into a design imported before ({RECORD_FILE}): upstream changes applied, "
    "local edits kept, conflicts reported; then print toolgen diff of the design.",
)
@click.option("--prune", is_flag=True, help="With --update: delete tools gone upstream.")
@_verbose_option
def import_command(
    sources: tuple[Path, ...],
    out: Path,
    source_format: str | None,
    force: bool,
    providers: tuple[str, ...],
    update: bool,
    prune: bool,
    verbose: bool,
) -> None:
    from toolgen.commands.import_config import check_design, target_providers, write_config
    from toolgen.commands.import_sync import design_lock, record_imported
    from toolgen.commands.importing import import_sources, write_tools

    labelled = [(path, str(path)) for path in sources]
    if update:
        sys.exit(_import_update(labelled, out, source_format, prune, verbose))
    with design_lock(out, on_wait=lambda: _waiting_import(out)):
        result = import_sources(labelled, out, IMPORT_FORMATS, forced=source_format, force=force)
        write_tools(out, result.tools, result.defs)
        found = [*result.diagnostics, *record_imported(out, result.tools, result.defs)]
        targets = providers or target_providers(sources, IMPORT_FORMATS, source_format)
        found.append(write_config(out, targets))
    checked, analysis = check_design(out)
    found += checked
    _report(found, "text", analysis.design, verbose=verbose)
    errors, others = _import_counts(found)
    click.echo(
        f"toolgen: imported {len(result.tools)} tool(s) into {out / 'tools'}; "
        f"{errors} error(s), {others} note(s) and warning(s)",
        err=True,
    )
    sys.exit(EXIT_OK if errors == 0 else EXIT_DESIGN)


def _import_counts(found: list[Diagnostic]) -> tuple[int, int]:
    """(errors, notes and warnings) of an import, in problems as the report shows them."""
    from toolgen.infra.diagnostics import group_problems

    problems = group_problems(found)
    errors = sum(p.level is Level.ERROR for p in problems)
    return errors, len(problems) - errors


def _import_update(
    sources: list[tuple[Path, str]],
    design: Path,
    source_format: str | None,
    prune: bool,
    verbose: bool = False,
) -> int:
    """``import --update``: merge, check, and print the diff of the design before and after."""
    from toolgen.build import analyze
    from toolgen.commands.diff import blocking_diagnostics, diff_designs
    from toolgen.commands.diff import format_text as format_diff_text
    from toolgen.commands.import_config import check_design
    from toolgen.commands.import_sync import update_design

    if not design.is_dir():
        raise click.UsageError(f"{design} is no design folder; import it without --update first")
    with tempfile.TemporaryDirectory(prefix="toolgen-update-") as scratch:
        before = Path(scratch) / "before"
        result = update_design(
            sources,
            design,
            IMPORT_FORMATS,
            forced=source_format,
            prune=prune,
            on_wait=lambda: _waiting_import(design),
            # the design as this update finds it: another one may have changed it as we waited
            on_locked=lambda: shutil.copytree(
                design, before, ignore=shutil.ignore_patterns(CACHE_FOLDER)
            ),
        )
        checked, new = check_design(design)
        found = [*result.diagnostics, *checked]
        _report(found, "text", new.design, verbose=verbose)
        old = analyze(before)
    if blocking_diagnostics(old) or blocking_diagnostics(new):
        click.echo("toolgen: the design has errors; no diff printed", err=True)
    else:
        click.echo(format_diff_text(diff_designs(old, new), verbose=verbose), nl=False)
    conflicts = sum(d.code == "CONFLICT" for d in found)
    errors, _ = _import_counts(found)
    click.echo(
        f"toolgen: updated {design}: {len(result.added)} added, {len(result.updated)} updated, "
        f"{len(result.removed)} removed, {conflicts} conflict(s), {errors} error(s)",
        err=True,
    )
    return EXIT_OK if errors == 0 else EXIT_DESIGN


def _waiting_import(design: Path) -> None:
    click.echo(f"toolgen: another import is writing {design}; waiting for it to finish", err=True)
