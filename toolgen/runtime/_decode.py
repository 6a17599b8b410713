"""Typed decoding: a canonical payload validated into its model.

Provider modules decode calls through a ``TypedCalls`` (each call named, parsed, canonicalized
and validated as its decoder finds it: ``on_error="raise"``), or through ``_runtime.RawCalls``
and then ``TypedCalls.typed`` one call at a time, where failures are collected; errors name the
tool, the call id and the failing location, never values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Container, Mapping
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

from ._json import TOO_DEEP, JsonRefused, checked, checked_depth, loads, may_read_deeper
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


def location(
    loc: tuple[int | str, ...], payload: Any, declared: Container[str] | None = None
) -> str:
    """A pydantic error location as a path in the payload: ``items[0].name``.

    pydantic puts union member tags (``int``, ``Money``) into locations; a part is kept only when the
    payload has it (or when it is the last part, a missing member), so tags drop out. With
    ``declared`` (the member names the schema declares), a member name that is none of them (a
    map key, an extra member: text the model wrote) is shown by its position among the members
    of its object as sent, ``labels.<member at index 2>``, never as written.
    """
    path = ""
    current = payload
    for index, part in enumerate(loc):
        last = index == len(loc) - 1
        if isinstance(part, int) and isinstance(current, list) and 0 <= part < len(current):
            path, current = path + f"[{part}]", current[part]
        elif isinstance(part, str) and isinstance(current, dict) and (part in current or last):
            shown = part if declared is None or part in declared else _position(part, current)
            path, current = (f"{path}.{shown}" if path else shown), current.get(part)
    return path or "(root)"


def _position(name: str, members: dict[str, Any]) -> str:
    """How a location shows a member name the schema does not declare: its position."""
    for position, member in enumerate(members):
        if member == name:
            return f"<member at index {position}>"
    return "<undeclared member>"


#: model -> the member names its schema declares, at any depth (``declared_names``)
_DECLARED: dict[type[BaseModel], frozenset[str]] = {}


def declared_names(model: type[BaseModel]) -> frozenset[str]:
    """Every member name ``model`` and the models inside it declare (aliases and field names):
    text of the schema, which an error may show. Read from the model's core schema once."""
    found = _DECLARED.get(model)
    if found is None:
        names: set[str] = set()
        seen: set[int] = set()
        stack: list[Any] = [model.__pydantic_core_schema__]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, dict):
                if node.get("type") == "model-fields":
                    for name, field in node["fields"].items():
                        names.add(name)
                        names.update(_alias_names(field.get("validation_alias")))
                stack.extend(node.values())
            elif isinstance(node, list | tuple):
                stack.extend(node)
        found = _DECLARED[model] = frozenset(names)
    return found


def _alias_names(alias: Any) -> list[str]:
    """The names of a field's ``validation_alias`` in a core schema (a name, or lists of them)."""
    if isinstance(alias, str):
        return [alias]
    if isinstance(alias, list):
        return [name for part in alias for name in _alias_names(part)]
    return []


def _validation_message(
    error: ValidationError, payload: Any, declared: Container[str] | None = None
) -> tuple[str, str]:
    """(location, message) of the first error; pydantic's ``msg`` carries no input value. A
    pattern the models enforce for a ``format`` is named by its format (``_formats``), never
    shown as toolgen's regular expression."""
    details = error.errors(include_url=False, include_input=False)
    first = details[0]
    more = f" (and {len(details) - 1} more)" if len(details) > 1 else ""
    where = location(tuple(first["loc"]), payload, declared)
    message = first["msg"]
    if first["type"] == "string_pattern_mismatch":
        from ._formats import format_message  # the table is read on a refusal only

        message = format_message(str(first.get("ctx", {}).get("pattern", ""))) or message
    return where, f"{message} [{first['type']}]{more}"


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


def _validate(model: type[M], payload: Any, *, provider: str, tool: str) -> M:
    """A structured output's model instance, or its PayloadError (code ``INVALID_OUTPUT``)."""
    try:
        return model.model_validate(payload)
    except ValidationError as error:
        raise _invalid(error, model, payload, provider, tool, "", "INVALID_OUTPUT") from error
    except RecursionError:
        raise _too_deep(provider, tool, "", "INVALID_OUTPUT") from None


def _invalid(
    error: ValidationError,
    model: type[BaseModel],
    payload: Any,
    provider: str,
    tool: str,
    call_id: str,
    code: str,
) -> PayloadError:
    """The PayloadError of a payload ``model`` refused: ``code`` says whether it was a call's
    arguments or a structured output (a call's id may be empty: generateContent's calls have none)."""
    where, message = _validation_message(error, payload, declared_names(model))
    return PayloadError(
        provider=provider, tool=tool, call_id=call_id, location=where, reason=message, code=code
    )


def _too_deep(provider: str, tool: str, call_id: str, code: str) -> PayloadError:
    """A payload the model could not walk (a RecursionError): refused as ``_json`` refuses one."""
    return PayloadError(
        provider=provider,
        tool=tool,
        call_id=call_id,
        location="(root)" if code == "INVALID_OUTPUT" else "arguments",
        reason=TOO_DEEP,
        code=code,
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

    def from_text(
        self,
        call_id: str,
        provider_name: str,
        raw_arguments: str,
        seen: set[str] | None = None,
    ) -> ToolCall[str, Any]:
        name, arguments = self.canonical_from_text(call_id, provider_name, raw_arguments, seen)
        return self._typed(call_id, name, provider_name, arguments, "raw_arguments", raw_arguments)

    def from_object(
        self,
        call_id: str,
        provider_name: str,
        arguments: dict[str, Any],
        seen: set[str] | None = None,
        *,
        checked_already: bool = False,
    ) -> ToolCall[str, Any]:
        name, canonical = self.canonical_from_object(
            call_id, provider_name, arguments, checked_already, seen
        )
        # raw_arguments is written from what was sent when first read (written_raw_arguments)
        return self._typed(call_id, name, provider_name, canonical, SENT, arguments)

    def unusable(
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
            raise _invalid(
                error, model, arguments, self.provider, name, call_id, "INVALID_ARGUMENTS"
            ) from error
        except RecursionError:
            raise _too_deep(self.provider, name, call_id, "INVALID_ARGUMENTS") from None
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
        if canonical is not parsed and (not isinstance(data, str | bytes) or may_read_deeper(data)):
            checked_depth(canonical)  # JSON text the inverse read, where it sits
    except RecursionError:
        raise _too_deep(provider, name, "", "INVALID_OUTPUT") from None
    except ValueError as error:  # it breaks an encoding of the projection, or a limit
        raise PayloadError(
            provider=provider,
            tool=name,
            call_id="",
            location="(root)",
            reason=str(error),
            code="INVALID_OUTPUT",
        ) from error
    return _validate(model, canonical, provider=provider, tool=name)


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
