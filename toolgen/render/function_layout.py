"""Top-level functions of plain statements laid out as black lays them out, without black.

The inverse canonicalizers of ``_canonical.py`` (thousands of small functions of straight-line
code, toolgen/compile/canonical/) are written by the compiler one statement a line, four spaces
an indentation level, spaces where black puts them; what black changes in them is the quotes of
``repr``'s strings and the rare line over the line length. A line of that kind is certain: when a
statement fits the line, black writes its tokens on one line with its own spacing, and the
spacing of the tokens accepted here is fixed (see :func:`laid_out_line`). So a line is laid out here when

* its tokens are names (not the keywords black treats apart), plain decimal numbers, strings
  black writes as they are but for the quotes (no backslash, no quote of the other kind, no line
  end; in double quotes then), brackets, ``,``, ``.``, ``:`` ending a block or in a dict, and
  binary operators and ``:=`` (no ``**``, no ``*``, no ``@``, no comment), an annotation's
  colon after a statement's first name;
* it is written with black's spacing: the tokens joined the way :func:`_joined` joins them give the
  same text (so no space black would add or take away, and no comma before a closing bracket,
  which black takes as a request to split);
* no parentheses black would remove are there: none around the whole expression after ``if``,
  ``elif``, ``while``, ``for``, ``in``, ``return``, ``del``, ``assert``, ``raise``, ``except``,
  an ``=`` or an annotation's ``:`` (black makes those invisible, but a tuple's), none around
  the lone element of a list or set, no one-tuple without them;
* its width with double quotes is at most the line length (black measures it the same way);
* it is no docstring (a line that starts with a string), and no blank line is inside a function
  (a docstring black keeps as it is may open a function: :func:`docstring_end`; a function of
  a docstring alone is left to black).

A ``def`` line is accepted when it is ``def name(a: T, b: T) -> T:`` with plain type names and
fits the line. Between two functions black writes two blank lines. A part with anything else (a
class, a decorator, a top-level statement, one line of a function that black must see) is left
to black whole (:func:`laid_out` answers None). The formatter uses it for the parts it cuts
between top-level definitions (toolgen/render/formatting.py), which it has parsed already, and
toolgen/render/model_layout.py for the statements of model classes.
tests/test_function_layout.py compares the bytes with black's on the canonical modules of the
corpus for several providers and on statements black changes.
"""

from __future__ import annotations

import re

from black.strings import str_width

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_TYPE = rf"{_NAME}(?:\.{_NAME})*(?:\[{_NAME}(?:\.{_NAME})*(?:, {_NAME}(?:\.{_NAME})*)*\])?"
#: ``def name(parameter: type, ...) -> type:`` with plain types (no defaults, no stars)
_DEF = re.compile(rf"def {_NAME}\((?:{_NAME}: {_TYPE}(?:, {_NAME}: {_TYPE})*)?\) -> {_TYPE}:")
#: the characters a string may hold to be written as is (see formatting._STRING): no quote,
#: backslash, control character or line end of str.splitlines
_BODY = "[^'\"\\\\\x00-\x1f\x7f\x85\u2028\u2029]"
_TOKEN = re.compile(
    rf"""(?P<single>'{_BODY}*')"""  # black writes it in double quotes
    rf"""|(?P<double>"(?:{_BODY}|')*")"""  # black keeps it
    r"|(?P<number>(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?![0-9A-Za-z_.]))"
    rf"|(?P<name>{_NAME})"
    r"|(?P<op>:=|==|!=|<=|>=|//|<<|>>|[-+%/<>|&^~=.,:()\[\]{{}}])"
    r"|(?P<space> )"
)
#: the tokens of :func:`bracket_change`: any one-line string (escapes and quotes too)
_SCAN = re.compile(
    r"""(?P<single>'(?:[^'\\\n]|\\.)*')|(?P<double>"(?:[^"\\\n]|\\.)*")"""
    r"|(?P<number>[0-9][0-9A-Za-z_.]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>[-+*/%@<>=!|&^~.,:;()\[\]{}])|(?P<space> )"
)
#: keywords black spaces like any name, and may stand before an opening bracket
_KEYWORDS = frozenset(
    {"if", "elif", "else", "for", "in", "while", "return", "del", "assert", "not", "and", "or"}
    | {"is", "pass", "continue", "break", "raise", "try", "except", "finally"}
)
#: soft keywords: names but at the start of a statement
_SOFT_KEYWORDS = frozenset({"match", "case", "type", "_"})
#: names that are values (a bracket after one is not a call black would hug: left to black)
_ATOMS = frozenset({"None", "True", "False"})
#: other keywords: black has rules of its own for them (parentheses, blank lines, docstrings)
_OTHER_KEYWORDS = frozenset(
    {"lambda", "yield", "await", "async", "import", "from", "as", "with", "class", "def"}
    | {"global", "nonlocal"}
)
#: keywords after which black makes the parentheses of a whole expression invisible
_PARENS_AFTER = frozenset(
    {"if", "elif", "while", "for", "return", "del", "assert", "raise", "except"}
)
#: a docstring's text between its quotes (see formatting._STRING): no quote, backslash, tab,
#: control character or line end
_DOCSTRING_TEXT = re.compile("[ !#-\\[\\]-~]*")
_OPENING = "([{"
_CLOSING = {")": "(", "]": "[", "}": "{"}
_BINARY = frozenset(
    {":=", "|", "==", "!=", "<=", ">=", "//", "<<", ">>", "-", "+", "%", "/", "<", ">"}
)
_UNARY = frozenset({"-", "+", "~"})


def laid_out(part: str, line_length: int) -> str | None:
    """black's text of ``part``, a module of top-level functions only, when each of its lines is
    one this module lays out (see the module docstring); None otherwise. ``part`` must parse."""
    functions: list[list[str]] = []
    indent_after = 0  # the deepest indentation the next line may have
    opens_block = blank = False
    statements = 0  # of the last function, but its docstring
    lines = part.split("\n")
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if not line:
            blank = True
            continue
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        if indent == 0:
            if opens_block or not _DEF.fullmatch(text) or str_width(text) > line_length:
                return None
            if functions and not statements:
                return None  # a function of a docstring alone: black's blank lines may differ
            functions.append([line])
            statements = 0
            indent_after, opens_block, blank = 4, True, False
            if number < len(lines) and lines[number].startswith('    """'):
                docstring = docstring_end(lines, number, line_length)
                if docstring is None:
                    return None
                functions[-1] += lines[number:docstring]
                number, opens_block = docstring, False
            continue
        if not functions or blank or indent % 4 or indent > indent_after:
            return None
        if opens_block and indent != indent_after:
            return None
        written = laid_out_line(text)
        if written is None or indent + str_width(written) > line_length:
            return None
        functions[-1].append(" " * indent + written)
        statements += 1
        opens_block = written.endswith(":")
        indent_after = indent + 4 if opens_block else indent
    if not functions or opens_block or not statements:
        return None
    return "\n\n\n".join("\n".join(lines) for lines in functions) + "\n"


def docstring_end(lines: list[str], start: int, line_length: int) -> int | None:
    """The line after a docstring that starts at ``lines[start]`` (at one level of indentation),
    when black leaves it as it is: ASCII, no backslash and no ``"`` but its quotes, no space after the
    opening quotes or before the closing ones on a line of text, no trailing spaces, the
    closing quotes within the line length when the docstring has several lines, the lines after
    the first at the function body's indentation (one at least exactly there: black re-indents
    by the least); else None."""
    first = lines[start][len('    """') :]
    if first[:1] in (" ", '"') or not _DOCSTRING_TEXT.fullmatch(first.removesuffix('"""')):
        return None  # (an empty first line stays empty: black strips the first line)
    if first.endswith('"""'):  # black leaves a one-line docstring as it is, however long
        body = first.removesuffix('"""')
        return start + 1 if body and body == body.strip() else None
    if first != first.rstrip():
        return None
    least = False
    for number in range(start + 1, len(lines)):
        line = lines[number]
        if not line:
            continue
        if not line.startswith("    "):
            return None
        text = line[4:]
        closing = text.endswith('"""')
        if closing and str_width(line) > line_length:
            return None  # black puts the quotes on a line of their own
        text = text.removesuffix('"""')
        if not _DOCSTRING_TEXT.fullmatch(text) or text != text.rstrip():
            return None
        if closing and text and text[0] == " ":
            return None
        if text:  # a line of text (a closing line of quotes alone does not count for black)
            least = least or not text[0].isspace()
        if closing:
            return number + 1 if least else None
    return None


def bracket_change(text: str) -> int | None:
    """How many brackets a line opens (less those it closes), its one-line strings skipped (any,
    escapes included); None when it does not scan (a comment, a character outside the tokens)."""
    change = 0
    end = 0
    for match in _SCAN.finditer(text):
        if match.start() != end:
            return None
        end = match.end()
        value = match.group()
        if value in _OPENING and match.lastgroup == "op":
            change += 1
        elif value in _CLOSING and match.lastgroup == "op":
            change -= 1
    return change if end == len(text) else None


def laid_out_line(text: str) -> str | None:
    """``text`` (one statement, without its indentation) as black writes it when it fits, if
    it is written with black's spacing and holds only what black leaves as it is but for the
    quotes; else None."""
    tokens: list[tuple[str, str]] = []
    pieces: list[str] = []  # the text with black's quotes
    end = 0
    for match in _TOKEN.finditer(text):
        if match.start() != end:
            return None
        end = match.end()
        kind, value = match.lastgroup or "", match.group()
        if kind != "space":
            tokens.append((kind, value))
        pieces.append('"' + value[1:-1] + '"' if kind == "single" else value)
    if end != len(text) or not tokens or tokens[0][0] in ("single", "double"):
        return None
    if _joined(tokens) != text or not _parentheses_kept(tokens):
        return None
    return "".join(pieces)


def _joined(tokens: list[tuple[str, str]]) -> str | None:
    """The tokens joined with black's spacing; None when one is not accepted here."""
    pieces: list[str] = []
    depth: list[str] = []
    glued = True  # no space before the next token
    last = len(tokens) - 1
    previous_kind, previous = "", ""
    for index, (kind, value) in enumerate(tokens):
        space = "" if glued else " "
        glued = False
        if kind == "name":
            if value in _OTHER_KEYWORDS or index == 0 and value in _SOFT_KEYWORDS:
                return None
        elif kind == "op":
            if value in _OPENING:
                if value != "{" and previous_kind in ("name", "single", "double", "number"):
                    if previous in _ATOMS or previous_kind == "number":
                        return None
                    if previous_kind != "name" or previous not in _KEYWORDS:
                        space = ""  # a call or a subscript
                elif value != "{" and previous in (")", "]") and previous_kind == "op":
                    space = ""
                if value == "(" and previous in ("[", "{") and previous_kind == "op":
                    return None  # black drops the parentheses of a lone element
                depth.append(value)
                glued = True
            elif value in _CLOSING:
                if not depth or depth.pop() != _CLOSING[value]:
                    return None
                if previous == "," and previous_kind == "op":
                    return None  # a magic trailing comma: black splits
                space = ""
            elif value == ",":
                if index == last or tokens[index + 1][1] in (":", "="):
                    return None
                space = ""
            elif value == ".":
                if index == last or tokens[index + 1][0] != "name":
                    return None
                if previous_kind == "number" or previous_kind == "op" and previous not in ")]":
                    return None
                space, glued = "", True
            elif value == ":":
                if index == last and not depth:
                    space = ""  # a block's colon
                elif depth and depth[-1] == "{":
                    space = ""  # a dict's
                elif index == 1 and not depth and _plain_name(tokens[0]):
                    space = ""  # an annotation's: ``name: type`` or ``name: type = value``
                else:
                    return None  # a slice, a lambda: black's rules
            elif value == "=":
                if not depth:
                    pass  # an assignment: spaced
                elif depth[-1] == "(":
                    space, glued = "", True  # a keyword argument
                else:
                    return None
            elif value in _UNARY and (
                index == 0
                or previous_kind == "op"
                and previous not in ")]}"
                or previous_kind == "name"
                and previous in _KEYWORDS
            ):
                glued = True  # a unary operator: black writes its operand right after it
            elif value not in _BINARY:
                return None
        if index == 0:
            space = ""
        pieces.append(space + value)
        previous_kind, previous = kind, value
    if depth:
        return None
    return "".join(pieces)


def _parentheses_kept(tokens: list[tuple[str, str]]) -> bool:
    """No parentheses around a whole expression black would make invisible: the condition of
    ``if``/``elif``/``while``, the target and iterable of ``for``, what follows ``return``,
    ``del``, ``assert``, an assignment's ``=`` and an annotation's ``:``."""
    values = [value for _, value in tokens]
    starts: list[int] = []
    first = values[0]
    if first in _PARENS_AFTER and tokens[0][0] == "name":
        starts.append(1)
    if len(values) > 1 and values[1] == ":" and _plain_name(tokens[0]):
        starts.append(2)  # black makes an annotation's parentheses invisible too
    level = 0
    for index, value in enumerate(values):
        if value in _OPENING:
            level += 1
        elif value in _CLOSING:
            level -= 1
        elif level == 0 and (value == "=" or value == "in" and first == "for"):
            starts.append(index + 1)
    return not any(
        start < len(values) and values[start] == "(" and _whole(values, start) for start in starts
    )


def _plain_name(token: tuple[str, str]) -> bool:
    kind, value = token
    return kind == "name" and value not in _KEYWORDS | _OTHER_KEYWORDS | _SOFT_KEYWORDS


def _whole(values: list[str], start: int) -> bool:
    """Whether the parenthesis at ``start`` closes at the end of its expression (the line's end,
    a block's colon, a ``=`` or the ``in`` of a ``for``) and holds no tuple (black keeps a
    tuple's parentheses)."""
    level = 0
    for index in range(start, len(values)):
        value = values[index]
        if value in _OPENING:
            level += 1
        elif value in _CLOSING:
            level -= 1
            if level == 0:
                rest = values[index + 1 :]
                return not rest or rest[0] in (":", "=", "in", ",")
        elif value == "," and level == 1:
            return False
    return False
