"""What the targets of the design's tools share (the MCP server, the agent frameworks' tools):
a call's canonical arguments validated into the tool's model, the handler of ``handlers.py``
called with them (a coroutine method awaited, a plain one run in a worker thread where the
target is asynchronous), and its result as the canonical JSON ``tool_outputs.dump_output`` checks.

A target imports its framework, never this module: it needs only the standard library and
pydantic.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from ._decode import _validation_message
from ._runtime import PayloadError

__all__ = ["DesignTools", "Dump", "ModelFor", "ProviderBinding", "selected"]

#: ``models.model_for``: (kind, canonical name) -> the canonical model
ModelFor = Callable[[str, str], type[BaseModel]]
#: ``tool_outputs.dump_output``: (canonical name, a handler's result) -> its canonical JSON
Dump = Callable[[str, object], Any]


def selected(names: Iterable[str] | None, tools: Sequence[str]) -> tuple[str, ...]:
    """``names`` (canonical tool names) in the order given, or every tool of ``tools`` when
    None; a name that is no tool is a KeyError naming it."""
    if names is None:
        return tuple(tools)
    chosen = tuple(names)
    unknown = [name for name in chosen if name not in tools]
    if unknown:
        raise KeyError(f"no tool {unknown[0]!r}; the tools are {', '.join(tools)}")
    return chosen


@dataclass(frozen=True)
class ProviderBinding:
    """What a target takes of a provider module: the names the provider sees (canonical ->
    wire), each tool's projected parameters, the plan of strict flags (``strict_plan(names)``:
    those of ``names`` that go out strict together, as the module's ``tool_definitions()``
    marks them under its per-request limits) and the inverse (``canonicalize(name,
    payload)``: the provider's payload -> the canonical one)."""

    provider: str
    wire_names: Mapping[str, str]
    parameters: Callable[[str], dict[str, Any]]
    strict_plan: Callable[[list[str]], set[str]]
    canonicalize: Callable[[str, Any], Any]


class DesignTools:
    """The design's tools as a target calls them: ``handlers`` (a ``ToolHandlers`` or an
    ``AsyncToolHandlers``), their method names by canonical tool name, the models and the dump
    of results. ``target`` names the caller in the PayloadErrors (``mcp``, ``langchain``)."""

    def __init__(
        self,
        handlers: object,
        handler_names: Mapping[str, str],
        model_for: ModelFor,
        dump: Dump,
        target: str,
    ) -> None:
        self.handlers = handlers
        self.handler_names = handler_names
        self.model_for = model_for
        self.dump = dump
        self.target = target

    def model(self, name: str) -> type[BaseModel]:
        """The canonical model of tool ``name``."""
        return self.model_for("tool", name)

    def arguments(self, name: str, payload: Any, call_id: str = "") -> BaseModel:
        """The canonical ``payload`` of a call of tool ``name`` validated into its model;
        PayloadError (INVALID_ARGUMENTS, ``for_model()`` is what the model may be told) when
        it does not fit."""
        try:
            return self.model(name).model_validate(payload)
        except ValidationError as error:
            where, reason = _validation_message(error, payload)
            raise PayloadError(
                provider=self.target,
                tool=name,
                call_id=call_id,
                location=where,
                reason=reason,
                code="INVALID_ARGUMENTS",
            ) from error

    def provider_arguments(
        self, binding: ProviderBinding, name: str, payload: Any, call_id: str = ""
    ) -> BaseModel:
        """:meth:`arguments` of what ``binding``'s provider sent for tool ``name``, read back
        through its inverse first (a payload that breaks an encoding is a PayloadError too)."""
        try:
            canonical = binding.canonicalize(name, payload)
        except PayloadError:
            raise
        except ValueError as error:  # it breaks an encoding of the projection
            raise PayloadError(
                provider=binding.provider,
                tool=name,
                call_id=call_id,
                location="(root)",
                reason=str(error),
                code="INVALID_ARGUMENTS",
            ) from error
        return self.arguments(name, canonical, call_id)

    def _method(self, name: str) -> Callable[[BaseModel], Any]:
        method = getattr(self.handlers, self.handler_names[name], None)
        if method is None:
            owner = type(self.handlers).__name__
            raise TypeError(f"{owner} has no handler {self.handler_names[name]!r}")
        found: Callable[[BaseModel], Any] = method
        return found

    def is_async(self, name: str) -> bool:
        """Whether the handler of tool ``name`` is a coroutine method."""
        return inspect.iscoroutinefunction(self._method(name))

    def call(self, name: str, arguments: BaseModel) -> object:
        """The handler of tool ``name`` called with ``arguments``; a coroutine handler is a
        TypeError here (the target calls it with ``acall``). ToolError propagates."""
        method = self._method(name)
        if inspect.iscoroutinefunction(method):
            raise TypeError(f"the handler of tool {name!r} is a coroutine: call it with acall")
        result: object = method(arguments)
        return result

    async def acall(self, name: str, arguments: BaseModel) -> object:
        """The handler of tool ``name`` called with ``arguments``: awaited when it is a
        coroutine method, else run in a worker thread (the event loop goes on meanwhile)."""
        method = self._method(name)
        if inspect.iscoroutinefunction(method):
            awaited: object = await method(arguments)
            return awaited
        result: object = await asyncio.to_thread(method, arguments)
        return result

    def result(self, name: str, value: object) -> Any:
        """The canonical JSON of what the handler of tool ``name`` returned, checked against
        the tool's ``output:`` (ToolOutputError: a bug in the handler, never for the model)."""
        return self.dump(name, value)
