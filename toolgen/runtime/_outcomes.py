"""Per-call outcomes: every call of a response as a typed ``ToolCall`` or, when its payload is
unusable, a ``FailedCall`` that still answers it (``parse_tool_calls(on_error="collect")``).

Built on the per-call decode (``_runtime``, ``_decode``): a PayloadError of one call is caught
here, never one of the envelope (SchemaDriftError still raises: the response as a whole is
unusable).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from pydantic import BaseModel

from ._decode import ToolCall
from ._runtime import PayloadError, RawToolCall
from ._tool_results import Answer

__all__ = [
    "Dump",
    "FailedCall",
    "answer_for",
    "answered",
    "answers_for",
    "outcome",
    "output_json",
]

_T = TypeVar("_T")

#: (canonical tool name, a handler's result) -> the JSON sent: the generated
#: ``tool_outputs.dump_output``, which checks a result against its tool's output schema
Dump: TypeAlias = Callable[[str, object], Any]


@dataclass(frozen=True)
class FailedCall:
    """A call that cannot run: ``name`` is the canonical name (None when the provider's name is no
    tool of the design), ``wire_name`` the name the provider sent, ``raw_arguments`` the text it
    sent and ``error`` why. Answer it with ``tool_result``/``tool_results`` (its ``for_model()``
    text and the provider's error marker): the provider needs an answer for every call id."""

    id: str
    name: str | None
    wire_name: str
    raw_arguments: str
    error: PayloadError

    def for_model(self) -> str:
        """What the model is told (``PayloadError.for_model``)."""
        return self.error.for_model()


def answered(outcome: ToolCall[Any, Any] | FailedCall) -> bool:
    """Whether ``outcome`` gets an answer of its own among the answers of its turn: all but a
    call whose id an earlier call of the response has (``DUPLICATE_CALL_ID``), as each id is
    answered exactly once (by the earlier call's answer)."""
    return not (isinstance(outcome, FailedCall) and outcome.error.code == "DUPLICATE_CALL_ID")


def outcome(raw: RawToolCall, typed: Callable[[RawToolCall], _T]) -> _T | FailedCall:
    """``typed(raw)``, or the FailedCall of a call that failed to decode or validate (only
    reached while failures are collected: otherwise the PayloadError was raised)."""
    error = raw.error
    if error is None:
        try:
            return typed(raw)
        except PayloadError as invalid:
            error = invalid
    return FailedCall(raw.id, raw.name or None, raw.provider_name, raw.raw_arguments, error)


def output_json(tool: str, value: object) -> Any:
    """A handler's return value (or an output given to ``tool_result``) as what is sent: text as
    it is, a pydantic model as its canonical JSON, any other JSON value unchanged.

    What is sent without a check: an error's text, or a result where no ``Dump`` is given
    (``tool`` is the canonical tool name).
    """
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return value


def answer_for(
    outcome: ToolCall[Any, Any] | FailedCall,
    output: object,
    is_error: bool,
    dump: Dump = output_json,
) -> Answer:
    """The answer of one call: a FailedCall answers with its ``for_model()`` text as an error
    (``output`` ignored), a ToolCall with ``output`` (through ``dump`` unless it is an error's
    text: the tool's output schema describes its results, not its failures)."""
    if isinstance(outcome, FailedCall):
        return Answer(outcome.id, outcome.wire_name, outcome.for_model(), True)
    if not isinstance(outcome, ToolCall):
        raise TypeError(f"expected a ToolCall or a FailedCall, got {type(outcome).__name__}")
    sent = output_json(outcome.name, output) if is_error else dump(outcome.name, output)
    return Answer(outcome.id, outcome.wire_name, sent, is_error)


def answers_for(
    outcomes: Sequence[ToolCall[Any, Any] | FailedCall],
    outputs: Sequence[object],
    dump: Dump = output_json,
) -> list[Answer]:
    """The answers of every call, ``outputs`` aligned with ``outcomes`` (any value where the
    outcome is a FailedCall); a count that differs is a ValueError naming the first id left
    without an output or the count. A call whose id an earlier one has gets no answer of its
    own (``answered``)."""
    if len(outputs) != len(outcomes):
        if len(outputs) < len(outcomes):
            raise ValueError(f"call id {outcomes[len(outputs)].id!r} has no result")
        raise ValueError(f"{len(outputs)} outputs for {len(outcomes)} calls")
    return [
        answer_for(o, output, False, dump)
        for o, output in zip(outcomes, outputs, strict=True)
        if answered(o)
    ]
