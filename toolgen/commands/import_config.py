"""What ``toolgen import`` writes beside the tool files: the ``toolgen.toml`` naming the providers to
build (those the sources' formats target, or ``--provider``), checked at once by projecting the
design for them, so a tool a provider cannot take is reported by the import, not by a later build.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolgen.build import BuildResult, analyze
from toolgen.commands.import_sync import write_atomically
from toolgen.commands.importing import detect
from toolgen.formats.tool_format import ToolFormat
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.load.loader import CONFIG_FILE
from toolgen.load.sources import parse
from toolgen.providers import BUILT_BY_DEFAULT

CONFIG = "import"  # the provider slot of the import's findings about toolgen.toml


def target_providers(
    sources: Sequence[Path], formats: Sequence[ToolFormat], forced: str | None = None
) -> tuple[str, ...]:
    """The providers the sources' formats target, in the order of ``BUILT_BY_DEFAULT`` then the
    others; the default build's when a format targets none (MCP, BFCL)."""
    targets: list[str] = []
    for source in sources:
        try:
            document = parse(source.read_text(encoding="utf-8"), ".json")
        except (OSError, UnicodeDecodeError, ValueError):
            continue  # the import reports it
        chosen = next((f for f in formats if f.name == forced), None) or detect(document, formats)
        if chosen is None:
            continue
        for name in chosen.targets or BUILT_BY_DEFAULT:
            if name not in targets:
                targets.append(name)
    return tuple(targets or BUILT_BY_DEFAULT)


def config_text(providers: Sequence[str]) -> str:
    names = ", ".join(f'"{name}"' for name in providers)
    return (
        "# Written by toolgen import: the providers `toolgen build` generates for.\n"
        f"[toolgen]\nproviders = [{names}]\n"
    )


def write_config(design: Path, providers: Sequence[str]) -> Diagnostic:
    """Write DESIGN/toolgen.toml naming ``providers``, unless the design has one (it is kept)."""
    path = design / CONFIG_FILE
    if path.exists():
        return Diagnostic(
            CONFIG_FILE, "", CONFIG, "CONFIG_KEPT", "exists; left as it is", Level.INFO
        )
    write_atomically(path, config_text(providers))
    return Diagnostic(
        CONFIG_FILE,
        "/toolgen/providers",
        CONFIG,
        "CONFIG_WRITTEN",
        f"builds for {', '.join(providers)} (toolgen import --provider chooses others)",
        Level.INFO,
    )


def check_design(design: Path) -> tuple[list[Diagnostic], BuildResult]:
    """The errors and warnings a build of ``design`` would report for the providers its
    toolgen.toml names (projection: what a provider cannot take), and the analysis they come
    from (its design tells the report which tools reach each node)."""
    result = analyze(design)
    return [d for d in result.diagnostics if d.level is not Level.INFO], result
