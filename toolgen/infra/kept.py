"""Results of pure functions of their arguments, kept from one build to the next by a process
that builds again (``toolgen watch``; toolgen.build.Session).

A value is found by everything it is computed from (the key is the arguments themselves, compared
by value, never a summary of them), so it is never used stale; toolgen's code cannot change under
a running process. What builds no longer use is let go: the memory stays about the size of
two builds'. Values must not be changed by their users (text, tuples, frozen dataclasses).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any


class Kept:
    def __init__(self) -> None:
        self._last: dict[Hashable, Any] = {}  # what the last build used
        self._now: dict[Hashable, Any] = {}  # what this build used

    def begin(self) -> None:
        """Another build starts. What the last one did not use stays too (a kept module spares
        the kept values of its parts, needed again when the module changes), until there are
        twice as many values as the last build used: then only those stay."""
        kept = {**self._last, **self._now}
        self._last = kept if len(kept) <= 2 * len(self._now) else self._now
        self._now = {}

    def get(self, key: Hashable) -> Any | None:
        found = self._now.get(key)
        if found is None:
            found = self._last.get(key)
            if found is not None:
                self._now[key] = found
        return found

    def put(self, key: Hashable, value: Any) -> None:
        self._now[key] = value


#: JSON of plain data only (no ``default``: any other object raises TypeError), by C code
_PLAIN_JSON = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":"))


def plain_key(value: Any) -> str | None:
    """``value`` as a key (its JSON text) when it is made of text, numbers, booleans, None,
    lists, tuples and dicts of them only; else None: another object could compare by identity,
    and change in place between two builds. JSON tells 1, 1.0 and true apart, and keeps the
    order of a dict; not a list from a tuple of the same items (a template writes them alike in
    a loop; where one is written whole, the code that makes it, the same in both builds, makes
    the same type)."""
    try:
        return _PLAIN_JSON.encode(value)
    except (TypeError, ValueError):
        return None
