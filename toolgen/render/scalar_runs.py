"""black on a module whose long runs of scalars are left out, and put back after.

A bracket whose body is a long run of scalars (strings, numbers, ``True``/``False``/``None``) joined
by commas is what a large enum becomes: ``Literal['a', 'b', ...]`` in a model module, the
``'enum': [...]`` of a schema in a provider module's table. black's time and memory grow with such
a run (100,000 values: about two minutes and half a gigabyte), yet its layout of it is certain:
once the bracket does not fit on its line, each element goes on a line of its own at one level of
indentation under the bracket, followed by a comma; the element's text is black's normalized
token, and a line that is too long stays as it is.

So the middle of a run is replaced by one marker string, black formats what is left (the
skeleton), and the marker's line is replaced by the lines of the elements it stands for. The
parts kept around the marker are what make the bytes the same as black's on the whole module:

* at least two elements and more than twice the line length of text on each side of the marker,
  so the bracket is too long for a line in both texts, and every scan black makes of a line's
  length from either end (``generate_trailers_to_omit``, ``_can_omit_closing_paren`` ...) passes
  the limit before it reaches the part left out: every decision black takes is the same;
* only elements whose line fits are left out (a too long line would change black's "second
  opinion" on the enclosing statement), and none with a character that ends a line for
  ``str.splitlines``; the others stay in the skeleton, in their place;
* the marker has to be an element of a list, tuple or set in the parsed skeleton, between two
  kept elements (not text in a string or a call's argument), and black has to write it on a line
  of its own between the lines of its neighbours; else black formats the whole module.

tests/test_scalar_runs.py compares the result with black's on generated modules.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from black.mode import Mode
from black.strings import str_width

from toolgen.render import literal_layout

_STRING = r"""'(?:[^'\\\n]++|\\.)*+'|"(?:[^"\\\n]++|\\.)*+\""""
_NUMBER = r"-?[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?(?![\w.])"
_SCALAR = rf"(?:{_STRING}|{_NUMBER}|(?:True|False|None)(?!\w))"
#: a bracket whose body is scalars joined by commas (one space or none after each); possessive:
#: the regex engine keeps no state to go back to per element (a gigabyte for 100,000 of them)
_RUN = re.compile(rf"[\[({{]({_SCALAR}(?:, ?{_SCALAR})++,?)[\])}}]")
_ELEMENT = re.compile(_SCALAR)
#: a string black writes as is but for its quotes (no quote, backslash or line end inside)
_PLAIN_STRING = re.compile(r"""'[^'"\\\n\r\0\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*'""")
#: characters that end a line for str.splitlines (their elements are left to black)
_LINE_ENDS = re.compile("[\r\0\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")

#: runs with fewer elements than this are left as they are (nothing to gain)
MIN_ELEMENTS = 64
#: an element this wide at most is left out (its line fits at up to 9 levels of indentation)
MAX_WIDTH = 60
#: a stretch of short elements shorter than this stays in the skeleton
MIN_STRETCH = 8


@dataclass(frozen=True)
class _Elided:
    marker: str  # the marker's text in the skeleton (a string)
    before: str  # the normalized text of the kept element before it
    after: str  # ... and after it
    texts: tuple[str, ...]  # the normalized texts of the elements it stands for
    run_size: int = 0  # the elements of its bracket in the skeleton


def _normalized(element: str, mode: Mode) -> str:
    """The text black writes for a scalar element."""
    if _PLAIN_STRING.fullmatch(element):
        return '"' + element[1:-1] + '"'
    if element[0] in "'\"":
        return literal_layout.string_text(element, mode)
    if element[0] in "-0123456789":
        return literal_layout.number_text(element)
    return element


def _kept_count(elements: Sequence[str], mode: Mode) -> int:
    """How many elements from the start of ``elements`` keep the bracket too long to fit."""
    length = width = 0
    for count, element in enumerate(elements, start=1):
        length += len(element) + 2
        width += str_width(element) + 2
        if count >= 2 and min(length, width) > 2 * mode.line_length:
            return count
    return len(elements)


#: elements joined by NUL, each a string without quotes, backslashes or control characters
_PLAIN_STRINGS = re.compile(r"""(?:'[^'"\\\x00-\x1f\x7f]*'\0)*+""")


def _plain_texts(elements: Sequence[str]) -> tuple[str, ...] | None:
    """black's texts of ``elements`` when all are short ASCII strings black only requotes (each
    one :func:`_elidable`; then :func:`_normalized` gives the same); else None."""
    joined = "\0".join(elements) + "\0"
    if not joined.isascii() or max(map(len, elements)) > MAX_WIDTH:
        return None
    if not _PLAIN_STRINGS.fullmatch(joined):
        return None
    return tuple(joined[:-1].replace("'", '"').split("\0"))


def _is_call(source: str, opening: int) -> bool:
    """Whether the bracket at ``opening`` is a call's parenthesis (its arguments are no run: the
    skeleton would not hold, and the module's other runs would go to black with it)."""
    before = source[:opening].rstrip(" ")[-1:]
    return source[opening] == "(" and (before.isidentifier() or before.isdigit() or before in ")]")


def _elidable(element: str) -> bool:
    return str_width(element) <= MAX_WIDTH and not _LINE_ENDS.search(element)


class Skeleton:
    """``source`` with its long runs of scalars left out (:attr:`text`), and what to put back."""

    def __init__(self, source: str, mode: Mode) -> None:
        self.source = source
        self.mode = mode
        self.elided: list[_Elided] = []
        pieces: list[str] = []
        position = 0
        for run in _RUN.finditer(source):
            if run.group(1).count(",") + 1 < MIN_ELEMENTS or _is_call(source, run.start()):
                continue
            elements = _ELEMENT.findall(run.group(1))
            head = _kept_count(elements, mode)
            tail = _kept_count(elements[::-1], mode)
            if head + tail + MIN_STRETCH > len(elements):
                continue
            first = len(self.elided)
            kept = self._skeleton_elements(elements, head, len(elements) - tail, source)
            if kept is None:  # a marker's text is in the module already: no skeleton
                self.elided, self.text = [], source
                return
            self.elided[first:] = [replace(e, run_size=len(kept)) for e in self.elided[first:]]
            start, end = run.span(1)
            trailing = run.group(1).rstrip()[-1] == ","
            pieces += [source[position:start], ", ".join(kept) + ("," if trailing else "")]
            position = end
        pieces.append(source[position:])
        self.text = "".join(pieces) if self.elided else source

    def _skeleton_elements(
        self, elements: list[str], start: int, end: int, source: str
    ) -> list[str] | None:
        """``elements`` with each stretch of short ones in ``[start, end)`` replaced by a marker."""
        kept = elements[:start]
        plain = _plain_texts(elements[start:end])  # the usual enum: one scan for all
        index = start
        while index < end:
            stop = end if plain is not None else index
            while stop < end and _elidable(elements[stop]):
                stop += 1
            if stop - index >= MIN_STRETCH:
                marker = f"__toolgen_elided_{len(self.elided)}__"
                if marker in source:
                    return None
                self.elided.append(
                    _Elided(
                        f'"{marker}"',
                        _normalized(elements[index - 1], self.mode),
                        _normalized(elements[stop], self.mode),
                        (
                            plain
                            if plain is not None
                            else tuple(_normalized(e, self.mode) for e in elements[index:stop])
                        ),
                    )
                )
                kept.append(f"'{marker}'")
            else:
                kept += elements[index:stop]
            if stop < end:
                kept.append(elements[stop])  # an element that is not short
            index = stop + 1
        return kept + elements[end:]

    def placed(self, tree: ast.Module) -> bool:
        """Each marker is, in ``tree`` (:attr:`text` parsed), an element of a list, tuple or set
        of constants that has as many elements as its run in the skeleton (the bracket the text
        scan found). Then the original parses to the same statements on the same lines."""
        sizes = {elided.marker[1:-1]: elided.run_size for elided in self.elided}
        found: list[str] = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.List | ast.Tuple | ast.Set):
                continue
            markers = [
                e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in sizes
            ]
            if markers and not (
                all(map(_is_constant, node.elts))
                and all(sizes[marker] == len(node.elts) for marker in markers)
            ):
                return False
            found += markers
        return sorted(found) == sorted(sizes)

    def put_back(self, formatted: str) -> str | None:
        """black's output of the skeleton with each marker's line replaced by the lines of its
        elements; None when a marker is not where the layout says."""
        pieces: list[str] = []
        position = 0
        for elided in self.elided:
            at = formatted.find(elided.marker + ",\n", position)
            if at < 0 or formatted.count(elided.marker) != 1:
                return None
            start = formatted.rfind("\n", 0, at) + 1
            indent = formatted[start:at]
            widest = max(map(str_width, elided.texts))
            if indent.strip(" ") or len(indent) + widest + 1 > self.mode.line_length:
                return None
            previous = formatted.rfind("\n", 0, start - 1) + 1
            end = at + len(elided.marker) + 2
            if formatted[
                previous:start
            ] != f"{indent}{elided.before},\n" or not formatted.startswith(
                f"{indent}{elided.after},", end
            ):
                return None
            pieces += [formatted[position:start], "".join(f"{indent}{t},\n" for t in elided.texts)]
            position = end
        pieces.append(formatted[position:])
        return "".join(pieces)


def _is_constant(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant)


def parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def parsed(source: str, mode: Mode) -> tuple[Skeleton, ast.Module | None]:
    """The skeleton of ``source`` and the tree of ``source``: parsed from the skeleton when it
    holds (the same statements on the same lines, a fraction of the memory), else whole."""
    skeleton = Skeleton(source, mode)
    tree = parse(skeleton.text)
    if skeleton.elided and (tree is None or not skeleton.placed(tree)):
        skeleton.elided, skeleton.text = [], source
        tree = parse(source)
    return skeleton, tree


def format_skeleton(skeleton: Skeleton, black: Callable[[str], str]) -> str:
    """``black(skeleton.source)``, computed on the skeleton's text when it keeps the layout (see
    the module docstring); the skeleton must have been checked by :func:`parsed`."""
    if skeleton.elided:
        formatted = skeleton.put_back(black(skeleton.text))
        if formatted is not None:
            return formatted
    return black(skeleton.source)
