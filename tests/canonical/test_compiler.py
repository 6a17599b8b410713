"""The generated ``_canonical.py``: its API, determinism, lint, what it imports, and branch tests
that decide exactly as jsonschema on the (tolerant) projected forms."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.support import (
    PROPERTY,
    Compiled,
    compile_projection,
    instances,
    json_values,
    load_and_project,
    member_names,
    mutated,
    sample,
    write_support,
)
from tests.lint_support import RUFF_CONFIGS, assert_mypy_strict_clean, assert_ruff_clean
from toolgen.compile.canonical.compiler import compile_contracts, render_canonical_module
from toolgen.compile.canonical.views import tolerant
from toolgen.load.design import load_design
from toolgen.package.assemble import render_package
from toolgen.project.design_projection import project_design
from toolgen.project.projection import ProjectedContract
from toolgen.providers import PROFILES
from toolgen.providers import settings as provider_settings
from toolgen.render.runtime_files import runtime_source, with_imports
from toolgen.render.templating import header
from toolgen.schema import pointer as jp
from toolgen.schema import walker

OPENAI = PROFILES["openai"]

BIN = Path(sys.executable).parent
STANDARD_LIBRARY = {
    *("__future__", "json", "re", "collections.abc", "fractions", "numbers", "typing", "functools"),
    *("dataclasses", "math", "json.encoder"),
}


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


@pytest.fixture(scope="module")
def generated(
    hard: Compiled, example: Compiled, corpus: Compiled, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    root = tmp_path_factory.mktemp("lint")
    for name, compiled in (("hard", hard), ("example", example), ("corpus", corpus)):
        package = root / f"gen_{name}"
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "_canonical.py").write_text(compiled.source, encoding="utf-8")
        write_support(package)
    return root


@pytest.mark.parametrize("config", [c for _, c in RUFF_CONFIGS], ids=[i for i, _ in RUFF_CONFIGS])
def test_ruff(generated: Path, config: list[str]) -> None:
    assert_ruff_clean(generated, config)


def test_mypy_strict(generated: Path) -> None:
    assert_mypy_strict_clean(generated, "gen_hard", "gen_example", "gen_corpus")


def _imported(source: str) -> set[str]:
    tree = ast.parse(source)
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {
        "." * n.level + (n.module or "") for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
    }
    return imported


def test_standard_library_only_and_no_schema_at_run_time(hard: Compiled, corpus: Compiled) -> None:
    """The module imports the standard library and its fixed helpers, which import the standard
    library only."""
    for module in with_imports("_canonical_support"):
        assert _imported(runtime_source(module)) <= STANDARD_LIBRARY | {
            f".{name}" for name in with_imports("_canonical_support")
        }
    for compiled in (hard, corpus):
        tree = ast.parse(compiled.source)
        assert _imported(compiled.source) <= STANDARD_LIBRARY | {"._canonical_support"}
        assert "jsonschema" not in compiled.source and "$defs" not in compiled.source
        calls = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert not calls & {"eval", "exec", "compile", "__import__"}


def test_api(hard: Compiled, example: Compiled) -> None:
    for compiled in (hard, example):
        module = compiled.module
        assert set(module.__all__) == {
            "TOOL_CANONICALIZERS",
            "OUTPUT_CANONICALIZERS",
            "canonicalize_text",
        }
        keys = {c.key for c in compiled.cases}
        assert keys == {f"tool:{n}" for n in module.TOOL_CANONICALIZERS} | {
            f"output:{n}" for n in module.OUTPUT_CANONICALIZERS
        }
    assert "unicode.名前" in hard.module.TOOL_CANONICALIZERS
    assert "triage.result" in hard.module.OUTPUT_CANONICALIZERS


def test_contracts_the_provider_cannot_take_have_no_canonicalizer(tmp_path: Path) -> None:
    from tests.canonical.conftest import write_files

    root = write_files(
        tmp_path / "design",
        {
            "tools/ok.json": {
                "name": "ok",
                "description": "d",
                "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
            },
            "tools/no.json": {  # strict asked for: not sent non-strict instead
                "name": "no",
                "description": "d",
                "parameters": {"type": "object", "properties": {"a": {"not": {"type": "string"}}}},
                "providers": {"openai": {"strict": True}},
            },
        },
    )
    design, projection = load_and_project(root)
    compiled = compile_projection(
        design, projection, tmp_path / "out", "toolgen_canonical_rejected"
    )
    assert list(compiled.module.TOOL_CANONICALIZERS) == ["ok"]


def test_same_design_same_bytes(hard_design: Path) -> None:
    design, projection = load_and_project(hard_design)
    first = render_canonical_module(design, projection, header()).source
    assert first is not None
    assert render_canonical_module(design, projection, header()).source == first
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from tests.canonical.support import load_and_project;"
        "from toolgen.compile.canonical.compiler import render_canonical_module;"
        "from toolgen.render.templating import header;"
        "d, p = load_and_project(Path(sys.argv[2]));"
        "sys.stdout.write(render_canonical_module(d, p, header()).source)"
    )
    repo = Path(__file__).resolve().parents[2]
    for seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", script, str(repo), str(hard_design)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=repo,
        )
        assert result.stdout == first


def test_a_keyword_the_branch_tests_do_not_know_is_a_diagnostic(tmp_path: Path) -> None:
    """A profile that keeps a keyword the compiler has no method for (a toolgen bug) fails the
    build with CANONICALIZER_COMPILE at the canonical node, through the record (the projected
    ``anyOf/0`` was authored as ``oneOf/0``), never with a traceback."""
    from tests.canonical.conftest import write_files

    keeps_min_properties = replace(
        OPENAI,
        keep=OPENAI.keep | {"minProperties"},
        drop=OPENAI.drop - {"minProperties"},
    )
    branch = {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1}
    root = write_files(
        tmp_path / "design",
        {
            "tools/t.yaml": {
                "name": "t",
                "description": "d",
                "parameters": {
                    "type": "object",
                    "properties": {"u": {"oneOf": [branch, {"type": "string"}]}},
                },
            }
        },
    )
    design, diagnostics = load_design(root, provider_settings(["openai"]))
    assert design is not None, diagnostics
    projection = project_design(design, keeps_min_properties)
    assert projection.tools[0].schema is not None, projection.diagnostics
    package = render_package(design, [projection])
    assert not any(path.startswith("_canonical") for path in package.files)
    assert [d.format() for d in package.diagnostics] == [
        "tools/t.yaml:/parameters/properties/u/oneOf/0: openai: CANONICALIZER_COMPILE "
        "cannot compile the inverse canonicalizer: cannot compile a branch test with "
        "['minProperties']"
    ]


def test_a_pattern_python_cannot_compile_is_a_diagnostic_through_the_build(
    make_design: Any, tool: Any
) -> None:
    """A union branch whose pattern is not a Python regular expression (ECMA's ``\\p{L}``) cannot
    be tested: CANONICALIZER_COMPILE at the pattern, rather than a package whose
    ``_canonical.py`` raises re.error on import (what the build wrote before)."""
    from toolgen.build import build

    letters = {"type": "string", "pattern": "\\p{L}+"}
    record = {"type": "object", "properties": {"a": {"type": "string"}}}
    parameters = {"type": "object", "properties": {"u": {"anyOf": [letters, record]}}}
    root = make_design({"tools/t.yaml": tool("t", parameters)})
    result = build(root, ("openai",))
    assert not result.ok and result.files == {}
    [error] = [d for d in result.diagnostics if d.level == "error"]
    assert (error.file, error.pointer, error.provider, error.code) == (
        "tools/t.yaml",
        "/parameters/properties/u/anyOf/0/pattern",
        "openai",
        "CANONICALIZER_COMPILE",
    )
    assert "not a Python regular expression" in error.message


# -- branch tests decide as jsonschema -----------------------------------------------------------


def _check_functions(contracts: list[ProjectedContract], module: Any) -> list[tuple[Any, Any, Any]]:
    """(compiled test, jsonschema validator of its tolerant form, projected root) for each test."""
    found = []
    compiled = compile_contracts(contracts)
    assert not compiled.diagnostics
    for name, (form, projected) in compiled.parts["checks"].items():
        pointer = next(p for node, p in walker.walk(projected) if node is form)
        relaxed_root = tolerant(projected)
        validator = Draft202012Validator(relaxed_root).evolve(
            schema=jp.resolve(relaxed_root, pointer)
        )
        found.append((getattr(module, name), validator, projected))
    return found


def _values(value: Any) -> list[Any]:
    """``value`` and every value inside it."""
    found = [value]
    if isinstance(value, dict):
        for member in value.values():
            found += _values(member)
    elif isinstance(value, list):
        for element in value:
            found += _values(element)
    return found


CHECKS = settings(PROPERTY, max_examples=80)


@pytest.fixture(scope="module")
def checked(hard: Compiled, corpus: Compiled) -> list[tuple[Any, list[tuple[Any, Any, Any]]]]:
    """Per contract with unions: (a case, its branch tests)."""
    result = []
    for compiled in (hard, corpus):
        contracts = [c.projection for c in compiled.cases]
        tests = _check_functions(contracts, compiled.module)
        for case in compiled.cases:
            mine = [t for t in tests if t[2] is case.projected]
            if mine:
                result.append((case, mine))
    assert result
    return sample(result, 30)


@CHECKS
@given(data=st.data())
def test_branch_tests_decide_as_jsonschema(
    checked: list[tuple[Any, list[tuple[Any, Any, Any]]]], data: st.DataObject
) -> None:
    case, tests = data.draw(st.sampled_from(checked), label="contract")
    payload = data.draw(st.one_of(instances(case.projected), json_values()), label="payload")
    payload = mutated(data, payload, member_names(case.contract.schema))
    for value in _values(payload):
        for function, validator, _ in tests:
            assert function(value) == validator.is_valid(value), (function.__name__, value)
