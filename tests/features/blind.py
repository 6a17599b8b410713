"""Blind samples: a value drawn from a *projected* schema (what any model under the provider's
grammar may write, not what the fakes write) decodes to the canonical payload the reference
inverse gives, valid under the canonical schema, or fails with a clean PayloadError: never a
wrong value, never another exception.

Beside that, the soundness of the projection (DESIGN's law, as tests/canonical/test_laws.py
states it): what the reference reads back from a projected value is valid under the canonical
schema without what the profile drops on purpose (``relaxed``); a projection that admits more is
silently less strict.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.support import Case, instances, relaxed
from tests.features.builds import Built
from tests.features.catalog import OUTPUT, TOOL
from tests.features.checks import (
    Outcome,
    canonical_validator,
    errors_of,
    json_equal,
    outcome,
    value_outcome,
    without_null_defaults,
)
from tests.features.round_trip import Failures
from toolgen.compile.canonical.reference import reference_for
from toolgen.providers.base import Profile
from toolgen.schema import pointer as jp
from toolgen.schema import walker


@cache
def _instances(text: str) -> st.SearchStrategy[Any]:
    return instances(json.loads(text))


def projected_values(built: Built, provider: str, kind: str) -> st.SearchStrategy[Any]:
    """Values of the projected schema of the feature's tool or output (cached by its text)."""
    return _instances(json.dumps(built.projected_schema(provider, kind), sort_keys=True))


def unresolved(schema: Any) -> str | None:
    """A ``$ref`` of a projected schema that points nowhere in it, if there is one (nothing can
    be drawn from that schema, and no provider could read it)."""
    for node, pointer in walker.walk(schema):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(ref, str):
            try:
                jp.resolve(schema, ref.removeprefix("#"))
            except (KeyError, IndexError, ValueError, TypeError):
                return f"{pointer}/$ref {ref!r} points nowhere in the projected schema"
    return None


#: the profiles of the validators below, by title (one per provider and dialect)
_PROFILES: dict[str, Profile] = {}


@cache
def _validators(text: str, title: str, as_text: frozenset[str]) -> tuple[Any, Any]:
    """The canonical schema's validators: whole, and relaxed as the profile drops on purpose."""
    schema = json.loads(text)
    loose = relaxed(schema, _PROFILES[title], as_text)
    return canonical_validator(schema), Draft202012Validator(loose)


def check_blind(built: Built, provider: str, kind: str, value: Any) -> Failures:
    """``value`` (of the projected schema) read by the package and by the reference inverse."""
    projected = built.projected(provider, kind)
    assert projected is not None
    profile = built.profile(provider)
    case = Case(f"{kind}:{projected.contract.name}", projected, lambda p: p, profile)
    _PROFILES[profile.title] = profile
    schema = projected.contract.schema
    text = json.dumps(schema, sort_keys=True)
    full, loose = _validators(text, profile.title, case.members_as_text())
    module = built.module(provider)
    errors = module.PayloadError
    if kind == "tool":
        wire_name = module.PROVIDER_NAMES[TOOL]
        text = json.dumps(value)
        decoded = outcome(errors, module.decode_tool_call, wire_name, text, "call_blind")
        canonical = value_outcome(errors, module.canonicalize, TOOL, value)
    else:
        decoded = outcome(errors, module.parse_output, OUTPUT, json.dumps(value))
        canonical = value_outcome(errors, module.canonicalize_output, OUTPUT, value)
    label = f"blind:{kind}"
    try:
        reference = reference_for(projected)(value)
    except ValueError as error:  # EncodingError: the value breaks an encoding
        if decoded.payloads is not None:
            return {label: f"accepted {_short(value)}, which breaks an encoding ({error})"}
        return _clean(label, decoded)
    failures: Failures = {}
    if canonical.payloads is not None and not json_equal(canonical.payloads[0], reference):
        failures[f"{label}:canonicalize"] = (
            f"gave {canonical}, the reference {_short(reference)} (for {_short(value)})"
        )
    unsound = errors_of(loose, reference)
    if unsound:
        failures[f"{label}:soundness"] = (
            f"the projection admits {_short(value)}, read back as {_short(reference)}, which "
            f"the canonical schema refuses (for a keyword {provider} does not drop): {unsound[0]}"
        )
    refused = errors_of(full, reference)
    if decoded.payloads is None:
        if not refused:
            failures[label] = f"refused {_short(reference)}, a canonical payload: {decoded}"
        return failures | _clean(label, decoded)
    got = without_null_defaults(decoded.payloads[0], schema)
    if not json_equal(got, without_null_defaults(reference, schema)):
        failures[label] = f"gave {_short(got)}, the reference {_short(reference)}"
    elif refused:
        failures[label] = (
            f"accepted {_short(got)}, which the canonical schema refuses: {refused[0]}"
        )
    return failures


def _clean(label: str, decoded: Outcome) -> Failures:
    if decoded.payloads is None and not str(decoded.error).startswith("PayloadError"):
        return {f"{label}:error": f"raised {decoded.error}, not a PayloadError"}
    return {}


def _short(value: Any) -> str:
    return json.dumps(value, default=repr, ensure_ascii=False)[:200]
