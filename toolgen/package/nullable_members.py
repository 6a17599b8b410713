"""The optional members a request may write required and nullable to keep a tool strict.

A provider that counts optional members against a per-request limit but leaves them optional
(``Profile.optionals_over_cap``: the same trade the projection makes for one schema over the cap)
lets a request move members from that budget to the union-typed one: a member of the parameters'
root object that accepts no null can be written ``anyOf: [member, null]`` and required, its null
read back as absent (toolgen/runtime/_contracts.py, ``nullable_variant`` and ``without_nulls``).
The provider module lists those members per tool; ``request()`` chooses which to write so.
"""

from __future__ import annotations

from toolgen.project.projection import ProjectedContract
from toolgen.providers.base import Profile
from toolgen.schema.nullability import NullOracle


def nullable_members(projected: ProjectedContract, profile: Profile) -> tuple[str, ...]:
    """The optional members of the root object of ``projected``'s schema (as the provider names
    them, in order) that accept no null, for a strict tool of a profile that makes the trade;
    else none."""
    schema = projected.schema
    if not profile.optionals_over_cap or not projected.strict or not isinstance(schema, dict):
        return ()
    members = schema.get("properties")
    if schema.get("type") != "object" or not isinstance(members, dict):
        return ()
    required = set(schema.get("required") or ())
    optional = [name for name in members if name not in required]
    if not optional:
        return ()
    oracle = NullOracle(schema)
    return tuple(name for name in optional if not oracle.accepts_null(members[name]))
