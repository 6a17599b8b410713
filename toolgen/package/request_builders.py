"""A generated provider module's request builders, built in toolgen's own process from a
projection: the runtime class the module binds (``requests_for`` its profile's APIs), given what
the module's tables give it (templates/_provider_tables.py.j2): two ``Contracts`` of the projected
tools and outputs, the strict-tool limits when the class takes them, and the profile's request
options. ``toolgen canary record`` takes its requests' definitions from them, so it sends what the
generated package sends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolgen.apis import requests_for
from toolgen.package.nullable_members import nullable_members
from toolgen.package.schema_texts import schema_sizes
from toolgen.project.projection import ProjectedContract
from toolgen.providers.base import Limits, Profile
from toolgen.runtime._contracts import Contracts, StrictToolLimits


def strict_tool_limits(limits: Limits) -> StrictToolLimits:
    """The runtime's per-request limits of a profile's ``limits`` (the module's
    ``MAX_STRICT_TOOLS``, ``MAX_OPTIONAL_MEMBERS``, ``MAX_UNION_MEMBERS`` and ``MAX_TOOLS``)."""
    return StrictToolLimits(
        limits.strict_tools, limits.optional_members, limits.union_members, limits.tools
    )


def contracts(
    kind: str, projected: Sequence[ProjectedContract], profile: Profile | None = None
) -> Contracts:
    """The ``Contracts`` of the contracts of ``projected`` the provider can take, as the module's
    tables hold them (assemble._tables): the tools with their sizes, priorities, strict flags and
    the members a request may write nullable (``profile``'s), the outputs with their sizes (a
    request counts them against its limits too)."""
    usable = [p for p in projected if p.schema is not None]
    names = tuple(p.contract.name for p in usable)
    provider_names = {p.contract.name: p.provider_name for p in usable}
    descriptions = {p.contract.name: p.contract.description for p in usable}
    schemas: dict[str, dict[str, Any]] = {
        p.contract.name: p.schema for p in usable if p.schema is not None
    }
    sizes = {name: schema_sizes(schema) for name, schema in schemas.items()}
    if kind != "tool":
        return Contracts(kind, names, provider_names, descriptions, schemas, sizes)
    return Contracts(
        kind,
        names,
        provider_names,
        descriptions,
        schemas,
        sizes=sizes,
        priorities={p.contract.name: p.contract.priority for p in usable},
        strict={p.contract.name: p.strict for p in usable},
        nullable={
            p.contract.name: members
            for p in usable
            if profile is not None and (members := nullable_members(p, profile))
        },
    )


def request_builders(
    profile: Profile, tools: Sequence[ProjectedContract], outputs: Sequence[ProjectedContract]
) -> Any:
    """The request-builder object of ``profile``'s generated module (an instance of the runtime
    class ``requests_for(profile.apis)`` names) for ``tools`` and ``outputs``; its methods are the
    module's request functions (``tool_definitions``, ``response_format``, ...)."""
    requests = requests_for(profile.apis)
    builder = requests.cls
    keywords = dict(profile.request_options)
    if "limits" in requests.arguments:
        keywords["limits"] = strict_tool_limits(profile.limits)
    return builder(contracts("tool", tools, profile), contracts("output", outputs), **keywords)
