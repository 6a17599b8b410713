"""The tables of a generated provider module, as the request builders of the API modules read them.

A provider module holds its tools and structured outputs as data (canonical names, the names the
provider sees, descriptions, projected schemas) and hands them to the request builders of the APIs
it speaks as two ``Contracts``.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["Contracts", "ModuleTable", "StrictToolLimits"]

_V = TypeVar("_V")


class ModuleTable(Mapping[str, _V]):
    """The table ``name`` of the module ``module`` (relative to ``package``), imported on first
    use: a provider module keeps its per-contract tables (descriptions, projected schemas, sizes)
    in a module of their own, so that importing it, and decoding a call, builds none of them."""

    __slots__ = ("_module", "_name", "_package", "_table")

    def __init__(self, package: str | None, module: str, name: str) -> None:
        self._package = package
        self._module = module
        self._name = name
        self._table: Mapping[str, _V] | None = None

    def _load(self) -> Mapping[str, _V]:
        table = self._table
        if table is None:
            module = importlib.import_module(self._module, self._package)
            table = self._table = getattr(module, self._name)
        return table

    def __getitem__(self, key: str) -> _V:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


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
    #: canonical name -> whether it goes with the provider's strict flag on (absent: on); a
    #: non-strict tool's schema is the canonical one, and it never counts against strict limits
    strict: Mapping[str, bool] = field(default_factory=dict)

    def known(self, name: str) -> str:
        """``name``, or KeyError when it is none of these contracts."""
        if name not in self.provider_names:  # the schemas may not be loaded yet
            known = ", ".join(self.names) or "none"
            raise KeyError(f"unknown {self.kind} {name!r}; known: {known}")
        return name

    def schema(self, name: str) -> dict[str, Any]:
        """The projected schema of ``name`` (a fresh copy)."""
        return copy.deepcopy(self.schemas[self.known(name)])

    def provider_name(self, name: str) -> str:
        return self.provider_names[self.known(name)]

    def is_strict(self, name: str) -> bool:
        return self.strict.get(name, True)

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

    def fitting(self, tools: Contracts, chosen: list[str]) -> set[str]:
        """The tools marked strict under ``strict="auto"``: of those in ``chosen`` that may go
        strict, by priority (highest first, ties in ``chosen`` order), each one that still fits
        the limits beside those taken before it."""
        taken: set[str] = set()
        optional = unions = 0
        may = [name for name in chosen if tools.is_strict(name)]
        for name in sorted(may, key=lambda tool: -tools.priorities[tool]):
            more_optional, more_unions = tools.sizes[name]
            if name not in taken and self.fits(
                len(taken) + 1, optional + more_optional, unions + more_unions
            ):
                taken.add(name)
                optional += more_optional
                unions += more_unions
        return taken

    def marked(self, tools: Contracts, chosen: list[str], strict: bool | str) -> set[str]:
        """The tools of ``chosen`` to mark strict for a request's ``strict`` argument: "auto",
        as many as fit (:meth:`fitting`); True, every one that may go strict (ValueError when
        they exceed the limits); False, none."""
        if strict == "auto":
            return self.fitting(tools, chosen)
        if strict is not True:
            return set()
        may = [name for name in chosen if tools.is_strict(name)]
        self.check(tools, may, 'send fewer tools, or strict="auto"')
        return set(may)

    def check(self, tools: Contracts, chosen: list[str], advice: str) -> None:
        """Raise ValueError when ``chosen``, all marked strict, exceed the limits (the API would
        refuse the request)."""
        optional = sum(tools.sizes[name][0] for name in chosen)
        unions = sum(tools.sizes[name][1] for name in chosen)
        if not self.fits(len(chosen), optional, unions):
            raise ValueError(
                f"{len(chosen)} strict tools with {optional} optional and {unions} union-typed "
                f"members exceed one request's limits ({self.tools}, {self.optional_members}, "
                f"{self.union_members}); {advice}"
            )
