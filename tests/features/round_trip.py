"""One payload through a built package, end to end, at every entry point a user has: the fakes
write it as the provider's model would (checked against the projected schema), then it is decoded
from the raw body, from the official SDK's object, from the stream (and, for Workers AI, from the
result of each model family's shape) and compared with the payload given; the package built with
every other provider must decode the same bytes the same way.

Each check returns its failures as {entry point: first line of what went wrong}, so that one
example reports every entry point it breaks.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from tests import fake_builders
from tests.canonical.support import encodes
from tests.features.builds import Built
from tests.features.catalog import OUTPUT, TOOL, Feature
from tests.features.checks import (
    Outcome,
    errors_of,
    json_equal,
    outcome,
    sdk_object,
    value_outcome,
    without_null_defaults,
)
from toolgen.compile.canonical.forward import forward_plan
from toolgen.project.rewrites import JSON_TEXTS
from toolgen.providers import ENDPOINTS
from toolgen.providers.cloudflare import FAMILIES

#: Workers AI's ``ai/run`` result shapes other than the fakes' own (the native one of the model
#: its canary asks), each with a model of a family that answers with it (the decoders choose the
#: reading from the model name's prefix: toolgen/providers/cloudflare.py FAMILIES)
RUN_SHAPES: dict[str, str] = {
    shape: next(f.prefixes[0] for f in FAMILIES if shape in f.shapes) + "probe-model"
    for shape in ("chat", "responses")
}
#: the Anthropic-served profiles whose strict outputs may change an enum value's letter case
#: (Anthropic's structured outputs docs, "Invalid outputs"); Bedrock serves Claude
CASE_FOLDING = ("anthropic", "bedrock")

Entry = Callable[[Built], Any]
Failures = dict[str, str]


def _keywords(provider: str, model: str | None = None) -> dict[str, Any]:
    """Workers AI's decoders take the model (its family decides the result's shape)."""
    if provider != "cloudflare":
        return {}
    return {"model": model or ENDPOINTS["cloudflare"].model}


def _streamed(built: Built, provider: str, events: list[Any], api: str, **keywords: Any) -> Any:
    stream = built.module(provider).ToolCallStream(api=api, **keywords)
    for event in events:
        stream.add(event)
    return stream.tool_calls()


def tool_entries(built: Built, provider: str, payload: Any) -> tuple[Any, dict[str, Entry]]:
    """The wire arguments of ``payload`` (the alone package's fakes) and every decoding entry
    point of them: label -> what it gives for a package."""
    fakes = built.fakes(provider)
    module = built.module(provider)
    wire = fakes.arguments(TOOL, payload)
    calls = [(TOOL, payload)]
    entries: dict[str, Entry] = {
        "canonicalize": lambda b: b.module(provider).canonicalize(TOOL, wire)
    }
    for api in module.Api.__args__:
        keywords = _keywords(provider)
        body = fakes.response(calls, api=api)
        events = fakes.stream(calls, api=api)
        entries |= _decoders(provider, api, body, events, keywords, f"{api}:")
    if provider == "cloudflare":
        wire_calls = [(module.PROVIDER_NAMES[TOOL], wire)]
        package = built.runtime("_fakes").__package__
        for shape, model in RUN_SHAPES.items():
            options = {"model": model, "shape": shape, "package": package}
            body = fake_builders.response("run", wire_calls, **options)
            events = fake_builders.stream("run", wire_calls, **options)
            keywords = _keywords(provider, model)
            entries |= _decoders(provider, "run", body, events, keywords, f"run[{shape}]:")
    return wire, entries


def _decoders(
    provider: str, api: str, body: Any, events: list[Any], keywords: dict[str, Any], label: str
) -> dict[str, Entry]:
    entries: dict[str, Entry] = {
        f"{label}raw": lambda b: b.module(provider).parse_tool_calls(body, api=api, **keywords),
        f"{label}stream": lambda b: _streamed(b, provider, events, api, **keywords),
    }
    held = sdk_object(api, body)
    if held is not None:
        entries[f"{label}sdk"] = lambda b: b.module(provider).parse_tool_calls(
            held, api=api, **keywords
        )
    return entries


def check_tool(
    feature: Feature, alone: Built, together: Built, provider: str, payload: Any
) -> Failures:
    """``payload`` of the feature's tool through every entry point of both packages."""
    assert feature.parameters is not None
    failures: Failures = {}
    try:
        wire, entries = tool_entries(alone, provider, payload)
    except Exception as error:  # noqa: BLE001 - the fakes cannot write it: a finding
        return {"arguments": f"{type(error).__name__}: {error}"}
    invalid = errors_of(alone.projected_validator(provider, "tool"), wire)
    if invalid:
        failures["arguments"] = f"{_short(wire)} is not valid under the projection: {invalid[0]}"
    written = value_outcome(Exception, together.fakes(provider).arguments, TOOL, payload)
    if not written.same(Outcome(payloads=(wire,))):
        failures["together:arguments"] = f"writes {written}, alone {_short(wire)}"
    expected = without_null_defaults(payload, feature.parameters)
    failures |= _compare(entries, alone, together, provider, expected, feature.parameters)
    for index, (keyword, violation) in enumerate(feature.violations):
        failures |= _violation(alone, provider, f"violation:{keyword}[{index}]", violation)
    if feature.case_folded and provider in CASE_FOLDING:
        failures |= _case_folded(feature, alone, provider, payload, wire)
    return failures


def check_output(
    feature: Feature, alone: Built, together: Built, provider: str, payload: Any
) -> Failures:
    """``payload`` of the feature's structured output, written as the projection says (the
    forward plan of its projection, through the package's forward writer), then read back by
    ``parse_output`` from its JSON text and from the parsed value, in both packages."""
    assert feature.output is not None
    projected = alone.projected(provider, "output")
    assert projected is not None
    plan = forward_plan(projected)
    try:
        forward = alone.runtime("_forward").forward
        wire = payload if plan is None else forward(payload, plan["root"], plan["defs"])
    except Exception as error:  # noqa: BLE001 - the forward writer cannot write it: a finding
        return {"output:written": f"{type(error).__name__}: {error}"}
    failures: Failures = {}
    invalid = errors_of(alone.projected_validator(provider, "output"), wire)
    if invalid:
        failures["output:written"] = (
            f"{_short(wire)} is not valid under the projection: {invalid[0]}"
        )
    text = json.dumps(wire)
    entries: dict[str, Entry] = {
        "output:canonicalize": lambda b: b.module(provider).canonicalize_output(OUTPUT, wire),
        "output:text": lambda b: b.module(provider).parse_output(OUTPUT, text),
        "output:value": lambda b: b.module(provider).parse_output(OUTPUT, copy.deepcopy(wire)),
    }
    expected = without_null_defaults(payload, feature.output)
    return failures | _compare(entries, alone, together, provider, expected, feature.output)


def _compare(
    entries: dict[str, Entry],
    alone: Built,
    together: Built,
    provider: str,
    expected: Any,
    schema: Any,
) -> Failures:
    failures: Failures = {}
    errors = alone.module(provider).PayloadError
    for label, entry in entries.items():
        run = value_outcome if "canonicalize" in label else outcome
        got = run(errors, entry, alone)
        if got.payloads is None:
            failures[label] = str(got)
        elif not json_equal([without_null_defaults(p, schema) for p in got.payloads], [expected]):
            failures[label] = f"gave {got}, not the payload given {_short(expected)}"
        other = run(together.module(provider).PayloadError, entry, together)
        if not other.same(got):
            failures[f"together:{label}"] = f"gave {other}, alone {got}"
    return failures


def _violation(alone: Built, provider: str, label: str, payload: Any) -> Failures:
    """A payload that breaks a keyword of the canonical schema (``label``:
    ``violation:KEYWORD[n]``), written by the fakes: refused after decoding, and admitted by the
    projected schema only where the profile drops the keyword on purpose or the projection
    writes the member as JSON text (which carries no keyword)."""
    keyword = label.split(":")[1].split("[")[0]
    module = alone.module(provider)
    try:
        wire = alone.fakes(provider).arguments(TOOL, payload, check=False)  # breaks the schema
    except Exception as error:  # noqa: BLE001 - the fakes cannot write it: a finding
        return {label: f"the fakes cannot write {_short(payload)}: {type(error).__name__}: {error}"}
    failures: Failures = {}
    profile = alone.profile(provider)
    # (a format is not asserted by the projected schema's validator: not judged here)
    dropped = keyword in profile.drop or keyword not in profile.keep or keyword == "format"
    projected = alone.projected(provider, "tool")
    as_text = projected is not None and encodes(projected, JSON_TEXTS)
    if not dropped and not as_text and alone.projected_validator(provider, "tool").is_valid(wire):
        failures[f"{label}:projection"] = (
            f"the projected schema admits {_short(wire)}, which breaks {keyword}, a keyword "
            f"{provider} keeps: silently less strict"
        )
    api = module.Api.__args__[0]
    body = alone.fakes(provider).response([(TOOL, payload)], api=api, check=False)
    got = outcome(
        module.PayloadError, module.parse_tool_calls, body, api=api, **_keywords(provider)
    )
    if not str(got.error).startswith("PayloadError"):
        failures[label] = f"{_short(payload)} (breaks {keyword}) gave {got}, not a PayloadError"
    return failures


def _case_folded(
    feature: Feature, alone: Built, provider: str, payload: Any, wire: Any
) -> Failures:
    """An enum value written in another letter case reads back as the declared value."""
    member = feature.case_folded
    if not isinstance(wire, dict) or not isinstance(wire.get(member), str):
        return {}
    shouted = {**wire, member: wire[member].upper()}
    if shouted == wire:
        shouted = {**wire, member: wire[member].lower()}
    module = alone.module(provider)
    failures: Failures = {}
    for api in module.Api.__args__:
        wire_calls = [(module.PROVIDER_NAMES[TOOL], shouted)]
        package = alone.runtime("_fakes").__package__
        body = fake_builders.response(api, wire_calls, package=package)
        got = outcome(module.PayloadError, module.parse_tool_calls, body, api=api)
        if got.payloads is None or not json_equal(list(got.payloads), [payload]):
            failures[f"case:{api}:raw"] = f"{shouted[member]!r} gave {got}, not {payload[member]!r}"
    return failures


def _short(value: Any) -> str:
    return json.dumps(value, default=repr, ensure_ascii=False)[:200]
