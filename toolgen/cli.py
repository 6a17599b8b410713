"""The command line: build, validate, show."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from toolgen import __version__
from toolgen.build import BuildResult, analyze, build
from toolgen.diagnostics import Diagnostic, Level, format_json, format_text, sort_diagnostics
from toolgen.providers import PROVIDER_NAMES
from toolgen.writer import OutputError, compare, write_package

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
    help="How diagnostics are printed: text lines 'file:pointer: provider: CODE message' on "
    "stderr, or a JSON list on stdout for CI tools.",
)


def _report(diagnostics: list[Diagnostic], output_format: str) -> None:
    if output_format == "json":
        click.echo(format_json(diagnostics), nl=False)
    elif diagnostics:
        click.echo(format_text(diagnostics), nl=False, err=True)


def _summary(diagnostics: list[Diagnostic]) -> str:
    errors = sum(d.level is Level.ERROR for d in diagnostics)
    warnings = len(diagnostics) - errors
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


@main.command("build")
@_design_argument
@click.option(
    "-o",
    "--out",
    "out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The package folder to write (created; replaced atomically on later builds).",
)
@_provider_option
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; exit 1 and list the files when OUT differs from what the build would write.",
)
@_format_option
def build_command(
    design: Path, out: Path, providers: tuple[str, ...], check: bool, output_format: str
) -> None:
    """Build the bindings of DESIGN into the package OUT."""
    result = build(design, providers)
    _report(result.diagnostics, output_format)
    if not result.ok:
        click.echo(
            f"toolgen: build failed: {_summary(result.diagnostics)}; nothing written", err=True
        )
        sys.exit(EXIT_DESIGN)
    if check:
        _check(out, result)
        return
    try:
        write_package(out, result.files)
    except OutputError as error:
        click.echo(f"toolgen: {error}", err=True)
        sys.exit(EXIT_USAGE)
    except OSError as error:  # permissions, a full disk: the previous OUT is left as it was
        click.echo(f"toolgen: cannot write {out}: {error}", err=True)
        sys.exit(EXIT_USAGE)
    providers_built = ", ".join(p.profile.name for p in result.projections)
    click.echo(
        f"toolgen: wrote {out} ({len(result.files)} files; {providers_built}; {_summary(result.diagnostics)})",
        err=True,
    )


def _check(out: Path, result: BuildResult) -> None:
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
def validate_command(design: Path, providers: tuple[str, ...], output_format: str) -> None:
    """Check DESIGN as a build would (loading, meta-validation, examples, every provider projection,
    envelope overrides, models); write nothing."""
    result = build(design, providers)
    _report(result.diagnostics, output_format)
    click.echo(f"toolgen: {_summary(result.diagnostics)}", err=True)
    sys.exit(EXIT_OK if result.ok else EXIT_DESIGN)


@main.command("show")
@_design_argument
@click.argument("name")
@click.option(
    "--provider",
    required=True,
    type=click.Choice(PROVIDER_NAMES),
    help="The provider whose projection to show.",
)
@_format_option
def show_command(design: Path, name: str, provider: str, output_format: str) -> None:
    """Print the PROVIDER projection of the tool or output NAME (its canonical name) as JSON."""
    result = analyze(design, (provider,))
    if result.design is None:
        _report(result.diagnostics, output_format)
        sys.exit(EXIT_DESIGN)
    projection = result.projections[0]
    found = [p for p in (*projection.tools, *projection.outputs) if p.contract.name == name]
    if not found and not result.ok:
        # NAME may be a contract whose file (or a file it references) did not load: a design error.
        _report(result.diagnostics, output_format)
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
    _report(sort_diagnostics(own), "text")
    if projected.schema is None:
        sys.exit(EXIT_DESIGN)
    click.echo(json.dumps(projected.schema, indent=2, ensure_ascii=False))
