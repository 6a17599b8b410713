"""What every API's tool loop shares: an ``Answer`` to one call, and the checks that every call
of a turn is answered once (see "Returning tool results" in toolgen's docs).

Each API's module has its ``*Loop`` class, built by the generated provider module from its response
validator: ``assistant_turn(data)`` validates a response and returns the model's turn as received,
``result(answer)`` one call's answer, ``results(answers)`` the answers to every call of a turn. Their
TypedDicts mirror the SDKs' param types of the same names: a TypedDict goes where another is
expected when it declares the same keys, equally required, with equivalent types, so these declare
every key of the SDK's type; a nested SDK type that would take pages to mirror is ``Any`` there
(equivalent to anything), the rest is spelled out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._json import dumps

__all__ = ["Answer", "answered_in_order"]


@dataclass(frozen=True)
class Answer:
    """What answers one call: its id and wire name, the output (text, or a JSON value in its
    canonical form) and whether it reports a failure."""

    call_id: str
    wire_name: str
    output: Any
    is_error: bool = False

    def text(self) -> str:
        """The output as text: itself when it is text, else its compact JSON."""
        return self.output if isinstance(self.output, str) else dumps(self.output)


def _marked_text(answer: Answer) -> str:
    """The text of an answer for an API with no error marker: a failure's text says so."""
    return f"Error: {answer.text()}" if answer.is_error else answer.text()


def answered_in_order(call_ids: Sequence[str], answers: Sequence[Answer]) -> list[Answer]:
    """``answers`` checked against the calls they answer: one per id, none twice, none unknown
    (ValueError naming the id); returned in the calls' order."""
    by_id: dict[str, Answer] = {}
    known = set(call_ids)
    for answer in answers:
        if answer.call_id not in known:
            raise ValueError(f"a result answers call id {answer.call_id!r}, which is no call here")
        if answer.call_id in by_id:
            raise ValueError(f"call id {answer.call_id!r} is answered twice")
        by_id[answer.call_id] = answer
    missing = [call_id for call_id in call_ids if call_id not in by_id]
    if missing:
        raise ValueError(f"call id {missing[0]!r} has no result")
    return [by_id[call_id] for call_id in call_ids]


def _checked_ids(answers: Sequence[Answer]) -> list[Answer]:
    """Answers built from outcomes: an id answered twice is a ValueError naming it."""
    return answered_in_order(list(dict.fromkeys(answer.call_id for answer in answers)), answers)
