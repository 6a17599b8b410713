"""The fixed modules of OUT are toolgen/runtime's files, copied verbatim under the header."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.lint_support import RUFF_CONFIGS, assert_ruff_clean
from toolgen.build import build
from toolgen.render.runtime_files import RUNTIME_DIR, runtime_modules
from toolgen.render.templating import header

SMALL = Path(__file__).parent / "cases" / "small" / "design"


def test_every_copied_module_is_the_header_then_the_source_byte_for_byte():
    result = build(SMALL)
    assert result.ok and result.design is not None
    head = header()
    copies = [name for name in runtime_modules() if f"{name}.py" in result.files]
    assert {"_runtime", "_decode", "_canonical_support", "_fakes"} <= set(copies)
    for name in copies:
        source = (RUNTIME_DIR / f"{name}.py").read_bytes()
        assert result.files[f"{name}.py"].encode() == head.encode() + b"\n" + source, name


#: The target modules' frameworks (toolgen.package.targets): imported only inside a function or
#: under TYPE_CHECKING, so that the package imports without them.
FRAMEWORKS: dict[str, frozenset[str]] = {
    "_mcp_server": frozenset({"mcp", "mcp_types", "uvicorn"}),
    "_pydantic_ai_tools": frozenset({"pydantic_ai"}),
    "_agents_tools": frozenset({"agents"}),
    "_langchain_tools": frozenset({"langchain_core"}),
}


def _lazy_imports(tree: ast.Module) -> set[int]:
    """The ids of the import nodes of ``tree`` inside a function or an ``if TYPE_CHECKING:``."""
    lazy: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            lazy |= {
                id(inner)
                for inner in ast.walk(node)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            }
    return lazy


def test_the_runtime_modules_import_only_each_other_relatively_and_the_stdlib_or_pydantic():
    modules = set(runtime_modules())
    assert set(FRAMEWORKS) <= modules
    for name in modules:
        tree = ast.parse((RUNTIME_DIR / f"{name}.py").read_text(encoding="utf-8"))
        lazy = _lazy_imports(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1 and node.module in modules, (name, node.module)
            elif isinstance(node, ast.ImportFrom | ast.Import):
                roots = (
                    [node.module]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                )
                for root in roots:
                    top = str(root).split(".")[0]
                    framework = top in FRAMEWORKS.get(name, ()) and id(node) in lazy
                    assert top in sys.stdlib_module_names or top == "pydantic" or framework, (
                        name,
                        root,
                    )


@pytest.mark.parametrize(("name", "config"), RUFF_CONFIGS, ids=[n for n, _ in RUFF_CONFIGS])
def test_the_runtime_modules_are_ruff_clean_as_generated_code_is(name, config):
    assert_ruff_clean(RUNTIME_DIR, config)
