"""End to end (issue 21, item 2, "done when"): for every built provider and API, ``response()``
and ``stream()`` of the package's ``testing`` modules, carrying calls of the example tools with
payloads generated from the canonical schemas, pass the provider module's envelope validators
(``parse_tool_calls``, ``ToolCallStream.add``) and decode to the payloads given."""

from __future__ import annotations

import importlib
import typing
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.canonical.support import PROPERTY, examples
from tests.fake_builders import model as fake_model
from tests.test_testing_package import (  # noqa: F401 - built, package: its fixtures, shared
    PACKAGE,
    SERVED,
    _case,
    _tool_names,
    built,
    package,
)
from toolgen.providers import PROFILES

#: (provider, api) for every API of every provider with a module
APIS = [(provider, api.name) for provider in SERVED for api in PROFILES[provider].apis]


def _calls(provider: str, data: st.DataObject) -> list[tuple[str, Any, Any]]:
    """One or two calls: (tool name, canonical payload, the payload decoding gives back)."""
    calls = []
    for _ in range(data.draw(st.integers(1, 2), label="calls")):
        name = data.draw(st.sampled_from(_tool_names(provider)), label="tool")
        case, _, strategy = _case(provider, name)
        payload = data.draw(strategy, label="canonical")
        calls.append((name, payload, case.filler()(payload)[1]))
    return calls


def _decoded(calls: list[Any]) -> list[tuple[str, Any]]:
    return [(call.name, call.arguments.model_dump(mode="json")) for call in calls]


@pytest.mark.usefixtures("package")
@pytest.mark.parametrize(("provider", "api"), APIS)
@settings(PROPERTY, max_examples=examples(6))
@given(data=st.data())
def test_response_and_stream_decode_to_the_payloads_given(
    provider: str, api: str, data: st.DataObject
) -> None:
    fakes = importlib.import_module(f"{PACKAGE}.testing.{provider}")
    module = importlib.import_module(f"{PACKAGE}.{provider}")
    assert api in typing.get_args(module.Api)
    calls = _calls(provider, data)
    given_calls = [(name, payload) for name, payload, _ in calls]
    expected = [(name, back) for name, _, back in calls]
    # Workers AI's bindings take the model, whose family decides the result's shape: the fakes' own
    keywords = {"model": fake_model(api)} if provider == "cloudflare" else {}
    body = fakes.response(given_calls, api=api)
    assert _decoded(module.parse_tool_calls(body, api=api, **keywords)) == expected
    stream = module.ToolCallStream(api=api, **keywords)
    for event in fakes.stream(given_calls, api=api):
        stream.add(event)
    assert _decoded(stream.tool_calls()) == expected


@pytest.mark.usefixtures("package")
def test_a_payload_its_schema_refuses_is_no_fixture_unless_asked_for() -> None:
    """The fakes hold only calls the model could make: a payload the tool's schema refuses is a
    ValueError naming the tool, and ``check=False`` writes it anyway, for a negative test (the
    package's decoding then refuses it)."""
    fakes = importlib.import_module(f"{PACKAGE}.testing.openai")
    module = importlib.import_module(f"{PACKAGE}.openai")
    refused = {"charge_id": "not-a-charge", "reason": "duplicate"}  # breaks the pattern
    for make in (fakes.response, fakes.stream):
        with pytest.raises(ValueError, match="'billing.refund' breaks its schema.*check=False"):
            make([("billing.refund", refused)])
    outcome = module.parse_tool_calls(
        fakes.response([("billing.refund", refused)], check=False), on_error="collect"
    )
    assert [type(call).__name__ for call in outcome] == ["FailedCall"]
