"""Units through the build cache, in groups of consecutive contracts.

A unit depends only on its contract's projection (``inputs``: the projection's own cache key when
the build has one). Units are stored a group an entry (stage ``canonical-group``), each with the
inputs it was made from, and an entry is found by the names of its contracts: a unit whose inputs
changed is compiled again, the others are read. Opening one small entry per contract cost a
rebuild more than linking the units, and writing one cost a cold build seconds.

Groups are cut by the contracts' names (``toolgen.infra.cache.name_groups``), so adding or
removing a contract changes one group. The build's cache counts units
under stage ``canonical``: a hit is a unit read, a miss a unit compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgen.compile.canonical.units import Unit
from toolgen.infra.cache import Cache, code_fingerprint, digest, name_groups
from toolgen.infra.parallel import Runner
from toolgen.project.projection import ProjectedContract
from toolgen.project.rewrites import record_to_json

#: about this many contracts a group
GROUP_SIZE = 64
UNIT_STAGE = "canonical"
GROUP_STAGE = "canonical-group"


def inputs(projected: ProjectedContract) -> str:
    """A digest of everything a unit is made from: the projection's own cache key, which covers
    the contract and how it was projected (a build with a cache has it); else the projection as
    the inverse reads it (its JSON Schema and its record of rewrites) and what names the
    functions (the contract's kind and name, the shared definitions it uses)."""
    if projected.inputs is not None:
        return projected.inputs
    contract = projected.contract
    return digest(
        contract.kind,
        contract.name,
        sorted(contract.shared),
        projected.provider,
        projected.meaning,
        record_to_json(projected.rewrites),
    )


def _groups(contracts: list[ProjectedContract]) -> list[range]:
    return name_groups([f"{p.contract.kind} {p.contract.name}" for p in contracts], GROUP_SIZE)


def _stored(cache: Cache, key: str) -> dict[str, Any]:
    """inputs -> unit (as JSON) of a group's entry; empty when there is none."""
    found = cache.get(GROUP_STAGE, key)
    if found is None:
        return {}
    try:
        return {made_from: unit for made_from, unit in found if isinstance(made_from, str)}
    except (TypeError, ValueError):  # an entry of another shape: a miss, recomputed
        cache.hits[GROUP_STAGE] -= 1
        cache.misses[GROUP_STAGE] += 1
        return {}


def cached_units(
    contracts: list[ProjectedContract],
    compile_unit: Callable[[ProjectedContract], Unit],
    runner: Runner,
) -> list[Unit]:
    """``[compile_unit(p) for p in contracts]`` by ``runner``, through its cache if it has one."""
    cache = runner.cache
    if cache is None:
        return runner.map(UNIT_STAGE, compile_unit, [(p,) for p in contracts])
    units: list[Unit | None] = [None] * len(contracts)
    made_from = [inputs(p) for p in contracts]
    changed: list[tuple[str, range]] = []
    held = runner.kept  # a process that builds again: units as the last build had them
    for group in _groups(contracts):
        names = [
            (p.provider, p.contract.kind, p.contract.name)
            for p in contracts[group.start : group.stop]
        ]
        key = digest(code_fingerprint(), GROUP_STAGE, names)
        if held is not None:
            found_units = [held.get((UNIT_STAGE, made_from[index])) for index in group]
            if all(unit is not None for unit in found_units) and cache.touch(GROUP_STAGE, key):
                for index, unit in zip(group, found_units, strict=True):
                    units[index] = unit
                continue
        stored = _stored(cache, key)
        for index in group:
            try:
                found = stored.get(made_from[index])
                units[index] = None if found is None else Unit.from_json(found)
            except (TypeError, ValueError, KeyError, IndexError):
                units[index] = None
        if any(units[index] is None for index in group):
            changed.append((key, group))
    todo = [index for index, unit in enumerate(units) if unit is None]
    cache.hits[UNIT_STAGE] += len(units) - len(todo)
    cache.misses[UNIT_STAGE] += len(todo)
    made = runner.map(UNIT_STAGE, compile_unit, [(contracts[index],) for index in todo])
    for index, unit in zip(todo, made, strict=True):
        units[index] = unit
    done = [unit for unit in units if unit is not None]
    assert len(done) == len(units)
    for key, group in changed:
        entry = [[made_from[index], done[index].to_json()] for index in group]
        cache.put(GROUP_STAGE, key, entry)
    if held is not None:  # a unit is a function of what it is made from (no stage changes one)
        for inputs_of, unit in zip(made_from, done, strict=True):
            held.put((UNIT_STAGE, inputs_of), unit)
    return done
