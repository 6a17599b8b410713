"""The tables of a generated provider module, as the request builders of the API modules read them,
and the plan of one request.

A provider module holds its tools and structured outputs as data (canonical names, the names the
provider sees, descriptions, projected schemas, sizes) and hands them to the request builders of
the APIs it speaks as two ``Contracts``, with its per-request limits (``StrictToolLimits``). A
request is planned as a whole (``StrictToolLimits.plan``): every per-request limit is counted over
its strict tools and its structured output together, as the providers count them.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, TypeVar

__all__ = [
    "NO_LIMITS",
    "Budget",
    "Contracts",
    "ModuleTable",
    "RequestPlan",
    "Strict",
    "StrictToolLimits",
    "checked_names",
    "only_api",
]

_V = TypeVar("_V")
_M = TypeVar("_M")


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
    #: canonical name -> the optional members of its parameters' root object (as the provider
    #: names them) that a request may write required and nullable instead, to keep the tool
    #: strict within the limits (``nullable_variant``; the decoders read their null as absent:
    #: ``without_nulls``); absent: none
    nullable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def known(self, name: str) -> str:
        """``name``, or KeyError when it is none of these contracts."""
        if name not in self.provider_names:  # the schemas may not be loaded yet
            known = ", ".join(self.names) or "none"
            raise KeyError(f"unknown {self.kind} {name!r}; known: {known}")
        return name

    def schema(self, name: str, nullable: tuple[str, ...] = ()) -> dict[str, Any]:
        """The projected schema of ``name`` (a fresh copy), with its root's optional members
        ``nullable`` written required and nullable (``nullable_variant``)."""
        schema = copy.deepcopy(self.schemas[self.known(name)])
        return nullable_variant(schema, nullable) if nullable else schema

    def provider_name(self, name: str) -> str:
        return self.provider_names[self.known(name)]

    def is_strict(self, name: str) -> bool:
        return self.strict.get(name, True)

    def forced(self, name: str, chosen: list[str]) -> str:
        """The name the provider sees of ``name``, the tool a request's ``tool_choice`` makes
        the model call: ValueError unless it is one of the request's tools ``chosen``."""
        if name not in chosen:
            raise ValueError(f"tool_choice {name!r} is none of the request's tools {chosen}")
        return self.provider_names[name]

    def chosen(self, names: Iterable[str] | None, apis: tuple[str, ...] = ()) -> list[str]:
        """``names`` (every contract when None), each checked (``checked_names``: ``apis``, the
        API names a caller of the order before toolgen 0.2 may give first)."""
        names = checked_names(names, apis)
        return [self.known(name) for name in (self.names if names is None else names)]


def nullable_variant(schema: dict[str, Any], members: tuple[str, ...]) -> dict[str, Any]:
    """``schema`` with the optional members ``members`` of its root object written required and
    nullable: each wrapped in ``anyOf`` with a null branch (one optional member less, one
    union-typed member more each). Exact under ``without_nulls``: the members accept no null
    otherwise, so a null there means absent."""
    properties = dict(schema["properties"])
    for member in members:
        properties[member] = {"anyOf": [properties[member], {"type": "null"}]}
    wanted = {*schema.get("required", ()), *members}
    written = dict(schema)
    written["properties"] = properties
    written["required"] = [member for member in properties if member in wanted]
    return written


def without_nulls(payload: Any, members: tuple[str, ...]) -> Any:
    """``payload`` without the members of ``members`` that are null (a request may have written
    them nullable: ``nullable_variant``), the same object when there are none."""
    if type(payload) is dict:  # on the decode path: no generator, no copy unless one is null
        for member in members:
            if member in payload and payload[member] is None:
                return {k: v for k, v in payload.items() if v is not None or k not in members}
    return payload


#: A request's ``strict`` argument: "auto" (as many strict tools as its limits allow), True (every
#: tool that may go strict, or ValueError naming the budget they exceed) or False (none).
Strict = Literal["auto"] | bool


def only_api(api: str, *names: str) -> None:
    """ValueError unless ``api`` is one of ``names`` (the APIs a request builder serves)."""
    if api not in names:
        raise ValueError(f"unknown api {api!r}; expected one of {names}")


def checked_names(names: Iterable[str] | None, apis: tuple[str, ...] = ()) -> Iterable[str] | None:
    """``names`` as the request builders take it: canonical names, or None for every one. One
    string is a TypeError (it would be read a character at a time), saying how to write the API
    where it is one of ``apis`` (the order before toolgen 0.2: ``tool_definitions(api, names)``)."""
    if isinstance(names, str):
        if names in apis:
            raise TypeError(
                f"tool_definitions takes the tool names first and the API by keyword: write "
                f"tool_definitions(api={names!r}) or tool_definitions([...], api={names!r})"
            )
        raise TypeError(f"names is a list of tool names, not one name: write [{names!r}]")
    return names


@dataclass(frozen=True)
class Budget:
    """One per-request limit of a planned request: what it counts, the provider module's constant
    that holds it, the limit and what the request uses of it."""

    name: str
    constant: str
    limit: int
    used: int

    def __str__(self) -> str:
        return f"{self.name}: {self.used} of {self.limit} ({self.constant})"


@dataclass(frozen=True)
class RequestPlan(Generic[_M]):
    """One request planned as a whole: its tools in order, those marked strict, its structured
    output, and every per-request limit counted over all of them, tools and output together.

    ``members`` are the request's members, what ``request()`` returns (ready to spread into the
    SDK's create call); ``left_out`` the tools that may go strict but go without, each with the
    budget that kept it out; ``non_strict`` those the design sends non-strict; ``instructions``
    what the request's messages must carry besides (a system prompt; empty when nothing);
    ``nullable`` the strict tools whose root's optional members (as the provider names them) go
    required and nullable in this request, to fit its limits (read back as absent)."""

    api: str
    tools: tuple[str, ...]
    strict: frozenset[str]
    output: str | None
    budgets: tuple[Budget, ...]
    members: _M
    left_out: tuple[tuple[str, Budget], ...] = ()
    non_strict: tuple[str, ...] = ()
    instructions: str = ""
    notes: tuple[str, ...] = ()
    nullable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def explain(self) -> str:
        """Which tools go strict, which went non-strict and which budget bound, what each budget
        holds, and what else the request needs, a line each."""
        lines = [
            f"request ({self.api}): {len(self.tools)} tool(s)"
            + (f", output {self.output!r}" if self.output is not None else ", no output")
        ]
        strict = [name for name in self.tools if name in self.strict]
        lines.append(f"strict: {', '.join(strict) if strict else 'none'}")
        for name, members in self.nullable.items():
            written = ", ".join(members)
            lines.append(f"strict with {written} required and nullable: {name} (to fit the limits)")
        for name, budget in self.left_out:
            lines.append(f"not strict: {name} (it would take {budget.name} over {budget.limit})")
        if self.non_strict:
            lines.append(f"not strict by design: {', '.join(self.non_strict)}")
        for budget in self.budgets:
            lines.append(f"budget {budget}")
        lines += self.notes
        if self.instructions:
            lines.append("instructions: the request's system message must carry plan.instructions")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Marked:
    """What a request's ``strict`` argument marks (``StrictToolLimits.mark``)."""

    strict: tuple[str, ...]
    left_out: tuple[tuple[str, Budget], ...]
    optional: int
    unions: int
    #: strict tool -> its root's optional members written required and nullable
    nullable: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class StrictToolLimits:
    """The per-request limits of one provider (None: no limit applies): strict tools, and the
    optional and union-typed members across every strict tool and the structured output of a
    request (the provider module's ``MAX_*`` constants, each with its source in toolgen's
    provider profile); how many tools one request takes."""

    tools: int | None = None
    optional_members: int | None = None
    union_members: int | None = None
    all_tools: int | None = None

    def _over(self, count: int, optional: int, unions: int) -> list[Budget]:
        """The budgets ``count`` strict tools with ``optional`` optional and ``unions``
        union-typed members (output included) exceed."""
        return [
            budget
            for budget in self._budgets(count, optional, unions)
            if budget.used > budget.limit and budget.constant != "MAX_TOOLS"
        ]

    def _budgets(
        self, count: int, optional: int, unions: int, all_tools: int = 0
    ) -> tuple[Budget, ...]:
        return tuple(
            Budget(name, constant, limit, used)
            for name, constant, limit, used in (
                ("tools", "MAX_TOOLS", self.all_tools, all_tools),
                ("strict tools", "MAX_STRICT_TOOLS", self.tools, count),
                ("optional members", "MAX_OPTIONAL_MEMBERS", self.optional_members, optional),
                ("union-typed members", "MAX_UNION_MEMBERS", self.union_members, unions),
            )
            if limit is not None
        )

    def mark(
        self,
        tools: Contracts,
        chosen: list[str],
        strict: Strict,
        output: tuple[int, int] = (0, 0),
        held: str = "",
    ) -> _Marked:
        """The tools of ``chosen`` to mark strict beside an output of ``output`` sizes (optional,
        union-typed members; ``held`` names it in errors): "auto", of those that may go strict,
        by priority (highest first, ties in order), each one that still fits the limits beside
        the output and those taken before it, then, in the same order, each one left out that
        fits with some of its root's optional members written required and nullable (the
        fewest, the last ones: each moves one member from the optional budget to the union
        one); True, every one that may, as projected (ValueError naming the budgets they
        exceed: the API would answer 400); False, none. A tool the design sends non-strict is
        never marked and never counts."""
        optional, unions = output
        may = [name for name in chosen if tools.is_strict(name)]
        if strict is True:
            optional += sum(tools.sizes[name][0] for name in may)
            unions += sum(tools.sizes[name][1] for name in may)
            over = self._over(len(may), optional, unions)
            if over:
                exceeded = "; ".join(str(budget) for budget in over)
                raise ValueError(
                    f"{len(may)} strict tools{held} exceed one request's limits ({exceeded}): "
                    'the API would refuse it; send fewer tools, or strict="auto"'
                )
            return _Marked(tuple(may), (), optional, unions)
        if strict != "auto":
            if strict is not False:
                raise ValueError(f'strict is "auto", True or False, not {strict!r}')
            return _Marked((), (), optional, unions)
        taken: list[str] = []
        left_out: list[tuple[str, Budget]] = []
        for name in sorted(may, key=lambda tool: -tools.priorities.get(tool, 0)):
            more_optional, more_unions = tools.sizes[name]
            over = self._over(len(taken) + 1, optional + more_optional, unions + more_unions)
            if over:
                left_out.append((name, over[0]))
                continue
            taken.append(name)
            optional += more_optional
            unions += more_unions
        nullable: dict[str, tuple[str, ...]] = {}
        for name, budget in list(left_out):
            more_optional, more_unions = tools.sizes[name]
            members = tools.nullable.get(name, ())
            for count in range(1, len(members) + 1):
                less, more = more_optional - count, more_unions + count
                if not self._over(len(taken) + 1, optional + less, unions + more):
                    left_out.remove((name, budget))
                    taken.append(name)
                    nullable[name] = members[-count:]
                    optional += less
                    unions += more
                    break
        order = {name: index for index, name in enumerate(chosen)}
        return _Marked(
            tuple(sorted(taken, key=order.__getitem__)),
            tuple(sorted(left_out, key=lambda item: order[item[0]])),
            optional,
            unions,
            nullable,
        )

    def marked(self, tools: Contracts, chosen: list[str], strict: Strict) -> set[str]:
        """The tools of ``chosen`` to mark strict in a request of them alone, as projected
        (``mark`` without writing members nullable)."""
        return set(self.mark(replace(tools, nullable={}), chosen, strict).strict)

    def fitting(self, tools: Contracts, chosen: list[str]) -> set[str]:
        """The tools of ``chosen`` marked strict under ``strict="auto"`` in a request of them
        alone (what the framework adapters send)."""
        return self.marked(tools, chosen, "auto")

    def plan(
        self,
        api: str,
        tools: Contracts,
        names: Iterable[str] | None,
        strict: Strict,
        outputs: Contracts,
        output: str | None,
        members: Callable[[list[str], frozenset[str], Mapping[str, tuple[str, ...]]], _M],
        instructions: str = "",
        notes: tuple[str, ...] = (),
    ) -> RequestPlan[_M]:
        """The plan of a request of ``api`` of the tools ``names`` (every tool when None) and
        the structured output ``output`` (None: none): the tools marked strict as ``mark`` has
        it, the output counted first (a structured output is always constrained); ``members``
        builds the request's members from the tools, those marked strict and the members each
        writes nullable. ValueError when the request holds more tools than one request takes
        (``MAX_TOOLS``)."""
        chosen = tools.chosen(names, (api,))
        if self.all_tools is not None and len(chosen) > self.all_tools:
            raise ValueError(
                f"{len(chosen)} tools exceed the {self.all_tools} one request takes (MAX_TOOLS); "
                "send fewer"
            )
        sizes = (0, 0)
        if output is not None:
            sizes = outputs.sizes.get(outputs.known(output), (0, 0))
        held = f" and the output {output!r}" if output is not None else ""
        marked = self.mark(tools, chosen, strict, sizes, held)
        taken = frozenset(marked.strict)
        return RequestPlan(
            api,
            tuple(chosen),
            taken,
            output,
            self._budgets(len(taken), marked.optional, marked.unions, len(chosen)),
            members(chosen, taken, marked.nullable),
            marked.left_out,
            tuple(name for name in chosen if not tools.is_strict(name)),
            instructions,
            notes,
            marked.nullable,
        )


#: No per-request limit: every tool that may go strict is marked, any number of tools.
NO_LIMITS = StrictToolLimits()
