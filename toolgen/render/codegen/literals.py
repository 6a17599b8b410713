"""JSON values and text written as Python source."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from toolgen.render.codegen.constants import tuple_display


def python_literal(value: Any) -> str:
    """A Python expression equal to the JSON value ``value`` (dicts keep their order).

    ``repr`` is exact for every JSON value (strings, integers of any size, finite floats, bools,
    None, lists and dicts of them); a non-finite float is not JSON and has no literal."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value!r} is not a JSON value")
    return repr(value)


def tuple_expression(items: list[str] | tuple[str, ...]) -> str:
    """A tuple display of the expressions ``items``; ``(*path,)`` is written ``path``."""
    if len(items) == 1 and items[0].startswith("*"):
        return items[0][1:]
    return tuple_display(items)


def docstring_text(text: str) -> str:
    """``text`` escaped to sit on one line of a triple-quoted docstring (a design's names are
    free text: a quote, a backslash or a line break must not end or bend the literal)."""
    escaped = []
    for char in text:
        if char in '\\"':
            escaped.append("\\" + char)
        elif char.isprintable():
            escaped.append(char)
        else:
            code = ord(char)
            escaped.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return "".join(escaped)


def docstring(summary: str, *body: str) -> list[str]:
    """The lines of a triple-quoted docstring; toolgen writes its text from names only."""
    for text in (summary, *body):
        if '"""' in text or "\\" in text or not text.isprintable():
            raise ValueError("docstring text must be plain lines")
    if not body:
        return ['"""' + summary + '"""']
    return ['"""' + summary, "", *body, '"""']


def json_rows_literal(rows: Sequence[Any]) -> str:
    """A raw triple-quoted Python string of a JSON array of ``rows`` (JSON values: a row of a
    table as a list or tuple, or a name), one a line, for ``json.loads``.

    A generated module's per-contract name tables are written this way: the compiler reads one
    string where a literal of a thousand names costs it milliseconds at every start without a
    bytecode cache (2.7 ms for a dict of 1,000 names; the string 0.2 ms, ``json.loads`` of it
    0.15 ms: bench/RESULTS.md, Cold start). The JSON is ASCII (``\\uXXXX``
    escapes), and in it every quote inside a string is escaped: no ``\"\"\"`` ends the literal
    early, and it ends with ``]``, not a backslash."""
    lines = ",\n".join(json.dumps(row, ensure_ascii=True) for row in rows)
    return 'r"""[\n' + lines + '\n]"""' if lines else 'r"""[]"""'
