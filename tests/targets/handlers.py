"""Handlers of the targets' tests (also what ``python -m PACKAGE.mcp --handlers`` serves): every
call's canonical payload is recorded in CALLS; ``notes.tag`` of note ``missing`` raises ToolError,
of note ``broken`` returns a result its ``output:`` refuses."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

CALLS: list[tuple[str, dict[str, Any]]] = []


def _payload(arguments: Any) -> dict[str, Any]:
    """The canonical payload a handler received: its model's members as set."""
    dumped: dict[str, Any] = arguments.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return dumped


def bind(gen: ModuleType) -> ModuleType:
    """This module with ``Handlers`` and ``AsyncHandlers`` subclassing ``gen``'s handler classes
    (one method per tool, made from HANDLER_NAMES)."""
    handlers = importlib.import_module(f"{gen.__name__}.handlers")
    by_method = {method: tool for tool, method in handlers.HANDLER_NAMES.items()}

    def answer(tool: str, arguments: Any) -> Any:
        payload = _payload(arguments)
        CALLS.append((tool, payload))
        if tool == "notes.tag":
            if payload["note_id"] == "missing":
                raise handlers.ToolError("note 'missing' does not exist")
            if payload["note_id"] == "broken":
                return {"note_id": 7}
            return {"note_id": payload["note_id"], "tags": sorted(payload["weights"])}
        return {"ok": True}

    def sync_method(tool: str) -> Any:
        return lambda self, arguments: answer(tool, arguments)

    def async_method(tool: str) -> Any:
        async def method(self: Any, arguments: Any) -> Any:
            return answer(tool, arguments)

        return method

    globals()["Handlers"] = type(
        "Handlers", (handlers.ToolHandlers,), {m: sync_method(t) for m, t in by_method.items()}
    )
    globals()["AsyncHandlers"] = type(
        "AsyncHandlers",
        (handlers.AsyncToolHandlers,),
        {m: async_method(t) for m, t in by_method.items()},
    )
    return importlib.import_module(__name__)


if os.environ.get("TOOLGEN_TARGETS_PACKAGE"):  # imported by `python -m PACKAGE.mcp --handlers`
    bind(importlib.import_module(os.environ["TOOLGEN_TARGETS_PACKAGE"]))
