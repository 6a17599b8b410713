"""Tables of JSON values stored as their JSON text: the projected schemas of a provider module's
tables and the forward plans of its fakes.

Each value is one compact JSON text, parsed when it is read: a fresh value every time, which its
reader may change. What many values hold in common (a definition that every tool of an MCP server
carries in its ``$defs``) is stored once, in ``shared``: in a stored value, each entry of the
member ``holder`` (a schema's ``$defs``, a plan's ``defs``) is the key of its text there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["JsonTable"]


class JsonTable(Mapping[str, Any]):
    """Name -> the JSON value of its text in ``texts``, with the entries of its ``holder``
    member read from ``shared``."""

    __slots__ = ("_holder", "_shared", "_texts")

    def __init__(
        self, texts: Mapping[str, str], shared: Mapping[str, str], holder: str = "$defs"
    ) -> None:
        self._texts = texts
        self._shared = shared
        self._holder = holder

    def __getitem__(self, name: str) -> Any:
        value = json.loads(self._texts[name])
        held = value.get(self._holder) if isinstance(value, dict) else None
        if isinstance(held, dict):
            shared = self._shared
            value[self._holder] = {entry: json.loads(shared[key]) for entry, key in held.items()}
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)
