"""One contract's compiled canonicalizer code with local names (a unit), what the build caches.

A contract is compiled alone, so that its code can be cached and reused while other contracts
change. Every module-level name it would take (its functions, the constants it hoists) is a
placeholder here, a local number written ``\\x00<n>\\x00`` (never in generated code: ``repr``
escapes a NUL, and identifiers have none). The linker (``toolgen.compile.canonical.linker``) gives the
units of a module their global names and shares what they have in common.

A :class:`Definition` keeps, besides its source, the local names the compiler asked for while
making it (``requests``; a root's or a function's ``emits``, while writing its body), in the
order it asked: the linker replays them in that order, so names are taken, and shared functions
and constants found, as if the module were compiled in one pass.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

#: a placeholder: the local number of a definition
PLACEHOLDER = re.compile("\x00([0-9]+)\x00")

# what a definition is (its ``kind``)
ROOT = "root"  # a contract's canonicalizer
CANON = "canon"  # the inverse of a $ref target (``key``: one per target, or per shared definition)
BRANCH = "branch"  # the inverse of a union branch
ADMITS = "admits"  # a branch test (shared by content)
VALID = "valid"  # the test of a $ref target (``key`` as for CANON)
CONSTANT = "constant"  # a hoisted constant (``key``: its expression; shared by it)


def placeholder(number: int) -> str:
    return f"\x00{number}\x00"


def number(name: str) -> int:
    """The local number of a placeholder."""
    return int(name[1:-1])


@dataclass
class Definition:
    """A function or constant of one unit. ``body``: a function's source (a test's statements),
    None until written (or when it is never written: a function that changes nothing).
    ``pointer``: the projected node a test tests. ``annotation``: a constant's type, if any."""

    kind: str
    hint: str = ""
    key: tuple[str, ...] | str | None = None
    body: str | None = None
    requests: list[int] = field(default_factory=list)
    emits: list[int] = field(default_factory=list)
    pointer: str | None = None
    annotation: str | None = None

    def to_json(self) -> list[Any]:
        key = list(self.key) if isinstance(self.key, tuple) else self.key
        return [
            self.kind,
            self.hint,
            key,
            self.body,
            self.requests,
            self.emits,
            self.pointer,
            self.annotation,
        ]

    @classmethod
    def from_json(cls, value: list[Any]) -> Definition:
        kind, hint, key, body, requests, emits, pointer, annotation = value
        if not isinstance(kind, str) or not isinstance(requests, list):
            raise TypeError("not a definition")
        key = tuple(key) if isinstance(key, list) else key
        return cls(kind, hint, key, body, requests, emits, pointer, annotation)


@dataclass
class Unit:
    """One contract's definitions (indexed by local number), its root's number, and what could
    not be compiled: (canonical pointer, message) each."""

    definitions: list[Definition]
    root: int
    errors: list[tuple[str, str]]

    def to_json(self) -> list[Any]:
        return [
            [d.to_json() for d in self.definitions],
            self.root,
            [list(error) for error in self.errors],
        ]

    @classmethod
    def from_json(cls, value: list[Any]) -> Unit:
        definitions, root, errors = value
        unit = cls(
            [Definition.from_json(d) for d in definitions],
            root,
            [(pointer, message) for pointer, message in errors],
        )
        if not isinstance(root, int) or not 0 <= root < len(unit.definitions):
            raise ValueError("not a unit")
        return unit


class Recorder:
    """The local names of one unit, and the requests made for them, in order."""

    def __init__(self) -> None:
        self.definitions: list[Definition] = []
        self._recording: list[list[int]] = []
        self._constants: dict[str, str] = {}  # expression -> placeholder

    def new(self, kind: str, hint: str = "", **fields: Any) -> str:
        """A new definition; its placeholder (not requested: see :meth:`request`)."""
        self.definitions.append(Definition(kind, hint, **fields))
        return placeholder(len(self.definitions) - 1)

    def definition(self, name: str) -> Definition:
        return self.definitions[number(name)]

    def request(self, name: str) -> None:
        """Record that the definition being made uses ``name`` (made now, or earlier)."""
        self._recording[-1].append(number(name))

    @contextlib.contextmanager
    def recording(self, into: list[int]) -> Iterator[None]:
        """Requests made inside the ``with`` go to ``into``."""
        self._recording.append(into)
        try:
            yield
        finally:
            self._recording.pop()

    def add(self, hint: str, expression: str, annotation: str | None = None) -> str:
        """A hoisted constant (``toolgen.render.codegen.Constants.add``, with a local name)."""
        name = self._constants.get(expression)
        if name is None:
            name = self.new(CONSTANT, hint, key=expression, annotation=annotation)
            self._constants[expression] = name
        self.request(name)
        return name
