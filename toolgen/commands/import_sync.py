"""``toolgen import --update``: an imported design that follows its source without losing local edits.

An import keeps a record beside the design (``toolgen-import.json``, committed with it): for each
tool its file and the values upstream gave it. A re-import merges three ways, per member of the tool
file (recursively through objects, so an edit of one property's description and an upstream change
to another property both survive): a member nobody edited locally takes the upstream value, a local
edit of a member upstream did not change is kept, a member both changed is a conflict reported with
both values and left as the local one. Tools new upstream are added; tools gone upstream are
reported, and deleted (``--prune``) only when the local file is what upstream last gave.

Every file is replaced atomically and the record is written last, so a re-import stopped half way
leaves a design that the next one merges without losing anything (a tool file already merged is
then equal to upstream, which is no conflict). Imports into one design take turns: each holds the
design's lock (:func:`design_lock`, the lock ``toolgen build`` takes of its OUT) from reading the
record to writing it, so a second one waits instead of merging with a record the first replaces.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgen import __version__
from toolgen.commands import RECORD_FILE
from toolgen.commands.importing import (
    TOOLS_FOLDER,
    ImportedDef,
    ImportedTool,
    import_sources,
    text_for,
)
from toolgen.formats.tool_format import ToolFormat
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.load.sources import SCHEMA_SUFFIXES, parse
from toolgen.package.writer import output_lock
from toolgen.schema import pointer as jp

SYNC = "import"  # the provider slot of the findings of a re-import


class _Missing:
    """A member absent from one side of a merge."""

    def __repr__(self) -> str:
        return "absent"


MISSING: Any = _Missing()


@dataclass
class ImportRecord:
    """What was imported: tool name -> {"file": design-relative path, "upstream": the tool file's
    document as the source gave it}, and the same of each definition the tools share, by its
    name (its file's document: ``{"$defs": {NAME: ...}}``)."""

    tools: dict[str, dict[str, Any]] = field(default_factory=dict)
    defs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_text(self) -> str:
        body: dict[str, Any] = {
            "about": "written by toolgen import: the upstream value of every imported tool, which "
            "toolgen import --update merges with the local files; commit it with the design",
            "toolgen": __version__,
            "tools": dict(sorted(self.tools.items())),
        }
        if self.defs:
            body["defs"] = dict(sorted(self.defs.items()))
        return json.dumps(body, indent=2, ensure_ascii=False) + "\n"

    def def_files(self) -> dict[str, str]:
        """name -> file name in defs/ of the shared definitions."""
        return {name: Path(entry["file"]).name for name, entry in self.defs.items()}


@dataclass(frozen=True)
class SyncResult:
    diagnostics: list[Diagnostic]
    added: list[str]
    updated: list[str]
    removed: list[str]

    @property
    def ok(self) -> bool:
        return not any(d.level is Level.ERROR for d in self.diagnostics)


@contextlib.contextmanager
def design_lock(design: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock of ``design`` (a file beside it; the kernel releases the lock of a killed
    import). ``on_wait`` is called once when another import holds it."""
    with output_lock(design, on_wait):
        yield


def read_record(design: Path) -> tuple[ImportRecord, list[Diagnostic]]:
    """The record of ``design`` (empty when there is none yet)."""
    path = design / RECORD_FILE
    if not path.exists():
        return ImportRecord(), []
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        tools, defs = body["tools"], body.get("defs", {})
        for key, entries in (("tools", tools), ("defs", defs)):
            if not isinstance(entries, dict) or not all(
                isinstance(t, dict) and isinstance(t.get("file"), str) and "upstream" in t
                for t in entries.values()
            ):
                raise ValueError(f"{key} is not a map of {{file, upstream}}")
    except (OSError, ValueError, KeyError, TypeError) as error:
        return ImportRecord(), [
            Diagnostic(RECORD_FILE, "", SYNC, "UNREADABLE_RECORD", str(error), Level.ERROR)
        ]
    return ImportRecord(dict(tools), dict(defs)), []


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` in one step (a temporary file beside it, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".toolgen-tmp", dir=path.parent
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def upstream_documents(tools: Sequence[ImportedTool]) -> dict[str, tuple[str, dict[str, Any]]]:
    """name -> (planned file, document) of planned tool files."""
    found = {}
    for tool in tools:
        document = parse(tool.text, Path(tool.path).suffix)
        found[tool.name] = (tool.path, document)
    return found


def record_imported(
    design: Path, tools: Sequence[ImportedTool], defs: Sequence[ImportedDef] = ()
) -> list[Diagnostic]:
    """Add the tools and shared definitions a first import wrote to the record of ``design``
    (written atomically)."""
    record, problems = read_record(design)
    if problems:
        return problems
    for name, (path, document) in upstream_documents(tools).items():
        record.tools[name] = {"file": path, "upstream": _fields(document)}
    for shared in defs:
        record.defs[shared.name] = {"file": shared.path, "upstream": shared.document}
    write_atomically(design / RECORD_FILE, record.to_text())
    return []


def _fields(document: dict[str, Any]) -> dict[str, Any]:
    """What the merge compares: the tool file without its name (a renamed tool is another tool)."""
    return {k: v for k, v in document.items() if k != "name"}


def _same(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return a is b
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@dataclass(frozen=True)
class Conflict:
    pointer: str
    local: Any
    upstream: Any


def merge(base: Any, local: Any, upstream: Any, pointer: str = "") -> tuple[Any, list[Conflict]]:
    """The three-way merge of one value (MISSING for an absent member): objects member by member,
    anything else whole. A conflict keeps the local value."""
    if _same(local, base):
        return upstream, []
    if _same(upstream, base) or _same(local, upstream):
        return local, []
    if isinstance(local, dict) and isinstance(upstream, dict):
        base_members = base if isinstance(base, dict) else {}
        merged: dict[str, Any] = {}
        conflicts: list[Conflict] = []
        for key in [*local, *(k for k in upstream if k not in local)]:
            value, found = merge(
                base_members.get(key, MISSING),
                local.get(key, MISSING),
                upstream.get(key, MISSING),
                jp.join(pointer, key),
            )
            conflicts += found
            if value is not MISSING:
                merged[key] = value
        return merged, conflicts
    return local, [Conflict(pointer, local, upstream)]


def _shown(value: Any) -> str:
    if value is MISSING:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."


def _local_file(design: Path, recorded: str | None, planned: str) -> str | None:
    """The design-relative file holding a tool locally: the recorded one, else one of the planned
    stem in any schema suffix."""
    if recorded is not None and (design / recorded).is_file():
        return recorded
    stem = Path(planned).stem
    for suffix in SCHEMA_SUFFIXES:
        candidate = f"{TOOLS_FOLDER}/{stem}{suffix}"
        if (design / candidate).is_file():
            return candidate
    return None


def _note(
    file: str, pointer: str, code: str, message: str, level: Level = Level.INFO
) -> Diagnostic:
    return Diagnostic(file, pointer, SYNC, code, message, level)


def update_design(
    sources: Sequence[tuple[Path, str]],
    design: Path,
    formats: Sequence[ToolFormat],
    *,
    forced: str | None = None,
    prune: bool = False,
    on_wait: Callable[[], None] | None = None,
    on_locked: Callable[[], object] | None = None,
) -> SyncResult:
    """Re-import ``sources`` into ``design``, merging with its local edits (see the module),
    under the design's lock (``on_wait``: see :func:`design_lock`); ``on_locked`` runs first
    under it (a copy of the design as it is before the update, for a diff)."""
    with design_lock(design, on_wait):
        if on_locked is not None:
            on_locked()
        return _update_locked(sources, design, formats, forced=forced, prune=prune)


def _update_locked(
    sources: Sequence[tuple[Path, str]],
    design: Path,
    formats: Sequence[ToolFormat],
    *,
    forced: str | None,
    prune: bool,
) -> SyncResult:
    record, diagnostics = read_record(design)
    if diagnostics:
        return SyncResult(diagnostics, [], [], [])
    with tempfile.TemporaryDirectory(prefix="toolgen-update-") as empty:
        # planned as into an empty design: whether a file exists is the merge's question here
        planned = import_sources(
            sources, Path(empty), formats, forced=forced, def_files=record.def_files()
        )
    diagnostics = list(planned.diagnostics)
    if not planned.ok and not planned.tools:
        return SyncResult(diagnostics, [], [], [])
    added: list[str] = []
    updated: list[str] = []
    removed: list[str] = []
    # the shared definitions first: a tool added or changed below may refer to one
    diagnostics += _update_defs(design, record, planned.defs, prune=prune, removals=planned.ok)
    upstream = upstream_documents(planned.tools)
    for name, (path, document) in upstream.items():
        entry = record.tools.get(name)
        local_file = _local_file(design, entry["file"] if entry else None, path)
        if local_file is None and entry is not None:
            diagnostics.append(
                _note(
                    entry["file"],
                    "",
                    "REMOVED_LOCALLY",
                    f"tool {name!r} was deleted here; "
                    "not brought back (delete its entry in the record to import it again)",
                )
            )
            record.tools[name] = {"file": entry["file"], "upstream": _fields(document)}
            continue
        if local_file is None:
            text = next(t.text for t in planned.tools if t.name == name)
            write_atomically(design / path, text)
            record.tools[name] = {"file": path, "upstream": _fields(document)}
            added.append(name)
            diagnostics.append(_note(path, "", "ADDED", f"tool {name!r} is new upstream"))
            continue
        base = entry["upstream"] if entry is not None else {}
        outcome = _merge_file(design, local_file, base, _fields(document), name)
        if isinstance(outcome, Diagnostic):  # the local file does not read: left alone
            diagnostics.append(outcome)
            continue
        changed, found = outcome
        diagnostics += found
        if changed:
            updated.append(name)
        record.tools[name] = {"file": local_file, "upstream": _fields(document)}
    gone_upstream = sorted(set(record.tools) - set(upstream))
    if gone_upstream and not planned.ok:  # a tool that failed to import is not gone
        diagnostics.append(
            _note(
                RECORD_FILE,
                "",
                "REMOVALS_NOT_CHECKED",
                f"{len(gone_upstream)} recorded tool(s) "
                "not read upstream; with import errors, none is taken as removed",
                Level.WARNING,
            )
        )
        gone_upstream = []
    for name in gone_upstream:
        gone = _removed_upstream(design, name, record.tools[name], prune)
        diagnostics.append(gone)
        if gone.code in ("PRUNED", "ALREADY_DELETED"):
            del record.tools[name]
            removed.append(name)
    write_atomically(design / RECORD_FILE, record.to_text())  # last: see the module's docstring
    return SyncResult(diagnostics, added, updated, removed)


def _merge_file(
    design: Path, local_file: str, base: Any, upstream: dict[str, Any], name: str | None
) -> tuple[bool, list[Diagnostic]] | Diagnostic:
    """Merge ``upstream`` into the local file (a tool's fields, for the tool ``name``; a shared
    definition's whole document for None) from ``base``, the value upstream gave it last."""
    what = f"tool {name!r}" if name is not None else "the definition"
    try:
        local = parse((design / local_file).read_text(encoding="utf-8"), Path(local_file).suffix)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return _note(
            local_file, "", "UNREADABLE_LOCAL", f"{error}; {what} left as it is", Level.ERROR
        )
    if not isinstance(local, dict):
        kind = "tool" if name is not None else "definitions"
        return _note(
            local_file,
            "",
            "UNREADABLE_LOCAL",
            f"not a {kind} file; {what} left as it is",
            Level.ERROR,
        )
    merged, conflicts = merge(base, _fields(local) if name is not None else local, upstream)
    found = [
        _note(
            local_file,
            c.pointer,
            "CONFLICT",
            f"changed here and upstream; kept the local value {_shown(c.local)} "
            f"(upstream: {_shown(c.upstream)})",
            Level.WARNING,
        )
        for c in conflicts
    ]
    result = {"name": local.get("name", name), **merged} if name is not None else merged
    if _same(result, local):
        return False, found
    write_atomically(design / local_file, text_for(local_file, result))
    return True, found


def _update_defs(
    design: Path,
    record: ImportRecord,
    planned: Sequence[ImportedDef],
    *,
    prune: bool,
    removals: bool,
) -> list[Diagnostic]:
    """Merge the shared definitions upstream gives into their files (three ways, as a tool's:
    a local fix of one is kept, and reaches every tool that refers to it, new ones included),
    write the new ones, and report (with ``prune``: delete, when unedited) those upstream's
    tools no longer share, unless not ``removals`` (an import with errors: a tool that failed
    may share them still). Updates ``record``."""
    diagnostics: list[Diagnostic] = []
    for shared in planned:
        entry = record.defs.get(shared.name)
        path = entry["file"] if entry is not None else shared.path
        if not (design / path).is_file():
            write_atomically(design / path, shared.text)
            if entry is None:
                note = f"definition {shared.name!r} is new upstream, shared by several tools"
                diagnostics.append(_note(path, "", "ADDED", note))
            else:
                note = f"definition {shared.name!r} was deleted here; written again (tools use it)"
                diagnostics.append(_note(path, "", "RESTORED", note, Level.WARNING))
        else:
            base = entry["upstream"] if entry is not None else {}
            outcome = _merge_file(design, path, base, shared.document, None)
            if isinstance(outcome, Diagnostic):
                diagnostics.append(outcome)
                continue
            diagnostics += outcome[1]
        record.defs[shared.name] = {"file": path, "upstream": shared.document}
    gone = set(record.defs) - {shared.name for shared in planned} if removals else set()
    for name in sorted(gone):
        found = _def_gone(design, name, record.defs[name], prune)
        diagnostics.append(found)
        if found.code in ("PRUNED", "ALREADY_DELETED"):
            del record.defs[name]
    return diagnostics


def _def_gone(design: Path, name: str, entry: dict[str, Any], prune: bool) -> Diagnostic:
    file = entry["file"]
    path = design / file
    if not path.is_file():
        return _note(file, "", "ALREADY_DELETED", f"definition {name!r} is shared no more")
    why = (
        f"upstream's tools no longer share definition {name!r} (none has it, or they give it "
        "different values: each then holds its own, and an edit here no longer reaches them)"
    )
    if not prune:
        return _note(
            file, "", "REMOVED_UPSTREAM", f"{why}; kept (--prune deletes it)", Level.WARNING
        )
    try:
        local = parse(path.read_text(encoding="utf-8"), path.suffix)
    except (OSError, UnicodeDecodeError, ValueError):
        local = None
    if not _same(local, entry["upstream"]):
        return _note(file, "", "REMOVED_UPSTREAM", f"{why}; edited here, kept", Level.WARNING)
    path.unlink()
    return _note(file, "", "PRUNED", f"{why}; deleted")


def _removed_upstream(design: Path, name: str, entry: dict[str, Any], prune: bool) -> Diagnostic:
    file = entry["file"]
    path = design / file
    if not path.is_file():
        return _note(file, "", "ALREADY_DELETED", f"tool {name!r} is gone upstream and here")
    if not prune:
        return _note(
            file,
            "",
            "REMOVED_UPSTREAM",
            f"tool {name!r} is gone upstream; kept (--prune deletes it)",
            Level.WARNING,
        )
    try:
        local = parse(path.read_text(encoding="utf-8"), path.suffix)
    except (OSError, UnicodeDecodeError, ValueError):
        local = None
    if not isinstance(local, dict) or not _same(_fields(local), entry["upstream"]):
        return _note(
            file,
            "",
            "REMOVED_UPSTREAM",
            f"tool {name!r} is gone upstream but was edited here; kept",
            Level.WARNING,
        )
    path.unlink()
    return _note(file, "", "PRUNED", f"tool {name!r} is gone upstream; deleted")
