"""black's layout of a JSON-like literal fragment, computed without black.

The formatter (toolgen/render/formatting.py) cuts the large tables of the generated modules (schemas,
names, descriptions) into fragments ``_ = {\\n    e1,\\n    e2,\\n}\\n`` whose elements are Python
literals of JSON values (``repr`` text). black spends most of a cold build on them; for such
elements its stable style comes down to a few rules, applied here to the element's tokens:

* an element that fits in the line length at its indentation stays on one line (with ``", "``
  and ``": "`` between tokens, strings and numbers normalized by black's own functions);
* otherwise a dict or list is split after its opening bracket: its elements one per line with a
  trailing comma when it has two or more, the single element on its own line (laid out by the
  same rules, no comma added) when it has one; the closing bracket on a line of its own;
* a line that is too long and is no bracket stays as it is.

Anything else (other tokens, a trailing comma in the source, an empty bracket pair or a bracket
that has to be split after a line that is too long already, a line that is still too long) is
left to black: :func:`layout` returns None. Tests compare both on the corpus schemas and on
generated values (tests/test_literal_layout.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from black.mode import Mode
from black.numerics import normalize_numeric_literal
from black.strings import (
    normalize_string_prefix,
    normalize_string_quotes,
    normalize_unicode_escape_sequences,
    str_width,
)
from blib2to3.pgen2 import token
from blib2to3.pytree import Leaf

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<number>-?[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?(?![\w.]))
    | (?P<name>(?:True|False|None)(?!\w))
    | (?P<punct>[{}\[\]:,])
    )""",
    re.VERBOSE,
)
_CLOSING = {"{": "}", "[": "]"}


class _NotLiteral(Exception):
    """The text is not a literal this module lays out the way black does."""


@dataclass(frozen=True)
class _Node:
    text: str  # a scalar's normalized text, or the opening bracket
    items: tuple[_Node, ...] = ()  # a bracket's elements (pairs are _Pair)

    def flat(self) -> str:
        if self.text in _CLOSING:
            return self.text + ", ".join(item.flat() for item in self.items) + _CLOSING[self.text]
        return self.text


@dataclass(frozen=True)
class _Pair(_Node):
    key: str = ""
    value: _Node | None = None

    def flat(self) -> str:
        assert self.value is not None
        return f"{self.key}: {self.value.flat()}"


def string_text(text: str, mode: Mode) -> str:
    """The text black writes for a string token."""
    leaf = Leaf(token.STRING, text)
    normalize_unicode_escape_sequences(leaf)
    return normalize_string_quotes(normalize_string_prefix(leaf.value, mode))


def number_text(text: str) -> str:
    """The text black writes for a number token, with its minus sign."""
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    leaf = Leaf(token.NUMBER, digits)
    normalize_numeric_literal(leaf)
    return sign + leaf.value


class _Parser:
    def __init__(self, text: str, mode: Mode) -> None:
        self.tokens: list[tuple[str, str]] = []
        self.mode = mode
        position = 0
        end = len(text.rstrip())
        while position < end:
            match = _TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise _NotLiteral
            kind = match.lastgroup or ""
            self.tokens.append((kind, match.group(kind)))
            position = match.end()
        self.index = 0

    def _next(self) -> tuple[str, str]:
        if self.index >= len(self.tokens):
            raise _NotLiteral
        self.index += 1
        return self.tokens[self.index - 1]

    def _peek(self) -> str:
        return self.tokens[self.index][1] if self.index < len(self.tokens) else ""

    def element(self, in_dict: bool) -> _Node:
        """One element of a dict (``key: value``) or of a list, to the end of the text."""
        node = self._pair() if in_dict else self._value()
        if self.index != len(self.tokens):
            raise _NotLiteral
        return node

    def _pair(self) -> _Pair:
        kind, key = self._next()
        if kind != "string" or self._next() != ("punct", ":"):
            raise _NotLiteral
        return _Pair("", (), string_text(key, self.mode), self._value())

    def _value(self) -> _Node:
        kind, text = self._next()
        if kind == "string":
            return _Node(string_text(text, self.mode))
        if kind == "number":
            return _Node(number_text(text))
        if kind == "name":
            return _Node(text)
        if text not in _CLOSING:
            raise _NotLiteral
        items: list[_Node] = []
        while self._peek() != _CLOSING[text]:
            if items and self._next() != ("punct", ","):
                raise _NotLiteral
            if self._peek() == _CLOSING[text]:  # a trailing comma: black's magic comma
                raise _NotLiteral
            items.append(self._pair() if text == "{" else self._value())
        self._next()
        return _Node(text, tuple(items))


def _lines(node: _Node, depth: int, suffix: str, mode: Mode, out: list[str]) -> None:
    indent = "    " * depth
    line = indent + node.flat() + suffix
    if str_width(line) <= mode.line_length:
        out.append(line)
        return
    bracket = node.value if isinstance(node, _Pair) else node
    if bracket is None or bracket.text not in _CLOSING:
        out.append(line)  # no bracket to split at: black leaves the line as it is
        return
    head = indent + (f"{node.key}: " if isinstance(node, _Pair) else "") + bracket.text
    if not bracket.items or str_width(head) > mode.line_length:
        raise _NotLiteral
    out.append(head)
    if len(bracket.items) == 1:
        _lines(bracket.items[0], depth + 1, "", mode, out)
    else:
        for item in bracket.items:
            _lines(item, depth + 1, ",", mode, out)
    out.append(indent + _CLOSING[bracket.text] + suffix)


def layout(source: str, mode: Mode) -> str | None:
    """``black.format_str(source, mode=mode)`` for a fragment ``_ = {`` (or ``[``), one literal
    element a line each followed by a comma, ``}`` (or ``]``); None when this module cannot
    say what black writes (the caller runs black)."""
    lines = source.split("\n")
    if len(lines) < 4 or lines[-1] != "" or lines[0] not in ("_ = {", "_ = ["):
        return None
    opening = lines[0][-1]
    if lines[-2] != _CLOSING[opening] or mode.line_length < 8 or not mode.string_normalization:
        return None
    out = [lines[0]]
    try:
        for element in lines[1:-2]:
            if not element.startswith("    ") or not element.endswith(","):
                return None
            node = _Parser(element[4:-1], mode).element(in_dict=opening == "{")
            _lines(node, 1, ",", mode, out)
    except (_NotLiteral, RecursionError):
        return None
    out.append(_CLOSING[opening])
    return "\n".join(out) + "\n"
