"""An optional member that accepts null, on a provider that writes it required: boxed, so that
"absent" and "null" stay apart through strict mode.

The member (the canonical ``type: ["string", "null"]`` of ``issue_write.type``, where null
means "remove the type") is written required as

    {"description": "... (null leaves it unset; {"value": ...} sets it, possibly to null)",
     "anyOf": [{"type": "object", "properties": {"value": <its projection, null included>},
                "required": ["value"], "additionalProperties": false},
               {"type": "null"}]}

The model writes null to leave the member out and ``{"value": v}`` to set it to ``v`` (null
included); the inverse removes a null member and unboxes the others.

Why this shape: the box is the same whatever the member's own schema is (a string, an object,
a ``$ref``, a union), so the member's projection stays untouched inside it and its own rules
stay with it; null, which strict mode makes the model write for a member it would leave out,
keeps that meaning; and it costs one closed object and one union per member (within strict
mode's subsets everywhere anyOf and closed objects are). Boxing the null instead (``anyOf: [X,
{"type": "object", "properties": {"null": ...}}]``) would clash with a member that is an object
itself, and a flag beside the value (``{"set": bool, "value": X}``) makes the model write a value
it does not mean when the flag is false.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import NULL_SCHEMA, Counterpart, Rewrite
from toolgen.schema import pointer as jp

#: the member of the box that holds the value
BOXED = "value"

#: how the description of a boxed member tells the model how to write it
BOX_NOTE = f'null leaves it unset; {{"{BOXED}": ...}} sets it, possibly to null'


@dataclass(frozen=True)
class NullableOptionalBoxed(Rewrite):
    """An optional member that accepts null became a required one, either null (the member is
    absent) or ``{"value": v}`` (the member is ``v``, null included); the inverse removes a null
    member and unboxes the others (an object that is no box is an ``EncodingError``)."""

    codec = "boxed"

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], NullableOptionalBoxed]:
        """The box around ``node`` (the member's projection), its title and description moved to
        the box with :data:`BOX_NOTE` added, and the rule."""
        inner = {k: v for k, v in node.items() if k not in ("title", "description")}
        box = {
            "type": "object",
            "properties": {BOXED: inner},
            "required": [BOXED],
            "additionalProperties": False,
        }
        outer = {k: v for k, v in node.items() if k == "title"}
        description = node.get("description")
        note = f"{description} ({BOX_NOTE})" if isinstance(description, str) else BOX_NOTE
        written = {**outer, "description": note, "anyOf": [box, dict(NULL_SCHEMA)]}
        return written, NullableOptionalBoxed()

    @property
    def moves(self) -> bool:
        return True

    @property
    def wrapped_at(self) -> str:
        return jp.join("", "anyOf", 0, "properties", BOXED)

    @property
    def null_means_absent(self) -> bool:
        return True

    def invert(self, at: Counterpart) -> Counterpart:
        """The box is stepped into (its member, the value, is read back as the member's own
        projection), and unboxed last."""
        return self.decoded(replace(at, pointer=jp.join(at.pointer, "anyOf", 0)), BOXED)
