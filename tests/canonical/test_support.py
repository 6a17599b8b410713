"""The fixed helpers of the canonicalizers live once, in toolgen/runtime/_canonical_support.py: the
reference inverse calls them, and the package holds them as a verbatim copy that its canonical
modules import (only the names they call) instead of defining them."""

from __future__ import annotations

import ast
import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.lint_support import RUFF_CONFIGS, assert_ruff_clean
from toolgen.build import build
from toolgen.compile.canonical.helpers import HELPERS, RESERVED, helpers_in, support_import
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.project import rewrites
from toolgen.render.runtime_files import copied
from toolgen.render.templating import header
from toolgen.runtime import _canonical_support as support

#: what the template defined before the helpers moved out, and what the support module defines
DEFINED_ELSEWHERE = {
    *support.__all__,
    *("_ABSENT", "_is_number", "_is_integer", "_equal", "_in_enum", "_multiple_of"),
    *("_not_json", "_decode", "_FloatText", "_parse_float", "_encode"),
}

#: a map member (decoded in the root function), a union whose branch test reads members named
#: after the helpers, and a member name holding a helper's name and a parenthesis (a string
#: literal of the branch test, not a call)
BRANCH = {
    "type": "object",
    "properties": {
        "is number": {"type": "number"},
        "json equal": {"const": 1},
        "in enum": {"enum": [1, 2]},
        "x is_integer(": {"type": "string"},
        "ABSENT": {"type": "string"},
    },
    "required": ["is number", "json equal", "in enum", "x is_integer("],
    "additionalProperties": False,
}
PARAMETERS = {
    "type": "object",
    "properties": {
        "decode": {"type": "object", "additionalProperties": {"type": "string"}},
        "u": {"anyOf": [BRANCH, {"type": "string"}]},
    },
    "required": ["u"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Path]:
    """The OpenAI package of a tool whose members are named after the helpers, written out."""
    root = tmp_path_factory.mktemp("support")
    (root / "design" / "tools").mkdir(parents=True)
    (root / "design" / "tools" / "t.json").write_text(
        json.dumps({"name": "t", "description": "d", "parameters": PARAMETERS})
    )
    result = build(root / "design", ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    out = root / "out"
    for relative, text in result.files.items():
        target = out / "support_named" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return result, result.projections[0].tools[0], out


def test_the_package_holds_a_verbatim_copy_of_the_support_module(built: tuple) -> None:
    result, _, _ = built
    assert result.design is not None
    expected = copied("_canonical_support", header())
    assert result.files["_canonical_support.py"] == expected


def test_no_canonical_module_defines_a_helper_and_each_imports_them_from_the_copy(
    built: tuple,
) -> None:
    result, _, _ = built
    modules = {
        path: text
        for path, text in result.files.items()
        if path.startswith("_canonical") and path.endswith(".py") and "support" not in path
    }
    assert "_canonical_openai.py" in modules and any("_parts/" in path for path in modules)
    for path, text in modules.items():
        tree = ast.parse(text)
        defined = set()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined |= {t.id for t in targets if isinstance(t, ast.Name)}
        assert not defined & DEFINED_ELSEWHERE, path
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and set(HELPERS) & {a.name for a in node.names}:
                dots = "." if "/" not in path else ".."
                assert (node.level, node.module) == (len(dots), "_canonical_support"), path
    # canonicalize_text is re-exported by the core, not defined there
    assert "from ._canonical_support import " in modules["_canonical_openai.py"]


def test_locals_named_after_a_helper_do_not_hide_it(built: tuple) -> None:
    """A member called ``decode`` or ``is number`` gets the local ``decode_``, ``is_number_``:
    the compiled inverse still calls the helpers, and agrees with the reference."""
    result, projected, out = built
    sources = "\n".join(text for path, text in result.files.items() if path.startswith("_canon"))
    assert "decode_ = " in sources and "is_number(is_number_)" in sources
    sys.path.insert(0, str(out))
    try:
        compiled = importlib.import_module("support_named._canonical_openai").TOOL_CANONICALIZERS[
            "t"
        ]
    finally:
        sys.path.remove(str(out))
    branch = {"is number": 1.5, "json equal": 1, "in enum": 2, "x is_integer(": "s", "ABSENT": None}
    payload = {"decode": [{"key": "a", "value": "x"}], "u": branch}
    expected = {"decode": {"a": "x"}, "u": {k: v for k, v in branch.items() if k != "ABSENT"}}
    assert compiled(payload) == reference_inverse(payload, projected) == expected
    twice = {"decode": [{"key": "a", "value": "x"}, {"key": "a", "value": "y"}], "u": "s"}
    refusals = []
    for inverse in (compiled, lambda value: reference_inverse(value, projected)):
        with pytest.raises(ValueError) as raised:
            inverse(twice)
        assert type(raised.value).__name__ == "EncodingError"
        refusals.append(str(raised.value))
    # the message names positions, never the key the model wrote
    assert refusals == ["entries [0] and [1] of a map have the same key"] * 2


@pytest.mark.parametrize("config", [c for _, c in RUFF_CONFIGS], ids=[i for i, _ in RUFF_CONFIGS])
def test_the_package_imports_only_the_helpers_it_calls(built: tuple, config: list[str]) -> None:
    """ruff (F401, F811) finds no helper imported for nothing, or hidden by a local."""
    _, _, out = built
    assert_ruff_clean(out, config)


def test_the_helpers_the_compiler_names_are_the_support_modules() -> None:
    assert set(HELPERS) <= set(support.__all__)
    assert set(HELPERS) <= RESERVED
    assert rewrites.EncodingError is support.EncodingError


def test_helpers_named_in_string_literals_are_not_calls() -> None:
    code = """def _f(value: Any) -> Any:
    decode_ = value.get("decode(", ABSENT)
    if value.get('it\\'s is_number(') is None and in_enum(decode_, _VALUES):
        return decode("pairs", "is_integer", decode_)
    return json_equal_
"""
    assert helpers_in(code) == {"ABSENT", "in_enum", "decode"}
    assert support_import(code, "..") == "from .._canonical_support import ABSENT, decode, in_enum"
    assert support_import("", ".") == ""
