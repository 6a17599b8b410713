"""Splitting ``_canonical.py`` into a core and one module per contract, loaded on first use.

The linked module is formatted whole (as before: cached in parts), then the functions that only
one contract's canonicalizer reaches are cut out of the formatted text into that contract's module
(``_canonical_parts/tool_maps_route.py``): black formats a top-level function the same alone as
among others, and removing one with the two blank lines after it leaves the rest as black wrote
it. What two contracts or more reach and the constants stay in the core, which imports a
contract's module when its canonicalizer is first asked for; so importing the package and decoding
a call costs the same for ten tools as for thousands. The fixed helpers are no part of either:
the core and each part import those their functions call from ``_canonical_support``
(``toolgen.compile.canonical.helpers``).
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import re
import symtable
from collections.abc import Callable
from dataclasses import dataclass, field

from toolgen.compile.canonical.helpers import (
    HELPERS,
    SUPPORT_MODULE,
    import_statement,
    support_import,
)
from toolgen.infra.cache import code_fingerprint, digest
from toolgen.infra.kept import Kept
from toolgen.infra.parallel import Runner

#: the start of a top-level line of the formatted module after the first (the ``)`` of a
#: signature black wrapped is not one): its line end before it
_TOP_LINE = re.compile(r"\n(?=[^\s)])")
_TOP_FIRST = re.compile(r"[^\s)]")
#: the longest module name of a part (a file name has at most 255 bytes)
_LONGEST = 100
_IDENTIFIER = re.compile(r"\b_\w+\b")
#: the core's import of the helpers (one line, or one name a line in parentheses)
_SUPPORT_IMPORT = re.compile(
    rf"^from \.{SUPPORT_MODULE} import (?:\([^)]*\)|[^\n]*)$", re.MULTILINE
)
#: the standard library names a contract's functions may use, and where they come from
_STDLIB = {
    "Any": "typing",
    "Callable": "collections.abc",
    "Mapping": "collections.abc",
    "Sequence": "collections.abc",
    "Fraction": "fractions",
    "Number": "numbers",
}
_MODULES = ("json", "re")
#: the names a contract's module does not import from the core (made once: a build imports for
#: thousands of contracts)
_NOT_FROM_CORE = frozenset({*_STDLIB, *_MODULES, *dir(builtins)})
_HELPER_NAMES = frozenset(HELPERS)


@dataclass(frozen=True)
class Split:
    """The core module's text and each contract's module (name in the parts package -> text);
    ``texts``: each compiled function's formatted text, up to the next top-level line."""

    core: str
    parts: dict[str, str]
    texts: dict[str, str] = field(default_factory=dict)


def part_name(root: str) -> str:
    """The module of the canonicalizer function ``root`` (``_tool_maps_route``) in the parts
    package: its name without the leading underscore (cut, with a hash of it, when long)."""
    name = root.removeprefix("_")
    if len(name) <= _LONGEST:
        return name
    return f"{name[: _LONGEST - 13]}_{hashlib.sha256(name.encode()).hexdigest()[:12]}"


def owners(
    functions: dict[str, str], roots: list[str], kept: Kept | None = None, tag: str = ""
) -> dict[str, set[str]]:
    """Function name -> the roots whose canonicalizer reaches it (calls it, at any depth).
    ``kept``: in a process that builds again, the names each function's text holds, by its text,
    in one map a build (under ``tag``: the module's name)."""
    last: dict[str, frozenset[str]] = (kept.get(("names", tag)) if kept else None) or {}
    held: dict[str, frozenset[str]] = {}
    calls: dict[str, set[str]] = {}
    for name, text in functions.items():
        found = last.get(text)
        if found is None:
            found = frozenset(_IDENTIFIER.findall(text))
        held[text] = found
        calls[name] = {called for called in found if called in functions and called != name}
    if kept is not None:
        kept.put(("names", tag), held)
    reached: dict[str, set[str]] = {name: set() for name in functions}
    for root in roots:
        frontier = [root]
        while frontier:
            name = frontier.pop()
            if root in reached[name]:
                continue
            reached[name].add(root)
            frontier += calls[name]
    return reached


def global_names(source: str) -> list[str]:
    """The global names the functions of ``source`` read (a quarter of a millisecond a contract:
    the build caches them by ``source``)."""
    table = symtable.symtable(source, "<part>", "exec")
    found: set[str] = set()
    for child in table.get_children():
        if isinstance(child, symtable.Function):
            found.update(child.get_globals())
    return sorted(found)


def _imports(used: set[str], core: str) -> str:
    """The import block of a contract's module: stdlib names from the stdlib, the helpers from
    the support module, the core's own names from the core (one a line when they do not fit
    black's 88 columns)."""
    return _imports_of(frozenset(used), core)


#: most contracts' modules use one of a few sets of names: each block is made once a process
@functools.lru_cache(maxsize=4096)
def _imports_of(used: frozenset[str], core: str) -> str:
    lines = [f"import {module}" for module in _MODULES if module in used]
    if lines:
        lines.append("")
    by_module: dict[str, list[str]] = {}
    for name in sorted(used & set(_STDLIB)):
        by_module.setdefault(_STDLIB[name], []).append(name)
    for module in sorted(by_module):
        lines.append(f"from {module} import {', '.join(sorted(by_module[module]))}")
    helpers = used & _HELPER_NAMES
    own = used - helpers - _NOT_FROM_CORE
    local = {f"..{core}": own, f"..{SUPPORT_MODULE}": helpers}
    if own or helpers:
        lines.append("")
        lines += [
            import_statement(module, names) for module, names in sorted(local.items()) if names
        ]
    return "\n".join(lines) + "\n"


def _core_imports(core: str, texts: dict[str, str], moved: dict[str, list[str]]) -> str:
    """``core`` (the module cut) importing only the helpers its remaining functions call, and
    ``canonicalize_text`` (it re-exports it)."""
    gone = {name for names in moved.values() for name in names}
    kept = "".join(text for name, text in texts.items() if name not in gone)
    imports = _SUPPORT_IMPORT.findall(core)
    if len(imports) != 1:
        raise AssertionError(f"the canonical module imports its helpers {len(imports)} times")
    statement = support_import(kept, ".", "canonicalize_text")
    return _SUPPORT_IMPORT.sub(lambda _: statement, core, count=1)


def _function_spans(formatted: str, compiled: set[str]) -> dict[str, tuple[int, int]]:
    """Name -> (start, end) of each ``compiled`` top-level function of ``formatted``: from its
    ``def`` up to the next top-level line (a function the module ends with is not one: the
    template's own code follows the compiled functions). One scan for line ends, which the
    regular expression engine finds fast, where a pattern anchored at every line start is
    tried at every character."""
    starts = [0] if _TOP_FIRST.match(formatted) else []
    starts += [match.end() for match in _TOP_LINE.finditer(formatted)]
    spans: dict[str, tuple[int, int]] = {}
    for start, end in zip(starts, starts[1:], strict=False):
        if formatted.startswith("def ", start):
            name = formatted[start + 4 : formatted.find("(", start)]
            if name in compiled:
                spans[name] = (start, end)
    return spans


def split_module(
    formatted: str, roots: list[str], compiled: set[str], core: str, header: str, runner: Runner
) -> Split:
    """``formatted`` (the whole module ``core``, black-formatted) cut into its core and one module
    per root function (``roots``: the canonicalizers); only the ``compiled`` functions move (the
    template's own code stays), and the core then imports only the helpers it still calls."""
    spans = _function_spans(formatted, compiled)
    texts = {name: formatted[start:end] for name, (start, end) in spans.items()}

    def without(gone: set[str]) -> str:
        kept: list[str] = []
        position = 0
        for start, end in sorted(spans[name] for name in gone):
            kept.append(formatted[position:start])
            position = end
        return "".join(kept) + formatted[position:]

    return split_functions(texts, roots, core, header, runner, without)


def split_functions(
    texts: dict[str, str],
    roots: list[str],
    core: str,
    header: str,
    runner: Runner,
    without: Callable[[set[str]], str],
) -> Split:
    """:func:`split_module` of a module whose compiled functions are ``texts`` (name -> its
    formatted text up to the next top-level line, in the module's order); ``without(names)``
    is the formatted module without those functions' texts."""
    reached = owners(texts, roots, runner.kept, core)
    moved: dict[str, list[str]] = {root: [] for root in roots}
    for name in texts:  # in the module's order
        if len(reached[name]) == 1:
            moved[next(iter(reached[name]))].append(name)
    gone = {name for names in moved.values() for name in names}
    core_text = _core_imports(without(gone), texts, moved)
    bodies = {
        root: "".join(texts[name] for name in names).rstrip("\n") + "\n"
        for root, names in moved.items()
    }
    # in a process that builds again, a contract's module by everything it is made from (its
    # body and functions; the module's name and header name the map: one a build)
    tag = ("parts", core, header)
    last: dict[str, tuple[str, list[str], str]] = (
        runner.kept.get(tag) if runner.kept else None
    ) or {}
    texts_kept: dict[str, str] = {}
    for root, body in bodies.items():
        entry = last.get(root)
        if entry is not None and entry[0] == body and entry[1] == moved[root]:
            texts_kept[root] = entry[2]
    todo = [root for root in bodies if root not in texts_kept]
    found = runner.map(
        "canonical-globals",
        global_names,
        [(bodies[root],) for root in todo],
        key=lambda arguments: digest(code_fingerprint(), "canonical-globals", arguments[0]),
        parallel=False,
        indexed=True,
    )
    made = dict(zip(todo, found, strict=True))
    parts: dict[str, str] = {}
    held: dict[str, tuple[str, list[str], str]] = {}
    for root, body in bodies.items():
        text = texts_kept.get(root)
        if text is None:
            text = (
                f'{header}\n"""The inverse canonicalizer ``{root}`` and the functions only it '
                f"uses.\n\n``{core}`` imports this module when its table is first asked for "
                'this contract.\n"""\n\nfrom __future__ import annotations\n\n'
                f"{_imports({'Any', *made[root]} - set(moved[root]), core)}\n\n{body}\n\n"
                f"CANONICALIZER = {root}\n"
            )
        held[root] = (body, moved[root], text)
        parts[part_name(root)] = text
    if runner.kept is not None:
        runner.kept.put(tag, held)
    return Split(core_text, parts, texts)
