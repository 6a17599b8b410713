"""What a rebuild does not redo (issue 37, item 8): work whose cost a fresh-process rebuild or a
watch rebuild paid again and again, each checked by what it computes, not by a clock."""

from __future__ import annotations

import ast
from collections import Counter

import pytest

from toolgen.render import runtime_files


def _closure_by_walking_everything(module: str) -> tuple[str, ...]:
    """The import closure as it was computed: every node of every module, walked."""
    found, todo = {module}, [module]
    while todo:
        for node in ast.walk(ast.parse(runtime_files.runtime_source(todo.pop()))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module not in found:
                found.add(str(node.module))
                todo.append(str(node.module))
    return tuple(sorted(found))


def test_the_runtime_import_closures_parse_each_module_once(monkeypatch: pytest.MonkeyPatch):
    """A build asks for the closure of a dozen fixed modules that share most of theirs; each
    module used to be parsed again for every closure it is part of (a tenth of a fresh
    one-tool rebuild of the corpus design)."""
    parsed: Counter[str] = Counter()
    parse = ast.parse

    def counting(source: str, *args: object, **kwargs: object) -> ast.Module:
        parsed[source] += 1
        return parse(source, *args, **kwargs)  # type: ignore[arg-type]

    def forget() -> None:  # what this process computed already
        for function in vars(runtime_files).values():
            if (
                callable(getattr(function, "cache_clear", None))
                and function is not runtime_files.runtime_source
            ):
                function.cache_clear()

    forget()
    monkeypatch.setattr(runtime_files.ast, "parse", counting)
    try:
        closures = {m: runtime_files.with_imports(m) for m in runtime_files.runtime_modules()}
    finally:
        forget()
    assert set(parsed.values()) == {1}
    monkeypatch.undo()
    # the statements visited hold every relative import the whole tree holds
    assert closures == {m: _closure_by_walking_everything(m) for m in closures}
