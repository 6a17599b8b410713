"""Typed decoding: a canonical payload validated into its model.

Provider modules decode calls through a ``TypedCalls`` (each call named, parsed, canonicalized
and validated as its decoder finds it: ``on_error="raise"``), or through ``_runtime.RawCalls``
and then ``TypedCalls.typed`` one call at a time, where failures are collected; errors name the
tool, the call id and the failing location, never values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Generic,
    Protocol,
    TypeAlias,
    TypeVar,
    cast,
)

from pydantic import BaseModel, ValidationError, model_validator

from ._json import JsonRefused, checked, loads
from ._runtime import (
    SENT,
    CallReader,
    PayloadError,
    RawToolCall,
    json_value,
    written_raw_arguments,
)

M = TypeVar("M", bound=BaseModel)
N = TypeVar("N", bound=str)

Canonicalize = Callable[[Any], Any]
#: how a frozen dataclass sets its own attributes
_set_attribute: Final = object.__setattr__
_new: Final = object.__new__


class SupportsModelDump(Protocol):
    """A pydantic-style object (the SDKs' response types)."""

    def model_dump(self) -> Any: ...


class SupportsToDict(Protocol):
    """An object of the official SDKs (``to_dict()`` gives its JSON value)."""

    def to_dict(self) -> Any: ...


#: What ``parse_output`` takes: JSON text, the parsed object, or an SDK object; never None.
OutputData: TypeAlias = str | bytes | Mapping[str, Any] | SupportsModelDump | SupportsToDict


@dataclass(frozen=True, init=False)
class ToolCall(Generic[N, M]):
    """One tool call, decoded: ``name`` is the canonical name, ``arguments`` the model instance,
    ``raw_arguments`` the text the provider sent (kept for replay).

    The provider modules type their calls as a union with one ``ToolCall[Literal[name], Model]``
    per tool (``AnyToolCall``), so ``if call.name == "billing.refund":`` narrows ``arguments``.
    """

    id: str
    name: N
    arguments: M
    raw_arguments: str
    #: the tool's name as the provider sent it (what a replayed call and a function response carry)
    wire_name: str

    def __init__(
        self,
        id: str,
        name: N,
        arguments: M,
        raw_arguments: str,
        wire_name: str,
    ) -> None:
        # one instance dict, not one object.__setattr__ per field (see RawToolCall)
        _set_attribute(
            self,
            "__dict__",
            {
                "id": id,
                "name": name,
                "arguments": arguments,
                "raw_arguments": raw_arguments,
                "wire_name": wire_name,
            },
        )

    if not TYPE_CHECKING:  # for mypy, raw_arguments is the field above and nothing else is

        def __getattr__(self, name: str) -> Any:
            return written_raw_arguments(self, name)


def location(loc: tuple[int | str, ...], payload: Any) -> str:
    """A pydantic error location as a path in the payload: ``items[0].name``.

    pydantic puts union member tags (``int``, ``Money``) into locations; a part is kept only when the
    payload has it (or when it is the last part, a missing member), so tags drop out.
    """
    path = ""
    current = payload
    for index, part in enumerate(loc):
        last = index == len(loc) - 1
        if isinstance(part, int) and isinstance(current, list) and 0 <= part < len(current):
            path, current = path + f"[{part}]", current[part]
        elif isinstance(part, str) and isinstance(current, dict) and (part in current or last):
            path, current = (f"{path}.{part}" if path else part), current.get(part)
    return path or "(root)"


def _validation_message(error: ValidationError, payload: Any) -> tuple[str, str]:
    """(location, message) of the first error; pydantic's ``msg`` carries no input value."""
    details = error.errors(include_url=False, include_input=False, include_context=False)
    first = details[0]
    more = f" (and {len(details) - 1} more)" if len(details) > 1 else ""
    return location(tuple(first["loc"]), payload), f"{first['msg']} [{first['type']}]{more}"


def _parsed_output(provider: str, name: str, data: object) -> Any:
    """The JSON value of an output given as text, as a parsed value or as an SDK object, within
    the limits of ``_json`` (PayloadError naming the rule it breaks)."""
    try:
        return loads(data) if isinstance(data, str | bytes) else checked(json_value(data))
    except JsonRefused as refused:
        reason = refused.reason
    raise PayloadError(
        provider=provider,
        tool=name,
        call_id="",
        location="(root)",
        reason=reason,
        code="INVALID_OUTPUT",
    )


def _validate(model: type[M], payload: Any, *, provider: str, tool: str, call_id: str) -> M:
    try:
        return model.model_validate(payload)
    except ValidationError as error:
        raise _invalid(error, payload, provider, tool, call_id) from error


def _invalid(
    error: ValidationError, payload: Any, provider: str, tool: str, call_id: str
) -> PayloadError:
    where, message = _validation_message(error, payload)
    return PayloadError(
        provider=provider,
        tool=tool,
        call_id=call_id,
        location=where,
        reason=message,
        code="INVALID_ARGUMENTS" if call_id else "INVALID_OUTPUT",
    )


class TypedCalls(CallReader[ToolCall[str, Any]]):
    """Each call typed as it is found (``model_for("tool", name)`` validates its canonical
    arguments); a call that is unusable raises its PayloadError, as ``on_error="raise"`` wants.
    A response decodes in one pass: no RawToolCall, and no second loop, per call."""

    __slots__ = ("_model_for", "_models")

    def __init__(
        self,
        provider: str,
        canonical_names: Mapping[str, str],
        canonicalize: Callable[[str, Any], Any] | None,
        model_for: Callable[[str, str], type[BaseModel]],
    ) -> None:
        super().__init__(provider, canonical_names, canonicalize)
        self._model_for = model_for
        #: the tool models ``model_for`` gave so far, by canonical name
        self._models: dict[str, type[BaseModel]] = {}

    def from_text(self, call_id: str, provider_name: str, raw_arguments: str) -> ToolCall[str, Any]:
        name, arguments = self.canonical_from_text(call_id, provider_name, raw_arguments)
        return self._typed(call_id, name, provider_name, arguments, "raw_arguments", raw_arguments)

    def from_object(
        self,
        call_id: str,
        provider_name: str,
        arguments: dict[str, Any],
        *,
        checked_already: bool = False,
    ) -> ToolCall[str, Any]:
        name, canonical = self.canonical_from_object(
            call_id, provider_name, arguments, checked_already
        )
        # raw_arguments is written from what was sent when first read (written_raw_arguments)
        return self._typed(call_id, name, provider_name, canonical, SENT, arguments)

    def failed(
        self, error: PayloadError, call_id: str, provider_name: str, raw_arguments: str
    ) -> ToolCall[str, Any]:
        raise error

    def typed(self, call: RawToolCall) -> ToolCall[str, Any]:
        """The ToolCall of a call ``RawCalls`` read (while failures are collected); a
        ``raw_arguments`` not written yet stays unwritten (``written_raw_arguments``)."""
        members = call.__dict__
        sent_as = "raw_arguments" if "raw_arguments" in members else SENT
        return self._typed(
            call.id, call.name, call.provider_name, call.arguments, sent_as, members[sent_as]
        )

    def _typed(
        self, call_id: str, name: str, provider_name: str, arguments: Any, sent_as: str, sent: Any
    ) -> ToolCall[str, Any]:
        model = self._models.get(name)
        if model is None:
            model = self._models[name] = self._model_for("tool", name)
        try:
            # what model_validate calls, without its frame
            instance = model.__pydantic_validator__.validate_python(arguments)
        except ValidationError as error:
            raise _invalid(error, arguments, self.provider, name, call_id) from error
        call: ToolCall[str, Any] = _new(ToolCall)
        _set_attribute(
            call,
            "__dict__",
            {
                "id": call_id,
                "name": name,
                "arguments": instance,
                "wire_name": provider_name,
                sent_as: sent,
            },
        )
        return call


def decode_output(
    provider: str,
    name: str,
    data: str | bytes | Any,
    canonicalize: Canonicalize,
    model: type[M],
) -> M:
    """A structured output: JSON text (or an already parsed value) -> canonical payload -> model.

    Raises PayloadError with ``tool`` set to the output's canonical name and an empty call id.
    """
    parsed = _parsed_output(provider, name, data)
    try:
        canonical = canonicalize(parsed)
    except ValueError as error:  # it breaks an encoding of the projection
        raise PayloadError(
            provider=provider,
            tool=name,
            call_id="",
            location="(root)",
            reason=str(error),
            code="INVALID_OUTPUT",
        ) from error
    return _validate(model, canonical, provider=provider, tool=name, call_id="")


def projected_model(
    model: type[M], name: str, description: str, schema: dict[str, Any], canonicalize: Canonicalize
) -> type[M]:
    """A subclass of ``model`` for the SDKs' helpers (``pydantic_function_tool``,
    ``chat.completions.parse``, ``responses.parse``): its JSON schema is the provider's
    projection ``schema`` (a fresh copy each time: the helpers edit it in place), its name is the
    provider's name and its docstring the description; validation first applies the inverse
    ``canonicalize``, so the nulls strict mode forced become absent members again."""

    class Projected(model):  # type: ignore[misc,valid-type]
        @model_validator(mode="before")
        @classmethod
        def toolgen_inverse(cls, data: Any) -> Any:
            return canonicalize(data) if isinstance(data, dict) else data

        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return copy.deepcopy(schema)

    Projected.__name__ = Projected.__qualname__ = name
    Projected.__doc__ = description
    Projected.__module__ = model.__module__
    return cast("type[M]", Projected)  # a subclass of model: type checkers cannot see through it


def output_data(name: str, data: OutputData) -> OutputData:
    """``data`` for ``decode_output``; None is a TypeError (no structured output is null, and the
    signatures reject it: this is for callers that are not type-checked)."""
    if data is None:
        raise TypeError(
            f"parse_output({name!r}, None): expected JSON text, a parsed object or an SDK object"
        )
    return data
