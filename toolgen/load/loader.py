"""The steps of loading a design folder (docs/design.md) into a bundled, meta-validated
:class:`Design` (toolgen.load.design.load_design runs them, or toolgen.load.reload from a last load)."""

from __future__ import annotations

import hashlib
import marshal
import os
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from toolgen.infra.cache import code_fingerprint, digest, grouped_results
from toolgen.infra.diagnostics import DESIGN, Diagnostic, Level
from toolgen.infra.kept import plain_key
from toolgen.infra.parallel import Runner
from toolgen.load.bundle import Bundler, Documents, Location
from toolgen.load.common_defs import share_common
from toolgen.load.contracts import (
    Config,
    Contract,
    ContractKind,
    Design,
    ProviderOptions,
    ProviderSettings,
    SharedDef,
)
from toolgen.load.seen import Parts, Seen, read_seen
from toolgen.load.sources import (
    SCHEMA_SUFFIXES,
    load_document,
    may_hold_ref,
    parse_source,
)
from toolgen.load.tool_extras import TOOL_EXTRAS, alias_collisions, extras_problems, tool_output
from toolgen.schema import pointer as jp
from toolgen.schema.metaschema import meta_validator
from toolgen.schema.refs import inlined_size, rebase_embedded, unbounded_refs, unfolded_depth

CONFIG_FILE = "toolgen.toml"

#: folder -> (contract kind, key holding the schema, the other keys a file may carry)
CONTRACT_FOLDERS: dict[str, tuple[ContractKind, str, frozenset[str]]] = {
    "tools": (
        "tool",
        "parameters",
        frozenset(
            {"name", "description", "examples", "providers", "priority", "strict", *TOOL_EXTRAS}
        ),
    ),
    "outputs": ("output", "schema", frozenset({"name", "description", "examples", "providers"})),
}
DEFS_FOLDER = "defs"
ENVELOPES_FOLDER = "envelopes"

#: Schemas on one path through subschemas and references (see _too_deep_through_refs).
MAX_UNFOLDED_DEPTH = 128
#: Schemas of a contract once the references the projection inlines are copied.
MAX_INLINED_SCHEMAS = 50_000


def design_files(root: Path) -> list[str]:
    """Every schema file of the design, relative and sorted (so input order never matters)."""
    return sorted(_scan(root))


def _scan(root: Path) -> dict[str, bool]:
    """Every schema file of the design (relative, in no order) -> whether a symbolic link is on
    its way from ``root`` (only such a file can lead outside the design folder). What
    ``rglob("*")`` of each folder finds (symbolic links to folders are not followed below it),
    with ``os.scandir``: a rebuild lists thousands of files, and pathlib costs a tenth of a
    second of it."""
    found: dict[str, bool] = {}
    for folder in (*CONTRACT_FOLDERS, DEFS_FOLDER):
        base = root / folder
        if base.is_dir():
            _scan_folder(str(base), folder, base.is_symlink(), found)
    return found


def _scan_folder(path: str, relative: str, linked: bool, found: dict[str, bool]) -> None:
    try:
        with os.scandir(path) as listing:
            entries = list(listing)
    except PermissionError:  # as rglob: a folder that cannot be listed is skipped
        return
    for entry in entries:
        name = f"{relative}/{entry.name}"
        if entry.is_symlink():
            if Path(entry.path).is_file() and _suffix(entry.name) in SCHEMA_SUFFIXES:
                found[name] = True
        elif entry.is_dir(follow_symlinks=False):
            _scan_folder(entry.path, name, linked, found)
        elif entry.is_file(follow_symlinks=False) and _suffix(entry.name) in SCHEMA_SUFFIXES:
            found[name] = linked


def _suffix(name: str) -> str:
    """``PurePath(name).suffix.lower()``."""
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def design_hash(root: Path, files: list[str], read: dict[str, bytes] | None = None) -> str:
    """A hash of every design file, toolgen.toml and the envelope files; ``read`` holds the
    bytes of files loading already read (the others are read here)."""
    read = read or {}
    digest = hashlib.sha256()
    for relative in sorted([*files, CONFIG_FILE, *_envelope_files(root)]):
        data = read.get(relative)
        if data is not None:
            digest.update(relative.encode() + b"\0" + data + b"\0")
            continue
        path = root / relative
        if path.is_file():
            digest.update(relative.encode() + b"\0")
            with path.open("rb") as file:  # in chunks: a design file may be far over its limit
                while chunk := file.read(1 << 20):
                    digest.update(chunk)
            digest.update(b"\0")
    return digest.hexdigest()


def _envelope_files(root: Path) -> list[str]:
    base = root / ENVELOPES_FOLDER
    if not base.is_dir():
        return []
    return sorted(p.relative_to(root).as_posix() for p in base.rglob("*.json") if p.is_file())


def _outside(root: Path, relative: str) -> list[Diagnostic]:
    """An error when the design file is a link to a file elsewhere (a design that came from
    elsewhere could otherwise put any file's content into OUT)."""
    if (root / relative).resolve().is_relative_to(root.resolve()):
        return []
    message = "a symbolic link to a file outside the design folder; toolgen reads only the design"
    return [Diagnostic(relative, "", DESIGN, "OUTSIDE_DESIGN", message)]


def _see_file(
    root: Path, relative: str, linked: bool, before: Seen | None
) -> tuple[Seen | None, list[Diagnostic]]:
    """A design file found by :func:`_scan` as read (None when not read): ``_load_inside``'s
    reading, with its path resolved only when a symbolic link is on its way; ``before`` (a
    process that loads again): as the last load read it, not read again when unchanged."""
    refused = _outside(root, relative) if linked else []
    if refused:
        return None, refused
    return read_seen(os.path.join(root, relative), relative, before)


def _parse_file(relative: str, seen: Seen, keep: bool) -> tuple[Any, list[Diagnostic], Seen]:
    """The value of a design file's bytes, and ``seen`` with it (``keep``: in a process that
    loads again, a file whose bytes parsed cleanly is not parsed again: its value is a copy of
    the kept one, which loading changes)."""
    if seen.parsed is not None:
        return marshal.loads(seen.parsed), [], seen
    value, found = parse_source(seen.data, _suffix(relative.rsplit("/", 1)[-1]), relative)
    if keep and not found:
        blob = plain_key(value)
        if blob is not None:
            seen = replace(seen, parsed=blob)
    return value, found, seen


def _load_inside(root: Path, relative: str) -> tuple[Any, list[Diagnostic]]:
    """``load_document`` of a design file, refused when it is a link to a file elsewhere."""
    refused = _outside(root, relative)
    if refused:
        return None, refused
    return load_document(root / relative, relative)


def load_config(
    root: Path,
    known_providers: Mapping[str, ProviderSettings],
    known_targets: Sequence[str] | None = None,
) -> tuple[Config, list[Diagnostic]]:
    """``toolgen.toml``: the settings of the build, and what is wrong in it. ``known_targets``
    are the targets a design may name (``[toolgen] targets``), in the order the build writes
    them; None: the caller writes no target, and the names are read as they are, unchecked."""
    path = root / CONFIG_FILE
    if not path.is_file():
        return Config(), []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return Config(), [Diagnostic(CONFIG_FILE, "", DESIGN, "PARSE_ERROR", str(error))]
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        return Config(), [
            Diagnostic(CONFIG_FILE, "", DESIGN, "TOO_DEEP", "arrays or tables nest too deep")
        ]
    diagnostics: list[Diagnostic] = []

    def problem(pointer: str, code: str, message: str) -> None:
        diagnostics.append(Diagnostic(CONFIG_FILE, pointer, DESIGN, code, message))

    for key in sorted(set(data) - {"toolgen", "providers"}):
        problem(
            jp.join("", key),
            "UNKNOWN_FIELD",
            f"unknown table {key!r} (expected [toolgen] or [providers.NAME])",
        )
    section = data.get("toolgen", {})
    if not isinstance(section, dict):
        problem("/toolgen", "INVALID_CONFIG", "toolgen must be a table: [toolgen]")
        section = {}
    tables = data.get("providers", {})
    if not isinstance(tables, dict):
        problem(
            "/providers",
            "INVALID_CONFIG",
            "providers must be tables [providers.NAME]; the list of providers goes under [toolgen]",
        )
        tables = {}
    providers: tuple[str, ...] | None = None
    known = {"providers", "strict_fallback", "targets", "max_request_tokens"}
    for key in sorted(set(section) - known):
        problem(jp.join("/toolgen", key), "UNKNOWN_FIELD", f"unknown setting {key!r}")
    strict_fallback = section.get("strict_fallback", "error")
    if strict_fallback not in ("error", "non-strict"):
        problem(
            "/toolgen/strict_fallback",
            "INVALID_CONFIG",
            "strict_fallback must be 'error' or 'non-strict'",
        )
        strict_fallback = "error"
    if "providers" in section:
        value = section["providers"]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problem(
                "/toolgen/providers", "INVALID_CONFIG", "providers must be a list of provider names"
            )
        else:
            for name in value:
                if name not in known_providers:
                    problem(
                        "/toolgen/providers",
                        "UNKNOWN_PROVIDER",
                        f"unknown provider {name!r}; toolgen supports {', '.join(known_providers)}",
                    )
            providers = tuple(v for v in value if v in known_providers)
    targets = _read_targets(section, known_targets, problem)
    budget = section.get("max_request_tokens")
    if budget is not None and (type(budget) is not int or budget < 1):
        problem(
            "/toolgen/max_request_tokens",
            "INVALID_CONFIG",
            "max_request_tokens must be an integer of at least 1",
        )
        budget = None
    options: dict[str, ProviderOptions] = {}
    for name, table in tables.items():
        pointer = jp.join("/providers", name)
        if name not in known_providers:
            problem(pointer, "UNKNOWN_PROVIDER", f"unknown provider {name!r}")
            continue
        if not isinstance(table, dict):
            problem(
                pointer, "INVALID_CONFIG", f"providers.{name} must be a table: [providers.{name}]"
            )
            continue
        dialects = known_providers[name].dialects
        settings = {"optional_nullable", "recursion_depth"} | ({"dialect"} if dialects else set())
        settings |= {"strict"} if known_providers[name].has_non_strict else set()
        for key in sorted(set(table) - settings):
            problem(jp.join(pointer, key), "UNKNOWN_FIELD", f"unknown setting {key!r}")
        level = table.get("optional_nullable", "encode")
        if level not in ("encode", "keep", "error"):
            problem(
                jp.join(pointer, "optional_nullable"),
                "INVALID_CONFIG",
                "optional_nullable must be 'encode', 'keep' or 'error'",
            )
            level = "encode"
        dialect = table.get("dialect") if dialects else None
        if dialect is not None and dialect not in dialects:
            problem(
                jp.join(pointer, "dialect"),
                "INVALID_CONFIG",
                f"dialect must be one of {', '.join(repr(d) for d in dialects)}, not {dialect!r}",
            )
            dialect = None
        strict = table.get("strict")
        if strict is not None and not isinstance(strict, bool):
            problem(jp.join(pointer, "strict"), "INVALID_CONFIG", "strict must be true or false")
            strict = None
        depth = table.get("recursion_depth")
        if depth is not None and (type(depth) is not int or depth < 1):
            problem(
                jp.join(pointer, "recursion_depth"),
                "INVALID_CONFIG",
                "recursion_depth must be an integer of at least 1",
            )
            depth = None
        options[name] = ProviderOptions(
            optional_nullable=level, dialect=dialect, strict=strict, recursion_depth=depth
        )
    config = Config(
        providers=providers,
        options=options,
        strict_fallback=strict_fallback,
        targets=targets,
        max_request_tokens=budget,
    )
    return config, diagnostics


def _read_targets(
    section: Mapping[str, Any],
    known_targets: Sequence[str] | None,
    problem: Callable[[str, str, str], None],
) -> tuple[str, ...]:
    """``[toolgen] targets``: a list of target names, each known (in the build's order; as
    listed, each once, when ``known_targets`` is None)."""
    if "targets" not in section:
        return ()
    value = section["targets"]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problem("/toolgen/targets", "INVALID_CONFIG", "targets must be a list of target names")
        return ()
    if known_targets is None:
        return tuple(dict.fromkeys(value))
    for index, name in enumerate(value):
        if name not in known_targets:
            known = ", ".join(known_targets) or "none"
            problem(
                jp.join("/toolgen/targets", str(index)),
                "UNKNOWN_TARGET",
                f"unknown target {name!r}; toolgen writes {known}",
            )
    return tuple(name for name in known_targets if name in value)


def _meta_validate(schema: Any, file: str, pointer: str) -> list[Diagnostic]:
    return [
        Diagnostic(
            file,
            jp.join(pointer, *error.absolute_path),
            DESIGN,
            "INVALID_SCHEMA",
            f"not a valid JSON Schema 2020-12: {error.message}",
        )
        for error in sorted(
            meta_validator().iter_errors(schema), key=lambda e: list(map(str, e.absolute_path))
        )
    ]


def _meta_validate_all(
    schemas: list[tuple[Any, str, str]], digests: dict[str, str], runner: Runner
) -> list[list[Diagnostic]]:
    """:func:`_meta_validate` of each (schema, file, pointer), through the build's cache (keyed by
    the digest of the file's bytes, which the schema is a function of, with its path); in this
    process: against the flat meta-schema it is too cheap to send to the workers (which are still
    starting at this point of a cold build). A process that builds once reads them a few dozen
    schemas an entry (``grouped_results``)."""
    if runner.cache is not None and runner.kept is None:
        return grouped_results(
            runner.cache,
            "meta",
            [f"{file}#{pointer}" for _, file, pointer in schemas],
            [f"{digests[file]}\0{file}\0{pointer}" for _, file, pointer in schemas],
            lambda positions: [_meta_validate(*schemas[index]) for index in positions],
            _diagnostics_to_json,
            _diagnostics_from_json,
        )
    return runner.map(
        "meta",
        _meta_validate,
        schemas,
        key=lambda arguments: _meta_key(arguments[1], arguments[2], digests),
        encode=_diagnostics_to_json,
        decode=_diagnostics_from_json,
        parallel=False,
        indexed=True,
        keep_decoded=True,  # only read
    )


def _diagnostics_to_json(found: list[Diagnostic]) -> Any:
    return [d.to_dict() for d in found]


def _diagnostics_from_json(found: Any) -> list[Diagnostic]:
    return [Diagnostic.from_dict(d) for d in found]


def _meta_key(file: str, pointer: str, digests: dict[str, str]) -> str:
    return digest(code_fingerprint(), "meta", digests[file], file, pointer)


def _read_contract(
    file: str, document: Any, known_providers: Mapping[str, ProviderSettings]
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """The checked fields of a tool or output file (name defaults to the file's stem)."""
    kind, schema_key, other_keys = CONTRACT_FOLDERS[file.split("/", 1)[0]]
    if not isinstance(document, dict):
        return None, [
            Diagnostic(file, "", DESIGN, "INVALID_FILE", f"a {kind} file must be a mapping")
        ]
    diagnostics = [
        Diagnostic(
            file,
            jp.join("", key),
            DESIGN,
            "UNKNOWN_FIELD",
            f"unknown field {key!r} in a {kind} file (expected {', '.join(sorted(other_keys | {schema_key}))})",
        )
        for key in document
        if key not in other_keys | {schema_key} and not (key == "strict" and kind == "output")
    ]

    def expect(key: str, check: Any, what: str) -> None:
        if key in document and not check(document[key]):
            diagnostics.append(
                Diagnostic(file, jp.join("", key), DESIGN, "INVALID_FIELD", f"{key} must be {what}")
            )

    expect(
        "name",
        lambda v: isinstance(v, str) and v.strip() == v and v != "",
        "a non-empty string without surrounding spaces",
    )
    expect("description", lambda v: isinstance(v, str), "a string")
    expect("examples", lambda v: isinstance(v, list), "a list of example payloads")
    providers, strict, found = _read_providers(
        file, kind, document.get("providers"), known_providers
    )
    diagnostics += found
    if "strict" in document:
        diagnostics += _strict_problems(file, kind, "/strict", document["strict"])
    if kind == "tool":
        diagnostics += extras_problems(file, document)
    expect(
        "priority",
        lambda v: type(v) is int,
        "an integer (tools with a higher priority are marked strict first)",
    )
    if schema_key not in document:
        diagnostics.append(
            Diagnostic(file, "", DESIGN, "MISSING_FIELD", f"a {kind} file needs {schema_key!r}")
        )
    # An unknown field is reported but does not stop the schema from being checked.
    if any(d.code != "UNKNOWN_FIELD" for d in diagnostics):
        return None, diagnostics
    stem = file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return {
        "kind": kind,
        "name": document.get("name", stem),
        "description": document.get("description", ""),
        "schema_pointer": "/" + schema_key,
        "examples": tuple(document.get("examples", ())),
        "providers": providers,
        "priority": document.get("priority", 0),
        "strict": strict,
        "strict_all": document.get("strict"),
        "title": document.get("title"),
        "annotations": document.get("annotations"),
        "aliases": tuple(document.get("aliases", ())),
        "output": "/output" if kind == "tool" and "output" in document else None,
    }, diagnostics


def _strict_problems(file: str, kind: ContractKind, pointer: str, flag: Any) -> list[Diagnostic]:
    """What is wrong with a ``strict`` flag at ``pointer`` (top level or per provider)."""
    if not isinstance(flag, bool):
        message = "strict must be true or false"
    elif kind != "tool":
        message = "strict is set per tool; a structured output always goes strict"
    else:
        return []
    return [Diagnostic(file, pointer, DESIGN, "INVALID_FIELD", message)]


def _read_providers(
    file: str, kind: ContractKind, value: Any, known_providers: Mapping[str, ProviderSettings]
) -> tuple[tuple[str, ...] | None, dict[str, bool], list[Diagnostic]]:
    """A contract file's ``providers``: where it is emitted (a list of names, or the keys of a
    mapping), and for a tool, per provider, its ``strict`` flag (``{NAME: {strict: false}}``)."""
    if value is None:
        return None, {}, []
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        return tuple(value), {}, []
    if not isinstance(value, dict):
        message = "providers must be a list of provider names, or a mapping of name to settings"
        return None, {}, [Diagnostic(file, "/providers", DESIGN, "INVALID_FIELD", message)]
    diagnostics: list[Diagnostic] = []
    strict: dict[str, bool] = {}
    for name, settings in value.items():
        pointer = jp.join("/providers", name)
        if settings is None:
            continue
        if not isinstance(settings, dict):
            message = f"providers.{name} must be a mapping of settings (strict), or empty"
            diagnostics.append(Diagnostic(file, pointer, DESIGN, "INVALID_FIELD", message))
            continue
        for key in settings:
            if key != "strict":
                message = f"unknown setting {key!r} (expected strict)"
                diagnostics.append(
                    Diagnostic(file, jp.join(pointer, key), DESIGN, "UNKNOWN_FIELD", message)
                )
        if "strict" not in settings:
            continue
        flag, where = settings["strict"], jp.join(pointer, "strict")
        problems = _strict_problems(file, kind, where, flag)
        known = known_providers.get(name)
        if not problems and flag is False and known is not None and not known.has_non_strict:
            message = f"{name} has no non-strict mode: its tools always go strict"
            problems = [Diagnostic(file, where, DESIGN, "INVALID_FIELD", message)]
        if problems:
            diagnostics += problems
        else:
            strict[name] = flag
    return tuple(value), strict, diagnostics


def _other_bytes(root: Path) -> dict[str, bytes | None]:
    """The bytes of toolgen.toml and of the envelope files (None: absent or unreadable), which
    the design's hash covers too."""
    found: dict[str, bytes | None] = {}
    for relative in (CONFIG_FILE, *_envelope_files(root)):
        try:
            found[relative] = (root / relative).read_bytes()
        except OSError:
            found[relative] = None
    return found


def _load(
    root: Path,
    known_providers: Mapping[str, ProviderSettings],
    runner: Runner,
    files: list[str],
    seen: dict[str, Seen],
    read_found: dict[str, list[Diagnostic]],
    config: Config,
    config_found: list[Diagnostic],
    envelopes: dict[str, Any],
) -> tuple[Design, list[Diagnostic], Parts]:
    """The whole load of the files read (``seen``), without the envelopes; with what it made of
    each file, for the next load (:class:`Parts`)."""
    diagnostics: list[Diagnostic] = list(config_found)
    values: dict[str, Any] = {}
    for relative in files:
        diagnostics += read_found.get(relative, ())
        got = seen.get(relative)
        if got is None:
            continue
        value, found, seen[relative] = _parse_file(relative, got, runner.kept is not None)
        diagnostics += found
        if not found:
            values[relative] = value
    # each file read once: its bytes give the design's hash and the contracts' fingerprints
    read = {relative: got.data for relative, got in seen.items()}
    source_hash = design_hash(root, files, read)
    digests = {relative: hashlib.sha256(read[relative]).hexdigest() for relative in values}
    without_refs = frozenset(f for f in values if not may_hold_ref(read[f]))
    del read

    contract_files = [f for f in files if f.split("/", 1)[0] in CONTRACT_FOLDERS]
    if not contract_files:
        diagnostics.append(
            Diagnostic(
                ".",
                "",
                DESIGN,
                "EMPTY_DESIGN",
                "no tools/ or outputs/ files with a .yaml, .yml or .json name",
            )
        )

    fields: dict[str, dict[str, Any]] = {}
    for file in contract_files:
        if file not in values:
            continue
        info, found = _read_contract(file, values[file], known_providers)
        diagnostics += found
        if info is None:
            continue
        diagnostics += _unknown_providers(file, info, known_providers)
        fields[file] = info
    schemas = _schemas(fields, values)
    schemas += [
        (values[f], f, "") for f in files if f.startswith(DEFS_FOLDER + "/") and f in values
    ]
    for (_, file, _), found in zip(
        schemas, _meta_validate_all(schemas, digests, runner), strict=True
    ):
        diagnostics += found
        if found:
            fields.pop(file, None)

    seen_names: dict[tuple[str, str], str] = {}
    for file, info in fields.items():
        key = (info["kind"], info["name"])
        if key in seen_names:
            diagnostics.append(
                Diagnostic(
                    file,
                    "/name",
                    DESIGN,
                    "DUPLICATE_NAME",
                    f"{info['kind']} {info['name']!r} is also defined in {seen_names[key]}",
                )
            )
        else:
            seen_names[key] = file
    tools = {f: (i["name"], i["aliases"]) for f, i in fields.items() if i["kind"] == "tool"}
    diagnostics += alias_collisions(tools)

    roots: list[Location] = [(file, info["schema_pointer"]) for file, info in fields.items()]
    for file in values:
        _rebase_embedded_resources(values, fields, without_refs, file)
    output_roots: list[Location] = [(f, i["output"]) for f, i in fields.items() if i["output"]]
    documents = Documents(values, partial(_resource_pointer, fields), without_refs)
    bundler = Bundler(documents)
    bundled, shared, found = bundler.bundle(roots + output_roots)
    diagnostics += found
    bundled, common = share_common(roots + output_roots, bundled, shared)
    outputs = dict(zip((file for file, _ in output_roots), bundled[len(roots) :], strict=True))

    # A contract whose file (or a file it references) has an error is reported, not built; the
    # others still go through the providers so that one run reports every problem.
    broken = {d.file for d in diagnostics if d.level is Level.ERROR}
    candidates: list[Contract] = []
    for (file, info), bundled_root in zip(fields.items(), bundled[: len(roots)], strict=True):
        contract = _contract(file, info, bundled_root, outputs.get(file), digests)
        if file in broken or any(s.file in broken for s in contract.shared.values()):
            continue
        if contract.output is not None and any(
            s.file in broken for s in contract.output.shared.values()
        ):
            continue
        candidates.append(contract)
    checked = [*candidates, *(c.output for c in candidates if c.output is not None)]
    unusable: set[str] = set()
    for contract, (usable, found) in zip(checked, _check_all(checked, runner), strict=True):
        diagnostics += found
        if not usable:
            unusable.add(contract.file)
    contracts = [contract for contract in candidates if contract.file not in unusable]

    assert bundler.targets is not None
    parts = Parts(
        values=values,
        fields=fields,
        without_refs=without_refs,
        digests=digests,
        targets=bundler.targets,
        contracts={contract.file: contract for contract in contracts},
        cache_keys=(
            cache_keys(schemas, contracts, digests)
            if runner.cache is not None and runner.kept is not None  # a next load will come
            else {}
        ),
        common=common,
    )
    design = _design(root, contracts, {**shared, **common}, config, source_hash, envelopes)
    return design, diagnostics, parts


def _design(
    root: Path,
    contracts: Iterable[Contract],
    shared: dict[str, SharedDef],
    config: Config,
    source_hash: str,
    envelopes: dict[str, Any],
) -> Design:
    by_name = sorted(contracts, key=lambda c: c.name)
    return Design(
        root=str(root),
        tools=tuple(c for c in by_name if c.kind == "tool"),
        outputs=tuple(c for c in by_name if c.kind == "output"),
        shared=dict(sorted(shared.items())),
        config=config,
        hash=source_hash,
        envelopes=envelopes,
    )


def _unknown_providers(
    file: str, info: dict[str, Any], known_providers: Mapping[str, ProviderSettings]
) -> list[Diagnostic]:
    return [
        Diagnostic(file, "/providers", DESIGN, "UNKNOWN_PROVIDER", f"unknown provider {name!r}")
        for name in info["providers"] or ()
        if name not in known_providers
    ]


def _schemas(
    fields: dict[str, dict[str, Any]], values: dict[str, Any]
) -> list[tuple[Any, str, str]]:
    """(schema, file, pointer) of each contract file's schema, then of each tool's output."""
    schemas = [
        (values[f][i["schema_pointer"][1:]], f, i["schema_pointer"]) for f, i in fields.items()
    ]
    schemas += [(values[f]["output"], f, i["output"]) for f, i in fields.items() if i["output"]]
    return schemas


def _resource_pointer(fields: dict[str, dict[str, Any]], file: str) -> str:
    info = fields.get(file)
    if info is not None:
        return str(info["schema_pointer"])
    folder = file.split("/", 1)[0]
    return "/" + CONTRACT_FOLDERS[folder][1] if folder in CONTRACT_FOLDERS else ""


def _contract(
    file: str,
    info: dict[str, Any],
    bundled: tuple[Any, dict[str, SharedDef]],
    output: tuple[Any, dict[str, SharedDef]] | None,
    digests: dict[str, str],
) -> Contract:
    """The contract of a tool or output file (``info``: its checked fields), bundled."""
    schema, used = bundled
    contract = Contract(
        kind=info["kind"],
        name=info["name"],
        description=info["description"],
        schema=schema,
        file=file,
        pointer=info["schema_pointer"],
        examples=info["examples"],
        providers=info["providers"],
        priority=info["priority"],
        shared=used,
        strict=info["strict"],
        strict_all=info["strict_all"],
        output=tool_output(file, info, output, partial(_fingerprint, file, digests=digests)),
        title=info["title"],
        annotations=info["annotations"],
        aliases=info["aliases"],
    )
    contract.set_fingerprint(_fingerprint(file, used, digests))
    return contract


def _rebase_embedded_resources(
    values: dict[str, Any],
    fields: dict[str, dict[str, Any]],
    without_refs: frozenset[str] | set[str],
    file: str,
) -> None:
    """The schema resources of ``file`` with their embedded resources (subschemas with an
    ``$id``) rebased onto them (toolgen.schema.refs.rebase_embedded), so that bundling and every
    later stage resolve a reference inside one against that subschema, as JSON Schema does."""
    if file in without_refs:
        return
    value = values[file]
    if file in fields:
        for pointer in (fields[file]["schema_pointer"], fields[file]["output"]):
            if pointer:  # a tool's parameters and its output are resources of their own
                value[pointer[1:]] = rebase_embedded(value[pointer[1:]])
    elif file.startswith(DEFS_FOLDER + "/"):
        values[file] = rebase_embedded(value)


def _fingerprint(file: str, used: dict[str, SharedDef], digests: dict[str, str]) -> str:
    """What a bundled contract is a function of (besides toolgen's code): its file's path and
    bytes, and the name, place and file bytes of each shared definition it uses (the names are
    design-wide: a clash elsewhere can rename one; the bytes hold the definitions' own
    references, whose targets are among the used ones)."""
    return digest(
        "contract",
        file,
        digests[file],
        [
            [name, shared.file, shared.pointer, digests[shared.file]]
            for name, shared in used.items()
        ],
    )


def _check_contract(contract: Contract) -> tuple[bool, list[Diagnostic]]:
    """Whether a bundled contract can be built (its references are bounded), and what its
    references and examples are found to break."""
    unbounded = _unbounded_refs(contract) or _too_deep_through_refs(contract)
    if unbounded:
        return False, unbounded
    return True, _check_examples(contract)


def _check_all(contracts: list[Contract], runner: Runner) -> list[tuple[bool, list[Diagnostic]]]:
    """:func:`_check_contract` of each contract, across the build's processes and through its
    cache (following every contract's references is a large part of loading). A process that
    builds once reads them a few dozen contracts an entry, by each one's fingerprint
    (``grouped_results``)."""
    if runner.cache is not None and runner.kept is None and all(c.fingerprint for c in contracts):
        return grouped_results(
            runner.cache,
            "checks",
            [f"{contract.kind} {contract.name}" for contract in contracts],
            [contract.fingerprint for contract in contracts],
            lambda positions: runner.map(
                "checks", _check_contract, [(contracts[index],) for index in positions]
            ),
            _check_to_json,
            _check_from_json,
        )
    return runner.map(
        "checks",
        _check_contract,
        [(contract,) for contract in contracts],
        key=lambda arguments: _check_key(arguments[0]),
        encode=_check_to_json,
        decode=_check_from_json,
        indexed=True,
        keep_decoded=True,  # only read
    )


def _check_to_json(result: tuple[bool, list[Diagnostic]]) -> Any:
    return [result[0], [d.to_dict() for d in result[1]]]


def _check_from_json(value: Any) -> tuple[bool, list[Diagnostic]]:
    return bool(value[0]), [Diagnostic.from_dict(d) for d in value[1]]


def _check_key(contract: Contract) -> str:
    return digest(code_fingerprint(), "checks", contract.identity())


def cache_keys(
    schemas: list[tuple[Any, str, str]], contracts: Iterable[Contract], digests: dict[str, str]
) -> dict[str, dict[str, tuple[str, ...]]]:
    """stage -> file -> the keys of the cache entries loading reads for the file: its schemas'
    meta-validation, its contract's (and output's) checks."""
    meta: dict[str, list[str]] = {}
    for _, file, pointer in schemas:
        meta.setdefault(file, []).append(_meta_key(file, pointer, digests))
    checks = {
        contract.file: [contract, *([contract.output] if contract.output else [])]
        for contract in contracts
    }
    return {
        "meta": {file: tuple(keys) for file, keys in meta.items()},
        "checks": {file: tuple(map(_check_key, made)) for file, made in checks.items()},
    }


def _unbounded_refs(contract: Contract) -> list[Diagnostic]:
    """A reference that leads back to itself on the same value can never be checked (every
    validator, toolgen's included, would loop forever): an error where it is written."""
    diagnostics = []
    for pointer in unbounded_refs(contract.schema):
        file, where = contract.locate(pointer)
        diagnostics.append(
            Diagnostic(
                file,
                where,
                DESIGN,
                "UNBOUNDED_REF",
                "this $ref leads back to itself without descending into a member or an item, "
                "so no value can ever be checked against it",
            )
        )
    return diagnostics


def _too_deep_through_refs(contract: Contract) -> list[Diagnostic]:
    """Each file is at most MAX_DEPTH deep and MAX_FILE_BYTES large, but references chain files
    and definitions into deeper paths (10,000 definitions that each reference the next), and the
    projection copies the references it inlines (a few lines can expand to billions): an error
    before any stage recurses or copies."""
    pointer, depth = unfolded_depth(contract.schema)
    if depth > MAX_UNFOLDED_DEPTH:
        message = (
            f"following the references from here leads {depth:,} schemas deep; toolgen follows "
            f"at most {MAX_UNFOLDED_DEPTH} (recursion through a member or an item counts once)"
        )
        return [Diagnostic(*contract.locate(pointer), DESIGN, "REF_TOO_DEEP", message)]
    pointer, size = inlined_size(contract.schema)
    if size > MAX_INLINED_SCHEMAS:
        message = (
            f"the references with sibling keywords, copied where they are used, make this "
            f"schema {size:,} schemas; toolgen allows {MAX_INLINED_SCHEMAS:,} (move the siblings "
            f"into the definition, or reference it without them)"
        )
        return [Diagnostic(*contract.locate(pointer), DESIGN, "REF_TOO_LARGE", message)]
    return []


def _check_examples(contract: Contract) -> list[Diagnostic]:
    if not contract.examples:
        return []
    try:
        validator = Draft202012Validator(contract.schema)
        diagnostics = []
        for index, example in enumerate(contract.examples):
            error = next(
                iter(
                    sorted(
                        validator.iter_errors(example),
                        key=lambda e: list(map(str, e.absolute_path)),
                    )
                ),
                None,
            )
            if error is not None:
                where = "".join(f"[{p!r}]" for p in error.absolute_path) or "the payload"
                diagnostics.append(
                    Diagnostic(
                        contract.file,
                        jp.join("/examples", index),
                        DESIGN,
                        "INVALID_EXAMPLE",
                        f"example does not match {contract.pointer[1:]}: at {where}: {error.message}",
                    )
                )
        return diagnostics
    except (
        Exception
    ) as error:  # a broken reference surfaces here too; it already has its own diagnostic
        return [
            Diagnostic(
                contract.file,
                "/examples",
                DESIGN,
                "INVALID_EXAMPLE",
                f"examples could not be checked: {error}",
            )
        ]


def _load_envelopes(root: Path) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Envelope schema overrides from ``design/envelopes/<provider>/<surface>.json``."""
    envelopes: dict[str, Any] = {}
    diagnostics: list[Diagnostic] = []
    for relative in _envelope_files(root):
        value, found = _load_inside(root, relative)
        diagnostics += found
        if found:
            continue
        found = _meta_validate(value, relative, "")
        diagnostics += found
        if not found:
            envelopes[relative[len(ENVELOPES_FOLDER) + 1 : -len(".json")]] = value
    return envelopes, diagnostics
