"""Python identifiers for generated code, unique within one scope."""

from __future__ import annotations

from collections.abc import Hashable
from collections.abc import Set as AbstractSet

from toolgen.schema.names import python_identifier


class Identifiers:
    """Names handed out in one scope (a module's functions, a function's locals).

    ``name(hint)`` is ``prefix`` + ``python_identifier(hint)``, never a keyword or builtin and
    never one already taken here (clashes are resolved by ``python_identifier``, which appends
    ``_``). Given a ``key``, the same key always gets the same name. ``prefix`` is not part of
    what clashes: ``_x`` and ``x`` count as one name.
    """

    def __init__(self, *, prefix: str = "", reserved: AbstractSet[str] = frozenset()) -> None:
        self.prefix = prefix
        self._taken: set[str] = set(reserved)
        self._by_key: dict[Hashable, str] = {}

    def name(self, hint: str, key: Hashable = None) -> str:
        if key is not None and key in self._by_key:
            return self._by_key[key]
        bare = python_identifier(hint, reserved=self._taken)
        self._taken.add(bare)
        name = self.prefix + bare
        if key is not None:
            self._by_key[key] = name
        return name

    def shortest(self, hints: list[str], key: Hashable) -> str:
        """The first of ``hints`` that is free as it is (``python_identifier`` leaves it
        unchanged), else a name made from the last; the same ``key`` always gets the same name."""
        if key in self._by_key:
            return self._by_key[key]
        for hint in hints[:-1]:
            if python_identifier(hint, reserved=self._taken) == hint:
                return self.name(hint, key)
        return self.name(hints[-1], key)

    def release(self, name: str) -> None:
        """Give back a name that was not used after all (it may be handed out again)."""
        self._taken.discard(name.removeprefix(self.prefix))
        for key in [k for k, v in self._by_key.items() if v == name]:
            del self._by_key[key]
