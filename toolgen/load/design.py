"""Loading a design: :func:`load_design`, from the folder, or, in a process that loads again,
from what the last load kept (toolgen.load.seen) and the files that changed
(toolgen.load.reload). The steps of a load are toolgen.load.loader's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from toolgen.infra.diagnostics import DESIGN, Diagnostic
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Design, ProviderSettings
from toolgen.load.loader import _load, _load_envelopes, _other_bytes, _scan, _see_file, load_config
from toolgen.load.reload import reload
from toolgen.load.seen import LastLoad, Seen


def load_design(
    root: Path,
    known_providers: Mapping[str, ProviderSettings],
    runner: Runner | None = None,
    known_targets: Sequence[str] | None = None,
) -> tuple[Design | None, list[Diagnostic]]:
    """Read, bundle and validate ``root``; ``known_providers`` are the providers a design may
    name, with the settings each takes, ``known_targets`` the targets it may ask for
    (``[toolgen] targets``; None: read as listed, unchecked, for a caller that writes none);
    ``runner`` does the per-contract work (in this process, without a cache, when None).

    The design holds every contract that loaded cleanly; the diagnostics say what did not (a build
    with any error diagnostic writes nothing). None only when ``root`` is not a folder.

    In a process that builds again (the runner's :attr:`Runner.kept`), what this load read and
    made is kept for the next one (toolgen.load.seen.LastLoad): a file that did not change is
    not read again, and a design in which only some tool or output files changed is loaded again
    from the last load and those files alone (toolgen.load.reload), when the result is the same.
    """
    root = Path(root)
    runner = runner or Runner()
    if not root.is_dir():
        return None, [Diagnostic(str(root), "", DESIGN, "NO_DESIGN", "not a folder")]
    kept = runner.kept
    last_key = ("load", str(root))
    last: LastLoad | None = kept.get(last_key) if kept is not None else None
    if last is not None and last.known != known_providers:
        last = None
    scanned = _scan(root)
    files = sorted(scanned)
    config, config_found = load_config(root, known_providers, known_targets)
    envelopes, envelope_found = _load_envelopes(root)
    others = _other_bytes(root) if kept is not None else {}  # only a next load compares them

    seen: dict[str, Seen] = {}
    read_found: dict[str, list[Diagnostic]] = {}
    for relative in files:
        got, found = _see_file(
            root, relative, scanned[relative], last.seen.get(relative) if last else None
        )
        if got is not None:
            seen[relative] = got
        if found:
            read_found[relative] = found

    if last is not None and not read_found and not config_found and not envelope_found:
        again = reload(root, last, scanned, seen, config, envelopes, others, runner)
        if again is not None:
            if kept is not None:
                kept.put(last_key, again)
            return again.design, []

    design, diagnostics, parts = _load(
        root, known_providers, runner, files, seen, read_found, config, config_found, envelopes
    )
    diagnostics += envelope_found
    if kept is not None:
        loaded = LastLoad(
            str(root),
            known_providers,
            scanned,
            seen,
            others,
            design,
            tuple(diagnostics),
            parts if not diagnostics else None,
        )
        kept.put(last_key, loaded)
    return design, diagnostics
