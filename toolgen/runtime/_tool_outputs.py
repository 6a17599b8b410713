"""What a tool's handler returns, as the JSON sent back to the model.

A handler returns a pydantic model or a JSON value. ``dump_tool_output`` makes it canonical JSON
(a model dumped by alias, its unset members left out, as the canonical models need) and, for a
tool that declares ``output:``, validates that JSON against the tool's output model. A result
that does not fit is a bug in the handler: ``ToolOutputError`` names the tool and the canonical
path, and is never meant for the model (send nothing, fix the handler).
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

from pydantic import BaseModel, ValidationError

from ._decode import _validation_message
from ._json import JsonRefused, checked

__all__ = ["JSON", "ToolOutputError", "dump_tool_output"]

#: A JSON value as the runtime holds it (what ``json.loads`` gives).
JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"

#: ``str(ToolOutputError)`` stays under this many characters (a log line, not a report)
MAX_MESSAGE: Final = 299


class ToolOutputError(ValueError):
    """A handler's result that is no JSON, or that breaks its tool's output schema.

    ``tool`` is the canonical tool name, ``location`` the canonical path in the result
    (``items[0].name``, ``(root)``), ``reason`` the rule broken (no value of the result).
    """

    code: Final = "INVALID_TOOL_OUTPUT"

    def __init__(self, tool: str, location: str, reason: str) -> None:
        super().__init__(tool, location, reason)
        self.tool = tool
        self.location = location
        self.reason = reason

    def __str__(self) -> str:
        text = f"the result of tool {self.tool!r} at {self.location}: {self.reason}"
        return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."

    def __repr__(self) -> str:
        return f"ToolOutputError(tool={self.tool!r}, location={self.location!r})"

    def to_dict(self) -> dict[str, str]:
        return {
            "code": self.code,
            "tool": self.tool,
            "location": self.location,
            "reason": self.reason,
        }


def _json_of(tool: str, value: object) -> Any:
    """``value`` as a JSON value: a pydantic model dumped canonically, JSON as it is (checked
    within the runtime's JSON limits, nothing copied)."""
    try:
        if isinstance(value, BaseModel):
            value = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return checked(value)
    except JsonRefused as refused:
        reason = f"not JSON the runtime sends: {refused.reason}"
        raise ToolOutputError(tool, "(root)", reason) from None
    except (ValueError, RecursionError) as error:  # a model its serializer refuses
        raise ToolOutputError(
            tool, "(root)", f"the model did not dump to JSON ({type(error).__name__})"
        ) from None


def dump_tool_output(tool: str, value: object, model: type[BaseModel] | None) -> JSON:
    """The canonical JSON of a handler's ``value`` for ``tool``, validated by ``model`` (the
    tool's output model; None when it declares no ``output:``). Raises ToolOutputError."""
    payload = _json_of(tool, value)
    if model is not None:
        try:
            model.model_validate(payload)
        except ValidationError as error:
            where, message = _validation_message(error, payload)
            raise ToolOutputError(tool, where, message) from error
    result: JSON = payload
    return result
