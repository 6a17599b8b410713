"""The shape of toolgen/: no import cycle (counting imports inside functions, so none can hide a
cycle), no two modules with one name, and the layers contract of pyproject.toml kept (the
pipeline's stages import only the stages below them)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _import_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph("toolgen")
    return {
        module: graph.find_modules_directly_imported_by(module) for module in sorted(graph.modules)
    }


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in edges:
                    continue
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    """Every import counts, including those inside functions: a function-level import that only
    hides a cycle fails here."""
    edges = _import_graph()
    # a package's __init__ importing its own submodules is how a package exports them, not a cycle
    for module, imported in edges.items():
        edges[module] = {m for m in imported if not module.startswith(m + ".")}
    assert _cycles(edges) == []


def test_no_module_name_is_used_twice() -> None:
    names = Counter(
        path.stem for path in (ROOT / "toolgen").rglob("*.py") if path.stem != "__init__"
    )
    names.update(
        path.name
        for path in (ROOT / "toolgen").rglob("*")
        if path.is_dir() and (path / "__init__.py").is_file()
    )
    assert [name for name, count in names.items() if count > 1] == []


@pytest.mark.skipif(
    shutil.which("lint-imports", path=str(Path(sys.executable).parent)) is None,
    reason="import-linter is not installed (the dev extras install it)",
)
def test_layers_contract_is_kept() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
