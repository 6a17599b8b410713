"""What a provider's request costs before it is sent: the bytes and tokens of each tool's
definition and each structured output's format, as the generated module's request functions
write them (toolgen.package.request_builders, the provider's first API), and of the full request:
every tool the provider takes and the largest output (a request asks for one at most).

Tokens are counted exactly where the profile names its tokenizer and a library for it is
installed (toolgen.infra.tokenizers), else estimated (toolgen/runtime/_cost.py); ``method`` says
which. ``toolgen show --cost`` prints these figures; ``toolgen build --max-request-tokens N``
fails a build whose full request for a provider exceeds N tokens (:func:`over_budget`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.infra.diagnostics import Diagnostic
from toolgen.infra.tokenizers import token_counter
from toolgen.package.request_builders import request_builders
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract
from toolgen.runtime._cost import METHOD, estimated_tokens, json_size, json_text

#: How many of the costliest tools a diagnostic over the budget names.
NAMED_TOOLS = 5


@dataclass(frozen=True)
class Cost:
    size: int  # bytes of compact JSON
    tokens: int

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.size + other.size, self.tokens + other.tokens)


NOTHING = Cost(0, 0)


@dataclass(frozen=True)
class ContractCost:
    """A tool's definition (its entry of the request's tools) or an output's format, and its
    parts: the description and the schema (a tool's parameters, an output's schema); the rest
    is names and wrapping."""

    projected: ProjectedContract
    whole: Cost
    description: Cost
    schema: Cost

    @property
    def name(self) -> str:
        return self.projected.contract.name


@dataclass(frozen=True)
class RequestCost:
    """One provider's request: its tools, its outputs, and the tools as one request sends them
    (``tool_list``: the definitions of every tool in one ``tools`` member)."""

    provider: str
    api: str  # the API's title
    method: str  # how tokens were counted
    tools: tuple[ContractCost, ...]
    outputs: tuple[ContractCost, ...]
    tool_list: Cost

    @property
    def largest_output(self) -> ContractCost | None:
        return max(self.outputs, key=lambda o: o.whole.tokens, default=None)

    @property
    def total(self) -> Cost:
        """The full request's tools and output: every tool and the largest output."""
        output = self.largest_output
        return self.tool_list + (output.whole if output is not None else NOTHING)

    def parts(self) -> dict[str, Cost]:
        """The full request's bytes and tokens by part (the rest: names, keys and wrapping)."""
        output = self.largest_output
        descriptions = sum((t.description for t in self.tools), NOTHING)
        parameters = sum((t.schema for t in self.tools), NOTHING)
        if output is not None:
            descriptions = descriptions + output.description
        schema = output.schema if output is not None else NOTHING
        total = self.total
        named = descriptions + parameters + schema
        rest = Cost(max(total.size - named.size, 0), max(total.tokens - named.tokens, 0))
        return {
            "descriptions": descriptions,
            "parameters": parameters,
            "output schema": schema,
            "names and wrapping": rest,
        }

    def costliest(self, count: int = NAMED_TOOLS) -> list[ContractCost]:
        return sorted(self.tools, key=lambda t: (-t.whole.tokens, t.name))[:count]


def _counter(projection: ProviderProjection) -> tuple[Callable[[str], int], str]:
    counter = token_counter(projection.profile.tokenizer)
    if counter is not None:
        return counter.count, counter.method
    return (lambda text: estimated_tokens(len(text.encode("utf-8", "surrogatepass")))), METHOD


def _find(value: Any, wanted: Any) -> Any:
    """The first node of ``value`` (depth first) equal to ``wanted``, or None."""
    if value == wanted and type(value) is type(wanted):
        return value
    children = (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    )
    for child in children:
        found = _find(child, wanted)
        if found is not None:
            return found
    return None


def _contract_cost(
    projected: ProjectedContract, sent: Any, count: Callable[[str], int]
) -> ContractCost:
    """The cost of what is ``sent`` for ``projected``, with its description and schema found in
    it (as written there; the projected schema where a wire form differs)."""

    def cost(value: Any) -> Cost:
        return Cost(json_size(value), count(json_text(value)))

    description = projected.contract.description
    schema = _find(sent, projected.schema)
    return ContractCost(
        projected,
        cost(sent),
        cost(description) if _find(sent, description) is not None else NOTHING,
        cost(schema if schema is not None else projected.schema),
    )


def request_cost(projection: ProviderProjection) -> RequestCost | None:
    """The cost of ``projection``'s request (module docstring); None when the provider has no
    wire API (projection only)."""
    profile = projection.profile
    if not profile.apis:
        return None
    api = profile.apis[0]
    tools = [p for p in projection.tools if p.schema is not None]
    outputs = [p for p in projection.outputs if p.schema is not None]
    builders = request_builders(profile, tools, outputs)
    count, method = _counter(projection)
    tool_costs = tuple(
        _contract_cost(p, builders.tool_definition(p.contract.name), count) for p in tools
    )
    output_costs: tuple[ContractCost, ...] = ()
    if api.canary is not None:
        output_costs = tuple(
            _contract_cost(p, api.canary.output_format(builders, api.name, p.contract.name), count)
            for p in outputs
        )
    every = builders.tool_definitions(names=[p.contract.name for p in tools]) if tools else []
    tool_list = Cost(json_size(every), count(json_text(every))) if tools else NOTHING
    return RequestCost(profile.name, api.title, method, tool_costs, output_costs, tool_list)


def request_costs(projections: Sequence[ProviderProjection]) -> list[RequestCost]:
    return [cost for cost in map(request_cost, projections) if cost is not None]


def over_budget(costs: Sequence[RequestCost], budget: int, source: str) -> list[Diagnostic]:
    """A ``REQUEST_OVER_BUDGET`` error for each provider whose full request exceeds ``budget``
    tokens (``source``: where the budget was set), at its costliest tool (or output), naming
    the tools that cost most."""
    found = []
    for cost in costs:
        total = cost.total
        if total.tokens <= budget:
            continue
        costliest = cost.costliest()
        output = cost.largest_output
        first = costliest[0] if costliest else output
        if first is None:  # an empty request costs nothing: it is over no budget
            continue
        where = first.projected.contract
        named = ", ".join(f"{t.name} {t.whole.tokens:,}" for t in costliest)
        with_output = f" and the output {output.name} ({output.whole.tokens:,})" if output else ""
        message = (
            f"the full request ({len(cost.tools)} tool(s){with_output}) is {total.tokens:,} "
            f"tokens ({cost.method}; {total.size:,} bytes), over the budget of {budget:,} "
            f"({source})" + (f"; the tools that cost most: {named}" if named else "")
        )
        found.append(
            Diagnostic(where.file, where.pointer, cost.provider, "REQUEST_OVER_BUDGET", message)
        )
    return found
