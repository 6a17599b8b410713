"""black, in pieces: a large generated module is formatted as independent parts, in parallel and
through the cache, with the bytes black gives for the whole module.

black formats a module's top-level statements one logical line at a time; the only thing that
joins two of them is the number of blank lines between them. So a large module is cut

* between two top-level ``def``/``class`` statements separated only by blank lines (black puts
  exactly two blank lines there, whatever was written), and
* inside a one-line top-level assignment of a large ``{...}`` or ``[...]`` literal (the tables of
  schemas and names): black explodes it to one element per line, each element formatted on its
  own at one level of indentation, so groups of elements are formatted as ``_ = {\\n e1,\\n}``
  fragments and put back under the statement's own first line.

A module that cannot be cut this way is formatted whole, as is every small one. The parts are
grouped by content (a group ends after an element whose hash says so), so adding one tool changes
one group and leaves the others in the cache.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from dataclasses import dataclass

import black

from toolgen.cache import digest

LINE_LENGTH = 100
MODE = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=LINE_LENGTH)
#: modules shorter than this are formatted whole
SPLIT_THRESHOLD = 32_000
#: a group of parts ends after a part whose hash is 0 modulo this (about this many parts a group)
GROUP_PARTS = 12
GROUP_MAX_CHARS = 60_000
_PLACEHOLDER = "__toolgen_literal_{}__"


def black_format(source: str) -> str:
    """Format with black; a failure here is a toolgen bug, so it raises."""
    return black.format_str(source, mode=MODE)


@functools.cache
def _black_id() -> str:
    return digest("black", black.__version__, repr(MODE))


def _black_key(arguments: tuple[str, ...]) -> str:
    return digest(_black_id(), arguments[0])


def format_python(source: str) -> str:
    """``black_format(source)``, computed in parts for a large module (see the module docstring)."""
    from toolgen.parallel import current

    plan = _plan(source) if len(source) >= SPLIT_THRESHOLD else None
    runner = current()
    if plan is None:
        return runner.map("black", black_format, [(source,)], key=_black_key)[0]
    formatted = runner.map("black", black_format, [(s,) for s in plan.sources()], key=_black_key)
    return plan.assemble(formatted)


@dataclass(frozen=True)
class _Literal:
    placeholder: str
    opening: str  # "{" or "["
    groups: tuple[tuple[str, ...], ...]  # element sources, grouped

    def fragment(self, group: tuple[str, ...]) -> str:
        closing = "}" if self.opening == "{" else "]"
        return "_ = " + self.opening + "\n" + "".join(f"    {e},\n" for e in group) + closing + "\n"


@dataclass(frozen=True)
class _Plan:
    chunks: tuple[str, ...]  # top-level code, literals replaced by placeholders
    literals: tuple[_Literal, ...]

    def sources(self) -> list[str]:
        return [*self.chunks, *(lit.fragment(g) for lit in self.literals for g in lit.groups)]

    def assemble(self, formatted: list[str]) -> str:
        chunks, rest = formatted[: len(self.chunks)], iter(formatted[len(self.chunks) :])
        module = "\n\n".join(chunks)  # two blank lines between top-level definitions
        for literal in self.literals:
            closing = "}" if literal.opening == "{" else "]"
            body = []
            for _ in literal.groups:
                lines = next(rest).splitlines(keepends=True)
                if lines[0] != f"_ = {literal.opening}\n" or lines[-1] != closing + "\n":
                    return _whole(self)
                body += lines[1:-1]
            lines = module.splitlines(keepends=True)
            found = [i for i, line in enumerate(lines) if line.endswith(literal.placeholder + "\n")]
            if len(found) != 1:
                return _whole(self)
            head = lines[found[0]][: -len(literal.placeholder) - 1]
            if len(head) + 1 > LINE_LENGTH or head.lstrip() != head:
                return _whole(self)
            lines[found[0]] = head + literal.opening + "\n" + "".join(body) + closing + "\n"
            module = "".join(lines)
        return module


def _whole(plan: _Plan) -> str:
    """The plan's module put back together unformatted, then formatted whole (the safe way)."""
    source = "\n\n".join(plan.chunks)
    for literal in plan.literals:
        closing = "}" if literal.opening == "{" else "]"
        elements = ", ".join(e for g in literal.groups for e in g)
        source = source.replace(literal.placeholder, literal.opening + elements + closing, 1)
    return black_format(source)


def _ends_group(part: str, size: int) -> bool:
    mark = int.from_bytes(hashlib.sha256(part.encode("utf-8", "surrogatepass")).digest()[:4])
    return mark % GROUP_PARTS == 0 or size >= GROUP_MAX_CHARS


def _grouped(parts: list[str]) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    size = 0
    for part in parts:
        groups[-1].append(part)
        size += len(part)
        if _ends_group(part, size):
            groups.append([])
            size = 0
    return [g for g in groups if g]


def _is_definition(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


#: a one-line top-level assignment of a bracketed literal: head, opening bracket, body, closing
_LITERAL_LINE = re.compile(r"([A-Za-z_]\w*(?:: [^=\n]+)? = )([\[{])(.*)([\]}])\n?")
#: the tokens that matter for splitting a literal: strings (as repr writes them), brackets, commas
_TOKEN = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|[\[\](){},]""")
_CLOSING = {"{": "}", "[": "]", "(": ")"}


def _elements(body: str) -> list[str] | None:
    """The top-level elements of a literal's body, split at commas outside strings and brackets;
    None when the body does not scan (the module is then formatted whole)."""
    elements, start, depth = [], 0, 0
    for token in _TOKEN.finditer(body):
        text = token.group()
        if text in "([{":
            depth += 1
        elif text in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif text == "," and depth == 0:
            elements.append(body[start : token.start()].strip())
            start = token.end()
    if depth != 0:
        return None
    last = body[start:].strip()
    if last:
        elements.append(last)
    if len(elements) < 2 or any(not e or e.startswith("*") for e in elements):
        return None
    return elements


def _literal_lines(lines: list[str]) -> list[tuple[int, str, str, list[str]]]:
    """(line index, head, opening bracket, elements) of each large one-line literal assignment.
    Found by scanning text, not by parsing: parsing megabytes of literals is the slow part."""
    found = []
    for index, line in enumerate(lines):
        if len(line) < 2 * LINE_LENGTH or line[:1] in " \t#":
            continue
        match = _LITERAL_LINE.fullmatch(line)
        if match is None or _CLOSING[match.group(2)] != match.group(4):
            continue
        elements = _elements(match.group(3))
        if elements is not None:
            found.append((index, match.group(1), match.group(2), elements))
    return found


def _plan(source: str) -> _Plan | None:
    lines = source.splitlines(keepends=True)
    literals: list[_Literal] = []
    for index, head, opening, elements in _literal_lines(lines):
        placeholder = _PLACEHOLDER.format(len(literals))
        lines[index] = head + placeholder + "\n"
        groups = tuple(tuple(g) for g in _grouped(elements))
        literals.append(_Literal(placeholder, opening, groups))
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        return None
    # each placeholder must be the whole value of a top-level assignment (not, say, text in a
    # string that looked like one); else the module is formatted whole
    values = {
        node.value.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Name)
    }
    if any(literal.placeholder not in values for literal in literals):
        return None
    cuts = [0]
    for before, node in zip(tree.body, tree.body[1:], strict=False):
        start = _first_line(node) - 1
        between = lines[(before.end_lineno or 0) : start]
        blank = bool(between) and all(not line.strip() for line in between)
        if _is_definition(before) and _is_definition(node) and blank:
            cuts.append(start)
    cuts.append(len(lines))
    definitions = ["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]
    chunks = ["".join(g) for g in _grouped(definitions)] if len(definitions) > 1 else definitions
    if not literals and len(chunks) < 2:
        return None
    return _Plan(tuple(chunks), tuple(literals))
