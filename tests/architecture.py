"""docs/architecture.md, written from the layers contract of pyproject.toml
(``[tool.importlinter]``) and the docstrings of toolgen's packages and modules.

``python -m tests.architecture`` (``make architecture``) rewrites the page;
tests/test_architecture.py fails while the page is not what this writes. A module's line is the
first paragraph of its docstring: to change the page, change the docstring.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "architecture.md"
PACKAGE = REPO / "toolgen"
COMMAND = "make architecture"

#: what Markdown would read as markup outside a code span (``<api>`` as an HTML tag, ``|`` as a
#: table cell's end, ``*`` and ``_`` as emphasis, ``[`` as a link)
_MARKUP = re.compile(r"([\\*_\[\]|<>])")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def layers_contract(pyproject: Path = REPO / "pyproject.toml") -> dict[str, Any]:
    """The contract of type ``layers`` of ``[tool.importlinter]``."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return contract


def first_paragraph(path: Path) -> str:
    """The first paragraph of a module's docstring, on one line ("" without a docstring)."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(docstring.split("\n\n", 1)[0].split())


def markdown(text: str) -> str:
    """``text`` with its markup characters escaped outside code spans (rST's double backticks
    are a Markdown code span too)."""
    parts, end = [], 0
    for span in _CODE_SPAN.finditer(text):
        parts += [_MARKUP.sub(r"\\\1", text[end : span.start()]), span.group(0)]
        end = span.end()
    return "".join([*parts, _MARKUP.sub(r"\\\1", text[end:])])


def layer_path(layer: str) -> Path:
    """The file of a layer's module, or the folder of its package."""
    relative = Path(*layer.split(".")[1:])
    folder = PACKAGE / relative
    return folder if folder.is_dir() else folder.with_suffix(".py")


def modules_of(folder: Path) -> list[Path]:
    """The Python modules of a package, subpackages included, in path order (each subpackage's
    ``__init__.py`` first among its own)."""
    return sorted(
        (path for path in folder.rglob("*.py") if "__pycache__" not in path.parts),
        key=lambda path: (
            path.parent.relative_to(folder).parts,
            path.name != "__init__.py",
            path.name,
        ),
    )


def _row(path: Path, folder: Path) -> str:
    relative = path.relative_to(folder)
    name = f"{relative.parent.as_posix()}/" if path.name == "__init__.py" else relative.as_posix()
    return f"| `{name}` | {markdown(first_paragraph(path)) or '(no docstring)'} |"


def render() -> str:
    contract = layers_contract()
    layers: list[str] = contract["layers"]
    lines = [
        "# Architecture",
        "",
        f"<!-- written by `{COMMAND}` (python -m tests.architecture) from pyproject.toml and the",
        "docstrings of toolgen's modules: do not edit; tests/test_architecture.py checks it -->",
        "",
        "toolgen's packages are layers, top to bottom, each importing only the layers below it "
        f"(the import-linter contract \u201c{markdown(contract['name'])}\u201d of pyproject.toml's "
        "`[tool.importlinter]`, checked by `make lint` and tests/test_layers.py):",
        "",
        "    " + " > ".join(layer.removeprefix("toolgen.") for layer in layers),
        "",
        "Each layer below is described by its docstring, and each module of a package by the "
        "first paragraph of its own (a subpackage by its `__init__.py`'s). The page is written "
        f"from them by `{COMMAND}`: to change it, change the docstring.",
        "",
    ]
    for layer in layers:
        where = layer_path(layer)
        shown = where.relative_to(REPO).as_posix() + ("/" if where.is_dir() else "")
        lines += [f"## {layer.removeprefix('toolgen.')}", "", f"`{shown}`", ""]
        if where.is_dir():
            lines += [markdown(first_paragraph(where / "__init__.py")), ""]
            modules = [p for p in modules_of(where) if p != where / "__init__.py"]
            if modules:
                lines += ["| module | what it is |", "|---|---|"]
                lines += [_row(path, where) for path in modules]
                lines.append("")
        else:
            lines += [markdown(first_paragraph(where)), ""]
    return "\n".join(lines)


def main() -> None:
    PAGE.write_text(render(), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
