"""Definitions held in common: the same ``$defs`` entry written into many contracts.

An MCP server (or any generator of tool lists) writes the same definitions into the ``$defs`` of
every tool. Each copy is the contract's own, but a definition of one name whose content (and that
of every definition it refers to) is the same in two or more contracts is the same schema: the
package holds it once, as a shared definition (one model class, one inverse where it is projected
alike, one entry of the schema tables), exactly as if the contracts had referred to one file.

Nothing is renamed and no schema changes: each contract's bundled schema keeps its entry under
the same name, and the shared definition each contract lists points into its own file, so a
problem found in it is reported where that contract's copy is written. A name whose copies differ
anywhere in the design, or that a definition across files already takes, stays each contract's
own.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from toolgen.load.contracts import SharedDef
from toolgen.schema import pointer as jp
from toolgen.schema.refs import local_refs

#: (file, pointer) of a contract's schema resource
Location = tuple[str, str]
Bundled = tuple[Any, dict[str, SharedDef]]


def _own_definitions(bundled: Bundled) -> dict[str, Any]:
    """The entries of a bundled schema's ``$defs`` that are its own (not copies of definitions
    across files)."""
    schema, used = bundled
    entries = schema.get("$defs") if isinstance(schema, dict) else None
    if not isinstance(entries, dict):
        return {}
    return {name: value for name, value in entries.items() if name not in used}


def _refers_to(schema: Any) -> set[str] | None:
    """The names of the definitions ``schema`` refers to (``#/$defs/NAME``), or None when it
    refers to anything else of its contract (the root, a member): then it is that contract's."""
    names: set[str] = set()
    for _, target in local_refs(schema):
        tokens = jp.split(target) if target.startswith("/") or target == "" else []
        if len(tokens) != 2 or tokens[0] != "$defs":
            return None
        names.add(tokens[1])
    return names


def common_names(bundled: Sequence[Bundled], taken: Collection[str]) -> frozenset[str]:
    """The names of the definitions held in common (module docstring); ``taken``: the names of
    the design's definitions across files."""
    texts: dict[str, set[str]] = {}
    holders: dict[str, int] = {}
    refers: dict[str, set[str] | None] = {}
    for one in bundled:
        for name, value in _own_definitions(one).items():
            text = json.dumps(value, ensure_ascii=False)
            if name not in texts:
                refers[name] = _refers_to(value)
            texts.setdefault(name, set()).add(text)
            holders[name] = holders.get(name, 0) + 1
    common = {
        name
        for name, seen in texts.items()
        if len(seen) == 1 and holders[name] >= 2 and name not in taken
    }
    changed = True
    while changed:  # a definition is common only if all it refers to is shared too
        changed = False
        for name in sorted(common):
            names = refers[name]
            if names is None or any(n not in common and n not in taken for n in names):
                common.discard(name)
                changed = True
    return frozenset(common)


def share_common(
    roots: Sequence[Location], bundled: Sequence[Bundled], taken: Collection[str]
) -> tuple[list[Bundled], dict[str, SharedDef]]:
    """Each root's bundled schema with the shared definitions it uses, those it holds in common
    with other roots added (each pointing into the root's own file); and one of each common
    definition (the first root's), for the design."""
    common = common_names(bundled, taken)
    if not common:
        return list(bundled), {}
    shared: dict[str, SharedDef] = {}
    result: list[Bundled] = []
    for (file, pointer), one in zip(roots, bundled, strict=True):
        schema, used = one
        own = {
            name: SharedDef(name, file, jp.join(pointer, "$defs", name), value, common=True)
            for name, value in _own_definitions(one).items()
            if name in common
        }
        if own:
            for name, definition in own.items():
                shared.setdefault(name, definition)
            used = dict(sorted({**used, **own}.items()))
        result.append((schema, used))
    return result, dict(sorted(shared.items()))


def without_common(used: dict[str, SharedDef]) -> dict[str, SharedDef]:
    """``used`` without the definitions held in common (what bundling alone gives)."""
    return {name: definition for name, definition in used.items() if not definition.common}
