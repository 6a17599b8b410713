"""Results of pure functions of their arguments, kept from one build to the next by a process
that builds again (``toolgen watch``; toolgen.build.Session).

A value is found by everything it is computed from (the key is the arguments themselves, compared
by value, never a summary of them), so it is never used stale; toolgen's code cannot change under
a running process. What builds no longer use is let go: the memory stays about the size of
two builds'. Values must not be changed by their users (text, tuples, frozen dataclasses).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class Kept:
    """Values by key, for this build and from the last one (:meth:`begin` starts another)."""

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

    def computed(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept for ``key``, else ``compute()``, kept for it (never None)."""
        found = self.get(key)
        if found is None:
            found = compute()
            self.put(key, found)
        return found  # type: ignore[no-any-return]


def plain_key(value: Any) -> bytes | None:
    """``value`` as a key (marshal's bytes of it) when it is made of text, numbers, booleans,
    None, bytes, lists, tuples, sets and dicts of them only; else None: another object could
    compare by identity, and change in place between two builds. The bytes are exact: equal
    bytes load back as the same value, with the same types (a tuple is not a list, 1 is not 1.0
    or True, an int key is not a str key); equal values written apart (a dict in another order)
    are only a miss."""
    try:
        return marshal.dumps(value)
    except ValueError:
        return None


def by_identity(kept: Kept | None, tag: Hashable, of: Any, compute: Callable[[], T]) -> T:
    """``compute()``, a pure function of ``of`` (and of ``tag``), kept by the identity of ``of``
    when it is an object a process that builds again hands to its next build as it was (a
    result kept decoded: toolgen.infra.parallel.Runner.submit's ``keep_decoded``; nothing
    changes those in place). The kept value holds ``of``: no other object takes its id while
    the value is kept."""
    if kept is None:
        return compute()
    key = (tag, id(of))
    found = kept.get(key)
    if found is not None and found[0] is of:
        return found[1]  # type: ignore[no-any-return]
    value = compute()
    kept.put(key, (of, value))
    return value


def each_by_identity(
    kept: Kept | None, tag: Hashable, items: Sequence[Any], compute: Callable[[Any], T]
) -> list[T]:
    """``[compute(item) for item in items]``, each kept by the identity of its item as
    :func:`by_identity` keeps one (``compute`` a pure function of the item, and of ``tag``), for
    the thousands of items of one stage: one dict lookup an item, in a map of the last build's
    items kept under ``tag`` (holding them: no other object takes an id while it is kept); the
    items this build does not have are let go with the map. One call a build under one tag: a
    stage run for each provider names the provider in its tag (a second call would replace the
    map, and the next build find only its items)."""
    if kept is None:
        return [compute(item) for item in items]
    key = ("each", tag)
    last: dict[int, tuple[Any, T]] = kept.get(key) or {}
    now: dict[int, tuple[Any, T]] = {}
    values: list[T] = []
    for item in items:
        found = last.get(id(item))
        if found is None or found[0] is not item:
            found = (item, compute(item))
        now[id(item)] = found
        values.append(found[1])
    kept.put(key, now)
    return values
