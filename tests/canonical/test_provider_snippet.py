"""templates/_openai_canonicalize.j2, included into a minimal provider module beside the
generated _canonical.py: names mapped back, dispatch, text entry points, and lint."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.canonical.support import load_and_project
from toolgen.canonical.compiler import render_canonical_module
from toolgen.templating import environment, format_python, header

PRELUDE = '''{{ header }}
"""A minimal provider module for the snippet."""

from __future__ import annotations

from typing import Any

from . import _canonical

TOOLS: tuple[str, ...] = {{ tools | py }}
OUTPUTS: tuple[str, ...] = {{ outputs | py }}
CANONICAL_NAMES: dict[str, str] = {{ canonical_names | py }}
OUTPUT_CANONICAL_NAMES: dict[str, str] = {{ output_canonical_names | py }}


def _known(name: str, names: tuple[str, ...], kind: str) -> str:
    if name not in names:
        raise KeyError(f"unknown {kind} {name!r}")
    return name
{% include "_openai_canonicalize.j2" %}
'''


@pytest.fixture(scope="module")
def package(hard_design: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    design, projection = load_and_project(hard_design)
    tools = [p for p in projection.tools if p.schema is not None]
    outputs = [p for p in projection.outputs if p.schema is not None]
    source = (
        environment()
        .from_string(PRELUDE)
        .render(
            header=header(design.hash),
            tools=tuple(p.contract.name for p in tools),
            outputs=tuple(p.contract.name for p in outputs),
            canonical_names={p.provider_name: p.contract.name for p in tools},
            output_canonical_names={p.provider_name: p.contract.name for p in outputs},
        )
    )
    root = tmp_path_factory.mktemp("snippet")
    folder = root / "snippet_pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "openai.py").write_text(format_python(source), encoding="utf-8")
    (folder / "_canonical.py").write_text(
        render_canonical_module(design, projection, header(design.hash)), encoding="utf-8"
    )
    return root


def test_snippet(package: Path) -> None:
    sys.path.insert(0, str(package))
    module = importlib.import_module("snippet_pkg.openai")
    payload = {
        "filter": {"field": "a", "equals": "b", "boost": None},
        "choice": None,
        "shape": None,
        "nested_union": None,
    }
    assert module.canonicalize_call("unions_shared_names", payload) == (
        "unions.shared_names",
        {"filter": {"field": "a", "equals": "b"}},
    )
    assert module.canonical_tool_name("unicode___") == "unicode.名前"
    with pytest.raises(KeyError, match="from the provider"):
        module.canonical_tool_name("nope")
    with pytest.raises(KeyError):
        module.canonicalize("unions_shared_names", payload)  # a wire name is not a canonical name
    text = '{"severity": "low", "labels": null, "owner": null}'
    assert module.canonicalize_output_text("triage.result", text) == '{"severity":"low"}'
    same = b'{"f": "x", "a": {"e": "y", "b": {"c": "z", "d": 1}}}'
    assert module.canonicalize_text("nested.optional_objects", same) is same
    assert module.canonicalize_output(
        "triage.result", {"severity": "low", "labels": None, "owner": None}
    ) == {"severity": "low"}


def test_snippet_lint(package: Path) -> None:
    bin_dir = Path(sys.executable).parent
    for tool, args in (
        (
            "ruff",
            [
                "check",
                "--no-cache",
                "--isolated",
                "--target-version",
                "py311",
                "--line-length",
                "100",
                "--select",
                "E,F,W,I,B,UP,SIM",
                ".",
            ],
        ),
        ("mypy", ["--no-incremental", "--strict", "-p", "snippet_pkg"]),
    ):
        found = shutil.which(tool, path=str(bin_dir)) or shutil.which(tool)
        if found is None:
            pytest.skip(f"{tool} is not installed")
        result = subprocess.run(
            [found, *args], cwd=package, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
