"""docs/architecture.md is what ``make architecture`` writes from the layers contract and the
docstrings (tests/architecture.py), and it covers the whole of toolgen/."""

from __future__ import annotations

from pathlib import Path

from tests.architecture import (
    PACKAGE,
    PAGE,
    first_paragraph,
    layer_path,
    layers_contract,
    markdown,
    modules_of,
    render,
)


def test_the_architecture_page_is_current():
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "docs/architecture.md is stale: run `make architecture` (a layer, a module or a "
        "docstring changed)"
    )


def test_every_module_of_toolgen_is_in_a_layer():
    """A top-level module outside the contract would be missing from the page (and unchecked by
    the layers contract)."""
    layers = layers_contract()["layers"]
    top = {
        path.stem if path.is_file() else path.name
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py") or (path / "__init__.py").is_file()
    }
    assert top == {layer.removeprefix("toolgen.") for layer in layers}
    assert all(layer_path(layer).exists() for layer in layers)


def test_every_module_says_what_it_is():
    found = [
        path.relative_to(PACKAGE).as_posix()
        for layer in layers_contract()["layers"]
        for path in (
            [layer_path(layer)] if layer_path(layer).is_file() else modules_of(layer_path(layer))
        )
        if not first_paragraph(path)
    ]
    assert found == []


def test_markup_outside_code_spans_is_escaped():
    assert markdown("runtime/_<api>.py, a | b, ``_<x>`` and `[y]`") == (
        "runtime/\\_\\<api\\>.py, a \\| b, ``_<x>`` and `[y]`"
    )


def test_a_module_line_is_its_docstrings_first_paragraph(tmp_path: Path):
    module = tmp_path / "m.py"
    module.write_text('"""One line\nand its continuation.\n\nMore."""\nx = 1\n')
    assert first_paragraph(module) == "One line and its continuation."
