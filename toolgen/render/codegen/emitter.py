"""A line emitter for generated Python: indentation follows ``with emitter.block(...)``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from toolgen.render.codegen.scope import Identifiers

_INDENT = "    "


class LineEmitter:
    """Lines of Python; ``with emitter.block("if x"):`` writes ``if x:`` and indents its body.

    A block left empty gets ``pass``. With ``merge_nested_ifs``, an ``if a:`` whose whole body is
    one ``if b:`` block becomes ``if a and b:`` (only for code without ``else`` branches, where the
    two mean the same). ``fresh(hint)`` hands out local names, unique within the emitter.
    """

    def __init__(self, *, merge_nested_ifs: bool = False, reserved: frozenset[str] = frozenset()):
        self._lines: list[str] = []
        self._depth = 0
        self._merge = merge_nested_ifs
        self.names = Identifiers(reserved=reserved)

    @property
    def indent(self) -> int:
        """How many columns the next line is indented by."""
        return len(_INDENT) * self._depth

    def line(self, text: str = "") -> None:
        self._lines.append(_INDENT * self._depth + text if text else "")

    def lines(self, texts: list[str]) -> None:
        for text in texts:
            self.line(text)

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        """``head:`` then the lines emitted inside the ``with``, indented."""
        self.line(head + ":")
        self._depth += 1
        start = len(self._lines)
        try:
            yield
        finally:
            if len(self._lines) == start:
                self.line("pass")
            self._depth -= 1
            if self._merge:
                self._merge_nested_if(start)

    def _merge_nested_if(self, start: int) -> None:
        outer, body = self._lines[start - 1], self._lines[start:]
        indent = _INDENT * self._depth
        inner = indent + _INDENT
        if not (outer.startswith(indent + "if ") and body and body[0].startswith(inner + "if ")):
            return
        if any(not line.startswith(inner + _INDENT) for line in body[1:]):
            return

        def condition(line: str) -> str:
            test = line.strip()[len("if ") : -1]
            return f"({test})" if " or " in test else test

        merged = f"{indent}if {condition(outer)} and {condition(body[0])}:"
        self._lines[start - 1 :] = [merged, *(line[len(_INDENT) :] for line in body[1:])]

    def fresh(self, hint: str) -> str:
        """A local name derived from ``hint`` (a member name, or what the value is)."""
        return self.names.name(hint)

    def source(self) -> str:
        return "\n".join(self._lines) + "\n"
