"""mypy --strict on a user's script that calls both official SDKs with the generated bindings and no
cast (tests/sdk_scripts/uses_both_sdks.py; google-genai: uses_google_genai.py), a user's test with
the generated fakes (uses_fakes.py), the targets' adapters (uses_targets.py), on misuses it must
reject (misuses.py and the others, each marked ``# error``), and on the example design's package
for every provider (and its models index without its stub) and packages of designs with no tools,
no outputs, one or several of each; and on the Python examples of the docs, as a user copies
them (tests/test_docs_examples.py runs them). One mypy run and one pyright run for all of it:
type-checking the SDKs and the package is what costs (the other test modules that build the
example design rely on this one for its mypy and ruff checks)."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lint_support import RUFF_CONFIGS, assert_ruff_clean, pyright_report, tool
from tests.test_docs_examples import docs_modules
from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.providers import PROVIDER_NAMES

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = Path(__file__).resolve().parent / "sdk_scripts"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


GENAI_SCRIPT = "uses_google_genai.py"  # checked where google-genai is installed (dev extras)
SCRIPT_FILES = (
    "uses_both_sdks.py",
    *((GENAI_SCRIPT,) if _installed("google.genai") else ()),
    "misuses.py",
    "uses_tool_outputs.py",
    "uses_tool_loop.py",
    "loop_misuses.py",
    "uses_fakes.py",
    "fakes_misuses.py",
    *(("uses_targets.py",) if _installed("mcp") else ()),
)

_TOOL = {
    "name": "only.tool",
    "description": "One tool.",
    "parameters": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
    "output": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
}
_OTHER_TOOL = {
    "name": "other.tool",
    "parameters": {"type": "object", "properties": {"y": {"type": "integer"}}},
    "output": {"type": "array", "items": {"type": "integer"}},
}
_OUTPUT = {"name": "first", "schema": {"type": "object", "properties": {"x": {"type": "string"}}}}
_OTHER_OUTPUT = {
    "name": "second",
    "schema": {
        "type": "object",
        "properties": {"y": {"type": "integer"}},
        "required": ["y"],
        "additionalProperties": False,
    },
}

#: package -> design files: the shapes whose typed functions are written differently
#: (no overloads, one Literal, several overloads; AnyToolCall of no tool).
SMALL_DESIGNS = {
    "outputs_only": {"outputs/a.json": _OUTPUT},
    "tools_only": {"tools/a.json": _TOOL, "tools/b.json": _OTHER_TOOL},
    "one_tool_two_outputs": {
        "tools/a.json": _TOOL,
        "outputs/a.json": _OUTPUT,
        "outputs/b.json": _OTHER_OUTPUT,
    },
}


#: the providers the packages are built for: every one (tests/envelope/test_compiler.py relies
#: on this run for the mypy check of every provider's envelope module)
EXAMPLE_PROVIDERS = PROVIDER_NAMES


def _write(root: Path, package: str, design: Path, cache: Path | None = None) -> None:
    result = build(design, EXAMPLE_PROVIDERS, cache_dir=cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_package(root / package, result.files)


def docs_mypy_config() -> str:
    """mypy's options for the docs' examples: mypy's defaults (a page's sections may reuse a name
    for another provider's object: allow_redefinition), where the rest is checked --strict."""
    modules = ",".join(module.removesuffix(".py") for module in docs_modules())
    relaxed = [
        "disallow_any_generics",
        "disallow_subclassing_any",
        "disallow_untyped_calls",
        "disallow_untyped_defs",
        "disallow_incomplete_defs",
        "check_untyped_defs",
        "disallow_untyped_decorators",
        "warn_unused_ignores",
        "warn_return_any",
        "no_implicit_reexport",
        "strict_equality",
        "extra_checks",
    ]
    return f"[mypy]\n\n[mypy-{modules}]\nallow_redefinition = True\n" + "".join(
        f"{option} = False\n" for option in relaxed
    )


@pytest.fixture(scope="module")
def checked(
    tmp_path_factory: pytest.TempPathFactory, suite_cache: Path
) -> tuple[Path, dict[str, set[int]]]:
    """The folder of the packages and scripts, and mypy's error lines per file."""
    pytest.importorskip("openai")
    pytest.importorskip("anthropic")
    tool("mypy")
    root = tmp_path_factory.mktemp("sdk_typing")
    _write(root, "gen", REPO / "examples" / "design", suite_cache)
    for package, files in SMALL_DESIGNS.items():
        design = root / "designs" / package
        for relative, document in files.items():
            (design / relative).parent.mkdir(parents=True, exist_ok=True)
            (design / relative).write_text(json.dumps(document), encoding="utf-8")
        _write(root, package, design)
    for script in SCRIPT_FILES:
        shutil.copy(SCRIPTS / script, root / script)
    for module, code in docs_modules().items():
        (root / module).write_text(code, encoding="utf-8")
    (root / "examples").symlink_to(REPO / "examples", target_is_directory=True)
    (root / "mypy.ini").write_text(docs_mypy_config(), encoding="utf-8")
    # mypy reads models/__init__.pyi in place of models/__init__.py (the stub keeps the class
    # imports out of the interpreter's way): the module's own code is checked in a copy without it
    shutil.copytree(root / "gen", root / "gen_unstubbed")
    (root / "gen_unstubbed" / "models" / "__init__.pyi").unlink()
    targets = [
        *SCRIPT_FILES,
        "gen",
        *SMALL_DESIGNS,
        "gen_unstubbed/models/__init__.py",
        *docs_modules(),
    ]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--strict", "--config-file", "mypy.ini"]
        + ["--python-version", "3.11", "--show-error-codes", *targets],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    errors: dict[str, set[int]] = {}
    for match in re.finditer(r"^([^:\n]+):(\d+): error:", result.stdout, re.MULTILINE):
        errors.setdefault(Path(match[1]).as_posix(), set()).add(int(match[2]))
    assert errors or result.returncode == 0, result.stdout + result.stderr
    return root, errors


def test_the_user_script_type_checks_without_a_cast(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    root, errors = checked
    assert "cast(" not in (root / "uses_both_sdks.py").read_text(encoding="utf-8")
    assert "uses_both_sdks.py" not in errors, errors


def test_the_google_genai_script_type_checks_without_a_cast(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    if GENAI_SCRIPT not in SCRIPT_FILES:
        pytest.skip("google-genai is not installed (it is in the dev extras)")
    root, errors = checked
    assert "cast(" not in (root / GENAI_SCRIPT).read_text(encoding="utf-8")
    assert GENAI_SCRIPT not in errors, errors


def test_mypy_rejects_exactly_the_marked_misuses(checked: tuple[Path, dict[str, set[int]]]) -> None:
    root, errors = checked
    lines = (root / "misuses.py").read_text(encoding="utf-8").splitlines()
    marked = {number for number, line in enumerate(lines, 1) if line.endswith("# error")}
    assert len(marked) == 16
    assert errors.get("misuses.py") == marked


def test_tool_outputs_are_typed_per_tool(checked: tuple[Path, dict[str, set[int]]]) -> None:
    root, errors = checked
    lines = (root / "uses_tool_outputs.py").read_text(encoding="utf-8").splitlines()
    marked = {number for number, line in enumerate(lines, 1) if line.endswith("# error")}
    assert len(marked) == 3
    assert errors.get("uses_tool_outputs.py") == marked


def test_the_tool_loop_script_type_checks_without_a_cast(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    """A loop for every API with only the generated helpers: what they return goes into the
    SDKs' ``messages=`` / ``input=`` lists as they are typed."""
    root, errors = checked
    text = (root / "uses_tool_loop.py").read_text(encoding="utf-8")
    assert not re.search(r"\bcast\(", text) and "type: ignore" not in text
    assert "uses_tool_loop.py" not in errors, errors


def test_the_targets_script_type_checks_without_a_cast(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    """gen.mcp.server and the adapters in a user's code, under --strict (the targets'
    frameworks are in the dev extras)."""
    if "uses_targets.py" not in SCRIPT_FILES:
        pytest.skip("the targets' frameworks are not installed (they are in the dev extras)")
    root, errors = checked
    text = (root / "uses_targets.py").read_text(encoding="utf-8")
    assert not re.search(r"\bcast\(", text) and "type: ignore" not in text
    assert "uses_targets.py" not in errors, errors


def test_mypy_rejects_exactly_the_marked_loop_misuses(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    """A handler taking another tool's model, returning a non-JSON value or a model other than
    its tool's output model, a missing handler, a FailedCall used as a call, results of one API
    or provider sent to another, a result for something that is no call."""
    root, errors = checked
    lines = (root / "loop_misuses.py").read_text(encoding="utf-8").splitlines()
    marked = {number for number, line in enumerate(lines, 1) if line.endswith("# error")}
    assert len(marked) == 11
    assert errors.get("loop_misuses.py") == marked


def test_a_users_test_with_the_fakes_type_checks_without_a_cast(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    root, errors = checked
    assert "cast(" not in (root / "uses_fakes.py").read_text(encoding="utf-8")
    assert "uses_fakes.py" not in errors, errors


def test_a_misspelled_tool_or_api_given_to_the_fakes_is_a_type_error(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    root, errors = checked
    lines = (root / "fakes_misuses.py").read_text(encoding="utf-8").splitlines()
    marked = {number for number, line in enumerate(lines, 1) if line.endswith("# error")}
    assert len(marked) == 4
    assert errors.get("fakes_misuses.py") == marked


def test_the_models_index_behind_its_stub_is_clean_too(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    _, errors = checked
    assert not [f for f in errors if f.startswith("gen_unstubbed/")], errors


def test_generated_packages_of_every_shape_are_clean(
    checked: tuple[Path, dict[str, set[int]]],
) -> None:
    root, errors = checked
    generated = {
        f: lines for f, lines in errors.items() if f not in SCRIPT_FILES and f not in docs_modules()
    }
    assert not generated, generated
    for _, config in RUFF_CONFIGS:
        for package in ("gen", *SMALL_DESIGNS):
            assert_ruff_clean(root / package, config)


@pytest.fixture(scope="module")
def pyright_findings(
    checked: tuple[Path, dict[str, set[int]]],
) -> dict[str, list[tuple[int, str, str]]]:
    """pyright (basedpyright: pyright with node in its wheel) over the same scripts and packages:
    per file, its findings as (line, severity, rule)."""
    root, _ = checked
    report = pyright_report(root, [*SCRIPT_FILES, "gen", *SMALL_DESIGNS, *docs_modules()])
    findings: dict[str, list[tuple[int, str, str]]] = {}
    for found in report["generalDiagnostics"]:
        where = Path(found["file"]).relative_to(root).as_posix()
        line = found["range"]["start"]["line"] + 1
        findings.setdefault(where, []).append((line, found["severity"], found.get("rule", "")))
    assert report["summary"]["filesAnalyzed"] > len(SCRIPT_FILES), report["summary"]
    return findings


def test_pyright_finds_nothing_in_the_scripts_and_the_packages(
    pyright_findings: dict[str, list[tuple[int, str, str]]],
) -> None:
    """What a user of VS Code sees: no error and no warning in code that uses the bindings (the
    Anthropic tool definitions go into ``tools=`` as they are typed) nor in the packages."""
    clean = {
        f: found
        for f, found in pyright_findings.items()
        if f not in MISUSE_SCRIPTS and f not in docs_modules()
    }
    assert not clean, clean


def test_the_docs_examples_type_check(checked: tuple[Path, dict[str, set[int]]]) -> None:
    """What a user copies from the docs passes mypy."""
    _, errors = checked
    assert docs_modules()
    found = {f: lines for f, lines in errors.items() if f in docs_modules()}
    assert not found, found


def test_the_docs_examples_pass_pyright(
    pyright_findings: dict[str, list[tuple[int, str, str]]],
) -> None:
    """What a user copies from the docs shows no error in VS Code either: pyright's standard
    mode finds none (it reads a TypedDict key that may be left out, or an Optional, more
    strictly than mypy)."""
    found = {
        f: [x for x in findings if x[1] == "error"]
        for f, findings in pyright_findings.items()
        if f in docs_modules()
    }
    assert not any(found.values()), found


MISUSE_SCRIPTS = ("misuses.py", "loop_misuses.py", "uses_tool_outputs.py", "fakes_misuses.py")


@pytest.mark.parametrize("script", MISUSE_SCRIPTS)
def test_pyright_rejects_exactly_the_marked_misuses(
    checked: tuple[Path, dict[str, set[int]]],
    pyright_findings: dict[str, list[tuple[int, str, str]]],
    script: str,
) -> None:
    """The misuses mypy rejects, but a comparison of a tool name with a name no tool has: mypy
    --strict rejects it (strict equality), pyright only in its strict mode."""
    root, _ = checked
    lines = (root / script).read_text(encoding="utf-8").splitlines()
    marked = {
        number
        for number, line in enumerate(lines, 1)
        if line.endswith("# error") and not re.search(r"\bcall\.name == ", line)
    }
    assert marked
    assert {line for line, _, _ in pyright_findings.get(script, [])} == marked
