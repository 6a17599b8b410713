"""Errors, drift hooks and small helpers shared by the generated provider modules.

Errors never carry response values: a drift names the provider, the API surface, the path and two
type names; a payload error names the tool, the call id and where the payload is wrong.
"""

from __future__ import annotations

import hashlib
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from math import isfinite, isnan
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

from ._json import TOO_DEEP, JsonRefused, checked, checked_depth, dumps, read

__all__ = [
    "MISSING",
    "SENT",
    "CallReader",
    "Canonicalize",
    "Decoded",
    "Event",
    "FragmentJoiner",
    "OnFirstUse",
    "PayloadError",
    "RawCalls",
    "RawToolCall",
    "SchemaDriftError",
    "ToolCallAccumulator",
    "ToolCallDecoder",
    "ToolCallFragments",
    "ValidatingDecoder",
    "Validator",
    "collecting_failures",
    "drift_warning",
    "failed_call",
    "finite_float",
    "finite_or_none",
    "first_use",
    "first_valid",
    "first_valid_async",
    "integral_float",
    "integral_or_none",
    "json_type_name",
    "json_value",
    "on_schema_drift",
    "remove_schema_drift_hook",
    "schema_drift",
    "value_digest",
    "wire_form",
    "written_raw_arguments",
]

_log = logging.getLogger(__name__)
#: how a frozen dataclass sets its own attributes
_set_attribute: Final = object.__setattr__
_new: Final = object.__new__
_T = TypeVar("_T")
#: what a CallReader makes of a call (RawToolCall, ToolCall)
Decoded = TypeVar("Decoded")
#: the chunk or event a ``ToolCallStream.add`` is given, and returns
Event = TypeVar("Event")
DriftHook = Callable[["SchemaDriftError"], object]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: What an absent member reads as in the validators; its type name is ``missing``.
MISSING: Final[Any] = _Missing()


def json_type_name(value: object) -> str:
    """The JSON type name of ``value`` (never the value itself)."""
    if type(value) is str:
        return "string"
    if type(value) is int:
        return "integer"
    if type(value) is float:
        return "number" if isfinite(value) else ("NaN" if isnan(value) else "Infinity")
    if type(value) is bool:
        return "boolean"
    if value is None:
        return "null"
    if type(value) is dict:
        return "object"
    if type(value) is list:
        return "array"
    if value is MISSING:
        return "missing"
    return f"non-JSON {type(value).__name__}"


def integral_float(value: object) -> bool:
    """A float with no fraction: an integer in JSON (the validators test ``type(x) is int`` first)."""
    return type(value) is float and value.is_integer()


def finite_float(value: object) -> bool:
    """A float that is not NaN or an infinity: a number in JSON."""
    return type(value) is float and isfinite(value)


def integral_or_none(value: object) -> bool:
    """None or an integral float (the validators test ``type(x) is int`` first)."""
    return value is None or (type(value) is float and value.is_integer())


def finite_or_none(value: object) -> bool:
    """None or a finite float (the validators test ``type(x) is int`` first)."""
    return value is None or (type(value) is float and isfinite(value))


_JSON_TYPES: Final = frozenset({dict, list, str, int, float, bool, type(None)})


def json_value(data: object) -> Any:
    """``data`` as the JSON value a decoder reads; every entry point that takes a response, a chunk,
    an event or an output calls it.

    Raw JSON (a dict, list, str, number, bool or None) comes back as it is. An SDK object (any
    pydantic-style object, such as those of the official SDKs) comes back as its
    wire form: ``model_dump(mode="json", by_alias=True, exclude_unset=True)``, which leaves out the
    members the response did not have, else ``to_dict()``. Anything else raises TypeError: a
    programming error, not drift, so no drift hook sees it. Only the outermost value is converted;
    what lies inside a dict is checked by the validators.
    """
    if type(data) in _JSON_TYPES:
        return data
    model_dump = getattr(data, "model_dump", None)
    to_dict = getattr(data, "to_dict", None)
    try:
        if callable(model_dump):
            converted = model_dump(mode="json", by_alias=True, exclude_unset=True, warnings=False)
        elif callable(to_dict):
            converted = to_dict()
        else:
            raise TypeError(
                "expected a JSON value or an object with model_dump() or to_dict(), "
                f"got {type(data).__name__}"
            )
    except (ValueError, RecursionError) as error:  # a value its serializer refuses (too deep ...)
        raise TypeError(
            f"{type(data).__name__} did not convert to a JSON value ({type(error).__name__})"
        ) from None
    if type(converted) not in _JSON_TYPES:
        raise TypeError(f"{type(data).__name__} did not convert to a JSON value")
    return converted


def wire_form(validate: Validator) -> Validator:
    """``validate`` given the JSON form of what it checks (``json_value``: an SDK object's dump):
    for the decoders and tool loops that read a response as JSON, now that ``validate_<surface>``
    returns an SDK object as given (those that read the objects take ``read_<surface>``)."""

    def validate_json(data: object) -> Any:
        return validate(json_value(data))

    return validate_json


#: the largest index a path shows; a larger one (a response value) shows as ``[?]``
_SHOWN_INDEX: Final = 2**53


def format_path(path: Iterable[object]) -> str:
    """``choices[0].message.content`` from ``("choices", 0, "message", "content")``.

    An index is any value the envelope accepts as an integer (an integral float: ``0.0`` shows
    as ``[0]``); one that is no integer of at most 2**53 shows as ``[?]``.
    """
    text = ""
    for part in path:
        if isinstance(part, str):
            if part.isidentifier():
                text += f".{part}" if text else part
            else:
                text += f"[{json.dumps(part)}]"
        else:
            text += f"[{_index_text(part)}]"
    return text


def _index_text(part: object) -> str:
    if isinstance(part, bool) or not isinstance(part, int | float):
        return "?"
    if isinstance(part, float) and not part.is_integer():
        return "?"
    return str(int(part)) if abs(part) <= _SHOWN_INDEX else "?"


class SchemaDriftError(Exception):
    """A provider response no longer has the shape its envelope schema describes.

    A fallback signal: ``first_valid`` moves on to the next provider when it sees one.
    """

    code: Final = "SCHEMA_DRIFT"

    def __init__(
        self, provider: str, api: str, path: str, expected: str, actual: str, level: str = "error"
    ) -> None:
        super().__init__(provider, api, path, expected, actual)
        self.provider = provider
        self.api = api
        self.path = path
        self.expected = expected
        self.actual = actual
        #: "error" when raised; "warning" when only reported to the drift hooks (the response was
        #: still read, in a more tolerant way)
        self.level = level

    def __str__(self) -> str:
        return (
            f"{self.provider} {self.api} response drifted from its envelope schema at "
            f"{self.path or '(root)'}: expected {self.expected}, got {self.actual}"
        )

    def __repr__(self) -> str:
        return (
            f"SchemaDriftError(provider={self.provider!r}, api={self.api!r}, path={self.path!r}, "
            f"expected={self.expected!r}, actual={self.actual!r})"
        )

    def to_dict(self) -> dict[str, str]:
        return {
            "code": self.code,
            "provider": self.provider,
            "api": self.api,
            "path": self.path,
            "expected": self.expected,
            "actual": self.actual,
        }


#: ``PayloadError.for_model()`` stays shorter than this (it is spent in the model's context)
_FOR_MODEL_LIMIT: Final = 300


class PayloadError(ValueError):
    """A tool call that cannot be used: malformed arguments, or a tool not in the design."""

    def __init__(
        self, provider: str, tool: str, call_id: str, location: str, reason: str, code: str
    ) -> None:
        super().__init__(provider, tool, call_id, location, reason, code)
        self.provider = provider
        self.tool = tool
        self.call_id = call_id
        self.location = location
        self.reason = reason
        self.code = code

    def __str__(self) -> str:
        return (
            f"{self.provider} call {self.call_id!r} of tool {self.tool!r}: "
            f"{self.location}: {self.reason}"
        )

    def __repr__(self) -> str:
        return (
            f"PayloadError(provider={self.provider!r}, tool={self.tool!r}, "
            f"call_id={self.call_id!r}, location={self.location!r}, code={self.code!r})"
        )

    def for_model(self) -> str:
        """What the model is told about this call so it can retry: the canonical path and the rule
        broken, under 300 characters, with no value from elsewhere (never the arguments)."""
        if self.code == "UNKNOWN_TOOL":
            text = "No tool has the name this call used. Call one of the tools you were given."
        elif self.code == "DUPLICATE_CALL_ID":
            text = (
                "The call was not run: an earlier call of the same turn has its id. "
                "Call the tool again if the call is still needed."
            )
        else:
            where = "the arguments" if self.location == "(root)" else f"arguments.{self.location}"
            text = (
                f"The call was not run. {where}: {self.reason}. "
                "Call the tool again with arguments that follow its schema."
            )
        return text if len(text) < _FOR_MODEL_LIMIT else text[: _FOR_MODEL_LIMIT - 4] + " ..."

    def to_dict(self) -> dict[str, str]:
        return {
            "code": self.code,
            "provider": self.provider,
            "tool": self.tool,
            "call_id": self.call_id,
            "location": self.location,
            "reason": self.reason,
        }


_drift_hooks: list[DriftHook] = []
#: set while a hook runs in this thread or task: drift found inside a hook (one that decodes the
#: drifted data itself) is raised to the hook as usual but reported to no hook again
_in_hook: ContextVar[bool] = ContextVar("toolgen_in_drift_hook", default=False)


def on_schema_drift(callback: DriftHook) -> DriftHook:
    """Call ``callback`` with every SchemaDriftError the validators raise (usable as a decorator).

    A hook that raises is logged and ignored: observing drift never breaks the request path.
    """
    _drift_hooks.append(callback)
    return callback


def remove_schema_drift_hook(callback: DriftHook) -> None:
    if callback in _drift_hooks:
        _drift_hooks.remove(callback)


def _notify(callback: DriftHook, error: SchemaDriftError) -> None:
    token = _in_hook.set(True)
    try:
        callback(error)
    except Exception:  # noqa: BLE001 - a failing hook must never break the request path
        _log.warning("schema drift hook %r failed", callback, exc_info=True)
    finally:
        _in_hook.reset(token)


def _report(error: SchemaDriftError) -> SchemaDriftError:
    """``error`` after every drift hook has seen it (none when a hook is running already)."""
    if not _in_hook.get():
        for callback in tuple(_drift_hooks):
            _notify(callback, error)
    return error


def schema_drift(
    provider: str, api: str, path: Iterable[str | int], expected: str, value: object
) -> SchemaDriftError:
    """The error for ``value`` found at ``path``, after every drift hook has seen it."""
    return _report(
        SchemaDriftError(provider, api, format_path(path), expected, json_type_name(value))
    )


def drift_warning(
    provider: str, api: str, path: Iterable[str | int], expected: str, actual: str
) -> SchemaDriftError:
    """A warning-level drift (``level == "warning"``), after every drift hook has seen it: the
    response is read anyway, in a more tolerant way. Never raised; ``actual`` names what was
    found (a kind, never a response value)."""
    return _report(SchemaDriftError(provider, api, format_path(path), expected, actual, "warning"))


def first_valid(attempts: Iterable[Callable[[], _T]], *, on_drift: DriftHook | None = None) -> _T:
    """The result of the first attempt that does not raise SchemaDriftError.

    Attempts (zero-argument callables, typically a provider call that validates its response) run in
    order; ``on_drift`` sees each drift before the next attempt; any other exception propagates at
    once. When every attempt drifts, the last drift is raised.
    """
    last: SchemaDriftError | None = None
    for attempt in attempts:
        try:
            return attempt()
        except SchemaDriftError as drift:
            last = drift
            if on_drift is not None:
                _notify(on_drift, drift)
    if last is None:
        raise ValueError("first_valid needs at least one attempt")
    raise last


async def first_valid_async(
    attempts: Iterable[Callable[[], Awaitable[_T]]], *, on_drift: DriftHook | None = None
) -> _T:
    """``first_valid`` for coroutine functions."""
    last: SchemaDriftError | None = None
    for attempt in attempts:
        try:
            return await attempt()
        except SchemaDriftError as drift:
            last = drift
            if on_drift is not None:
                _notify(on_drift, drift)
    if last is None:
        raise ValueError("first_valid_async needs at least one attempt")
    raise last


@dataclass(frozen=True, init=False)
class RawToolCall:
    """One tool call of a validated response: canonical name, decoded canonical arguments."""

    id: str
    name: str
    provider_name: str
    arguments: Any
    raw_arguments: str
    #: set only while failures are collected (``collecting_failures``): why the call is unusable
    error: PayloadError | None = None

    def __init__(
        self,
        id: str,
        name: str,
        provider_name: str,
        arguments: Any,
        raw_arguments: str,
        error: PayloadError | None = None,
    ) -> None:
        # the frozen dataclass's own __init__ sets each field through object.__setattr__;
        # one instance dict is a third cheaper, and one is built per call
        _set_attribute(
            self,
            "__dict__",
            {
                "id": id,
                "name": name,
                "provider_name": provider_name,
                "arguments": arguments,
                "raw_arguments": raw_arguments,
                "error": error,
            },
        )

    if not TYPE_CHECKING:  # for mypy, raw_arguments is the field above and nothing else is

        def __getattr__(self, name: str) -> Any:
            return written_raw_arguments(self, name)


#: where a call whose arguments arrived parsed keeps them until ``raw_arguments`` is first read
SENT: Final = "_sent"


def written_raw_arguments(call: object, name: str) -> str:
    """``raw_arguments`` of a call (RawToolCall, ToolCall) whose arguments arrived parsed: their
    compact JSON text, written on first read (most calls are never replayed, and writing it is
    as costly as checking it) and kept; any other missing attribute is an AttributeError."""
    members = call.__dict__
    if name != "raw_arguments" or SENT not in members:
        raise AttributeError(f"{type(call).__name__!r} object has no attribute {name!r}")
    text = members["raw_arguments"] = dumps(members[SENT])
    return text


def _raw_call(
    call_id: str, name: str, provider_name: str, arguments: Any, sent_as: str, sent: Any
) -> RawToolCall:
    """A RawToolCall (its own ``__init__`` without the frame) whose text is ``sent``
    (``sent_as="raw_arguments"``) or written from ``sent``, already ``checked``, when first read
    (``sent_as=SENT``)."""
    call = _new(RawToolCall)
    _set_attribute(
        call,
        "__dict__",
        {
            "id": call_id,
            "name": name,
            "provider_name": provider_name,
            "arguments": arguments,
            "error": None,
            sent_as: sent,
        },
    )
    return call


#: whether per-call PayloadErrors become failed RawToolCalls (``parse_tool_calls(on_error="collect")``)
_collecting: ContextVar[bool] = ContextVar("toolgen_collecting_failures", default=False)


class _Collecting:
    """The context manager of ``collecting_failures`` (a class: one is entered per response)."""

    __slots__ = ("_collect", "_token")

    def __init__(self, collect: bool) -> None:
        self._collect = collect

    def __enter__(self) -> None:
        self._token = _collecting.set(self._collect)

    def __exit__(self, *exception: object) -> None:
        _collecting.reset(self._token)


def collecting_failures(on_error: str) -> AbstractContextManager[None]:
    """Within the block, a call that fails to decode is returned as a RawToolCall with ``error``
    set (``on_error="collect"``) instead of raising its PayloadError (``"raise"``); envelope drift
    raises either way."""
    if on_error not in ("raise", "collect"):
        raise ValueError(f"on_error must be 'raise' or 'collect', not {on_error!r}")
    return _Collecting(on_error == "collect")


def failed_call(
    error: PayloadError, call_id: str, provider_name: str, raw_arguments: str
) -> RawToolCall:
    """``error`` raised, or while failures are collected, the call it spoils (``error`` set; its
    name is the canonical one, or empty when the provider's name is no tool of the design)."""
    if not _collecting.get():
        raise error
    name = "" if error.code == "UNKNOWN_TOOL" else error.tool
    return RawToolCall(call_id, name, provider_name, None, raw_arguments, error)


def value_digest(value: str) -> str:
    """How an error names a text the provider sent (a tool name not in the design): its length
    and the first 12 hex digits of its SHA-256, never the text."""
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"<{len(value)} characters, sha256 {digest}>"


def _unknown_tool(provider: str, call_id: str, provider_name: str) -> PayloadError:
    return PayloadError(
        provider,
        value_digest(provider_name),
        call_id,
        "name",
        "not a tool of the design",
        "UNKNOWN_TOOL",
    )


def _refused(
    provider: str, tool: str, call_id: str, refused: JsonRefused, code: str = "INVALID_ARGUMENTS"
) -> PayloadError:
    return PayloadError(provider, tool, call_id, "arguments", refused.reason, code)


def _not_canonical(provider: str, name: str, call_id: str, error: ValueError) -> PayloadError:
    """Arguments that break an encoding of the projection (a map with a key twice, JSON text
    that is not JSON: the canonicalizer's ValueError)."""
    return PayloadError(provider, name, call_id, "arguments", str(error), "INVALID_ARGUMENTS")


def _repeated_id(provider: str, name: str, call_id: str) -> PayloadError:
    """The second call of a response with an id an earlier one has: each id is answered once."""
    return PayloadError(
        provider,
        name,
        call_id,
        "id",
        "an earlier call of the response has the same id",
        "DUPLICATE_CALL_ID",
    )


def first_use(seen: set[str] | None, call_id: str) -> bool:
    """Whether no earlier call of the response (``seen``: the ids so far, None where one call is
    read alone) had ``call_id``; the id is added. An empty id (a generateContent call has none) is never
    repeated: such calls are answered by order."""
    if seen is None or not call_id:
        return True
    if call_id in seen:
        return False
    seen.add(call_id)
    return True


def _deep_canonical(provider: str, name: str, call_id: str) -> PayloadError:
    """Arguments the inverse made deeper than the limits of ``_json`` (JSON text each part of
    which was within them), or could not walk (a RecursionError)."""
    return _refused(provider, name, call_id, JsonRefused(TOO_DEEP))


class OnFirstUse(dict[str, _T]):
    """A table whose entries are made on first use (``make(key)``), then read as fast as any
    dict: a decoder looks one up per call."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[str], _T]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: str) -> _T:
        value = self[key] = self._make(key)
        return value


class CallReader(ABC, Generic[Decoded]):
    """What a decoder makes of each tool call it finds: the canonical name (``canonical_names``:
    the provider's name -> the canonical one), the arguments within the limits of ``_json``, and
    the inverse (``canonicalize``); one per generated provider module and kind of result.

    ``RawCalls`` gives RawToolCalls (a failed one while failures are collected); ``_decode``'s
    ``TypedCalls`` gives each call typed at once (a ToolCall, or its PayloadError raised), so a
    response decodes in one pass with no second object per call.
    """

    __slots__ = ("canonical_names", "canonicalize", "provider")

    def __init__(
        self,
        provider: str,
        canonical_names: Mapping[str, str],
        canonicalize: Canonicalize | None = None,
    ) -> None:
        self.provider = provider
        self.canonical_names = canonical_names
        self.canonicalize = canonicalize

    @abstractmethod
    def from_text(
        self,
        call_id: str,
        provider_name: str,
        raw_arguments: str,
        seen: set[str] | None = None,
    ) -> Decoded:
        """A call whose arguments arrive as JSON text; malformed text is a PayloadError, not
        drift. ``seen``: the ids of the response's calls so far (``first_use``), None for a call
        read alone."""
        raise NotImplementedError

    @abstractmethod
    def from_object(
        self,
        call_id: str,
        provider_name: str,
        arguments: dict[str, Any],
        seen: set[str] | None = None,
        *,
        checked_already: bool = False,
    ) -> Decoded:
        """A call whose arguments arrive already decoded (a JSON object, not its text), checked
        against the limits of JSON text unless the caller did (``checked_already``); its
        ``raw_arguments`` is written when first read."""
        raise NotImplementedError

    @abstractmethod
    def unusable(
        self, error: PayloadError, call_id: str, provider_name: str, raw_arguments: str
    ) -> Decoded:
        """A call that cannot be used: ``error`` raised, or the failed call it makes while
        failures are collected."""
        raise NotImplementedError

    def failed(
        self,
        error: PayloadError,
        call_id: str,
        provider_name: str,
        raw_arguments: str,
        seen: set[str] | None = None,
    ) -> Decoded:
        """A call a decoder found unusable on its own (``error`` says why, unless its id was
        seen before in the response)."""
        if not first_use(seen, call_id):
            error = _repeated_id(self.provider, self.name_of(provider_name), call_id)
        return self.unusable(error, call_id, provider_name, raw_arguments)

    def joined(
        self, call: ToolCallFragments, start_input: dict[str, Any], seen: set[str] | None = None
    ) -> Decoded:
        """A streamed call whose input may also come whole with its start: the joined fragments
        when there are any, else that input."""
        assert call.id is not None and call.name is not None
        raw = call.arguments()
        if raw.strip():
            return self.from_text(call.id, call.name, raw, seen)
        return self.from_object(call.id, call.name, start_input, seen)

    def name_of(self, provider_name: str) -> str:
        """How an error names the tool the provider named: its canonical name, or a digest."""
        return self.canonical_names.get(provider_name) or value_digest(provider_name)

    def canonical_from_text(
        self, call_id: str, provider_name: str, raw_arguments: str, seen: set[str] | None
    ) -> tuple[str, Any]:
        """The canonical name and arguments of a call given as JSON text, or its PayloadError
        raised: one function for the id, the name, the JSON and the inverse (it runs once per
        call)."""
        provider = self.provider
        name = self.canonical_names.get(provider_name)
        if seen is not None and call_id:  # first_use, written out: it runs per call
            if call_id in seen:
                raise _repeated_id(provider, name or value_digest(provider_name), call_id)
            seen.add(call_id)
        if name is None:
            raise _unknown_tool(provider, call_id, provider_name)
        try:
            arguments, may_be_deeper = read(raw_arguments)
        except JsonRefused as refused:
            raise _refused(provider, name, call_id, refused) from None
        if type(arguments) is not dict:
            raise PayloadError(
                provider,
                name,
                call_id,
                "arguments",
                f"not a JSON object ({json_type_name(arguments)})",
                "INVALID_ARGUMENTS",
            )
        canonicalize = self.canonicalize
        if canonicalize is not None:
            try:
                canonical = canonicalize(name, arguments)
                if may_be_deeper and canonical is not arguments:
                    checked_depth(canonical)
            except RecursionError:
                raise _deep_canonical(provider, name, call_id) from None
            except ValueError as error:  # JsonRefused of checked_depth too
                raise _not_canonical(provider, name, call_id, error) from error
            return name, canonical
        return name, arguments

    def canonical_from_object(
        self,
        call_id: str,
        provider_name: str,
        arguments: dict[str, Any],
        checked_already: bool,
        seen: set[str] | None,
    ) -> tuple[str, Any]:
        """``canonical_from_text`` for arguments that arrive parsed."""
        provider = self.provider
        name = self.canonical_names.get(provider_name)
        if seen is not None and call_id:  # first_use, written out: it runs per call
            if call_id in seen:
                raise _repeated_id(provider, name or value_digest(provider_name), call_id)
            seen.add(call_id)
        if name is None:
            raise _unknown_tool(provider, call_id, provider_name)
        if not checked_already:
            try:
                checked(arguments)
            except JsonRefused as refused:
                raise _refused(provider, name, call_id, refused) from None
        canonicalize = self.canonicalize
        if canonicalize is not None:
            try:
                canonical = canonicalize(name, arguments)
                if canonical is not arguments:
                    checked_depth(canonical)
            except RecursionError:
                raise _deep_canonical(provider, name, call_id) from None
            except ValueError as error:  # JsonRefused of checked_depth too
                raise _not_canonical(provider, name, call_id, error) from error
            return name, canonical
        return name, arguments


class RawCalls(CallReader[RawToolCall]):
    """Each call as a RawToolCall: canonical, not yet typed."""

    __slots__ = ()

    def from_text(
        self,
        call_id: str,
        provider_name: str,
        raw_arguments: str,
        seen: set[str] | None = None,
    ) -> RawToolCall:
        try:
            name, arguments = self.canonical_from_text(call_id, provider_name, raw_arguments, seen)
        except PayloadError as error:
            return failed_call(error, call_id, provider_name, raw_arguments)
        return _raw_call(call_id, name, provider_name, arguments, "raw_arguments", raw_arguments)

    def from_object(
        self,
        call_id: str,
        provider_name: str,
        arguments: dict[str, Any],
        seen: set[str] | None = None,
        *,
        checked_already: bool = False,
    ) -> RawToolCall:
        try:
            name, canonical = self.canonical_from_object(
                call_id, provider_name, arguments, checked_already, seen
            )
        except PayloadError as error:
            return failed_call(error, call_id, provider_name, _text_or_empty(arguments))
        return _raw_call(call_id, name, provider_name, canonical, SENT, arguments)

    def unusable(
        self, error: PayloadError, call_id: str, provider_name: str, raw_arguments: str
    ) -> RawToolCall:
        return failed_call(error, call_id, provider_name, raw_arguments)


def _text_or_empty(arguments: object) -> str:
    try:
        return dumps(arguments)
    except JsonRefused:
        return ""


@dataclass
class ToolCallFragments:
    """A streamed tool call while its pieces arrive."""

    id: str | None = None
    name: str | None = None
    parts: list[str] = field(default_factory=list)
    final_arguments: str | None = None

    def arguments(self) -> str:
        return self.final_arguments if self.final_arguments is not None else "".join(self.parts)


#: A generated envelope check: ``validate_<surface>(data)`` returns the data as given,
#: ``read_<surface>(data)`` the data or its JSON form, or either raises drift.
Validator = Callable[[Any], Any]
#: canonical tool name, decoded arguments -> canonical arguments
Canonicalize = Callable[[str, Any], Any]


class ToolCallAccumulator(Protocol):
    """Joins the tool-call fragments of one streamed response (each API module has one)."""

    def add(self, event: object, /) -> None: ...

    def tool_calls(self, calls: CallReader[Decoded], /) -> list[Decoded]: ...


class ToolCallDecoder(Protocol):
    """The tool calls of one wire API's responses and streams, for one provider (each API module
    has one, built from the provider name and the generated validators of its surfaces)."""

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded], /) -> list[Decoded]: ...

    def stream(self) -> ToolCallAccumulator: ...


class ValidatingDecoder:
    """What every API's decoder holds: the provider name and the generated validators of a whole
    response and of one stream event (the subclass reads what they return)."""

    def __init__(
        self, provider: str, validate_response: Validator, validate_event: Validator
    ) -> None:
        self.provider = provider
        self._validate = validate_response
        self._validate_event = validate_event


class FragmentJoiner:
    """What every API's stream accumulator holds: the provider name, the validator of one event,
    and the calls gathered so far by their index."""

    def __init__(self, provider: str, validate_event: Validator) -> None:
        self.provider = provider
        self._validate = validate_event
        self._calls: dict[int, ToolCallFragments] = {}

    def _call_at(self, index: int) -> ToolCallFragments:
        """The call gathered at ``index``, started when none is (not one built per event)."""
        call = self._calls.get(index)
        if call is None:
            call = self._calls[index] = ToolCallFragments()
        return call
