"""The forward writer of the testing fakes: a canonical payload as a provider's model writes it.

Each contract's plan (a JSON value, in ``testing/_plans_<provider>.py``, written by toolgen from
the projection's record of rewrites: toolgen/compile/canonical/forward.py) says what each node
becomes: an encoding (a value of any type as JSON text, a map as key/value entries, extra
members under one more member, a tuple as an object, an optional member that accepts null in
its box), enum values written as text, null for the absent members the provider writes, and
which branch of a union the value takes. This module interprets it; it is the inverse
canonicalizer's inverse, so ``canonicalize(name, Forward.arguments(name, payload))`` gives
``payload`` back (but with ``optional_nullable = "keep"``, where an absent member that is
optional and accepts null comes back as null). The plans module is imported on first use.
Standard library only.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from ._canonical_support import is_integer, is_number, json_equal
from ._codecs import write

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["Fakes", "Forward", "forward"]

Name = TypeVar("Name", bound=str)
ApiName = TypeVar("ApiName", bound=str)
#: an API's body or stream builder (its module's ``fake_response``, ``fake_stream``): ([(wire
#: name, wire arguments)...], text=..., and the API's own keywords)
Builder = Callable[..., Any]

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list, tuple),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
}


class Forward:
    """The wire arguments of the tools of one provider, from the plans in ``module`` (imported
    relative to ``package`` on first use; its ``TOOL_PLANS``: canonical name -> plan, None for a
    tool whose payloads go out canonical as they are)."""

    def __init__(self, package: str | None, module: str) -> None:
        self.package = package
        self._package = package
        self._module = module
        self._plans: Mapping[str, Any] | None = None

    def arguments(self, name: str, payload: Any) -> Any:
        """What the provider's model writes for the canonical ``payload`` of tool ``name`` (a
        fresh value; the input is never mutated)."""
        plans = self._plans
        if plans is None:
            module = importlib.import_module(self._module, self._package)
            plans = self._plans = module.TOOL_PLANS
        if name not in plans:
            raise KeyError(f"no tool is called {name!r}")
        plan = plans[name]
        if plan is None:  # a tool sent non-strict: its payloads are canonical as they are
            return _copy(payload)
        return forward(payload, plan["root"], plan["defs"])


class Fakes(Generic[Name, ApiName]):
    """The fakes of one provider (its module ``testing/<provider>.py`` binds them, typed with its
    tool names and APIs): ``response`` and ``stream`` carry tool calls given as canonical
    payloads, in the provider's wire form; ``api`` None is the provider's first API. A payload
    is first checked against its tool's canonical model (``models.model_for``), so a fixture holds
    only calls the model could make; ``check=False`` lets one through, for a negative test."""

    def __init__(
        self,
        forward: Forward,
        wire_names: Mapping[str, str],
        first_api: ApiName,
        builders: Mapping[str, tuple[Builder, Builder]],
        options: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self._forward = forward
        self._wire_names = wire_names
        self._first_api = first_api
        # API -> its (response, stream) builders
        self._builders = builders
        # API -> keyword arguments of the builders (the provider's model, its wire variant)
        self._options = options or {}

    def arguments(self, name: Name, payload: Any, *, check: bool = True) -> Any:
        """The arguments the provider's model writes for the canonical ``payload`` of tool
        ``name`` (a fresh JSON value; KeyError for a tool the provider does not take; ValueError
        for a payload its schema refuses, unless ``check`` is False)."""
        wire = self._forward.arguments(name, payload)  # KeyError first, for an unknown tool
        if check:
            self._check(name, payload)
        return wire

    def _check(self, name: str, payload: Any) -> None:
        models = importlib.import_module("..models", self._forward.package)
        model = models.model_for("tool", name)
        try:
            model.model_validate_json(json.dumps(payload))
        except ValueError as refused:  # pydantic's ValidationError
            # stated as a PayloadError states it (a format by its name, not its pattern)
            from ._decode import _validation_message, declared_names

            error = cast("ValidationError", refused)
            where, reason = _validation_message(error, payload, declared_names(model))
            raise ValueError(
                f"the payload of tool {name!r} breaks its schema, so no model could send it "
                f"(check=False lets it through, for a negative test): {where}: {reason}"
            ) from None

    def response(
        self,
        calls: Sequence[tuple[Name, Any]],
        *,
        api: ApiName | None = None,
        text: str | None = None,
        check: bool = True,
    ) -> dict[str, Any]:
        """A response body of ``api`` whose tool calls carry ``calls`` (canonical name, canonical
        payload), in order, after the assistant's ``text`` if given; ``check``: as ``arguments``."""
        api = api or self._first_api
        options = self._options.get(api, {})
        response = self._builders[api][0]
        body: dict[str, Any] = response(self._wire(calls, check), text=text, **options)
        return body

    def stream(
        self,
        calls: Sequence[tuple[Name, Any]],
        *,
        api: ApiName | None = None,
        text: str | None = None,
        check: bool = True,
    ) -> list[dict[str, Any]]:
        """The events (or chunks) of a streamed response of ``api`` carrying ``calls`` (see
        ``response``)."""
        api = api or self._first_api
        options = self._options.get(api, {})
        stream = self._builders[api][1]
        events: list[dict[str, Any]] = stream(self._wire(calls, check), text=text, **options)
        return events

    def _wire(self, calls: Sequence[tuple[Name, Any]], check: bool) -> list[tuple[str, Any]]:
        return [
            (self._wire_names[name], self.arguments(name, payload, check=check))
            for name, payload in calls
        ]


def forward(value: Any, plan: Mapping[str, Any], defs: Mapping[str, Any]) -> Any:
    """``value`` written as the node of ``plan`` takes it (``defs``: the plans of ``$ref``
    targets): its encoding first, then its union's branch, then its members or items."""
    plan = _resolved(plan, defs)
    for known, text in plan.get("texts", ()):
        if json_equal(known, value):
            return text  # an enum value written as its declared text
    if "encode" in plan:
        kind, argument = plan["encode"]
        value = write(kind, argument, value, plan)
    branches = plan.get("branches")
    if branches is not None:
        chosen = next((b for b in branches if fits(value, b, defs)), None)
        if chosen is not None:
            value = forward(value, chosen, defs)
    members = plan.get("members")
    if isinstance(value, dict) and members is not None:
        return _object(value, plan, members, defs)
    items = plan.get("items")
    if isinstance(value, list | tuple) and items is not None:
        return [forward(element, items, defs) for element in value]
    return _copy(value)


def fits(value: Any, plan: Mapping[str, Any], defs: Mapping[str, Any]) -> bool:
    """Whether the canonical ``value`` is one of the node of ``plan``: its types, enum values,
    required and declared members, elements and union (the branch the forward writes it in)."""
    plan = _resolved(plan, defs)
    if value is None and plan.get("null"):
        return True
    types = plan.get("types")
    if types is not None and not any(_of_type(value, kind) for kind in types):
        return False
    values = plan.get("values")
    if values is not None and not any(json_equal(known, value) for known in values):
        return False
    members = plan.get("members")
    if isinstance(value, dict) and members is not None:
        if any(name not in value for name in plan["required"]):
            return False
        if plan["closed"] and any(name not in members for name in value):
            return False
        if not all(fits(value[name], members[name], defs) for name in members if name in value):
            return False
    items = plan.get("items", {})
    elements = value if isinstance(value, list) else ()
    if not all(fits(element, items, defs) for element in elements):
        return False
    branches = plan.get("branches")
    return branches is None or any(fits(value, branch, defs) for branch in branches)


def _resolved(plan: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    seen: set[str] = set()
    while "call" in plan and plan["call"] not in seen:
        seen.add(plan["call"])
        plan = defs[plan["call"]]
    return plan


def _object(
    value: dict[str, Any], plan: Mapping[str, Any], members: Mapping[str, Any], defs: Any
) -> dict[str, Any]:
    nulls = plan["nulls"]
    result: dict[str, Any] = {}
    for name, member in members.items():
        if name in value:
            result[name] = forward(value[name], member, defs)
        elif name in nulls:
            result[name] = None  # what strict mode writes for an absent member
    for name, member in value.items():
        if name not in members:
            result[name] = _copy(member)
    return result


def _of_type(value: Any, kind: str) -> bool:
    if kind == "number":
        return is_number(value)
    if kind == "integer":
        return is_integer(value)
    return isinstance(value, _TYPES.get(kind, ()))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(member) for key, member in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(element) for element in value]
    return value
