"""black, in pieces: a large generated module is formatted as independent parts, in parallel and
through the cache, with the bytes black gives for the whole module.

black formats a module's top-level statements one logical line at a time; the only thing that
joins two of them is the number of blank lines between them. So a large module is cut

* between two top-level ``def``/``class`` statements separated only by blank lines (black puts
  exactly two blank lines there, whatever was written), and
* inside a one-line top-level assignment of a large ``{...}``, ``[...]`` or ``(...)`` literal
  (the tables of schemas and names): black explodes it to one element per line, each element
  formatted on its own at one level of indentation, so groups of elements are formatted as
  ``_ = {\\n e1,\\n}`` fragments and put back under the statement's own first line.

A module that cannot be cut this way is formatted whole, as is every small one. The parts are
grouped by content (a group ends after an element whose hash says so), so adding one tool changes
one group and leaves the others in the cache.

A caller that has a large literal as data (the tables of a provider module, one element per
contract) gives it as a :class:`Literal` and renders its placeholder in the text: the formatter
then neither writes megabytes of text nor scans them to find the elements again. The elements
whose layout black leaves as written (short names, flags, integers: :func:`_element_line`) are
laid out here, without black or the cache.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import itertools
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

import black
from black.mode import TargetVersion
from black.strings import str_width

from toolgen.infra.cache import digest
from toolgen.infra.parallel import Later, Runner
from toolgen.render import function_layout, literal_layout, overload_stubs, scalar_runs

LINE_LENGTH = 100
MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=LINE_LENGTH)
#: modules shorter than this are formatted whole
SPLIT_THRESHOLD = 6_000
#: a group of parts ends after a part whose hash is 0 modulo this (about this many parts a group)
GROUP_PARTS = 4
GROUP_MAX_CHARS = 60_000
_PLACEHOLDER = "__toolgen_literal_{}__"
#: groups of a literal's elements are this long at least (fewer cache entries to read)
GROUP_MIN_CHARS = 12_000

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class Literal:
    """A ``{...}``, ``[...]`` or ``(...)`` literal given as data to :func:`format_python`: the
    source text of each element (``repr`` text: ``'key': value`` in a dict), written in place of
    :attr:`placeholder`, which must be the whole value of a top-level assignment (else the
    module is formatted whole, with the literal written out on one line). ``name`` tells the
    literals of one module apart (an identifier). ``trailing_comma`` writes a comma after every
    element (black's magic trailing comma: one element a line however short). In a template,
    ``{{ literal }}`` writes the placeholder."""

    name: str
    opening: str  # "{", "[" or "("
    elements: tuple[str, ...]
    trailing_comma: bool = False

    @property
    def placeholder(self) -> str:
        return _PLACEHOLDER.format(self.name)

    def __str__(self) -> str:
        return self.placeholder

    def text(self) -> str:
        """The literal on one line, as ``repr`` writes it (with ``, `` after every element when
        ``trailing_comma``)."""
        if self.trailing_comma:
            return self.opening + "".join(e + ", " for e in self.elements) + self.closing
        if self.opening == "(" and len(self.elements) == 1:
            return "(" + self.elements[0] + ",)"
        return self.opening + ", ".join(self.elements) + self.closing

    @property
    def closing(self) -> str:
        return _CLOSING[self.opening]

    def length(self) -> int:
        """About ``len(self.text())`` (two more at most), without writing it."""
        return sum(map(len, self.elements)) + 2 * len(self.elements) + 2

    def cuttable(self) -> bool:
        """Whether black explodes it one element a line, as the parts assume (what the text scan
        of :func:`_literal_lines` requires of a literal it finds: two elements or more, none
        empty, starred or of several lines; one is enough with a trailing comma, which black
        keeps, where it writes a lone element of a literal it explodes without one). Found
        once: a module is asked when its formatting is planned and when it is done, and a
        table's elements are megabytes."""
        return self._cuttable

    @functools.cached_property
    def _cuttable(self) -> bool:
        few = len(self.elements) < (1 if self.trailing_comma else 2)
        if few or self.length() < 2 * LINE_LENGTH or not all(self.elements):
            return False
        joined = "\0" + "\0".join(self.elements)
        return "\n" not in joined and "\0*" not in joined


def written_out(source: str, literals: Sequence[Literal]) -> str:
    """``source`` with each literal written on one line in the place of its placeholder: the
    module that :func:`format_python` gives black's bytes of."""
    for literal in literals:
        source = source.replace(literal.placeholder, literal.text(), 1)
    return source


def _cut_literals(source: str, literals: Sequence[Literal]) -> tuple[str, list[Literal]]:
    """``source`` with the literals written out that are not to be cut, and those that are."""
    cut: list[Literal] = []
    kept: list[Literal] = []
    for literal in literals:
        if literal.placeholder in source:
            (cut if literal.cuttable() else kept).append(literal)
    return written_out(source, kept), cut


class _Formatted(Generic[K, V]):
    """Black's results in this process, by the text formatted: a process that builds several
    designs (a watch session; a program, or a test suite, that calls ``build``) formats each
    distinct text once, whatever build cache each build has, or none. Bounded in size (about
    ``max_chars`` characters of text given and returned), the oldest results going first; a
    text longer than MAX_TEXT is not kept (a large module's whole, formatted once)."""

    MAX_TEXT = 400_000

    def __init__(self, max_chars: int) -> None:
        self._results: dict[K, tuple[V, int]] = {}
        self._chars = 0
        self._max_chars = max_chars

    def computed(self, key: K, chars: int, compute: Callable[[], V]) -> V:
        found = self._results.get(key)
        if found is not None:
            return found[0]
        result = compute()
        if chars <= self.MAX_TEXT:
            self._results[key] = (result, chars)
            self._chars += chars
            while self._chars > self._max_chars:
                self._chars -= self._results.pop(next(iter(self._results)))[1]
        return result


_FORMATTED: _Formatted[str, str] = _Formatted(4_000_000)
_CHECKED: _Formatted[tuple[str, bool], tuple[str | None, list[str]]] = _Formatted(4_000_000)


def black_format(source: str) -> str:
    """Format with black; a failure here is a toolgen bug, so it raises. A fragment of a large
    literal of JSON values is laid out without black when toolgen/render/literal_layout.py can tell
    what black writes (the same bytes, a tenth of the time); long runs of scalars (large enums)
    are left out of what black sees and put back after (toolgen/render/scalar_runs.py). A text
    this process formatted before is not formatted again (:class:`_Formatted`)."""
    return _FORMATTED.computed(source, 2 * len(source), lambda: _black_format(source))


def _black_format(source: str) -> str:
    return literal_layout.layout(source, MODE) or scalar_runs.format_skeleton(
        scalar_runs.parsed(source, MODE)[0], _black
    )


def format_definition(source: str) -> str:
    """A module of one top-level function, as black formats it (laid out here when
    toolgen/render/function_layout.py can tell): black formats a top-level function the same
    alone as among others."""
    return function_layout.laid_out(source, LINE_LENGTH) or black_format(source)


def _black(source: str) -> str:
    return black.format_str(source, mode=MODE)


@functools.cache
def _black_id() -> str:
    version = black.__version__  # pyright: ignore[reportPrivateImportUsage]
    return digest("black", version, repr(MODE))


def _black_key(arguments: tuple[str, ...]) -> str:
    return digest(_black_id(), arguments[0])


def format_python(source: str, literals: Sequence[Literal] = (), *, runner: Runner) -> str:
    """``black_format(source)``, computed in parts for a large module (see the module docstring)
    by ``runner``; ``literals`` are written where their placeholders are in ``source``."""
    return submit_format(source, literals, runner=runner).result()


def submit_format(source: str, literals: Sequence[Literal] = (), *, runner: Runner) -> Later[str]:
    """:func:`format_python`, with black's work handed to ``runner``'s workers now (the parts of
    a quick plan and its literals' fragments, or a small module whole): the caller renders the
    next module meanwhile. What the quick plan cannot decide alone (a cut that did not hold, a
    large module without one) is done when the result is asked for, as :func:`_format_now`
    does it, so the bytes are the same. In a process that builds again, a module the last build
    formatted is not formatted again (``runner.kept``)."""
    return runner.keeping(
        ("format", source, tuple(literals)), lambda: _submit_format(source, literals, runner)
    )


def _submit_format(source: str, literals: Sequence[Literal], runner: Runner) -> Later[str]:
    cut_source, given = _cut_literals(source, literals)
    size = len(cut_source) + sum(literal.length() - len(literal.placeholder) for literal in given)
    if size >= SPLIT_THRESHOLD:
        quick = _quick_plan(cut_source, given)
        if quick is None:
            return Later(lambda: _format_now(source, literals, runner))
        last = len(quick.chunks) - 1
        parts = runner.submit(
            "black-part",
            _checked_black,
            [(chunk, index == last) for index, chunk in enumerate(quick.chunks)],
            key=_part_key,
        )
        fragments = runner.submit(
            "black",
            black_format,
            [(s,) for s in quick.sources()[len(quick.chunks) :]],
            key=_black_key,
        )

        def assembled() -> str:
            checked = parts.result()
            if any(text is None for text, _ in checked) or not _placed(quick, checked):
                return _format_now(source, literals, runner)
            return quick.assemble([str(text) for text, _ in checked] + fragments.result())

        return Later(assembled)
    whole = runner.submit(
        "black", black_format, [(written_out(cut_source, given),)], key=_black_key
    )
    return Later(lambda: whole.result()[0])


def _format_now(source: str, literals: Sequence[Literal], runner: Runner) -> str:
    """:func:`format_python` step by step, waiting for each step's results."""
    source, given = _cut_literals(source, literals)
    size = len(source) + sum(literal.length() - len(literal.placeholder) for literal in given)
    if size >= SPLIT_THRESHOLD:
        quick = _quick_plan(source, given)
        checked = _check_parts(quick, runner) if quick is not None else None
        if checked is not None:
            quick, parts = checked
            fragments = quick.sources()[len(parts) :]
            return quick.assemble(parts + _black_each(fragments, runner))
        # no cut between definitions (a module of tables): the given literals stay data, not
        # megabytes of text written out here and scanned back into elements by _plan
        plan = _plan(source, given) if given else None
        if plan is not None:
            return _formatted(plan, runner)
    source = written_out(source, given)
    plan = _plan(source) if len(source) >= SPLIT_THRESHOLD else None
    if plan is None:
        return runner.map("black", black_format, [(source,)], key=_black_key)[0]
    return _formatted(plan, runner)


def _formatted(plan: _Plan, runner: Runner) -> str:
    return plan.assemble(_black_each(plan.sources(), runner))


def _black_each(sources: Sequence[str], runner: Runner) -> list[str]:
    """:func:`black_format` of each source, through the runner's cache. In a process that
    builds again, a source the last build formatted is found by its text: a rebuild that changed
    one element of a table of thousands formats its group, and neither hashes the megabytes of
    the other groups for their cache keys nor reads and decodes their entries again."""
    kept = runner.kept
    if kept is None:
        return runner.map("black", black_format, [(s,) for s in sources], key=_black_key)
    found: list[str | None] = [kept.get(("black", source)) for source in sources]
    todo = [source for source, text in zip(sources, found, strict=True) if text is None]
    computed = runner.map("black", black_format, [(s,) for s in todo], key=_black_key)
    for source, text in zip(todo, computed, strict=True):
        kept.put(("black", source), text)
    done = iter(computed)
    return [text if text is not None else next(done) for text in found]


#: how many times the parts of a quick plan are joined at the cuts that did not hold
MAX_JOINS = 8


def _check_parts(plan: _Plan, runner: Runner) -> tuple[_Plan, list[str]] | None:
    """The plan with its parts formatted and checked (:func:`_checked_black`); a part that does
    not end with a definition is joined with the next one and checked again. None when the cuts
    do not hold in the end."""
    chunks = list(plan.chunks)
    for _ in range(MAX_JOINS):
        last = len(chunks) - 1
        checked = runner.map(
            "black-part",
            _checked_black,
            [(chunk, index == last) for index, chunk in enumerate(chunks)],
            key=_part_key,
        )
        failed = {index for index, (text, _) in enumerate(checked) if text is None}
        if not failed:
            if not _placed(plan, checked):
                return None
            return replace(plan, chunks=tuple(chunks)), [str(text) for text, _ in checked]
        if last in failed:
            return None
        joined: list[str] = []
        for index, chunk in enumerate(chunks):
            if index - 1 in failed and joined:
                joined[-1] += chunk
            else:
                joined.append(chunk)
        chunks = joined
    return None


def _part_key(arguments: tuple[str, bool]) -> str:
    return digest(_black_id(), "part", *arguments)


def _checked_black(source: str, ends_module: bool) -> tuple[str | None, list[str]]:
    return _CHECKED.computed(
        (source, ends_module), 2 * len(source), lambda: _checked_black_now(source, ends_module)
    )


def _checked_black_now(source: str, ends_module: bool) -> tuple[str | None, list[str]]:
    """A part of :func:`_quick_plan` formatted, with what makes its cuts sound: None when it is
    not a module of its own, or (unless it ends the module) does not end with a ``def``/``class``
    and blank lines; else also the names that its top-level assignments have as whole values."""
    tree = scalar_runs.parsed(source, MODE)[1]  # parsed without the runs: a fraction of the memory
    if tree is None:
        return None, []
    if not ends_module:
        last = tree.body[-1] if tree.body else None
        if last is None or not _is_definition(last):
            return None, []
        if any(line.strip() for line in source.splitlines()[last.end_lineno or 0 :]):
            return None, []
    names = [
        node.value.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Name)
    ]
    return (
        overload_stubs.laid_out(source, LINE_LENGTH)
        or function_layout.laid_out(source, LINE_LENGTH)
        or _functions_apart(source, tree)
        or black_format(source)
    ), names


def _functions_apart(source: str, tree: ast.Module) -> str | None:
    """A part of plain functions (no decorator, nothing but blank lines between them) that
    function_layout could not lay out whole: each function laid out there or formatted by black
    alone (black formats a top-level function the same alone as among others), joined by two
    blank lines; None for a part of another shape."""
    nodes = tree.body
    if len(nodes) < 2 or not all(
        isinstance(node, ast.FunctionDef) and not node.decorator_list and not _stub(node)
        for node in nodes
    ):
        return None  # (black keeps stubs written together together: no two blank lines)
    lines = source.splitlines(keepends=True)
    starts = [node.lineno - 1 for node in nodes]
    ends = [node.end_lineno or 0 for node in nodes]
    gaps = zip([0, *ends], [*starts, len(lines)], strict=True)
    if any(line.strip() for start, end in gaps for line in lines[start:end]):
        return None  # a comment between two functions: black places it with its neighbours
    functions = ["".join(lines[start:end]) for start, end in zip(starts, ends, strict=True)]
    return "\n\n".join(
        function_layout.laid_out(text, LINE_LENGTH) or black_format(text) for text in functions
    )


def _stub(node: ast.FunctionDef) -> bool:
    """A function whose body is ``...`` (black's dummy implementation)."""
    body = node.body
    return (
        len(body) == 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and body[0].value.value is Ellipsis
    )


def _placed(plan: _Plan, checked: Sequence[tuple[str | None, list[str]]]) -> bool:
    """Each literal's placeholder is the whole value of a top-level assignment (as :func:`_plan`
    requires); the last part is the module's end and need not end with a definition."""
    names = {name for _, found in checked for name in found}
    return all(literal.placeholder in names for literal in plan.literals)


@dataclass(frozen=True)
class _Literal:
    placeholder: str
    opening: str  # "{", "[" or "("
    groups: tuple[tuple[str, ...], ...]  # element sources, grouped
    #: each group's lines as black writes them, when :func:`_element_line` can tell (None: black)
    laid_out: tuple[str | None, ...]

    @property
    def closing(self) -> str:
        return _CLOSING[self.opening]

    @property
    def fragment_brackets(self) -> tuple[str, str]:
        """A tuple's elements are formatted in a list: black keeps a one-element tuple on one
        line (its comma is not magic), and formats the elements of both the same way."""
        return ("[", "]") if self.opening == "(" else (self.opening, self.closing)

    def fragment(self, group: tuple[str, ...]) -> str:
        opening, closing = self.fragment_brackets
        return "_ = " + opening + "\n" + "".join(f"    {e},\n" for e in group) + closing + "\n"


@dataclass(frozen=True)
class _Plan:
    chunks: tuple[str, ...]  # top-level code, literals replaced by placeholders
    literals: tuple[_Literal, ...]

    def sources(self) -> list[str]:
        return [
            *self.chunks,
            *(
                literal.fragment(group)
                for literal in self.literals
                for group, laid_out in zip(literal.groups, literal.laid_out, strict=True)
                if laid_out is None
            ),
        ]

    def assemble(self, formatted: list[str]) -> str:
        chunks, rest = formatted[: len(self.chunks)], iter(formatted[len(self.chunks) :])
        module = "\n\n".join(chunks)  # two blank lines between top-level definitions
        places: list[tuple[int, int, str]] = []  # (start, end, text) of each placeholder's line
        for literal in self.literals:
            opening, closing = literal.fragment_brackets
            first, last = f"_ = {opening}\n", f"\n{closing}\n"
            body = []
            for laid_out in literal.laid_out:
                if laid_out is None:
                    text = next(rest)
                    if not text.startswith(first) or not text.endswith(last):
                        return _whole(self)
                    laid_out = text[len(first) : len(text) - len(last) + 1]
                body.append(laid_out)
            end = module.find(literal.placeholder + "\n")
            if end < 0 or module.count(literal.placeholder) != 1:
                return _whole(self)
            start = module.rfind("\n", 0, end) + 1
            head = module[start:end]
            if len(head) + 1 > LINE_LENGTH or head.lstrip() != head:
                return _whole(self)
            text = head + literal.opening + "\n" + "".join(body) + literal.closing
            places.append((start, end + len(literal.placeholder), text))
        pieces, position = [], 0
        for start, end, text in sorted(places):
            pieces += [module[position:start], text]
            position = end
        pieces.append(module[position:])
        return "".join(pieces)


def _whole(plan: _Plan) -> str:
    """The plan's module put back together unformatted, then formatted whole (the safe way)."""
    source = "\n\n".join(plan.chunks)
    for literal in plan.literals:
        closing = literal.closing
        elements = ", ".join(e for g in literal.groups for e in g)
        source = source.replace(literal.placeholder, literal.opening + elements + closing, 1)
    return black_format(source)


def _ends_group(part: str, size: int, min_chars: int) -> bool:
    if size >= GROUP_MAX_CHARS:
        return True
    if size < min_chars:
        return False
    mark = int.from_bytes(hashlib.sha256(part.encode("utf-8", "surrogatepass")).digest()[:4])
    return mark % GROUP_PARTS == 0


def grouped(parts: Sequence[str], min_chars: int = 0) -> list[list[str]]:
    """``parts`` in groups cut by content: a group ends after a part whose hash says so (once it
    has ``min_chars``), so a changed part changes its own group only."""
    groups: list[list[str]] = [[]]
    size = 0
    for part in parts:
        groups[-1].append(part)
        size += len(part)
        if _ends_group(part, size, min_chars):
            groups.append([])
            size = 0
    return [g for g in groups if g]


def _is_definition(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


#: a one-line top-level assignment of a bracketed literal: head, opening bracket, body, closing
_LITERAL_LINE = re.compile(r"([A-Za-z_]\w*(?:: [^=\n]+)? = )([\[{(])(.*)([\]})])\n?")
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


#: an element's scalar tokens whose text black keeps but for the quotes of a string (repr writes
#: single quotes; black double ones, which a string without quotes or backslashes takes as is)
#: (no line break of str.splitlines or NUL in a string: repr escapes them all)
_STRING = r"""'[^'"\\\n\r\0\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*'"""
_SCALAR = rf"{_STRING}|-?(?:0|[1-9][0-9]*)|True|False|None"
_TUPLE = rf"\((?:{_SCALAR})(?:, (?:{_SCALAR}))+\)"
#: ``value`` or ``key: value`` of scalars: one line however long (no bracket to split at)
_SCALAR_ELEMENT = re.compile(rf"(?:(?:{_SCALAR}): )?(?:{_SCALAR})")
#: the same with tuples of two or more scalars: one line when it fits
_SHORT_ELEMENT = re.compile(rf"(?:(?:{_SCALAR}|{_TUPLE}): )?(?:{_SCALAR}|{_TUPLE})")
#: what neither the key nor the text of :func:`_text_element` may hold: the characters the
#: character classes of :data:`_STRING` exclude, but the double quote
_NOT_IN_TEXT = (
    "'",
    "\\",
    "\n",
    "\r",
    "\0",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x85",
    "\u2028",
    "\u2029",
)


def _text_element(element: str) -> tuple[str, str] | None:
    """(the key without its quotes, the text with them) of ``'key': 'text'`` whose text has
    double quotes and neither single quotes nor backslashes (JSON text, as repr writes it):
    black keeps the text's single quotes, since double ones would need an escape each, and
    writes the key's as double ones. Else None. Tested with ``in``, not a regular expression:
    a table of schemas is megabytes of such texts, which the regular expression engine walks
    a character at a time (tests/test_text_element.py holds the pattern this equals)."""
    end = element.find("'", 1)
    if (
        not element.startswith("'")
        or end < 0
        or not element.startswith(": '", end + 1)
        or len(element) < end + 5
        or not element.endswith("'")
    ):
        return None
    key, text = element[1:end], element[end + 4 : -1]
    if '"' in key or '"' not in text:
        return None
    for character in _NOT_IN_TEXT:
        if character in key or character in text:
            return None
    return key, element[end + 3 :]


def _element_line(element: str) -> str | None:
    """The line black writes for ``element`` in an exploded literal, when its tokens are all
    scalars (and tuples of them that fit on the line); None when black has to say."""
    if _SCALAR_ELEMENT.fullmatch(element) or (
        _SHORT_ELEMENT.fullmatch(element) and str_width(element) + 5 <= LINE_LENGTH
    ):
        return "    " + element.replace("'", '"') + ",\n"
    text = _text_element(element)
    if text is not None:
        return f'    "{text[0]}": {text[1]},\n'
    return None


#: every element of a literal, each followed by NUL, is one of :data:`_SCALAR_ELEMENT`
_SCALAR_ELEMENTS = re.compile(rf"(?:(?:(?:{_SCALAR}): )?(?:{_SCALAR})\0)*")
_SHORT_ELEMENTS = re.compile(rf"(?:(?:(?:{_SCALAR}|{_TUPLE}): )?(?:{_SCALAR}|{_TUPLE})\0)*")


def _all_laid_out(elements: Sequence[str]) -> str | None:
    """The lines of all ``elements`` when :func:`_element_line` lays out each one, found with
    one scan of their text (a table of names or flags has thousands of elements); else None."""
    joined = "\0".join(elements) + "\0"
    if not _SCALAR_ELEMENTS.fullmatch(joined) and not (
        _SHORT_ELEMENTS.fullmatch(joined)
        and joined.isascii()  # then the width of a line is its length
        and max(map(len, elements)) + 5 <= LINE_LENGTH
    ):
        return None
    return "    " + joined[:-1].replace("'", '"').replace("\0", ",\n    ") + ",\n"


def _laid_out(lines: Sequence[str | None]) -> str | None:
    return None if any(line is None for line in lines) else "".join(lines)  # type: ignore[arg-type]


def _literal(placeholder: str, opening: str, elements: Sequence[str]) -> _Literal:
    """A literal in groups of elements; one group when every element is laid out here."""
    whole = _all_laid_out(elements)
    if whole is not None:
        return _Literal(placeholder, opening, (tuple(elements),), (whole,))
    lines = [_element_line(element) for element in elements]
    groups: list[tuple[str, ...]] = []
    laid_out: list[str | None] = []
    start = 0
    for group in grouped(elements, GROUP_MIN_CHARS):
        group_lines = lines[start : start + len(group)]
        start += len(group)
        # a group of both kinds: its runs of laid-out lines kept, only the others go to black
        # (black formats each element of an exploded literal alone, so a run is a fragment)
        pairs_of_group = zip(group, group_lines, strict=True)
        for known, run in itertools.groupby(pairs_of_group, lambda p: p[1] is not None):
            pairs = list(run)
            groups.append(tuple(element for element, _ in pairs))
            laid_out.append(_laid_out([line for _, line in pairs]) if known else None)
    return _Literal(placeholder, opening, tuple(groups), tuple(laid_out))


def _with_placeholders(
    source: str, given: Sequence[Literal] = ()
) -> tuple[list[str], list[_Literal]]:
    """The module's lines with each large literal replaced by a placeholder, and the literals
    (``given`` first: their placeholders are in the text already)."""
    lines = source.splitlines(keepends=True)
    literals = [_known_literal(g.placeholder, g.opening, tuple(g.elements)) for g in given]
    for index, head, opening, elements in _literal_lines(lines):
        placeholder = _PLACEHOLDER.format(len(literals))
        lines[index] = head + placeholder + "\n"
        literals.append(_known_literal(placeholder, opening, tuple(elements)))
    return lines, literals


#: :func:`_literal` of the last literals (a module's are laid out by its quick plan, then by
#: its plan when a cut did not hold; and a process that builds again lays out the same tables)
_known_literal = functools.lru_cache(maxsize=32)(_literal)


#: a top-level ``def``/``class`` (or its first decorator) at the start of a line
_DEFINITION_START = re.compile(r"(?:@|def |async def |class )")


def _quick_plan(source: str, given: Sequence[Literal] = ()) -> _Plan | None:
    """Cuts found in the text, not by parsing the module (parsing megabytes of code is slow):
    before each line that starts a top-level ``def``, ``class`` or decorator after a blank line.
    The cuts are sound only if every part is a module of its own that ends with a definition and
    blank lines (so no cut falls in a string or a bracket, and each is between two top-level
    definitions, as :func:`_plan` cuts); :func:`_checked_black` checks that with each part, so
    only the parts that changed are parsed. When a part fails, the module is planned by
    :func:`_plan`. The module's head (imports, constants) goes with its first definition: it
    ends with no definition, so a cut after it would fail."""
    lines, literals = _with_placeholders(source, given)
    cuts = [0]
    cuts += [
        index
        for index in range(1, len(lines))
        if _DEFINITION_START.match(lines[index]) and not lines[index - 1].strip()
    ]
    cuts.append(len(lines))
    if len(cuts) < 3:
        return None
    if not _DEFINITION_START.match(lines[0]):
        del cuts[1]  # the module's head ends with no definition: its cut could not hold
    definitions = ["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]
    return _Plan(tuple(_grouped_apart(definitions)), tuple(literals))


def _grouped_apart(definitions: list[str]) -> list[str]:
    """The parts of :func:`_quick_plan`: the definitions in groups (:func:`grouped`), but a run
    of overload stubs a part of its own (laid out without black: toolgen/render/overload_stubs.py)."""
    parts: list[str] = []
    pending: list[str] = []
    for definition in definitions:
        if overload_stubs.RUN.fullmatch(definition):
            parts += ["".join(group) for group in grouped(pending)] + [definition]
            pending = []
        else:
            pending.append(definition)
    return parts + ["".join(group) for group in grouped(pending)]


def _plan(source: str, given: Sequence[Literal] = ()) -> _Plan | None:
    lines, literals = _with_placeholders(source, given)
    tree = scalar_runs.parsed("".join(lines), MODE)[1]
    if tree is None:
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
    chunks = ["".join(g) for g in grouped(definitions)] if len(definitions) > 1 else definitions
    if not literals and len(chunks) < 2:
        return None
    return _Plan(tuple(chunks), tuple(literals))
