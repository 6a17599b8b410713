"""The fixed modules of the generated package: toolgen/runtime/_<name>.py copied verbatim into OUT.

A copy is the generated-file header, a newline, then the source file byte for byte: nothing in
them depends on the design, so the build neither renders nor formats them.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from toolgen.infra.resources import PACKAGE_DIR

RUNTIME_DIR = PACKAGE_DIR / "runtime"


def runtime_modules() -> tuple[str, ...]:
    """Every fixed module, by its module name in OUT (``_runtime``, ``_decode``, ``_responses`` ...)."""
    return tuple(sorted(p.stem for p in RUNTIME_DIR.glob("_*.py") if p.stem != "__init__"))


@functools.cache
def runtime_source(module: str) -> str:
    """The source of the fixed module ``module`` (``_runtime``) as toolgen ships it."""
    return (RUNTIME_DIR / f"{module}.py").read_text(encoding="utf-8")


def copied(module: str, header: str) -> str:
    """The file ``OUT/<module>.py``: ``header`` then the source, unchanged."""
    return f"{header}\n{runtime_source(module)}"


def is_copy(path: str, text: str, header: str) -> bool:
    """Whether the output file ``path`` is the verbatim copy of a fixed module under ``header``."""
    module = path.removesuffix(".py")
    return "/" not in path and module in runtime_modules() and text == copied(module, header)


@functools.cache
def with_imports(module: str) -> tuple[str, ...]:
    """``module`` and the fixed modules it imports, directly or not (they import each other
    relatively: ``from ._codecs import decode``), sorted: what a package that holds ``module``
    must hold too."""
    found = {module}
    todo = [module]
    while todo:
        for imported in _imports(todo.pop()):
            if imported not in found:
                found.add(imported)
                todo.append(imported)
    return tuple(sorted(found))


@functools.cache
def _imports(module: str) -> frozenset[str]:
    """The fixed modules ``module`` imports itself (``from .X import``, at any depth of its
    statements). Each module is parsed once per process, and only its statements are visited:
    a build asks for a dozen closures that share most of their modules, and walking every
    expression node of them all took a tenth of a fresh rebuild's time."""
    return frozenset(
        str(node.module)
        for node in _statements(ast.parse(runtime_source(module)).body)
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
    )


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body``, nested ones included (an import can only be a statement)."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)
        for handler in getattr(node, "handlers", ()):
            yield from _statements(handler.body)
        for case in getattr(node, "cases", ()):
            yield from _statements(case.body)


def copied_with_imports(module: str, header: str) -> dict[str, str]:
    """The files ``OUT/<name>.py`` of ``module`` and of the fixed modules it imports."""
    return {f"{name}.py": copied(name, header) for name in with_imports(module)}
