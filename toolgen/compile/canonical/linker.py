"""Linking the units of ``_canonical.py``: global names, shared functions and constants.

The units (one a contract, ``toolgen.compile.canonical.units``) are linked in contract order, each
replaying the requests its compiler recorded, in the order they were made:

1. the canonicalizers and the functions of ``$ref`` targets, as each contract's plans call them:
   a shared definition's function is the first contract's (keyed by the definition's name, as its
   test function is), another contract's copy is left out with what only it uses;
2. the bodies of those functions that change something (in the order the functions were named),
   naming as they go the union branches' functions (``_branch_N``, counted over the module), the
   branch tests (``_admits_N``, one per distinct body over the module), the tests of ``$ref``
   targets and the constants (one per distinct expression, ``toolgen.render.codegen.Constants``).

That is the order a compiler of the whole module names things in, so the module is the same as
if it had been compiled in one pass; and it depends only on the units, whatever came from the
cache.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from toolgen.compile.canonical.units import (
    ADMITS,
    BRANCH,
    CANON,
    CONSTANT,
    PLACEHOLDER,
    ROOT,
    VALID,
    Definition,
    Unit,
)
from toolgen.infra.diagnostics import Diagnostic
from toolgen.project.projection import ProjectedContract
from toolgen.render.codegen import Constants, Identifiers
from toolgen.schema import pointer as jp

#: The diagnostic code of a projection the compiler cannot compile.
COMPILE_CODE = "CANONICALIZER_COMPILE"

#: the hint of the constants that need ``import re``
PATTERN_HINT = "PATTERN"


@dataclass(frozen=True)
class CompiledParts:
    """The parts of ``_canonical.py`` (template variables), and what could not be compiled."""

    parts: dict[str, Any]
    diagnostics: tuple[Diagnostic, ...]


def check_function(name: str, body: str) -> str:
    """``def name(value: Any) -> bool:`` with the statements of a test; a last ``if X: return
    False`` before ``return True`` becomes ``return not X``, and a last ``for`` holding only
    that ``if`` an ``all()``."""
    statements = body.splitlines()
    if (
        len(statements) >= 4
        and statements[-4].startswith("for ")
        and statements[-3].startswith("    if ")
        and statements[-2:] == ["        return False", "return True"]
    ):
        # a last loop whose one test fails the value: all() over the elements (ruff SIM110)
        loop = statements[-4][len("for ") : -1]
        test = statements[-3][len("    if ") : -1]
        statements[-4:] = [
            f"return all({test[4:]} for {loop})"
            if test.startswith("not ")
            else f"return not any({test} for {loop})"
        ]
    elif (
        len(statements) >= 3
        and statements[-3].startswith("if ")
        and statements[-2:] == ["    return False", "return True"]
    ):
        test = statements[-3][len("if ") : -1]
        # every test the checks emit is one expression: "not X" negated is X
        statements[-3:] = [
            f"return {test[4:]}" if test.startswith("not ") else f"return not ({test})"
        ]
    lines = [f"def {name}(value: Any) -> bool:"]
    lines += ["    " + line if line else line for line in statements]
    return "\n".join(lines) + "\n"


class _Linked:
    """One unit being linked: the global name of each of its local names, once given."""

    def __init__(self, unit: Unit, projected: ProjectedContract) -> None:
        self.unit = unit
        self.projected = projected
        self.names: list[str | None] = [None] * len(unit.definitions)

    def source(self, text: str) -> str:
        """``text`` with its local names replaced by their global ones."""
        names = self.names

        def named(match: Any) -> str:
            name = names[int(match.group(1))]
            if name is None:
                raise AssertionError(
                    f"unit of {self.projected.contract.name}: unnamed {match[0]!r}"
                )
            return name

        return PLACEHOLDER.sub(named, text)


class _Linker:
    def __init__(self) -> None:
        self.names = Identifiers(prefix="_")
        self.constants = Constants()
        self.functions: dict[Hashable, str] = {}  # key of a $ref target's function -> its name
        self.created: list[tuple[_Linked, int]] = []  # the inverse functions, in naming order
        self.by_body: dict[str, str] = {}  # body of a branch test -> its name
        self.checks: list[str] = []
        self.inverses: list[str] = []
        self.forms: dict[str, tuple[Any, Any]] = {}
        self.branches = 0
        self.uses_re = False

    # -- 1. the inverse functions the plans call -------------------------------------------------

    def plan(self, linked: _Linked, number: int) -> None:
        if linked.names[number] is not None:
            return
        definition = linked.unit.definitions[number]
        if definition.kind == CANON:
            shared = self.functions.get(definition.key)
            if shared is not None:  # another contract's function of a shared definition
                linked.names[number] = shared
                return
        name = self.names.name(definition.hint)
        if definition.kind == CANON:
            self.functions[definition.key] = name
        linked.names[number] = name
        self.created.append((linked, number))
        for request in definition.requests:
            self.plan(linked, request)

    # -- 2. their bodies, and what those use -----------------------------------------------------

    def write(self, linked: _Linked, number: int) -> None:
        definition = linked.unit.definitions[number]
        if definition.body is None:  # a function that changes nothing is not written
            return
        for request in definition.emits:
            self.use(linked, request)
        self.inverses.append(linked.source(definition.body))

    def use(self, linked: _Linked, number: int) -> None:
        if linked.names[number] is not None:
            return
        definition = linked.unit.definitions[number]
        if definition.kind == CONSTANT:
            assert isinstance(definition.key, str)
            name = self.constants.add(definition.hint, definition.key, definition.annotation)
            self.uses_re |= definition.hint == PATTERN_HINT
            linked.names[number] = name
        elif definition.kind == BRANCH:
            self.branches += 1
            linked.names[number] = self.names.name(f"branch {self.branches}")
            for request in definition.requests:
                self.use(linked, request)
            self.inverses.append(linked.source(self._body(definition)))
        elif definition.kind == ADMITS:
            for request in definition.requests:
                self.use(linked, request)
            body = linked.source(self._body(definition))
            same = self.by_body.get(body)
            if same is None:
                same = self.names.name(f"admits {len(self.by_body) + 1}")
                self.by_body[body] = same
                self._check(linked, definition, same, body)
            linked.names[number] = same
        elif definition.kind == VALID:
            known = self.functions.get(definition.key)
            if known is not None:
                linked.names[number] = known
                return
            name = self.names.name(definition.hint)
            self.functions[definition.key] = name
            linked.names[number] = name
            for request in definition.requests:
                self.use(linked, request)
            self._check(linked, definition, name, linked.source(self._body(definition)))
        else:
            raise ValueError(f"a {definition.kind} is not used by a body")

    def _check(self, linked: _Linked, definition: Definition, name: str, body: str) -> None:
        self.checks.append(check_function(name, body))
        projected = linked.projected.meaning
        self.forms[name] = (jp.resolve(projected, definition.pointer or ""), projected)

    @staticmethod
    def _body(definition: Definition) -> str:
        if definition.body is None:
            raise ValueError(f"a {definition.kind} without a body")
        return definition.body


def _diagnostic(projected: ProjectedContract, pointer: str, message: str) -> Diagnostic:
    file, where = projected.contract.locate(pointer)
    return Diagnostic(file, where, projected.provider, COMPILE_CODE, message)


def link(contracts: list[ProjectedContract], units: list[Unit]) -> CompiledParts:
    """The parts of ``_canonical.py`` of ``contracts`` (in order), compiled into ``units``."""
    errors = [
        _diagnostic(projected, pointer, message)
        for projected, unit in zip(contracts, units, strict=True)
        for pointer, message in unit.errors
    ]
    if errors:  # the module is not written
        return CompiledParts({}, tuple(dict.fromkeys(errors)))
    linker = _Linker()
    linked = [_Linked(unit, projected) for projected, unit in zip(contracts, units, strict=True)]
    roots: dict[str, dict[str, str]] = {"tool": {}, "output": {}}
    for each in linked:
        root = each.unit.definitions[each.unit.root]
        if root.kind != ROOT:
            raise ValueError("a unit whose root is no canonicalizer")
        linker.plan(each, each.unit.root)
        contract = each.projected.contract
        roots[contract.kind][contract.name] = each.names[each.unit.root] or ""
    for each, number in linker.created:
        linker.write(each, number)
    parts = {
        "constants": linker.constants.lines,
        "functions": [*linker.checks, *linker.inverses],
        "tools": roots["tool"],
        "outputs": roots["output"],
        "uses_re": linker.uses_re,
        "checks": linker.forms,
    }
    return CompiledParts(parts, ())
