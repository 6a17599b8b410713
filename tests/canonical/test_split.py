"""The canonical module split into a core and one module per contract (loaded on first use) holds
the same functions, and gives the same canonicalizers, as the module whole."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

from tests.canonical.support import (
    EXAMPLE_DESIGN,
    import_source,
    load_and_project,
    write_support,
)
from toolgen.compile.canonical import compiler, rejoin
from toolgen.compile.canonical.compiler import compile_contracts, render_canonical_module
from toolgen.compile.canonical.rejoin import MOST_FORMATTED, TEXT_TAG
from toolgen.compile.canonical.split import _function_spans, owners, part_name
from toolgen.infra.kept import Kept
from toolgen.infra.parallel import Runner
from toolgen.render.templating import header

_DEF = re.compile(r"^def (\w+)\(.*?(?=^[^\s)]|\Z)", re.MULTILINE | re.DOTALL)


def _functions(text: str) -> dict[str, str]:
    return {match[1]: match[0].rstrip() for match in _DEF.finditer(text)}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, object, dict[str, str]]:
    if not EXAMPLE_DESIGN.is_dir():
        pytest.skip("the example design is absent")
    design, projection = load_and_project(EXAMPLE_DESIGN)
    whole = render_canonical_module(design, projection, header())
    split = render_canonical_module(design, projection, header(), split="_canonical")
    assert whole.source is not None and split.source is not None
    folder = tmp_path_factory.mktemp("split")
    whole_module = import_source(whole.source, folder / "a", "toolgen_split_whole")
    root = folder / "b" / "toolgen_split_parts"
    (root / "_canonical_parts").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "_canonical.py").write_text(split.source, encoding="utf-8")
    write_support(root)
    (root / "_canonical_parts" / "__init__.py").write_text("")
    for name, text in split.parts.items():
        (root / "_canonical_parts" / f"{name}.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder / "b"))
    importlib.invalidate_caches()
    try:
        split_module = importlib.import_module("toolgen_split_parts._canonical")
    finally:
        sys.path.remove(str(folder / "b"))
    texts = {"_canonical": split.source, **split.parts}
    return whole_module, split_module, texts


def test_every_function_is_kept_once_with_its_text(rendered: tuple) -> None:
    whole, _, texts = rendered
    found: dict[str, str] = {}
    for text in texts.values():
        for name, function in _functions(text).items():
            assert name not in found, f"{name} written twice"
            found[name] = function
    assert found == _functions(Path(whole.__file__).read_text(encoding="utf-8"))
    assert len(texts) > 2  # the example design has several contracts: several parts


def test_a_part_loads_on_first_use_only(rendered: tuple) -> None:
    whole, split, _ = rendered
    assert list(split.TOOL_CANONICALIZERS) == list(whole.TOOL_CANONICALIZERS)
    assert list(split.OUTPUT_CANONICALIZERS) == list(whole.OUTPUT_CANONICALIZERS)
    parts = "toolgen_split_parts._canonical_parts."
    assert not [m for m in sys.modules if m.startswith(parts)]  # the core imports no part
    name = next(iter(split.TOOL_CANONICALIZERS))
    function = split.TOOL_CANONICALIZERS[name]
    assert function is split.TOOL_CANONICALIZERS[name]  # imported once
    assert [m for m in sys.modules if m.startswith(parts)] == [parts + part_name(function.__name__)]
    assert "unknown" not in split.TOOL_CANONICALIZERS
    with pytest.raises(KeyError):
        split.TOOL_CANONICALIZERS["unknown"]


def test_the_same_canonicalizers_as_the_whole_module(rendered: tuple) -> None:
    whole, split, _ = rendered
    for table in ("TOOL_CANONICALIZERS", "OUTPUT_CANONICALIZERS"):
        for name, function in getattr(whole, table).items():
            other = getattr(split, table)[name]
            assert other.__name__ == function.__name__
            assert other.__code__.co_code == function.__code__.co_code
            for payload in ({}, {"a": None}, [], None, "x"):
                assert other(payload) == function(payload)


#: what toolgen.compile.canonical.split found functions with before its scan for line ends
_ANCHORED = re.compile(r"^def (\w+)\(.*?(?=^[^\s)])", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize(
    "text",
    [
        "def _a(value: Any) -> Any:\n    return value\n\n\ndef _b(value: Any) -> Any:\n"
        "    return value\n\n\nX = 1\n",
        # a signature black wrapped, a line that starts with ")" and a tab, a class after
        "# head\n\n\ndef _a(\n    value: Any,\n) -> Any:\n\treturn (\n        1\n)\n\n\n"
        "def _b(value: Any) -> Any:\n    return 2\n\n\nclass C:\n    def _c(self) -> None:\n"
        "        pass\n",
        # a function the module ends with (no top-level line after it), one not compiled, one
        # whose name is no identifier
        "X = 1\ndef _skipped() -> None:\n    pass\ndef _a(v: Any) -> Any:\n    return v\n"
        "def _b-c(v):\n    pass\n\ndef _last(v: Any) -> Any:\n    return v\n",
        "",
        "def _a(value: Any) -> Any:\n    return value\n",
    ],
)
def test_the_functions_found_by_line_ends_are_those_of_the_anchored_pattern(text: str) -> None:
    compiled = {"_a", "_b", "_c", "_last"}  # the compiler's names, identifiers
    expected = {m[1]: m.span() for m in _ANCHORED.finditer(text) if m[1] in compiled}
    assert _function_spans(text, compiled) == expected


def test_a_module_rejoined_from_its_functions_texts_is_the_module_formatted_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a process that builds again, a split module is put together from each function's
    text (kept, or formatted alone for those that changed) and the template formatted without
    them (toolgen/compile/canonical/rejoin.py): the same core and parts as the module formatted
    whole, then split."""
    if not EXAMPLE_DESIGN.is_dir():
        pytest.skip("the example design is absent")
    design, projection = load_and_project(EXAMPLE_DESIGN)
    whole = render_canonical_module(design, projection, header(), split="_canonical")
    kept = Kept()
    with monkeypatch.context() as first_build:  # formatted whole (as a large module is)
        first_build.setattr(rejoin, "MOST_FORMATTED", -1)
        first = render_canonical_module(
            design, projection, header(), Runner(kept=kept), split="_canonical"
        )
    assert (first.source, first.parts) == (whole.source, whole.parts)
    functions = compile_contracts(
        [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]
    ).parts["functions"]
    assert 4 < len(functions) <= 2 * MOST_FORMATTED
    # the next build has every other function's text (the others as if changed)
    texts = kept.get((TEXT_TAG, "_canonical"))
    assert set(texts) == set(functions)
    next_build = Kept()
    next_build.put((TEXT_TAG, "_canonical"), {f: texts[f] for f in functions[1::2]})

    def formatted_whole(*arguments: object) -> None:
        raise AssertionError("formatted whole")

    formatted_alone: list[str] = []
    alone = rejoin.format_definition

    def format_definition(source: str) -> str:
        formatted_alone.append(source)
        return alone(source)

    monkeypatch.setattr(compiler, "split_module", formatted_whole)
    monkeypatch.setattr(rejoin, "format_definition", format_definition)
    rejoined = render_canonical_module(
        design, projection, header(), Runner(kept=next_build), split="_canonical"
    )
    assert len(formatted_alone) == len(functions[::2])
    assert (rejoined.source, rejoined.parts) == (whole.source, whole.parts)


def test_the_kept_names_of_a_function_follow_its_text() -> None:
    """In a process that builds again, the names each function's text holds are kept by its
    text: a function of the same name that no longer calls another gives that one up."""
    kept = Kept()
    first = {
        "_a": "def _a(value: Any) -> Any:\n    return _b(value)\n",
        "_b": "def _b(value: Any) -> Any:\n    return value\n",
        "_c": "def _c(value: Any) -> Any:\n    return _b(value)\n",
    }
    assert owners(first, ["_a", "_c"], kept, "_canonical")["_b"] == {"_a", "_c"}
    kept.begin()
    second = {**first, "_a": "def _a(value: Any) -> Any:\n    return value\n"}
    assert owners(second, ["_a", "_c"], kept, "_canonical")["_b"] == {"_c"}
    assert owners(second, ["_a", "_c"])["_b"] == {"_c"}
