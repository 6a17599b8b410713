"""Strict or not, per tool: the policy that chooses between the strict projection
(toolgen.project.projection) and the non-strict one (toolgen.project.nonstrict), and turns the reasons strict mode
gave into STRICT_FALLBACK warnings where a tool falls back."""

from __future__ import annotations

from dataclasses import replace

from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.nonstrict import project_non_strict
from toolgen.project.openapi import write_openapi
from toolgen.project.projection import ProjectedContract, description_limit, project_contract
from toolgen.project.rewrites import RewriteRecord
from toolgen.providers.base import Profile
from toolgen.schema import pointer as jp
from toolgen.schema import walker


def project_non_strict_tool(
    contract: Contract, profile: Profile, provider_name: str
) -> tuple[ProjectedContract, list[Diagnostic]]:
    """``contract`` as a tool with the provider's strict flag off (toolgen.project.nonstrict)."""
    assert profile.non_strict is not None
    meaning, rewrites, problems = project_non_strict(contract.schema, profile.non_strict)
    diagnostics = [
        Diagnostic(*contract.locate(pointer), profile.name, code, message)
        for pointer, code, message in problems
    ]
    diagnostics += description_limit(contract, profile)
    diagnostics += _refused_member_names(contract, profile)
    if any(d.level is Level.ERROR for d in diagnostics):
        meaning, rewrites = None, RewriteRecord()
    schema = meaning
    if meaning is not None and profile.openapi is not None:
        schema = write_openapi(meaning, profile.openapi)
    projected = ProjectedContract(
        contract, provider_name, schema, rewrites, profile.name, meaning, strict=False
    )
    return projected, diagnostics


def project_tool(
    contract: Contract, profile: Profile, options: ProviderOptions, provider_name: str
) -> tuple[ProjectedContract, list[Diagnostic]]:
    """A tool in the mode its design asks for (:meth:`Contract.requested_strict`: the tool file's
    ``providers: {NAME: {strict}}``, then its top-level ``strict``, then ``[providers.NAME] strict``
    in toolgen.toml); then:

    - ``strict: false``: the non-strict projection, quietly (the design chose it);
    - ``strict: true`` (said in either place): the strict projection, its errors stay errors;
    - neither said: the strict projection. Where it has errors, the build fails closed (each error
      says how to opt in), unless the design says ``[toolgen] strict_fallback = "non-strict"``
      and the provider has a non-strict mode that takes the tool: then the tool goes non-strict,
      and each reason strict mode gave becomes a STRICT_FALLBACK warning where it was found. An
      error the design chose (``optional_nullable = "error"``) stays an error either way.
    """
    requested = contract.requested_strict(profile.name, options.strict)
    if profile.non_strict is not None and requested is False:
        return project_non_strict_tool(contract, profile, provider_name)
    strict, found = project_contract(contract, profile, options, provider_name)
    if profile.non_strict is None or requested is True or strict.schema is not None:
        return strict, found
    if any(d.code in _CHOSEN_ERRORS and d.level is Level.ERROR for d in found):
        return strict, found
    if options.strict_fallback != "non-strict":
        return strict, _with_opt_in(found)
    loose, loose_found = project_non_strict_tool(contract, profile, provider_name)
    if loose.schema is None:
        return strict, found
    return loose, _fallback_warnings(found, profile) + loose_found


#: Errors the design chose (``optional_nullable = "error"``): strict mode could send the tool, so
#: they never turn into a fallback.
_CHOSEN_ERRORS = frozenset({"OPTIONAL_NULLABLE"})

_OPT_IN = (
    "; strict mode cannot carry this tool exactly: say strict: false for it (or for the "
    'provider in toolgen.toml), or [toolgen] strict_fallback = "non-strict", to send it '
    "non-strict"
)


def _with_opt_in(found: list[Diagnostic]) -> list[Diagnostic]:
    """The strict projection's errors, each saying how the design can opt into non-strict mode
    (the provider has one)."""
    return [replace(d, message=d.message + _OPT_IN) if d.level is Level.ERROR else d for d in found]


def _fallback_warnings(strict_found: list[Diagnostic], profile: Profile) -> list[Diagnostic]:
    return [
        Diagnostic(
            d.file,
            d.pointer,
            d.provider,
            "STRICT_FALLBACK",
            f"sent non-strict: {profile.title} cannot take this ({d.code}: {d.message}); "
            f"say strict: false for this tool to accept that, or strict: true to make it an error",
            Level.WARNING,
        )
        for d in strict_found
        if d.level is Level.ERROR
    ]


def _refused_member_names(contract: Contract, profile: Profile) -> list[Diagnostic]:
    """A member name the provider refuses as a property key, in a tool sent non-strict: strict
    mode sends it under another name and names it back (MembersRenamed), but a non-strict tool's
    payloads are read as they come."""
    rule = profile.member_names
    if rule is None:
        return []
    found = []
    for node, pointer in walker.walk(contract.schema):
        members = node.get("properties") if isinstance(node, dict) else None
        for name in members if isinstance(members, dict) else ():
            if not rule.is_valid(name):
                file, where = contract.locate(jp.join(pointer, "properties", name))
                message = (
                    f"{profile.title} refuses this member name as a property key; strict mode "
                    "sends it under another name and reads it back, a tool sent non-strict "
                    "cannot: send the tool strict, or rename the member"
                )
                found.append(Diagnostic(file, where, profile.name, "MEMBER_NAME_REFUSED", message))
    return found
