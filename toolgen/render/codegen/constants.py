"""Module-level constants of generated code, hoisted and shared."""

from __future__ import annotations

from toolgen.schema.names import python_identifier


class Constants:
    """One name per distinct expression: ``add("names", "frozenset(('a', 'b'))")`` is ``_NAMES``,
    the next different expression with that hint ``_NAMES_2``; the same expression again is the
    name it already has. ``lines`` holds the assignments in the order the names were made."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}  # expression -> name
        self._taken: set[str] = set()
        self._annotations: dict[str, str] = {}  # name -> its annotation, where one is needed

    def add(self, hint: str, expression: str, annotation: str | None = None) -> str:
        name = self._names.get(expression)
        if name is None:
            base = "_" + python_identifier(hint).upper().strip("_")
            name, counter = base, 1
            while name in self._taken:
                counter += 1
                name = f"{base}_{counter}"
            self._taken.add(name)
            self._names[expression] = name
            if annotation is not None:
                self._annotations[name] = annotation
        return name

    def frozenset(self, hint: str, items: list[str]) -> str:
        """A frozenset of the expressions ``items``, in the given order in the source."""
        return self.add(hint, f"frozenset({tuple_display(items)})")

    @property
    def lines(self) -> list[str]:
        return [
            f"{name}{': ' + self._annotations[name] if name in self._annotations else ''} = {expression}"
            for expression, name in self._names.items()
        ]


def tuple_display(items: list[str] | tuple[str, ...]) -> str:
    """A tuple display of expressions, without black's magic trailing comma when it can."""
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
