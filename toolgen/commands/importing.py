"""``toolgen import``: tool definitions in a provider's (or MCP's) format in, design files out.

For each source the format is detected from the content (or forced), each tool entry is read by
its format, what the provider's strict mode added is undone where that can be told (see
toolgen/commands/strict_nulls.py), and the tool becomes ``tools/<stem>.yaml`` holding name, description and
parameters. Every decision is a Diagnostic on the source file (info or warning); a tool that cannot
be imported is an error and is not written, the others are. Nothing here knows a provider: the
formats come from ``toolgen.formats.IMPORT_FORMATS``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from toolgen.commands.import_defs import RESOURCES, SharedPlan, shared_names, shared_values
from toolgen.commands.strict_nulls import (
    first_open_object,
    nullable_required_members,
    producer_styles,
    undo_strict_nulls,
)
from toolgen.formats.tool_format import FoundTool, ToolFormat
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.load.design import load_design
from toolgen.load.loader import DEFS_FOLDER
from toolgen.load.sources import SCHEMA_SUFFIXES, parse
from toolgen.providers import settings
from toolgen.schema import pointer as jp

TOOLS_FOLDER = "tools"
#: The name map a build writes beside the projected schemas (OUT/schemas/<provider>/names.json).
NAMES_FILE = "names.json"
IMPORT = "import"  # the provider slot of a finding made before a format is known
_STEM_LENGTH = 100


@dataclass(frozen=True)
class ImportedTool:
    """One tool ready to be written: its design file (relative to DESIGN) and that file's text."""

    name: str
    path: str
    text: str
    source: str  # where it came from: the source file and the entry's pointer


@dataclass(frozen=True)
class ReadTool:
    """A tool read from a source, as the design document it becomes."""

    source: str  # the source file, as named on the command line
    format: str
    pointer: str  # the tool's entry in the source
    schema_pointer: str  # its parameters in the source
    document: dict[str, Any]


@dataclass(frozen=True)
class ImportedDef:
    """A definition several tools share, to be written once: its file (relative to DESIGN) and
    that file's document and text."""

    name: str
    path: str
    document: dict[str, Any]
    text: str


@dataclass(frozen=True)
class ImportResult:
    tools: list[ImportedTool]
    diagnostics: list[Diagnostic]
    defs: list[ImportedDef] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.level is Level.ERROR for d in self.diagnostics)


def _error(file: str, pointer: str, provider: str, code: str, message: str) -> Diagnostic:
    return Diagnostic(file, pointer, provider, code, message, Level.ERROR)


# -- reading a source ---------------------------------------------------------------------------


def detect(document: Any, formats: Sequence[ToolFormat]) -> ToolFormat | None:
    """The first format (in the given order) whose layout the document has."""
    return next((f for f in formats if f.find(document) is not None), None)


def _names_map(source: Path) -> dict[str, str]:
    """provider name -> canonical name, from a build's names.json beside the source (else empty)."""
    path = source.parent / NAMES_FILE
    try:
        names = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    tools = names.get("tools") if isinstance(names, dict) else None
    if not isinstance(tools, dict):
        return {}
    return {wire: canonical for canonical, wire in tools.items() if isinstance(wire, str)}


def _strict_false_kept(pointer: str) -> Diagnostic:
    return Diagnostic(
        "",
        pointer,
        "",
        "STRICT_FALSE_KEPT",
        "the definition has strict: false: the tool file says strict: false (sent non-strict by "
        "every provider that has that mode; the others send it strict)",
        Level.INFO,
    )


def _no_tools(document: Any) -> bool:
    """An empty list, or an empty ``tools`` list (of a request, a tools/list result, a toolConfig):
    a build whose tools were all rejected sends one, and it is no error to import nothing."""
    while isinstance(document, dict) and len(document) > 0:
        inner = [document[k] for k in ("result", "toolConfig", "tools") if k in document]
        if not inner:
            return False
        document = inner[0]
    return document == []


def read_source(
    source: Path, label: str, formats: Sequence[ToolFormat], forced: str | None = None
) -> tuple[list[ReadTool], list[Diagnostic]]:
    """The tools of one source as design documents, and the findings (on ``label``)."""
    try:
        document = parse(source.read_text(encoding="utf-8"), ".json")
    except (OSError, UnicodeDecodeError, ValueError) as error:
        message = " ".join(str(error).split())
        return [], [_error(label, "", IMPORT, "UNREADABLE_SOURCE", message)]
    if forced is not None:
        chosen = next((f for f in formats if f.name == forced), None)
        if chosen is None:
            return [], [_error(label, "", IMPORT, "UNKNOWN_FORMAT", f"no format {forced!r}")]
        if chosen.find(document) is None:
            return [], [
                _error(label, "", chosen.name, "NOT_THIS_FORMAT", f"no {chosen.title} found")
            ]
    else:
        detected = detect(document, formats)
        if detected is None and _no_tools(document):
            return [], [
                Diagnostic(label, "", IMPORT, "NO_TOOLS", "an empty tool list", Level.WARNING)
            ]
        if detected is None:
            known = ", ".join(f"{f.name} ({f.title})" for f in formats)
            return [], [
                _error(
                    label, "", IMPORT, "UNKNOWN_FORMAT", f"no tool list of a known format: {known}"
                )
            ]
        chosen = detected
    findings: list[Diagnostic] = []
    found_tools: list[tuple[str, FoundTool]] = []
    for pointer, entry in chosen.find(document) or []:
        tool, found = chosen.read(entry, pointer)
        findings += found
        if tool is not None:
            found_tools.append((pointer, tool))
    names = _names_map(source)
    styles = producer_styles((t.parameters for _, t in found_tools), chosen.strict_nulls)
    tools: list[ReadTool] = []
    for pointer, tool in found_tools:
        design_document, found = _design_document(tool, pointer, styles, names)
        findings += found
        if design_document is not None and tool.strict is False and chosen.has_strict:
            design_document["strict"] = False
            findings.append(_strict_false_kept(pointer))
        if design_document is not None:
            tools.append(ReadTool(label, chosen.name, pointer, tool.pointer, design_document))
    on_file = [replace(d, file=label, provider=d.provider or chosen.name) for d in findings]
    return tools, on_file


def _design_document(
    tool: FoundTool, pointer: str, strict_nulls: tuple[bool, ...], names: dict[str, str]
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    findings: list[Diagnostic] = []
    name = tool.name
    if not isinstance(name, str) or not name.strip() or name.strip() != name:
        return None, [_error("", pointer, "", "INVALID_NAME", f"no usable tool name: {name!r}")]
    if name in names and names[name] != name:
        findings.append(
            Diagnostic(
                "",
                pointer,
                "",
                "NAME_RESTORED",
                f"{name!r} is the wire name of {names[name]!r} ({NAMES_FILE} beside the source)",
                Level.INFO,
            )
        )
        name = names[name]
    description = tool.description if tool.description is not None else ""
    if not isinstance(description, str):
        findings.append(
            Diagnostic(
                "",
                pointer,
                "",
                "INVALID_DESCRIPTION",
                "the description is not text; left empty",
                Level.WARNING,
            )
        )
        description = ""
    schema = tool.parameters
    if not isinstance(schema, dict):
        findings.append(
            _error(
                "", tool.pointer, "", "NON_OBJECT_ROOT", "the parameters are not a schema object"
            )
        )
        return None, findings
    if strict_nulls:
        open_object = first_open_object(schema)
        if tool.strict is not False and open_object is None:
            schema, undone = undo_strict_nulls(schema, tool.pointer, strict_nulls)
            findings += undone
        elif nullable_required_members(schema):  # a decision only where a null may be forced
            findings.append(
                _nulls_kept(tool.pointer, "the definition has strict: false")
                if tool.strict is False
                else _nulls_kept(
                    tool.pointer + (open_object or ""),
                    "this object is not closed with every member required, so the definition is "
                    "not strict-shaped",
                )
            )
    return {"name": name, "description": description, "parameters": schema, **tool.extra}, findings


def _nulls_kept(pointer: str, why: str) -> Diagnostic:
    return Diagnostic(
        "", pointer, "", "NOT_STRICT", f"{why}: nulls are kept as written", Level.INFO
    )


# -- design files -------------------------------------------------------------------------------


def file_stem(name: str) -> str:
    """A file stem for a tool name that stays inside tools/: path separators, dots at the start
    and characters outside ``[A-Za-z0-9._-]`` become ``_`` (the name itself is kept in the file)."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".") or "_"
    return stem[:_STEM_LENGTH]


def render_tool(document: dict[str, Any]) -> tuple[str, str]:
    """(suffix, text) of a tool file (or a shared definition's): YAML in a stable order (name,
    description, parameters; members as in the source), or JSON (ASCII, escaped) when the YAML
    would not read back as the same value."""
    text = yaml.safe_dump(
        document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False
    )
    try:
        text.encode("utf-8")  # a lone surrogate (JSON text may hold one) cannot be written
        same = json.dumps(parse(text, ".yaml")) == json.dumps(document)
    except (ValueError, yaml.YAMLError):
        same = False
    if same:
        return ".yaml", text
    return ".json", json.dumps(document, indent=2) + "\n"


def text_for(path: str, document: dict[str, Any]) -> str:
    """The text of ``document`` in the file ``path``: as :func:`render_tool` writes it, or JSON
    where ``path`` is a .json file."""
    suffix, text = render_tool(document)
    if Path(path).suffix == ".json" and suffix != ".json":
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return text  # YAML, or JSON text (which a .yaml file reads as the same value)


def _loader_findings(
    documents: dict[str, dict[str, Any]], texts: Mapping[str, str] | None = None
) -> dict[str, list[Diagnostic]]:
    """What toolgen's own loader says about each file (design-relative path -> diagnostics), so that
    a file the import writes always loads without diagnostics. ``texts``: more files, as written."""
    with tempfile.TemporaryDirectory(prefix="toolgen-import-") as folder:
        root = Path(folder)
        for folder_name in (TOOLS_FOLDER, DEFS_FOLDER):
            (root / folder_name).mkdir()
        for relative, document in documents.items():
            (root / relative).write_text(json.dumps(document), encoding="utf-8")
        for relative, text in (texts or {}).items():
            (root / relative).write_text(text, encoding="utf-8")
        _, diagnostics = load_design(root, settings())
    found: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        found.setdefault(diagnostic.file, []).append(diagnostic)
    return found


def import_sources(
    sources: Sequence[tuple[Path, str]],
    design: Path,
    formats: Sequence[ToolFormat],
    *,
    forced: str | None = None,
    force: bool = False,
    def_files: Mapping[str, str] | None = None,
) -> ImportResult:
    """Read ``sources`` (path, label for diagnostics) and plan the tool files of ``design``, and
    the files of the definitions several tools share (toolgen/commands/import_defs.py;
    ``def_files``: name -> file in defs/ of those an earlier import shared).

    Nothing is written here (see :func:`write_tools`). A tool is left out, with an error, when its
    file would not load cleanly, when two tools map to one file, or when its file exists and
    ``force`` is not set.
    """
    diagnostics: list[Diagnostic] = []
    read: list[ReadTool] = []
    for path, label in sources:
        tools, found = read_source(path, label, formats, forced)
        diagnostics += found
        read += tools

    planned: dict[str, ReadTool] = {}  # file stem -> tool
    claimed: dict[str, ReadTool] = {}  # case-folded stem -> tool (case-insensitive disks)
    for tool in read:
        stem = file_stem(tool.document["name"])
        first = claimed.get(stem.casefold())
        if first is not None:
            diagnostics.append(
                _on_tool(
                    tool,
                    "/name",
                    "DUPLICATE_FILE",
                    f"tool {tool.document['name']!r} would be written to {TOOLS_FOLDER}/{stem}.yaml "
                    f"like {first.document['name']!r} ({first.source}:{first.pointer}); not imported",
                )
            )
            continue
        claimed[stem.casefold()] = planned[stem] = tool

    shared = _share(
        {stem: tool.document for stem, tool in planned.items()}, design, force, def_files or {}
    )
    diagnostics += shared.notes
    imported: list[ImportedTool] = []
    imported_stems: list[str] = []
    for stem, tool in planned.items():
        problems = shared.checks.get(f"{TOOLS_FOLDER}/{stem}.json", [])
        if problems:
            diagnostics += [_not_loadable(d, tool) for d in problems]
            continue
        suffix, text = render_tool(shared.documents[stem])
        relative = f"{TOOLS_FOLDER}/{stem}{suffix}"
        existing = [
            f"{TOOLS_FOLDER}/{stem}{s}"
            for s in SCHEMA_SUFFIXES
            if (design / TOOLS_FOLDER / f"{stem}{s}").exists()
        ]
        blocking = [e for e in existing if not force or e != relative]
        if blocking:
            hint = "" if force else " (--force replaces it)"
            diagnostics.append(
                _on_tool(
                    tool,
                    "/name",
                    "FILE_EXISTS",
                    f"{blocking[0]} exists{hint}; tool {tool.document['name']!r} not imported",
                )
            )
            continue
        imported.append(
            ImportedTool(tool.document["name"], relative, text, f"{tool.source}:{tool.pointer}")
        )
        imported_stems.append(stem)
    return ImportResult(imported, diagnostics, shared.used_by(imported_stems))


@dataclass(frozen=True)
class _Shared:
    """The shared definitions of an import (see toolgen/commands/import_defs.py): the tool
    documents that refer to them (file stem -> document), their files, what the loader says of
    every planned file, and the import's notes about them."""

    plan: SharedPlan
    documents: dict[str, dict[str, Any]]
    defs: dict[str, ImportedDef]
    checks: dict[str, list[Diagnostic]]
    notes: list[Diagnostic]

    def used_by(self, stems: Sequence[str]) -> list[ImportedDef]:
        """The definitions the tools of ``stems`` reach, directly or through one another."""
        roots = [
            self.documents[stem][key]
            for stem in stems
            for key in RESOURCES
            if key in self.documents[stem]
        ]
        documents = {name: found.document for name, found in self.defs.items()}
        return [self.defs[name] for name in self.plan.reached(roots, documents)]


def _share(
    documents: dict[str, dict[str, Any]], design: Path, force: bool, def_files: Mapping[str, str]
) -> _Shared:
    """Plan the shared definitions of the tool ``documents`` (file stem -> document) and check
    every planned file with the loader. ``def_files``: name -> file in defs/ of the definitions
    an earlier import shared (they stay shared, in their files, while the tools agree on them).
    A file of defs/ that holds something else is not replaced (without ``force``): the definition
    goes to the next free name. A definition whose file would not load stays in each tool."""
    occupied: set[str] = set()
    excluded: set[str] = set()
    while True:
        names, unshared = shared_names(documents.values(), def_files, excluded)
        values = shared_values(documents.values(), names)
        plan = SharedPlan(_def_files(values, design, def_files, occupied))
        defs = {}
        for name in names:
            path = f"{DEFS_FOLDER}/{plan.files[name]}"
            document = plan.def_document(name, values[name])
            defs[name] = ImportedDef(name, path, document, text_for(path, document))
        taken = {
            plan.files[name]
            for name, found in defs.items()
            if not force and name not in def_files and _holds_other(design / found.path, found)
        }
        if taken:
            occupied |= taken
            continue
        tool_documents = {stem: plan.tool_document(d) for stem, d in documents.items()}
        checks = _loader_findings(
            {f"{TOOLS_FOLDER}/{stem}.json": d for stem, d in tool_documents.items()},
            {found.path: found.text for found in defs.values()},
        )
        broken = {name for name, found in defs.items() if checks.get(found.path)}
        if not broken:
            notes = _sharing_notes(defs, unshared, len(documents))
            return _Shared(plan, tool_documents, defs, checks, notes)
        excluded |= broken


def _def_files(
    values: Mapping[str, Any], design: Path, def_files: Mapping[str, str], occupied: set[str]
) -> dict[str, str]:
    """name -> file in defs/: an earlier import's, else the name's stem and the suffix its
    document is written with, made unique (case folded: ``_2``, ``_3`` ...) among the planned
    files, the ``occupied`` ones and any file of defs/ with that stem and another suffix."""
    files = {name: def_files[name] for name in sorted(values) if name in def_files}
    stems = {Path(file).stem.casefold() for file in files.values()}
    for name in sorted(values):
        if name in files:
            continue
        suffix, _ = render_tool({"$defs": {name: values[name]}})
        stem = file_stem(name)
        candidate, index = stem, 2
        while (
            candidate.casefold() in stems
            or candidate + suffix in occupied
            or any(
                (design / DEFS_FOLDER / f"{candidate}{s}").exists()
                for s in SCHEMA_SUFFIXES
                if s != suffix
            )
        ):
            candidate, index = f"{stem}_{index}", index + 1
        stems.add(candidate.casefold())
        files[name] = candidate + suffix
    return files


def _holds_other(path: Path, planned: ImportedDef) -> bool:
    """Whether ``path`` exists with another value than the planned definition file's."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError):
        return True
    try:
        return json.dumps(parse(text, path.suffix), sort_keys=True) != json.dumps(
            planned.document, sort_keys=True
        )
    except ValueError:
        return True


def _sharing_notes(
    defs: Mapping[str, ImportedDef], unshared: Sequence[str], tools: int
) -> list[Diagnostic]:
    notes = []
    if defs:
        notes.append(
            Diagnostic(
                f"{DEFS_FOLDER}/",
                "",
                IMPORT,
                "DEFS_SHARED",
                f"{len(defs)} shared definition(s) written once in {DEFS_FOLDER}/ and referenced: "
                f"{', '.join(sorted(defs))} (each held with one value by several of the {tools} "
                "tools)",
                Level.INFO,
            )
        )
    if unshared:
        notes.append(
            Diagnostic(
                f"{DEFS_FOLDER}/",
                "",
                IMPORT,
                "DEFS_NOT_SHARED",
                "kept in each tool that holds them (the tools give them different values, or "
                f"they refer to what only a tool has): {', '.join(unshared)}",
                Level.INFO,
            )
        )
    return notes


def _on_tool(tool: ReadTool, where: str, code: str, message: str) -> Diagnostic:
    """An error about a tool, on its source: at ``where`` when that is in its parameters, else at
    its entry."""
    tokens = jp.split(where)
    pointer = tool.pointer
    if tokens[:1] == ["parameters"]:
        pointer = jp.join(tool.schema_pointer, *tokens[1:])
    return _error(tool.source, pointer, tool.format, code, message)


def _not_loadable(diagnostic: Diagnostic, tool: ReadTool) -> Diagnostic:
    """A loader diagnostic about a planned file, said about the source entry it came from (the
    schema's pointers are the source's, but for what a format's reader converted)."""
    where = diagnostic.pointer if diagnostic.pointer.startswith("/") else ""
    return _on_tool(tool, where, diagnostic.code, f"not imported: {diagnostic.message}")


def write_tools(
    design: Path, tools: Sequence[ImportedTool], defs: Sequence[ImportedDef] = ()
) -> list[Path]:
    """Write the planned files under ``design`` (each atomically); never outside ``design/tools``
    and ``design/defs``."""
    written = []
    files: list[ImportedDef | ImportedTool] = [*defs, *tools]
    for planned in files:
        folder = design / (DEFS_FOLDER if isinstance(planned, ImportedDef) else TOOLS_FOLDER)
        folder.mkdir(parents=True, exist_ok=True)
        target = design / planned.path
        if target.resolve().parent != folder.resolve():
            raise ValueError(f"{planned.path} is outside {folder}")
        temporary = target.with_name(f".{target.name}.toolgen-tmp")
        temporary.write_text(planned.text, encoding="utf-8")
        os.replace(temporary, target)
        written.append(target)
    return written
