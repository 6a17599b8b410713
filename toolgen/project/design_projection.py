"""Every contract of a design as one provider receives it: each tool in the mode the strictness
policy chooses (toolgen.project.strictness), each output strictly (toolgen.project.projection), one cache entry per
contract (toolgen.project.projection_json), and the names that collide on the provider."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from toolgen.infra.cache import Cache, code_fingerprint, digest, grouped_results, plain
from toolgen.infra.diagnostics import Diagnostic
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Contract, Design, ProviderOptions
from toolgen.project.projection import ProjectedContract, project_contract
from toolgen.project.projection_json import Parts, parts_from_json, parts_to_json
from toolgen.project.rewrites import rule_kinds
from toolgen.project.strictness import project_tool
from toolgen.providers import profile_for
from toolgen.providers.base import Profile
from toolgen.schema.names import provider_name


@dataclass(frozen=True)
class ProviderProjection:
    """Every contract of a design as one provider receives it, with the name maps."""

    profile: Profile
    tools: tuple[ProjectedContract, ...]
    outputs: tuple[ProjectedContract, ...]
    diagnostics: tuple[Diagnostic, ...]

    def name_map(self, kind: str) -> dict[str, str]:
        """canonical name -> provider name, for tools or outputs."""
        contracts = self.tools if kind == "tool" else self.outputs
        return {p.contract.name: p.provider_name for p in contracts}

    def strict_contracts(self) -> tuple[ProjectedContract, ...]:
        """The contracts the provider takes in strict mode: those the inverse reads back (a
        non-strict tool's payloads are canonical as they come)."""
        return tuple(p for p in (*self.tools, *self.outputs) if p.schema is not None and p.strict)

    def inverse_notes(self) -> tuple[str, ...]:
        """What the provider's inverse does, as phrases for the generated modules' docstrings
        (each rewrite kind's ``inverse_note``, in the order the kinds are declared); empty when
        no strict contract's record holds a rewrite that changes a payload: the payloads are
        canonical as they come, and the package needs no canonicalizer for the provider."""
        return self._inverse_notes

    @cached_property
    def _inverse_notes(self) -> tuple[str, ...]:
        # the projection is frozen, and the build asks three times (a walk of every record's
        # nodes: 14 ms each for the corpus design)
        found: dict[type, str] = {}
        for projected in self.strict_contracts():
            for _, node in projected.rewrites.nodes:
                for rewrite in node.rewrites:
                    note = rewrite.inverse_note
                    if rewrite.changes_payloads and note is not None:
                        found.setdefault(type(rewrite), note)
        return tuple(dict.fromkeys(found[kind] for kind in rule_kinds() if kind in found))


def _name_diagnostics(
    contracts: list[Contract], names: dict[str, str], profile: Profile
) -> list[Diagnostic]:
    """Two contracts whose provider names are equal, or equal but for case (files of the same name
    on a case-insensitive disk), are a build error."""
    diagnostics = []
    by_folded: dict[str, list[Contract]] = {}
    for contract in contracts:
        by_folded.setdefault(names[contract.name].casefold(), []).append(contract)
    for group in by_folded.values():
        for contract in group[1:] if len(group) > 1 else []:
            first = group[0]
            same = names[first.name] == names[contract.name]
            code = "NAME_COLLISION" if same else "CASE_COLLISION"
            relation = "is also" if same else "differs only by case from"
            diagnostics.append(
                Diagnostic(
                    contract.file,
                    "/name",
                    profile.name,
                    code,
                    f"{contract.kind} {contract.name!r} becomes {names[contract.name]!r}, which {relation} "
                    f"the name of {first.name!r} ({first.file}); rename one of them",
                )
            )
    return diagnostics


def project_design(
    design: Design, profile: Profile, runner: Runner | None = None
) -> ProviderProjection:
    """Every contract of ``design`` that ``profile`` emits, projected (through ``runner``'s cache)."""
    runner = runner or Runner()
    options = design.config.options_for(profile.name)
    options_key = plain(options)
    diagnostics: list[Diagnostic] = []
    projected: dict[str, list[ProjectedContract]] = {"tool": [], "output": []}
    for kind, contracts in (("tool", design.tools), ("output", design.outputs)):
        chosen = [c for c in contracts if c.emitted_for(profile.name)]
        names = {c.name: provider_name(c.name, profile.names) for c in chosen}
        diagnostics += _name_diagnostics(chosen, names, profile)

        def key(arguments: tuple[Any, ...]) -> str:
            return digest(
                code_fingerprint(),
                "projection",
                arguments[0].identity(),
                arguments[1].name,
                options_key,
                arguments[3],
            )

        if runner.kept is None and runner.cache is not None and all(c.fingerprint for c in chosen):
            grouped = _grouped(chosen, profile, options, options_key, names, runner.cache, kind)
            for one, found in grouped:
                projected[kind].append(one)
                diagnostics += found
            continue
        # a contract the loader kept (the same object) is projected as before, under its name
        results = runner.map_by_identity(
            "projection",
            (profile.name, kind),
            # the profile is a function of these (a profile made otherwise: nothing is kept)
            (profile.name, options) if profile is profile_for(profile.name, options) else None,
            _projected_parts,
            [(c.name, c) for c in chosen],
            partial(_arguments, profile=profile, options=options, names=names),
            key,
            _projected_contract,
            encode=parts_to_json,
            decode=parts_from_json,
            parallel=False,
            keep_decoded=True,  # no stage changes a projection in place
        )
        for one, found in results:
            projected[kind].append(one)
            diagnostics += found
    return ProviderProjection(
        profile, tuple(projected["tool"]), tuple(projected["output"]), tuple(diagnostics)
    )


def _grouped(
    chosen: list[Contract],
    profile: Profile,
    options: ProviderOptions,
    options_key: Any,
    names: dict[str, str],
    cache: Cache,
    kind: str,
) -> list[tuple[ProjectedContract, list[Diagnostic]]]:
    """In a process that builds once: each contract's projection from the cache a few dozen
    contracts an entry (``grouped_results``), found by the contract's fingerprint and its name
    on the provider's wire, which with the profile, its options and toolgen's code are all a
    projection is a function of (a key and a read a contract cost a one-tool rebuild of the
    corpus design 20 ms). A projection's own key (``ProjectedContract.inputs``, what the later
    stages key by) is that of the profile and options, and the contract's."""
    made_from = [c.fingerprint + names[c.name] for c in chosen]  # a fingerprint's length is fixed
    salt = (profile.name, kind, options_key)
    results = grouped_results(
        cache,
        "projection",
        [c.name for c in chosen],
        made_from,
        lambda positions: [
            _projected_parts(chosen[index], profile, options, names[chosen[index].name])
            for index in positions
        ],
        parts_to_json,
        parts_from_json,
        salt,
    )
    profile_key = digest(code_fingerprint(), "projection", salt)
    return [
        _projected_contract(
            (contract, profile, options, names[contract.name]), result, f"{profile_key}:{key}"
        )
        for contract, result, key in zip(chosen, results, made_from, strict=True)
    ]


def _arguments(
    contract: Contract, *, profile: Profile, options: ProviderOptions, names: dict[str, str]
) -> tuple[Any, ...]:
    return contract, profile, options, names[contract.name]


def _projected_contract(
    arguments: tuple[Any, ...], result: tuple[Parts, list[Diagnostic]], inputs: str | None
) -> tuple[ProjectedContract, list[Diagnostic]]:
    parts, found = result
    return ProjectedContract(arguments[0], *parts, inputs=inputs), found


def _projected_parts(
    contract: Contract, profile: Profile, options: ProviderOptions, provider_name: str
) -> tuple[Parts, list[Diagnostic]]:
    """What :func:`project_tool` (or :func:`project_contract`, for an output) makes of
    ``contract``, less the contract itself: the part the build caches."""
    project = project_tool if contract.kind == "tool" else project_contract
    result, found = project(contract, profile, options, provider_name)
    parts = (
        result.provider_name,
        result.schema,
        result.rewrites,
        result.provider,
        result.meaning,
        result.strict,
    )
    return parts, found
