"""Loading a design again from the last load of the same process (``toolgen watch``), when only
some tool or output files changed: the unchanged contracts are the last load's objects (every
later stage finds what it kept for them by their identity), the changed files alone are parsed,
checked and bundled.

The result is the one a whole load (toolgen.load.loader._load) makes, because the shortcut is
taken only when every design-wide fact the whole load derives is known to be as it was:

- the same files (none added or deleted, no symbolic link), the same toolgen.toml and envelope
  values, and neither the last load nor this one found any problem (then no diagnostic's order
  or a broken file's consequences have to be worked out);
- no changed file is a shared target (a file another references): each unchanged contract's
  bundled schema is a function of its file and of the targets' files and design-wide names;
- the changed files reference only targets the last load named, and every one of those is still
  used: the set of targets, and so every name, is the same (names are a function of that set);
- each changed contract's name is still unique.

Otherwise it returns None and the whole load runs (which reads no unchanged file again either).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from toolgen.infra.parallel import Runner
from toolgen.load.bundle import Bundler, Documents, Location
from toolgen.load.common_defs import share_common, without_common
from toolgen.load.contracts import Config, Contract, Design, SharedDef
from toolgen.load.loader import (
    CONTRACT_FOLDERS,
    _check_all,
    _contract,
    _design,
    _meta_validate_all,
    _parse_file,
    _read_contract,
    _rebase_embedded_resources,
    _resource_pointer,
    _schemas,
    _unknown_providers,
    cache_keys,
    design_hash,
)
from toolgen.load.seen import LastLoad, Parts, Seen
from toolgen.load.sources import may_hold_ref


def reload(
    root: Path,
    last: LastLoad,
    scanned: dict[str, bool],
    seen: dict[str, Seen],
    config: Config,
    envelopes: dict[str, Any],
    others: dict[str, bytes | None],
    runner: Runner,
) -> LastLoad | None:
    """The load of ``root`` (every file read cleanly, as ``seen``; toolgen.toml and the
    envelopes loaded without a problem) from ``last``, or None (module docstring)."""
    parts, before = last.parts, last.design
    if (
        parts is None
        or not isinstance(before, Design)
        or last.root != str(root)
        or scanned != last.scanned
        or any(scanned.values())
        or config != before.config
        or envelopes != before.envelopes
    ):
        return None
    files = sorted(scanned)
    changed = [f for f in files if seen[f].data is not last.seen[f].data]
    if changed or others != last.others:
        read = {f: s.data for f, s in seen.items()}
        read.update({f: data for f, data in others.items() if data is not None})
        source_hash = design_hash(root, files, read)
    else:
        source_hash = before.hash
    if not changed:
        design = before if source_hash == before.hash else replace(before, hash=source_hash)
        return LastLoad(str(root), last.known, scanned, seen, others, design, (), parts)
    target_files = parts.target_files
    if any(f.split("/", 1)[0] not in CONTRACT_FOLDERS or f in target_files for f in changed):
        return None
    again = _reload_contracts(changed, parts, seen, last.known, runner)
    if again is None:
        return None
    contracts, parts = again
    design = _design(root, contracts, before.shared, before.config, source_hash, before.envelopes)
    return LastLoad(str(root), last.known, scanned, seen, others, design, (), parts)


def _reload_contracts(
    changed: list[str], parts: Parts, seen: dict[str, Seen], known: Any, runner: Runner
) -> tuple[list[Contract], Parts] | None:
    """Every contract, those of the ``changed`` files made again; None at the first problem."""
    values, fields, digests = dict(parts.values), dict(parts.fields), dict(parts.digests)
    without_refs = set(parts.without_refs)
    taken = {(i["kind"], i["name"]) for f, i in parts.fields.items() if f not in changed}
    for file in changed:
        data = seen[file].data
        value, found, seen[file] = _parse_file(file, seen[file], True)
        if found:
            return None
        info, found = _read_contract(file, value, known)
        if found or info is None or _unknown_providers(file, info, known):
            return None
        name = (info["kind"], info["name"])
        if name in taken:
            return None
        taken.add(name)
        values[file], fields[file] = value, info
        digests[file] = hashlib.sha256(data).hexdigest()
        (without_refs.add if not may_hold_ref(data) else without_refs.discard)(file)
    schemas = _schemas({f: fields[f] for f in changed}, values)
    if any(_meta_validate_all(schemas, digests, runner)):
        return None
    for file in changed:
        _rebase_embedded_resources(values, fields, without_refs, file)
    documents = Documents(values, partial(_resource_pointer, fields), frozenset(without_refs))
    roots: list[Location] = [(f, fields[f]["schema_pointer"]) for f in changed]
    output_roots: list[Location] = [
        (f, fields[f]["output"]) for f in changed if fields[f]["output"]
    ]
    bundled = Bundler(documents).bundle_again(roots + output_roots, parts.targets)
    if bundled is None:
        return None
    bundled = _with_common(changed, bundled, parts, fields)
    if bundled is None:
        return None
    outputs = dict(zip((file for file, _ in output_roots), bundled[len(roots) :], strict=True))
    made = [
        _contract(file, fields[file], one, outputs.get(file), digests)
        for file, one in zip(changed, bundled[: len(roots)], strict=True)
    ]
    checked = [*made, *(c.output for c in made if c.output is not None)]
    if any(not usable or found for usable, found in _check_all(checked, runner)):
        return None
    by_file = dict(parts.contracts)
    by_file.update((contract.file, contract) for contract in made)
    used: set[str] = set()
    for contract in by_file.values():
        used.update(without_common(contract.shared))
        if contract.output is not None:
            used.update(without_common(contract.output.shared))
    if used != set(parts.targets.shared):  # a target no longer used: the names could change
        return None
    keys = _carry(runner, parts.cache_keys, changed, schemas, made, digests)
    kept = Parts(
        values, fields, frozenset(without_refs), digests, parts.targets, by_file, keys, parts.common
    )
    return list(by_file.values()), kept


def _with_common(
    changed: list[str],
    bundled: list[tuple[Any, dict[str, SharedDef]]],
    parts: Parts,
    fields: dict[str, dict[str, Any]],
) -> list[tuple[Any, dict[str, SharedDef]]] | None:
    """The ``changed`` files' bundled contracts (tools, then outputs) with the definitions they
    hold in common with the design's others (toolgen.load.common_defs), as the whole load
    finds them; None when the changes alter what any other contract holds in common (or which
    copy the design lists): its contract would be made again."""
    again = dict(zip(changed, bundled, strict=False))
    again_outputs = dict(
        zip((f for f in changed if fields[f]["output"]), bundled[len(changed) :], strict=True)
    )
    every: list[tuple[Any, dict[str, SharedDef]]] = []
    outputs: list[tuple[Any, dict[str, SharedDef]]] = []
    roots: list[tuple[str, str]] = []
    output_roots: list[tuple[str, str]] = []
    for file, info in fields.items():
        contract = parts.contracts.get(file)
        if file in again:
            every.append(again[file])
        elif contract is not None:
            every.append((contract.schema, without_common(contract.shared)))
        else:
            return None
        roots.append((file, info["schema_pointer"]))
        if info["output"]:
            if file in again_outputs:
                outputs.append(again_outputs[file])
            elif contract is not None and contract.output is not None:
                outputs.append((contract.output.schema, without_common(contract.output.shared)))
            else:
                return None
            output_roots.append((file, info["output"]))
    shared, common = share_common(roots + output_roots, every + outputs, parts.targets.shared)
    if common != parts.common:
        return None
    by_root = dict(zip(roots + output_roots, shared, strict=True))
    for file in fields:
        contract = parts.contracts.get(file)
        if file in again or contract is None:
            continue
        if by_root[(file, fields[file]["schema_pointer"])][1] != contract.shared:
            return None
        if contract.output is not None and (
            by_root[(file, fields[file]["output"])][1] != contract.output.shared
        ):
            return None
    return [by_root[(f, fields[f]["schema_pointer"])] for f in changed] + [
        by_root[(f, fields[f]["output"])] for f in changed if fields[f]["output"]
    ]


def _carry(
    runner: Runner,
    last: dict[str, dict[str, tuple[str, ...]]],
    changed: list[str],
    schemas: list[tuple[Any, str, str]],
    made: list[Contract],
    digests: dict[str, str],
) -> dict[str, dict[str, tuple[str, ...]]]:
    """The cache entries the whole load would read for the unchanged files counted as used
    (their stages are indexed: an index holds what the last build used), and the keys of every
    file's entries after this load."""
    cache = runner.cache
    if cache is None:
        return {}
    now = cache_keys(schemas, made, digests)
    keys: dict[str, dict[str, tuple[str, ...]]] = {}
    for stage, by_file in last.items():
        carried = [key for file, some in by_file.items() if file not in now[stage] for key in some]
        cache.use_all(stage, carried)
        keys[stage] = {**by_file, **now[stage]}
    return keys
