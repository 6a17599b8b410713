"""Units through the build cache: one entry per contract (stage ``canonical``), and the same
units again in groups of consecutive contracts (stage ``canonical-group``).

A rebuild after a small change finds most groups whole and reads a few dozen entries rather than
one per contract (opening thousands of small files cost more than linking them); a group that
changed is made from the entries of its contracts, and only a changed contract is compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgen.cache import code_fingerprint, digest
from toolgen.canonical.units import Unit
from toolgen.parallel import current
from toolgen.projection import ProjectedContract
from toolgen.rewrites import record_to_json

#: consecutive contracts (in module order) whose units are also cached as one entry
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


def _unit_key(arguments: tuple[ProjectedContract, ...]) -> str:
    return digest(code_fingerprint(), UNIT_STAGE, inputs(arguments[0]))


def _units_from_json(value: Any) -> list[Unit]:
    if not isinstance(value, list):
        raise TypeError("not a group of units")
    return [Unit.from_json(unit) for unit in value]


def cached_units(
    contracts: list[ProjectedContract], compile_unit: Callable[[ProjectedContract], Unit]
) -> list[Unit]:
    """``[compile_unit(p) for p in contracts]``, through the cache when the build has one."""
    runner = current()
    cache = runner.cache
    if cache is None:
        return runner.map(UNIT_STAGE, compile_unit, [(p,) for p in contracts])
    units: list[Unit | None] = [None] * len(contracts)
    missed: list[tuple[str, range]] = []
    for start in range(0, len(contracts), GROUP_SIZE):
        group = range(start, min(start + GROUP_SIZE, len(contracts)))
        key = digest(code_fingerprint(), GROUP_STAGE, [inputs(contracts[i]) for i in group])
        found = cache.get(GROUP_STAGE, key)
        if found is not None:
            try:
                read = _units_from_json(found)
                if len(read) != len(group):
                    raise ValueError("a group of another size")
                units[group.start : group.stop] = read
                continue
            except (TypeError, ValueError, KeyError, IndexError):
                # an entry of another shape: a miss, recomputed
                cache.hits[GROUP_STAGE] -= 1
                cache.misses[GROUP_STAGE] += 1
        missed.append((key, group))
    todo = [i for _, group in missed for i in group]
    made = runner.map(
        UNIT_STAGE,
        compile_unit,
        [(contracts[i],) for i in todo],
        key=_unit_key,
        encode=Unit.to_json,
        decode=Unit.from_json,
    )
    for index, unit in zip(todo, made, strict=True):
        units[index] = unit
    done = [unit for unit in units if unit is not None]
    assert len(done) == len(units)
    for key, group in missed:
        cache.put(GROUP_STAGE, key, [unit.to_json() for unit in done[group.start : group.stop]])
    return done
