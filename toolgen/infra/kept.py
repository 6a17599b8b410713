"""Results of pure functions of their arguments, kept from one build to the next by a process
that builds again (``toolgen watch``; toolgen.build.Session).

A value is found by everything it is computed from (the key is the arguments themselves, compared
by value, never a summary of them), so it is never used stale; toolgen's code cannot change under
a running process. Only what the last build used is kept: the memory stays the size of one
build's. Values must not be changed by their users (text, tuples, frozen dataclasses).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import fields, is_dataclass
from typing import Any


class Kept:
    def __init__(self) -> None:
        self._last: dict[Hashable, Any] = {}  # what the last build used
        self._now: dict[Hashable, Any] = {}  # what this build used

    def begin(self) -> None:
        """Another build starts: what the last one used is kept, the rest let go."""
        self._last, self._now = self._now, {}

    def get(self, key: Hashable) -> Any | None:
        found = self._now.get(key)
        if found is None:
            found = self._last.get(key)
            if found is not None:
                self._now[key] = found
        return found

    def put(self, key: Hashable, value: Any) -> None:
        self._now[key] = value


def frozen(value: Any) -> Hashable | None:
    """``value`` as a key (hashable, equal when the values are), when it is made of text, numbers,
    None, tuples, lists and dicts of them and frozen dataclasses of them; else None: another
    object could compare by identity, and be changed in place between two builds."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, int | float):
        return (type(value).__name__, value)  # 1, 1.0 and True are equal, and written apart
    if isinstance(value, tuple | list | dict):
        items = value.items() if isinstance(value, dict) else value
        parts = []
        for item in items:
            part = frozen(item)
            if part is None:
                return None
            parts.append(part)
        return (type(value).__name__, tuple(parts))
    if is_dataclass(value) and not isinstance(value, type):
        if not value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return None
        if not all(f.compare for f in fields(value)):
            return None
        return frozen((type(value).__qualname__, *(getattr(value, f.name) for f in fields(value))))
    return None
