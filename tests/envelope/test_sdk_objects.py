"""SDK objects read through their attributes (``read_<surface>``, ``_attributes``) decide as their
wire form does: every recorded body, as the official client's object and as JSON, and each body
with a member retyped or removed (as an object the client would build from it) gives the same
calls, the same drift (path, expected, actual) or the same payload error as the object's dump."""

from __future__ import annotations

import copy
import importlib
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, Field

from tests.envelope.support import (
    BODIES,
    NAMES,
    PACKAGE,
    RETYPED,
    bodies,
    covered,
    parent_of,
    sdk_object_maker,
    spread,
)
from toolgen.providers import PROFILES

pytestmark = pytest.mark.corpus

#: The corpus folders whose surface a decoder reads through ``read_<surface>``.
READ_FOLDERS = [
    folder
    for folder, (provider, surface) in sorted(BODIES.items())
    if any(surface in api.readers for api in PROFILES[provider].apis)
]
MUTATED_BODIES_PER_FOLDER = 3


def reading_decoder(provider: str, surface: str) -> Any:
    """The decoder of ``surface`` as the generated provider module builds it (with the readers)."""
    api = next(a for a in PROFILES[provider].apis if surface in a.surfaces)
    envelopes = importlib.import_module(f"{PACKAGE}._envelopes_{provider}")
    decoder_class = getattr(importlib.import_module(f"{PACKAGE}.{api.module}"), api.decoder)
    checks = [
        getattr(envelopes, f"{'read' if s in api.readers else 'validate'}_{s}")
        for s in api.surfaces
    ]
    return decoder_class(provider, *checks)


def outcome(parse: Callable[..., Any], value: Any, runtime: ModuleType) -> Any:
    """What decoding ``value`` gives: the calls, or the drift or payload error it raises."""
    try:
        calls = parse(value, canonical_names=NAMES)
    except runtime.SchemaDriftError as drift:
        return ("drift", drift.path, drift.expected, drift.actual)
    except runtime.PayloadError as error:
        return ("payload", error.code, error.location, error.reason)
    except TypeError as error:
        return ("TypeError", str(error))
    return [(c.id, c.name, c.raw_arguments, c.arguments) for c in calls]


def dump(sdk_object: Any, runtime: ModuleType) -> Any:
    """The object's wire form, as ``json_value`` reads it (its serializer's warnings hushed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return runtime.json_value(sdk_object)
        except TypeError as error:
            return error


@pytest.mark.parametrize("folder", READ_FOLDERS)
def test_recorded_bodies_read_as_objects_as_their_json(
    folder: str, modules: dict[str, ModuleType]
) -> None:
    provider, surface = BODIES[folder]
    runtime = modules["_runtime"]
    read = getattr(modules[provider], f"read_{surface}")
    parse = reading_decoder(provider, surface).parse_tool_calls
    make = sdk_object_maker(surface)
    read_as_is = 0
    for name, body in bodies(folder):
        sdk_object = make(copy.deepcopy(body))
        expected = outcome(parse, body, runtime)
        assert outcome(parse, sdk_object, runtime) == expected, name
        assert outcome(parse, dump(sdk_object, runtime), runtime) == expected, name
        read_as_is += read(sdk_object) is sdk_object
    if folder.split("/")[0] in ("openai", "anthropic"):  # the SDKs' own APIs
        assert read_as_is, "no recorded body was read through its attributes"


@pytest.mark.parametrize("folder", READ_FOLDERS)
def test_mutated_bodies_as_objects_decide_as_their_dump(
    folder: str, modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]
) -> None:
    """A member retyped or removed: the client's object of the mutated body decides as its dump
    (drift at the same path, or the same calls when the SDK's type absorbs the change)."""
    provider, surface = BODIES[folder]
    runtime = modules["_runtime"]
    parse = reading_decoder(provider, surface).parse_tool_calls
    make = sdk_object_maker(surface)
    schema = schemas[provider]
    compared = drifted = 0
    for name, body in spread(bodies(folder), MUTATED_BODIES_PER_FOLDER):
        for path, _ in covered(schema[surface], schema[surface], body):
            for kind in ("retyped", "removed"):
                mutated = copy.deepcopy(body)
                parent = parent_of(mutated, path)
                if kind == "retyped":
                    parent[path[-1]] = RETYPED[type(parent[path[-1]])]
                else:
                    del parent[path[-1]]
                try:
                    sdk_object = make(mutated)
                except Exception:  # noqa: BLE001 - the client itself would refuse it
                    continue
                wire = dump(sdk_object, runtime)
                got = outcome(parse, sdk_object, runtime)
                assert got == outcome(parse, wire, runtime), (name, kind, path)
                compared += 1
                drifted += isinstance(got, tuple) and got[0] == "drift"
    assert compared and drifted


class _Function(BaseModel):
    name: str
    arguments: str


class _AliasedFunction(BaseModel):
    name: str
    arguments_text: str = Field(alias="arguments")


def test_a_class_that_does_not_read_as_its_wire_form_is_read_from_its_dump(
    modules: dict[str, ModuleType],
) -> None:
    """An alias, a serializer or an override of model_dump: the object is dumped, as before."""
    admit = importlib.import_module(f"{PACKAGE}._attributes")
    classes = admit.admitted_classes(("arguments", "name"))
    assert admit.admit(_Function(name="f", arguments="{}"), classes)
    assert not admit.admit(_AliasedFunction(name="f", arguments="{}"), classes)
    assert not admit.admit({"name": "f", "arguments": "{}"}, classes)

    class Dumped(_Function):
        def model_dump(self, **kwargs: Any) -> Any:  # type: ignore[override]
            return super().model_dump(**kwargs)

    assert not admit.admit(Dumped(name="f", arguments="{}"), classes)
    optional = admit.admitted_classes(("arguments", "name"), ("arguments",))

    class Defaulted(BaseModel):
        name: str
        arguments: str = "{}"  # absent on the wire, yet read as "{}": not the wire form

    assert not admit.admit(Defaulted(name="f"), optional)
