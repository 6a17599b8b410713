"""What changed between two versions of a design, per tool, output and provider, and what breaks.

The canonical contracts are compared by schema semantics (:mod:`toolgen.schema.compare`); a canonical
change concerns every provider alike (each decodes into the canonical contract), so it is reported
once, with the ``design`` slot. Per provider come what only a provider sees: the wire name, whether
the contract is emitted for it, whether its projection accepts the contract, whether it goes
strict, and which optional members that accept null it boxes (``optional_nullable``: the model
writes such a member another way, and absent and null come back apart, or no longer do).

Besides breaking and compatible, a change may need a handler: a tool added breaks neither callers
nor stored payloads, but every ``ToolHandlers`` (``AsyncToolHandlers``) subclass lacks its
method, so the subclass is abstract (a type error where it is made, a TypeError at run time)
until the method is written. The handler base keeps no default for it on purpose: a tool the
model may call with no handler is what the abstract method catches.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from toolgen.build import BuildResult
from toolgen.infra.diagnostics import DESIGN, Diagnostic, Level
from toolgen.load.contracts import Contract, Design
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract
from toolgen.project.rewrites import NullableOptionalBoxed
from toolgen.schema.compare import Classification, compare_schemas

CONFIG_POINTER = ("toolgen.toml", "/toolgen/providers")


class Impact(enum.StrEnum):
    """What a change breaks: callers or stored payloads (breaking), the implementers of the
    generated handler base only (a tool added: its method is missing), or nothing."""

    BREAKING = "breaking"
    NEEDS_HANDLER = "needs_handler"
    COMPATIBLE = "compatible"


BREAKING, NEEDS_HANDLER, COMPATIBLE = Impact.BREAKING, Impact.NEEDS_HANDLER, Impact.COMPATIBLE


def _impact(classification: Classification) -> Impact:
    return Impact(classification.value)


@dataclass(frozen=True, order=True)
class Change:
    """One difference between two designs: where (file of the new side, or the old one for what was
    removed, and a JSON pointer), for whom (a provider, or ``design``), what, and whether it breaks.
    """

    file: str
    pointer: str
    provider: str
    kind: str
    classification: Impact
    message: str

    @property
    def breaking(self) -> bool:
        return self.classification is BREAKING

    @property
    def needs_handler(self) -> bool:
        return self.classification is NEEDS_HANDLER

    def format(self) -> str:
        label = self.classification.value.upper()
        return f"{self.file}:{self.pointer}: {self.provider}: {label} {self.message}"

    def to_dict(self) -> dict[str, str]:
        return {key: str(value) for key, value in asdict(self).items()}


def format_text(changes: Iterable[Change], *, verbose: bool = False) -> str:
    """One line per change; the providers that see the same change at the same place share one
    line (``file:pointer: p1, p2: BREAKING ...``) unless ``verbose``."""
    if verbose:
        return "".join(change.format() + "\n" for change in sorted(changes))
    providers: dict[tuple[str, str, str, Impact, str], list[str]] = {}
    for change in sorted(changes):
        key = (change.file, change.pointer, change.kind, change.classification, change.message)
        providers.setdefault(key, []).append(change.provider)
    lines = []
    # in the order of the per-change lines: by place, then the first provider
    for (file, pointer, _, classification, message), names in sorted(
        providers.items(), key=lambda item: (item[0][:2], item[1][0], item[0][2:])
    ):
        label = classification.value.upper()
        lines.append(f"{file}:{pointer}: {', '.join(names)}: {label} {message}\n")
    return "".join(lines)


def format_json(changes: Iterable[Change]) -> str:
    return json.dumps([change.to_dict() for change in sorted(changes)], indent=2) + "\n"


def blocking_diagnostics(result: BuildResult) -> list[Diagnostic]:
    """Errors that keep a side from being compared: a file that did not load is not a removed tool.
    (A provider's rejection is not one of them: it is a change the diff reports.)"""
    if result.design is None:
        return list(result.diagnostics)
    return [d for d in result.diagnostics if d.level is Level.ERROR and d.provider == DESIGN]


def _pair_contracts(
    old: Design, new: Design
) -> tuple[list[tuple[Contract, Contract]], list[Contract], list[Contract]]:
    """(old, new) pairs of the same contract, then the removed and the added ones. A contract that
    changed its name is paired with its old self when it kept its file, or else when exactly one
    removed contract of its kind has the same schema."""
    old_by = {(c.kind, c.name): c for c in old.contracts}
    new_by = {(c.kind, c.name): c for c in new.contracts}
    pairs = [(old_by[key], new_by[key]) for key in sorted(old_by.keys() & new_by.keys())]
    removed = [old_by[key] for key in sorted(old_by.keys() - new_by.keys())]
    added = [new_by[key] for key in sorted(new_by.keys() - old_by.keys())]
    for same in (
        lambda o, n: o.file == n.file,
        lambda o, n: not compare_schemas(o.schema, n.schema),
    ):
        for contract in list(added):
            candidates = [o for o in removed if o.kind == contract.kind and same(o, contract)]
            if len(candidates) == 1:
                pairs.append((candidates[0], contract))
                removed.remove(candidates[0])
                added.remove(contract)
    return pairs, removed, added


def _contract_changes(old: Contract, new: Contract) -> list[Change]:
    def change(pointer: str, kind: str, classification: Impact, message: str) -> Change:
        return Change(new.file, pointer, DESIGN, kind, classification, message)

    changes = []
    if old.name != new.name:
        renamed = f"{new.kind} renamed from {old.name!r} to {new.name!r} (was {old.file})"
        if new.kind == "tool":  # models' names and the name models are sent change either way
            renamed += (
                "; MCP clients keep calling the old name (aliases)"
                if old.name in new.aliases
                else f"; aliases: [{old.name}] in its file keeps MCP clients calling the old name"
            )
        changes.append(change("/name", "RENAMED", BREAKING, renamed))
    if old.description != new.description:
        changes.append(
            change("/description", "ANNOTATION_CHANGED", COMPATIBLE, "description changed")
        )
    if old.priority != new.priority:
        # Which tools go strict where a provider caps strict tools per request; payloads keep
        # their shape either way.
        changes.append(
            change(
                "/priority",
                "PRIORITY_CHANGED",
                COMPATIBLE,
                f"priority changed from {old.priority} to {new.priority}",
            )
        )
    for found in compare_schemas(old.schema, new.schema):
        changes.append(
            change(
                new.pointer + found.pointer,
                found.kind,
                _impact(found.classification),
                found.message,
            )
        )
    for field, label in (("title", "title"), ("annotations", "annotations")):
        if getattr(old, field) != getattr(new, field):
            changes.append(
                change(f"/{field}", "ANNOTATION_CHANGED", COMPATIBLE, f"{label} changed")
            )
    return changes + _output_changes(old, new)


def _output_changes(old: Contract, new: Contract) -> list[Change]:
    """A tool's ``output:`` constrains what its handler may return; none constrains nothing (the
    schema ``true``). So a new or narrowed output schema breaks handlers whose results it now
    rejects, and a removed or widened one breaks nothing."""
    before = old.output.schema if old.output is not None else True
    after = new.output.schema if new.output is not None else True
    declared = new.output or old.output
    pointer = declared.pointer if declared is not None else "/output"
    return [
        Change(
            new.file,
            pointer + found.pointer,
            DESIGN,
            found.kind,
            _impact(found.classification),
            f"output: {found.message}",
        )
        for found in compare_schemas(before, after)
    ]


def _rejection(projection: ProviderProjection, contract: Contract, code: str | None = None) -> str:
    """The first error about ``contract`` (or the first diagnostic of ``code``), as a suffix."""
    files = {contract.file, *(s.file for s in contract.shared.values())}
    reasons = sorted(
        d
        for d in projection.diagnostics
        if d.file in files and (d.code == code if code else d.level is Level.ERROR)
    )
    if not reasons:
        return ""
    first = reasons[0]
    more = f" and {len(reasons) - 1} more" if len(reasons) > 1 else ""
    return f": {first.code} at {first.file}:{first.pointer}{more}"


def _provider_changes(
    old: ProviderProjection, new: ProviderProjection, pairs: list[tuple[Contract, Contract]]
) -> list[Change]:
    old_projected = {(p.contract.kind, p.contract.name): p for p in (*old.tools, *old.outputs)}
    new_projected = {(p.contract.kind, p.contract.name): p for p in (*new.tools, *new.outputs)}
    changes = []
    for old_contract, new_contract in pairs:
        changes += _projected_changes(
            new,
            new_contract,
            old_projected.get((old_contract.kind, old_contract.name)),
            new_projected.get((new_contract.kind, new_contract.name)),
        )
    return changes


def _projected_changes(
    projection: ProviderProjection,
    contract: Contract,
    before: ProjectedContract | None,
    after: ProjectedContract | None,
) -> list[Change]:
    """What one provider sees change in one contract (None: the contract is not emitted for it)."""
    provider, kind = projection.profile.name, contract.kind

    def change(pointer: str, code: str, classification: Impact, message: str) -> Change:
        return Change(contract.file, pointer, provider, code, classification, message)

    if after is None:
        if before is None:
            return []
        return [change("/providers", "NOT_EMITTED", BREAKING, "no longer emitted")]
    if before is None:
        return [change("/providers", "EMITTED", COMPATIBLE, "now emitted")]
    changes = []
    if before.provider_name != after.provider_name:
        changes.append(
            change(
                "/name",
                "PROVIDER_NAME_CHANGED",
                BREAKING,
                f"wire name changed from {before.provider_name!r} to {after.provider_name!r}",
            )
        )
    if before.schema is not None and after.schema is None:
        reason = _rejection(projection, contract)
        changes.append(
            change(
                contract.pointer,
                "NEWLY_REJECTED",
                BREAKING,
                f"rejects this {kind} now{reason}",
            )
        )
    elif before.schema is None and after.schema is not None:
        changes.append(
            change(contract.pointer, "NOW_ACCEPTED", COMPATIBLE, f"accepts this {kind} now")
        )
    elif before.schema is not None and before.strict != after.strict:
        # The contract holds either way (payloads are validated after decoding); what changes
        # is whether the provider constrains the model's output to the schema.
        mode, code = ("strict", "NOW_STRICT") if after.strict else ("non-strict", "NOW_NON_STRICT")
        reason = "" if after.strict else _rejection(projection, contract, "STRICT_FALLBACK")
        message = f"sends this {kind} {mode} now{reason}"
        changes.append(change(contract.pointer, code, COMPATIBLE, message))
    if before.schema is not None and after.schema is not None:
        changes += _boxing_changes(contract, provider, before, after)
    return changes


def _boxed(projected: ProjectedContract) -> set[str]:
    """The canonical pointers of the members the projection boxed (NullableOptionalBoxed)."""
    return {
        node.canonical
        for _, node in projected.rewrites.nodes
        if any(isinstance(rule, NullableOptionalBoxed) for rule in node.rewrites)
    }


def _boxing_changes(
    contract: Contract, provider: str, before: ProjectedContract, after: ProjectedContract
) -> list[Change]:
    """The optional members that accept null that ``provider`` boxes now, or no longer does. The
    canonical contract holds either way; a member no longer boxed breaks its callers, whose
    handlers get null where the model left it out (a title-only update that clears a field)."""
    was, now = _boxed(before), _boxed(after)
    boxes = (
        "boxes this optional member that accepts null now: the model writes null to leave it "
        'out and {"value": ...} to set it; absent and null come back apart'
    )
    unboxes = "no longer boxes this optional member that accepts null: absent comes back as null"
    changes = []
    for members, code, classification, what in (
        (now - was, "NOW_BOXED", COMPATIBLE, boxes),
        (was - now, "NO_LONGER_BOXED", BREAKING, unboxes),
    ):
        for canonical in sorted(members):
            file, pointer = contract.locate(canonical)
            changes.append(Change(file, pointer, provider, code, classification, what))
    return changes


def _added(contract: Contract) -> Change:
    """A contract added: nothing breaks for callers or stored payloads; a tool needs its
    handler method in every ``ToolHandlers`` subclass (the module's docstring says why)."""
    kind = f"{contract.kind.upper()}_ADDED"
    if contract.kind != "tool":
        return Change(
            contract.file, "", DESIGN, kind, COMPATIBLE, f"{contract.kind} {contract.name!r} added"
        )
    message = (
        f"tool {contract.name!r} added: ToolHandlers and AsyncToolHandlers subclasses need its "
        "method (HANDLER_NAMES), or they are abstract"
    )
    return Change(contract.file, "", DESIGN, kind, NEEDS_HANDLER, message)


def diff_designs(old: BuildResult, new: BuildResult) -> list[Change]:
    """The changes from ``old`` to ``new`` (both analyzed, without blocking diagnostics), sorted."""
    assert old.design is not None and new.design is not None
    pairs, removed, added = _pair_contracts(old.design, new.design)
    changes = [
        Change(
            c.file,
            "",
            DESIGN,
            f"{c.kind.upper()}_REMOVED",
            BREAKING,
            f"{c.kind} {c.name!r} removed",
        )
        for c in removed
    ]
    changes += [_added(c) for c in added]
    for old_contract, new_contract in pairs:
        changes += _contract_changes(old_contract, new_contract)
    old_by = {p.profile.name: p for p in old.projections}
    new_by = {p.profile.name: p for p in new.projections}
    file, pointer = CONFIG_POINTER
    for name in sorted(old_by.keys() - new_by.keys()):
        changes.append(Change(file, pointer, name, "PROVIDER_DROPPED", BREAKING, "no longer built"))
    for name in sorted(new_by.keys() - old_by.keys()):
        changes.append(Change(file, pointer, name, "PROVIDER_ADDED", COMPATIBLE, "now built"))
    for name in sorted(old_by.keys() & new_by.keys()):
        changes += _provider_changes(old_by[name], new_by[name], pairs)
    return sorted(set(changes))
