"""``toolgen show --cost``: what each provider's request costs, as a text table
(the figures: toolgen.package.request_cost)."""

from __future__ import annotations

from collections.abc import Sequence

from toolgen.package.request_cost import ContractCost, Cost, RequestCost


def _share(part: Cost, whole: Cost) -> str:
    return f"{part.tokens / whole.tokens:.0%}" if whole.tokens else "-"


def _row(kind: str, cost: ContractCost, width: int) -> str:
    rest = Cost(
        max(cost.whole.size - cost.description.size - cost.schema.size, 0),
        max(cost.whole.tokens - cost.description.tokens - cost.schema.tokens, 0),
    )
    shares = (_share(part, cost.whole) for part in (cost.description, cost.schema, rest))
    return (
        f"  {kind:<6} {cost.name:<{width}} {cost.whole.size:>9,} {cost.whole.tokens:>8,}"
        + "".join(f" {share:>11}" for share in shares)
    )


def cost_report(costs: Sequence[RequestCost], name: str | None = None) -> str:
    """The table of ``costs``, one block per provider: each tool's definition and each output's
    format (costliest first; only ``name``'s when given), then the full request by part."""
    blocks = []
    for cost in costs:
        rows = [
            *(("tool", t) for t in cost.tools),
            *(("output", o) for o in cost.outputs),
        ]
        rows.sort(key=lambda row: (row[0] != "tool", -row[1].whole.tokens, row[1].name))
        shown = [row for row in rows if name is None or row[1].name == name]
        width = max([len(c.name) for _, c in shown] + [len("contract")])
        head = f"  {'':<6} {'contract':<{width}} {'bytes':>9} {'tokens':>8}"
        head += f" {'description':>11} {'schema':>11} {'rest':>11}"
        lines = [f"{cost.provider} ({cost.api}; tokens: {cost.method})", head]
        lines += [_row(kind, contract, width) for kind, contract in shown]
        total, output = cost.total, cost.largest_output
        with_output = f" and the output {output.name}" if output is not None else ""
        lines.append(
            f"  full request ({len(cost.tools)} tool(s){with_output}): "
            f"{total.size:,} bytes, {total.tokens:,} tokens"
        )
        parts = ", ".join(f"{part} {_share(c, total)}" for part, c in cost.parts().items())
        lines.append(f"    by part (of its tokens): {parts}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
