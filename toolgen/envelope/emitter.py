"""A line emitter for generated Python: indentation follows ``with emitter.block(...)``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_INDENT = "    "


class LineEmitter:
    def __init__(self) -> None:
        self._lines: list[str] = []
        self._depth = 0

    def line(self, text: str = "") -> None:
        self._lines.append(_INDENT * self._depth + text if text else "")

    def lines(self, texts: list[str]) -> None:
        for text in texts:
            self.line(text)

    @contextmanager
    def block(self, opener: str) -> Iterator[None]:
        """``opener`` (ending with a colon) then the lines emitted inside the ``with``, indented."""
        self.line(opener)
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    def source(self) -> str:
        return "\n".join(self._lines) + "\n"
