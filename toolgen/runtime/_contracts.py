"""The tables of a generated provider module, as the request builders of the API modules read them.

A provider module holds its tools and structured outputs as data (canonical names, the names the
provider sees, descriptions, projected schemas) and hands them to the request builders of the APIs
it speaks as two ``Contracts``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Contracts", "StrictToolLimits"]


@dataclass(frozen=True)
class Contracts:
    """The tools (or the structured outputs) of one provider module."""

    kind: str  # "tool" or "output": what an unknown name is called in errors
    names: tuple[str, ...]  # canonical names, in the design's order
    provider_names: Mapping[str, str]  # canonical name -> the name the provider sees
    descriptions: Mapping[str, str]
    schemas: Mapping[str, dict[str, Any]]  # canonical name -> projected schema
    #: canonical name -> (optional members, union-typed schemas) of its projected schema
    sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: canonical name -> priority (the tool file's ``priority``; 0 when it gives none)
    priorities: Mapping[str, int] = field(default_factory=dict)

    def known(self, name: str) -> str:
        """``name``, or KeyError when it is none of these contracts."""
        if name not in self.schemas:
            known = ", ".join(self.names) or "none"
            raise KeyError(f"unknown {self.kind} {name!r}; known: {known}")
        return name

    def schema(self, name: str) -> dict[str, Any]:
        """The projected schema of ``name`` (a fresh copy)."""
        return copy.deepcopy(self.schemas[self.known(name)])

    def provider_name(self, name: str) -> str:
        return self.provider_names[self.known(name)]

    def chosen(self, names: Iterable[str] | None) -> list[str]:
        """``names`` (every contract when None), each checked."""
        return [self.known(name) for name in (self.names if names is None else names)]


@dataclass(frozen=True)
class StrictToolLimits:
    """Per-request limits of strict tool use across all strict tools of one request (None: no
    limit applies)."""

    tools: int | None
    optional_members: int | None
    union_members: int | None

    def fits(self, count: int, optional: int, unions: int) -> bool:
        return all(
            limit is None or value <= limit
            for value, limit in (
                (count, self.tools),
                (optional, self.optional_members),
                (unions, self.union_members),
            )
        )

    def check(self, tools: Contracts, chosen: list[str], advice: str) -> None:
        """Raise ValueError when ``chosen``, all strict, exceed the limits (the API would refuse
        the request)."""
        optional = sum(tools.sizes[name][0] for name in chosen)
        unions = sum(tools.sizes[name][1] for name in chosen)
        if not self.fits(len(chosen), optional, unions):
            raise ValueError(
                f"{len(chosen)} strict tools with {optional} optional and {unions} union-typed "
                f"members exceed one request's limits ({self.tools}, {self.optional_members}, "
                f"{self.union_members}); {advice}"
            )
