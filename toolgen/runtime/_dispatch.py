"""Typed dispatch: each call to the handler method of its tool, the return values as answers.

The generated ``handlers`` module declares ``ToolHandlers`` (one abstract method per tool, named
by ``HANDLER_NAMES``); the provider modules' ``run_tool_calls`` / ``arun_tool_calls`` call these.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from ._decode import ToolCall
from ._outcomes import Dump, FailedCall, answer_for, answered, output_json
from ._tool_results import Answer

__all__ = ["ToolError", "arun_calls", "run_calls"]

Outcome = ToolCall[Any, Any] | FailedCall


class ToolError(Exception):
    """Raised by a handler: the call is answered with the provider's error marker and
    ``message`` (which the model sees; any other exception propagates and is never sent)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _method(handlers: object, names: Mapping[str, str], call: ToolCall[Any, Any]) -> Any:
    method = getattr(handlers, names[call.name], None)
    if method is None:
        raise TypeError(f"{type(handlers).__name__} has no handler {names[call.name]!r}")
    return method


def _error(outcome: ToolCall[Any, Any], error: ToolError) -> Answer:
    return answer_for(outcome, error.message, True)


def run_calls(
    handlers: object,
    names: Mapping[str, str],
    outcomes: Sequence[Outcome],
    dump: Dump = output_json,
) -> list[Answer]:
    """Each ToolCall to its handler in call order, its result sent through ``dump``; a
    FailedCall answered with its error text (none for a call whose id an earlier one has)."""
    answers = []
    for outcome in outcomes:
        if not answered(outcome):
            continue
        if isinstance(outcome, FailedCall):
            answers.append(answer_for(outcome, None, True))
            continue
        try:
            value = _method(handlers, names, outcome)(outcome.arguments)
        except ToolError as error:
            answers.append(_error(outcome, error))
            continue
        answers.append(answer_for(outcome, value, False, dump))
    return answers


async def arun_calls(
    handlers: object,
    names: Mapping[str, str],
    outcomes: Sequence[Outcome],
    dump: Dump = output_json,
) -> list[Answer]:
    """``run_calls`` with coroutine handlers, every call at once; answers in call order."""

    async def one(outcome: Outcome) -> Answer:
        if isinstance(outcome, FailedCall):
            return answer_for(outcome, None, True)
        handler: Callable[[Any], Awaitable[Any]] = _method(handlers, names, outcome)
        try:
            value = await handler(outcome.arguments)
        except ToolError as error:
            return _error(outcome, error)
        return answer_for(outcome, value, False, dump)

    return list(await asyncio.gather(*(one(outcome) for outcome in outcomes if answered(outcome))))
