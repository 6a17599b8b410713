"""google-genai's objects read through their attributes (``Api.sdk_objects == "genai"``): the
values that are no JSON value (enum members, bytes, datetimes, models for free-form objects),
the members the SDK does not declare, and the arguments that are no JSON (NaN) decide as the
object's dump does; the decoders read no member the SDK types as anything but a JSON value."""

from __future__ import annotations

import copy
import datetime
import enum
import importlib
import typing
import warnings
from types import ModuleType
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from tests.envelope.support import PACKAGE, bodies, stream_events
from tests.envelope.test_sdk_objects import dump, joined, outcome, reading_decoder
from toolgen.compile.validators.object_compiler import attribute_name
from toolgen.runtime import _generate_content

pytestmark = pytest.mark.corpus
types = pytest.importorskip("google.genai.types", reason="google-genai is in the dev extras")

BODY_FOLDER = "google-gla/generate-content"
STREAM_FOLDER = "google-gla/generate-content-stream"


def genai_object(value: Any) -> Any:
    with warnings.catch_warnings():  # an enum value the SDK does not know warns
        warnings.simplefilter("ignore")
        return types.GenerateContentResponse._from_response(
            response=copy.deepcopy(value), kwargs={}
        )


def with_calls(folder_bodies: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [
        (name, body)
        for name, body in folder_bodies
        if any(
            "functionCall" in part
            for candidate in body.get("candidates", ())
            for part in candidate.get("content", {}).get("parts", ())
        )
    ]


def test_attribute_names() -> None:
    assert attribute_name("functionCall") == "function_call"
    assert attribute_name("toolUsePromptTokensDetails") == "tool_use_prompt_tokens_details"
    for name in ("id", "partial_json", "URL", "x-y", "content_block"):
        assert attribute_name(name) == name


def test_a_response_whose_args_are_no_json_is_read_as_its_dump(
    modules: dict[str, ModuleType],
) -> None:
    """NaN in ``args`` (Python's JSON reader takes it): the dump writes null, so the object is
    read as its dump (not refused as it would be as raw JSON)."""
    runtime = modules["_runtime"]
    parse = reading_decoder("gemini", "generate_content").parse_tool_calls
    tried = 0
    for name, body in with_calls(bodies(BODY_FOLDER))[:5]:
        changed = copy.deepcopy(body)
        for candidate in changed["candidates"]:
            for part in candidate["content"]["parts"]:
                if "functionCall" in part:
                    part["functionCall"]["args"] = {"x": float("nan"), "y": [1, float("inf")]}
        sdk_object = genai_object(changed)
        got = outcome(parse, sdk_object, runtime)
        assert got == outcome(parse, dump(sdk_object, runtime), runtime), name
        assert got != outcome(parse, changed, runtime), name  # raw JSON: a payload error
        assert [call[3] for call in got] == [{"x": None, "y": [1, None]}] * len(got)
        tried += 1
    assert tried


def test_a_stream_whose_args_are_no_json_is_read_as_its_dump(
    modules: dict[str, ModuleType],
) -> None:
    runtime = modules["_runtime"]
    decoder = reading_decoder("gemini", "generate_content_chunk")
    tried = 0
    for name, events in stream_events(STREAM_FOLDER):
        changed = copy.deepcopy(events)
        calls = [
            part["functionCall"]
            for event in changed
            for candidate in event.get("candidates", ())
            for part in candidate.get("content", {}).get("parts", ())
            if "functionCall" in part and "args" in part["functionCall"]
        ]
        if not calls:
            continue
        calls[0]["args"] = {"x": float("nan")}
        objects = [genai_object(event) for event in changed]
        got = joined(decoder, objects, runtime)
        assert got == joined(decoder, [dump(o, runtime) for o in objects], runtime), name
        assert not isinstance(got, tuple), got
        tried += 1
    assert tried


def test_values_richer_than_json_are_read_as_they_are(modules: dict[str, ModuleType]) -> None:
    """An enum value the SDK does not know (a pseudo-member), a thought signature (bytes), a
    create time (datetime), inline data (a Blob model): read through the attributes, and the same
    calls as the dump."""
    runtime = modules["_runtime"]
    read = modules["gemini"].read_generate_content
    parse = reading_decoder("gemini", "generate_content").parse_tool_calls
    name, body = with_calls(bodies(BODY_FOLDER))[0]
    changed = copy.deepcopy(body)
    changed["createTime"] = "2026-12-04T20:00:00.123456Z"
    candidate = changed["candidates"][0]
    candidate["finishReason"] = "A_REASON_NOT_YET_KNOWN"
    candidate["content"]["parts"][0]["thoughtSignature"] = "c2lnbmF0dXJl"
    candidate["content"]["parts"].append({"inlineData": {"mimeType": "image/png", "data": "AAAA"}})
    sdk_object = genai_object(changed)
    assert isinstance(sdk_object.create_time, datetime.datetime)
    assert isinstance(sdk_object.candidates[0].finish_reason, enum.Enum)
    assert type(sdk_object.candidates[0].content.parts[0].thought_signature) is bytes
    assert read(sdk_object) is sdk_object, name
    got = outcome(parse, sdk_object, runtime)
    assert (
        got
        == outcome(parse, dump(sdk_object, runtime), runtime)
        == outcome(parse, changed, runtime)
    )


class _Reason(enum.Enum):  # no str mixin: `==` does not read it as its text
    STOP = "STOP"


class _Named(str, enum.Enum):  # noqa: UP042 - the mixin of google-genai's enums
    STOP = "stop-value"


def test_wire_string_and_wire_object(modules: dict[str, ModuleType]) -> None:
    attributes = importlib.import_module(f"{PACKAGE}._attributes")
    assert attributes.wire_string(types.FinishReason.STOP)
    assert attributes.wire_string(_Named.STOP)
    assert not attributes.wire_string(_Reason.STOP)
    assert attributes.wire_string(datetime.datetime(2026, 12, 4))
    assert attributes.wire_string(b"\x00")
    for value in (1, 1.5, None, [], {}, object()):
        assert not attributes.wire_string(value)
    assert attributes.wire_object(types.Blob(data=b"x"))
    assert not attributes.wire_object({"a": 1})  # tested as a dict before

    class Serialized(BaseModel):
        from pydantic import model_serializer

        @model_serializer
        def _text(self) -> str:
            return "text"

    assert not attributes.wire_object(Serialized())


class _Bytes(BaseModel):
    signature: bytes | None = None


class _BytesAsText(_Bytes):
    model_config = ConfigDict(ser_json_bytes="base64")


class _Forbid(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = None


class _Allow(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str | None = None


def test_admission_of_bytes_and_of_undeclared_members(modules: dict[str, ModuleType]) -> None:
    attributes = importlib.import_module(f"{PACKAGE}._attributes")
    table = attributes.admitted_classes(("signature",), ("signature",))
    assert not attributes.admit(_Bytes(signature=b"\xff"), table)  # its dump refuses non-UTF-8
    assert attributes.admit(_BytesAsText(signature=b"\xff"), table)
    optional = attributes.admitted_classes(("name", "tier"), ("tier",))
    assert attributes.admit(_Forbid(name="a"), optional)  # never has ``tier``, nor its dump
    assert not attributes.admit(_Allow(name="a"), optional)  # keeps ``tier`` as an extra
    required = attributes.admitted_classes(("name", "tier"), ("name",))
    assert not attributes.admit(_Forbid(name="a"), required)
    camel = attributes.admitted_classes(("function_call",), ("function_call",), ("functionCall",))
    assert attributes.admit(types.Part(), camel)
    assert not attributes.admit(types.Part(), attributes.admitted_classes(("function_call",), ()))


_PLAIN = (str, int, float, bool, type(None))


def _plain(annotation: Any) -> bool:
    """A JSON value with no richer Python type: str, numbers, bool, None, a Literal of strings,
    a dict of Any, or a list of models (walked on)."""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return all(isinstance(a, str) for a in typing.get_args(annotation))
    if origin is dict:
        return True
    if origin in (typing.Union, list) or str(origin) == "<class 'types.UnionType'>":
        return all(_plain(a) for a in typing.get_args(annotation))
    return annotation in _PLAIN or (
        isinstance(annotation, type) and issubclass(annotation, BaseModel)
    )


def test_the_decoders_read_only_plain_members_of_the_genai_objects() -> None:
    """What the generateContent decoders read (``READS``) is, in google-genai's classes, a JSON
    value with no richer type (an enum member, bytes or a datetime would be read as it is, and
    differ from its dump)."""
    roots = {
        "generate_content": types.GenerateContentResponse,
        "generate_content_chunk": types.GenerateContentResponse,
    }
    checked_paths = 0
    for surface, path, _ in _generate_content.READS:
        cls: Any = roots[surface]
        steps = [s.rstrip("?") for s in path.split(".") if s != "[]"]
        for position, step in enumerate(steps):
            field = cls.model_fields[attribute_name(step)]
            assert _plain(field.annotation), (path, step, field.annotation)
            if position < len(steps) - 1:
                models = [
                    a
                    for a in typing.get_args(field.annotation)
                    + tuple(
                        a for b in typing.get_args(field.annotation) for a in typing.get_args(b)
                    )
                    if isinstance(a, type) and issubclass(a, BaseModel)
                ]
                cls = models[0]
        checked_paths += 1
    assert checked_paths == len(_generate_content.READS)
