"""The fixed modules of the generated package: toolgen/runtime/_<name>.py copied verbatim into OUT.

A copy is the generated-file header, a newline, then the source file byte for byte: nothing in
them depends on the design, so the build neither renders nor formats them.
"""

from __future__ import annotations

import functools
import re

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


#: a relative import of a fixed module, a statement at any depth: ``from ._codecs import decode``
_RELATIVE_IMPORT = re.compile(r"^[ \t]*from \.(\w+) import\b", re.MULTILINE)


@functools.cache
def _imports(module: str) -> frozenset[str]:
    """The fixed modules ``module`` imports itself (``from .X import``, at any depth of its
    statements), found by a scan of its lines: parsing the dozen modules a build copies took a
    fiftieth of a fresh one-tool rebuild of a large design. The fixed modules are toolgen's own,
    and no line of theirs that is not such an import reads like one (tests/test_rebuild_costs.py
    holds the scan to a walk of each module's syntax tree)."""
    return frozenset(_RELATIVE_IMPORT.findall(runtime_source(module)))


def copied_with_imports(module: str, header: str) -> dict[str, str]:
    """The files ``OUT/<name>.py`` of ``module`` and of the fixed modules it imports."""
    return {f"{name}.py": copied(name, header) for name in with_imports(module)}
