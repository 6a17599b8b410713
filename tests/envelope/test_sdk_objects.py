"""SDK objects read through their attributes (``read_<surface>``, ``_attributes``) decide as their
wire form does: every recorded body, as the official client's object and as JSON, and each body
with a member retyped or removed (as an object the client would build from it) gives the same
calls, the same drift (path, expected, actual) or the same payload error as the object's dump."""

from __future__ import annotations

import copy
import importlib
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, Field

from tests.envelope.support import (
    BODIES,
    NAMES,
    PACKAGE,
    RETYPED,
    STREAMS,
    bodies,
    covered,
    parent_of,
    raw_reader,
    sdk_object_maker,
    spread,
    stream_events,
)
from tests.envelope.support import (
    decoder as reading_decoder,
)
from toolgen.providers import PROFILES

pytestmark = pytest.mark.corpus

#: The corpus folders whose surface a decoder reads through ``read_<surface>``.
READ_FOLDERS = [
    folder
    for folder, (provider, surface) in sorted(BODIES.items())
    if any(surface in api.readers for api in PROFILES[provider].apis)
]
#: The corpus folders of streams whose events a joiner reads through ``read_<surface>``.
READ_STREAM_FOLDERS = [
    folder
    for folder, (provider, surface) in sorted(STREAMS.items())
    if any(surface in api.readers for api in PROFILES[provider].apis)
]
MUTATED_BODIES_PER_FOLDER = 3
MUTATED_EVENTS_PER_FOLDER = 4
#: the corpus folders whose recordings, as the official clients' objects, are all read through
#: their attributes with no dump (openai, anthropic, google-genai; OpenRouter through the openai
#: client). Mistral's are not all (through the openai client): its calls' ``index``, which the
#: client's class does not declare, is kept as an extra member, and such a body is read as its dump
SDK_FOLDERS = ("openai", "anthropic", "google-gla", "google-vertex", "openrouter")


def outcome(
    parse: Callable[..., Any], value: Any, runtime: ModuleType, provider: str | None = None
) -> Any:
    """What decoding ``value`` gives: the calls, or the drift or payload error it raises."""
    try:
        calls = parse(value, raw_reader(provider or parse, NAMES))
    except runtime.SchemaDriftError as drift:
        return ("drift", drift.path, drift.expected, drift.actual)
    except runtime.PayloadError as error:
        return ("payload", error.code, error.location, error.reason)
    except TypeError as error:
        return ("TypeError", str(error))
    return [(c.id, c.name, c.raw_arguments, c.arguments) for c in calls]


def mutations(schema: Any, value: Any) -> Iterator[tuple[Any, str, Any]]:
    """``value`` with each member the schema covers retyped, then removed: (path, kind, copy)."""
    for path, _ in covered(schema, schema, value):
        for kind in ("retyped", "removed"):
            mutated = copy.deepcopy(value)
            parent = parent_of(mutated, path)
            if kind == "retyped":
                parent[path[-1]] = RETYPED[type(parent[path[-1]])]
            else:
                del parent[path[-1]]
            yield path, kind, mutated


def joined(decoder: Any, events: list[Any], runtime: ModuleType) -> Any:
    """What a stream of ``events`` gives: its joined calls, or the drift or payload error it
    raises (while adding an event or joining)."""
    stream = decoder.stream()

    def join(_: Any, calls: Any) -> Any:
        for event in events:
            stream.add(event)
        return stream.tool_calls(calls)

    return outcome(join, None, runtime, stream.provider)


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
    if folder.split("/")[0] in SDK_FOLDERS:  # the SDKs' own APIs
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
        for path, kind, mutated in mutations(schema[surface], body):
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


@pytest.mark.parametrize("folder", READ_STREAM_FOLDERS)
def test_recorded_streams_read_as_objects_as_their_json(
    folder: str, modules: dict[str, ModuleType]
) -> None:
    """Every recorded stream, its events as the client's objects, as JSON and as the objects'
    dumps, joins to the same calls (or the same drift), and the objects are read as they are."""
    provider, surface = STREAMS[folder]
    runtime = modules["_runtime"]
    read = getattr(modules[provider], f"read_{surface}")
    decoder = reading_decoder(provider, surface)
    make = sdk_object_maker(surface)
    read_as_is = 0
    for name, events in stream_events(folder):
        objects = [make(copy.deepcopy(event)) for event in events]
        expected = joined(decoder, events, runtime)
        assert joined(decoder, objects, runtime) == expected, name
        assert joined(decoder, [dump(o, runtime) for o in objects], runtime) == expected, name
        read_as_is += sum(read(o) is o for o in objects)
    if folder.split("/")[0] in SDK_FOLDERS:
        assert read_as_is, "no recorded event was read through its attributes"


@pytest.mark.parametrize("folder", READ_STREAM_FOLDERS)
def test_mutated_events_as_objects_decide_as_their_dump(
    folder: str, modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]
) -> None:
    """An event with a member retyped or removed, in its stream: the client's objects decide as
    their dumps (the same drift, or the same calls)."""
    provider, surface = STREAMS[folder]
    runtime = modules["_runtime"]
    decoder = reading_decoder(provider, surface)
    make = sdk_object_maker(surface)
    schema = schemas[provider]
    compared = drifted = 0
    streams = [(name, events) for name, events in stream_events(folder) if events]
    for name, events in spread(streams, MUTATED_EVENTS_PER_FOLDER):
        objects = [make(copy.deepcopy(e)) for e in events]
        wire = [dump(o, runtime) for o in objects]
        for position in sorted({0, len(events) // 2, len(events) - 1}):
            for path, kind, mutated in mutations(schema[surface], events[position]):
                try:
                    changed = make(mutated)
                except Exception:  # noqa: BLE001 - the client itself would refuse it
                    continue
                got = joined(
                    decoder, [*objects[:position], changed, *objects[position + 1 :]], runtime
                )
                dumps = [*wire[:position], dump(changed, runtime), *wire[position + 1 :]]
                assert got == joined(decoder, dumps, runtime), (name, position, kind, path)
                compared += 1
                drifted += isinstance(got, tuple) and got[0] == "drift"
    assert compared and drifted


def counting_dumps(patch: pytest.MonkeyPatch) -> list[str]:
    """The names of the classes whose objects ``model_dump`` is called on from now on (pydantic's
    own ``model_dump`` is wrapped: the classes still read as their wire form)."""
    dumped: list[str] = []
    original = BaseModel.model_dump

    def counted(self: BaseModel, *args: Any, **kwargs: Any) -> Any:
        dumped.append(type(self).__name__)
        return original(self, *args, **kwargs)

    patch.setattr(BaseModel, "model_dump", counted)
    return dumped


def test_bodies_as_objects_are_never_dumped(
    modules: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The official clients' responses (OpenAI, Anthropic, google-genai), read through their
    attributes: no ``model_dump`` of any of them while their calls are parsed."""
    folders = [f for f in READ_FOLDERS if f.split("/")[0] in SDK_FOLDERS]
    assert any(f.startswith("google") for f in folders)
    for folder in folders:
        provider, surface = BODIES[folder]
        make = sdk_object_maker(surface)
        parse = reading_decoder(provider, surface).parse_tool_calls
        for name, body in bodies(folder):
            sdk_object = make(copy.deepcopy(body))
            with monkeypatch.context() as patch:
                dumped = counting_dumps(patch)
                outcome(parse, sdk_object, modules["_runtime"])
            assert not dumped, (folder, name, sorted(set(dumped)))


def test_stream_events_as_objects_are_never_dumped(
    modules: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The official clients' events and chunks, read through their attributes: no
    ``model_dump`` of any of them while a stream joins its calls."""
    folders = [f for f in READ_STREAM_FOLDERS if f.split("/")[0] in SDK_FOLDERS]
    assert any(f.startswith("google") for f in folders)
    for folder in folders:
        provider, surface = STREAMS[folder]
        make = sdk_object_maker(surface)
        for name, events in stream_events(folder)[:5]:
            objects = [make(copy.deepcopy(event)) for event in events]
            stream = reading_decoder(provider, surface).stream()
            with monkeypatch.context() as patch:
                dumped = counting_dumps(patch)
                for event in objects:
                    stream.add(event)
                stream.tool_calls(raw_reader(stream, NAMES))
            assert not dumped, (folder, name, sorted(set(dumped)))


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


def validated(validate: Callable[[Any], Any], value: Any, runtime: ModuleType) -> Any:
    """What ``validate_<surface>`` decides: the value given back as it is, or the drift."""
    try:
        returned = validate(value)
    except runtime.SchemaDriftError as drift:
        return ("drift", drift.path, drift.expected, drift.actual)
    except TypeError as error:
        return ("TypeError", str(error))
    return "given back" if returned is value else ("another value", returned)


@pytest.mark.parametrize("folder", sorted({*READ_FOLDERS, *READ_STREAM_FOLDERS}))
def test_validate_returns_an_sdk_object_as_given_and_decides_as_its_dump(
    folder: str,
    modules: dict[str, ModuleType],
    schemas: dict[str, dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``validate_<surface>`` of the client's object gives the object itself back, with the
    drift decisions of its dump and of the raw JSON (recorded bodies or events, and some with a
    member retyped or removed); for the SDKs' own recordings, with no ``model_dump``."""
    provider, surface = {**BODIES, **STREAMS}[folder]
    runtime = modules["_runtime"]
    validate = getattr(modules[provider], f"validate_{surface}")
    make = sdk_object_maker(surface)
    values = (
        [body for _, body in bodies(folder)]
        if folder in BODIES
        else [event for _, events in stream_events(folder) for event in events]
    )
    drifted = 0
    for index, value in enumerate(values):
        sdk_object = make(copy.deepcopy(value))
        expected = validated(validate, value, runtime)
        if folder.split("/")[0] in SDK_FOLDERS:
            with monkeypatch.context() as patch:
                dumped = counting_dumps(patch)
                got = validated(validate, sdk_object, runtime)
            assert not dumped, (index, sorted(set(dumped)))
        else:
            got = validated(validate, sdk_object, runtime)
        assert got == validated(validate, dump(sdk_object, runtime), runtime), index
        assert got == expected == "given back", index
    for value in spread(values, MUTATED_BODIES_PER_FOLDER):
        for path, kind, mutated in mutations(schemas[provider][surface], value):
            try:
                sdk_object = make(mutated)
            except Exception:  # noqa: BLE001 - the client itself would refuse it
                continue
            got = validated(validate, sdk_object, runtime)
            assert got == validated(validate, dump(sdk_object, runtime), runtime), (kind, path)
            drifted += got != "given back"
    assert drifted or folder in READ_STREAM_FOLDERS
