"""What the interpreter compiles when it imports a provider module and decodes a call does not grow
with the design but for strings (issue 22 item 1: a package of 1,000 tools starts as fast as one of
10 without a bytecode cache). The per-tool types are in stubs, which it never reads; the name
tables are JSON rows in one string each. Figures: bench/RESULTS.md, Cold start."""

from __future__ import annotations

import ast

from toolgen.build import build

#: the modules importing ``<package>.openai`` and decoding a call compiles whatever the design
#: (beside the fixed runtime modules, which hold no design)
DECODE_PATH = (
    "__init__.py",
    "openai.py",
    "models/__init__.py",
    "_canonical_openai.py",
    "tool_outputs.py",
)


def _files(make_design, tool, output, count: int) -> dict[str, str]:
    files: dict[str, object] = {}
    for index in range(count):
        schema = {
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query"],
        }
        files[f"tools/t{index}.json"] = tool(f"group{index % 3}.tool_{index}", schema)
        files[f"outputs/o{index}.json"] = output(f"answer_{index}", schema)
    result = build(make_design(files, f"design{count}"), ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    return result.files


def _shape(source: str) -> list[str]:
    """The syntax tree's nodes, in order, without the values of string constants."""
    return [type(node).__name__ for node in ast.walk(ast.parse(source))]


def test_the_modules_a_decode_compiles_grow_only_in_strings(make_design, tool, output):
    few, many = (_files(make_design, tool, output, count) for count in (2, 12))
    for module in DECODE_PATH:
        assert _shape(few[module]) == _shape(many[module]), module
    # what grows instead: the stubs, which type checkers read
    assert many["_types_openai.pyi"].count("@overload") == 3 * 12
    assert many["models/__init__.pyi"].count("from .tools.") == 12
    assert 'Literal["group' not in many["openai.py"]  # no type names a tool there


def test_the_stubs_have_no_module_the_interpreter_would_import(make_design, tool, output):
    """``_types_openai.pyi`` has no .py (the provider module imports it under TYPE_CHECKING only);
    ``models/__init__.pyi`` stands in for ``models/__init__.py`` to type checkers."""
    files = _files(make_design, tool, output, 2)
    assert sorted(name for name in files if name.endswith(".pyi")) == [
        "_types_openai.pyi",
        "models/__init__.pyi",
    ]
    assert "_types_openai.py" not in files and "models/__init__.py" in files
