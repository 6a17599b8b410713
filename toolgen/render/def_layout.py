"""black's layout of a ``def`` line whose parameters fit on one line (``left_hand_split``).

A ``def`` that fits the line length stays on one line; a longer one is split at the parameters'
bracket: ``def name(``, the parameters one level deeper, ``) -> type:``. That is black's layout
only when each of the three lines fits (it splits the parameters further otherwise), so this
module answers None then. Used by the writers that lay out runs of similar definitions without
black (toolgen/render/overload_stubs.py, toolgen/package/handlers.py), each tested against black.
"""

from __future__ import annotations


def def_lines(
    indent: str, head: str, parameters: str, tail: str, line_length: int, *, split_comma: bool
) -> list[str] | None:
    """The lines black gives ``{indent}{head}({parameters}){tail}``; ``split_comma``: whether the
    split form ends the parameters with a comma (black's magic trailing comma after a lone
    parameter of an overload stub); None when black would split the parameters further."""
    line = f"{indent}{head}({parameters}){tail}"
    if len(line) <= line_length:
        return [line]
    lines = [
        f"{indent}{head}(",
        f"{indent}    {parameters}{',' if split_comma else ''}",
        f"{indent}){tail}",
    ]
    if any(len(text) > line_length for text in lines):
        return None
    return lines
