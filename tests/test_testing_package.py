"""The package's ``testing`` modules (issue 21, item 2), built from the example design for every
provider: their ``arguments`` write each tool's canonical payloads as the projection says (valid
under the projected schema, what the test's own ``Filler`` writes, and read back by the
provider module's ``canonicalize``), and nothing the provider modules import loads them. (Users'
code calling them type-checks without casts, and a misspelled tool or API is a type error:
tests/test_sdk_typing.py, in its one mypy run.)"""

from __future__ import annotations

import importlib
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.support import (
    EXAMPLE_DESIGN,
    PROPERTY,
    Case,
    closed,
    examples,
    instances,
    load_and_project,
)
from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.project.projection import ProjectedContract
from toolgen.providers import PROFILES, PROVIDER_NAMES

PACKAGE = "fakesgen"
#: the providers whose module the package has (a projection-only provider has none)
SERVED = [name for name in PROVIDER_NAMES if PROFILES[name].apis]
TOOLS = sorted(path.stem for path in (EXAMPLE_DESIGN / "tools").glob("*.yaml"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, suite_cache: Path) -> Path:
    result = build(EXAMPLE_DESIGN, PROVIDER_NAMES, cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("testing_package")
    write_package(root / PACKAGE, result.files)
    return root


@pytest.fixture(scope="module")
def package(built: Path) -> ModuleType:
    sys.path.insert(0, str(built))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(built))


@cache
def _projected(provider: str) -> dict[str, ProjectedContract]:
    _, projection = load_and_project(EXAMPLE_DESIGN, provider)
    return {p.contract.name: p for p in projection.tools if p.schema is not None}


@cache
def _case(provider: str, name: str) -> tuple[Case, Draft202012Validator, st.SearchStrategy[Any]]:
    projected = _projected(provider)[name]
    case = Case(f"tool:{name}", projected, lambda payload: payload, PROFILES[provider])
    strategy = instances(closed(projected.contract.schema))
    return case, Draft202012Validator(projected.meaning), strategy


def _tool_names(provider: str) -> list[str]:
    return sorted(_projected(provider))


@pytest.mark.parametrize("provider", SERVED)
@settings(PROPERTY, max_examples=examples(8))
@given(data=st.data())
def test_arguments_are_the_wire_form_the_inverse_reads_back(
    package: ModuleType, provider: str, data: st.DataObject
) -> None:
    fakes = importlib.import_module(f"{PACKAGE}.testing.{provider}")
    module = importlib.import_module(f"{PACKAGE}.{provider}")
    name = data.draw(st.sampled_from(_tool_names(provider)), label="tool")
    case, projected, strategy = _case(provider, name)
    payload = data.draw(strategy, label="canonical")
    wire = fakes.arguments(name, payload)
    errors = [e.message for e in projected.iter_errors(wire)]
    assert not errors, f"{wire!r} is not valid under the projection: {errors}"
    filled, expected = case.filler()(payload)
    assert wire == filled
    assert module.canonicalize(name, wire) == expected


def test_every_tool_of_every_provider_has_a_plan(package: ModuleType) -> None:
    for provider in SERVED:
        plans = importlib.import_module(f"{PACKAGE}.testing._plans_{provider}").TOOL_PLANS
        assert sorted(plans) == _tool_names(provider) == sorted(package.TOOLS), provider
    fakes = importlib.import_module(f"{PACKAGE}.testing.openai")
    with pytest.raises(KeyError, match="no tool is called"):
        fakes.arguments("billing_refund", {})  # the wire name is no canonical name


def test_the_provider_modules_do_not_load_the_fakes(built: Path) -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(built)!r})\n"
        f"from {PACKAGE} import {', '.join(SERVED)}\n"
        f"print(sorted(m for m in sys.modules if m.startswith('{PACKAGE}.testing')"
        f" or m in ('{PACKAGE}._forward', '{PACKAGE}._fakes')))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
