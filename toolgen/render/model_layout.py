"""A contract's model module laid out as black lays it out, with black only on the statements
whose layout is not certain here.

datamodel-code-generator writes a model module as imports, then top-level classes of one
statement a line (``name: Annotated[...] = ...``, ``model_config = ConfigDict(...)``), each
class perhaps opening with a docstring. black formats one logical line at a time, at its depth,
whatever surrounds it; what joins lines is only the blank lines between them. So:

* the module's head (everything before the first class) goes to black alone;
* a class line ``class Name(Bases):`` that fits is written as it is; between two top-level
  classes, and after the head, black writes two blank lines;
* a class's docstring that black leaves as it is (toolgen/render/function_layout.py says which)
  is written as it is, then the one blank line black puts after a class docstring;
* a statement of one line that function_layout lays out is written with black's quotes; any
  other statement (too long, several lines, a token it does not vouch for) goes to black alone,
  inside ``class _:`` so that it keeps its depth (the same statements recur from module to
  module: the answers are kept for the process).

Anything else (a comment, a decorator, a blank line inside a class, a statement after the
classes, a nested class) leaves the module to black whole (:func:`laid_out` answers None).
tests/test_model_layout.py compares the bytes with black's over corpus models.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from black.strings import str_width

from toolgen.render import function_layout

#: ``class Name(Bases):`` with bases of names, dots, brackets, commas and ``|`` (no strings)
_CLASS = re.compile(r"class [A-Za-z_][A-Za-z0-9_]*\([A-Za-z0-9_.\[\], |]*\):")
_INDENT = "    "


def laid_out(source: str, line_length: int, black: Callable[[str], str]) -> str | None:
    """black's text of the model module ``source`` (see the module docstring); ``black`` formats
    a module whole. None when the module is of another shape."""
    lines = source.split("\n")
    first = next((n for n, line in enumerate(lines) if line.startswith("class ")), None)
    if first is None or first == 0 or lines[first - 1] != "":
        return None
    head = "\n".join(lines[:first]).rstrip("\n") + "\n"
    last_head_line = head.rstrip("\n").rsplit("\n", 1)[-1]
    if not last_head_line.startswith(("from ", "import ")):
        return None  # a comment or statement just before the first class: black's rules
    classes: list[list[str]] = []
    number = first
    while number < len(lines):
        line = lines[number]
        if not line:
            number += 1
            continue
        if not _CLASS.fullmatch(line) or str_width(line) > line_length:
            return None
        if classes and lines[number - 1] != "":
            return None
        laid = _class_body(lines, number + 1, line_length, black)
        if laid is None:
            return None
        body, number = laid
        classes.append([line, *body])
    formatted_head = _black_alone(black, head)
    return formatted_head + "\n\n" + "\n\n\n".join("\n".join(c) for c in classes) + "\n"


def _class_body(
    lines: list[str], start: int, line_length: int, black: Callable[[str], str]
) -> tuple[list[str], int] | None:
    """The lines black writes for the class body that starts at ``lines[start]``, and the
    number of the line after it; None when a statement is of a shape not handled here."""
    body: list[str] = []
    number = start
    if number < len(lines) and lines[number].startswith(_INDENT + '"""'):
        kept = function_layout.docstring_end(lines, number, line_length)
        if kept is not None:
            body += lines[number:kept]
            number = kept
        else:  # black's own docstring rules (trailing spaces, indentation): black, alone
            close = _docstring_close(lines, number)
            formatted = _black_statement(black, lines[number:close]) if close else None
            if close is None or formatted is None:
                return None
            body += formatted
            number = close
        body.append("")  # black's blank line after a class docstring
    statements = 0
    while number < len(lines) and lines[number].startswith(_INDENT):
        end = _statement_end(lines, number)
        if end is None:
            return None
        statement = lines[number:end]
        if statement[-1].endswith(":"):
            return None  # a block (a nested class, a method): not one statement
        text = statement[0][len(_INDENT) :]
        written = function_layout.laid_out_line(text) if len(statement) == 1 else None
        if written is not None and len(_INDENT) + str_width(written) <= line_length:
            body.append(_INDENT + written)
        else:
            formatted = _black_statement(black, statement)
            if formatted is None:
                return None
            body += formatted
        statements += 1
        number = end
    if statements == 0:
        return None  # a class of a docstring alone: black's blank lines differ
    return body, number


def _black_statement(black: Callable[[str], str], statement: list[str]) -> list[str] | None:
    """black's lines of one statement of a class body, formatted alone at that depth."""
    try:
        formatted = _black_alone(black, "class _:\n" + "\n".join(statement) + "\n")
    except Exception:  # noqa: BLE001 - not one statement after all: the module goes to black
        return None
    if not formatted.startswith("class _:\n"):
        return None
    return formatted[len("class _:\n") :].rstrip("\n").split("\n")


def _docstring_close(lines: list[str], start: int) -> int | None:
    """The line after the docstring opened at ``lines[start]`` (by ``\"\"\"``), when its closing
    quotes end a line and are the only others in it; else None."""
    if lines[start].count('"""') != 1:
        return None
    for number in range(start + 1, len(lines)):
        count = lines[number].count('"""')
        if count:
            return number + 1 if count == 1 and lines[number].endswith('"""') else None
    return None


def _statement_end(lines: list[str], start: int) -> int | None:
    """The line after the statement that starts at ``lines[start]`` (at the class body's
    indentation): its brackets closed. None for what is not one plain statement (a deeper
    line, a string of several lines, a comment, a token that does not scan)."""
    if lines[start][len(_INDENT) :].startswith((" ", '"""', "'''")):
        return None
    depth = 0
    for number in range(start, len(lines)):
        line = lines[number]
        if '"""' in line or "'''" in line:
            return None
        change = function_layout.bracket_change(line.lstrip(" "))
        if change is None:
            return None
        depth += change
        if depth < 0:
            return None
        if depth == 0:
            return number + 1
    return None


@functools.lru_cache(maxsize=4096)
def _black_alone(black: Callable[[str], str], source: str) -> str:
    """``black(source)``, kept for the process: heads and statements recur across models."""
    return black(source)
