"""Names the API takes (issue 35, item 3): Anthropic (and Bedrock, derived from it) refuses
property keys outside ``^[a-zA-Z0-9_.-]{1,64}$`` (the API's error text, quoted in
anthropics/claude-code #4668). Such a member goes out under a name it takes and is named back;
and a pattern with a quantifier over the provider's range is dropped there and enforced after
decoding."""

from __future__ import annotations

import importlib
import itertools
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import tool_file, write_design
from toolgen.build import build
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.package.writer import write_package
from toolgen.project.projection import project_contract
from toolgen.providers import PROFILES
from toolgen.schema import walker

KEY = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")
S = {"type": "string"}

#: member names Anthropic refuses, in every place a member can be: nested, in a definition, in
#: an array's items, in a union's branch; and names their wire names could meet
PARAMETERS = {
    "type": "object",
    "properties": {
        "filter[id]": S,
        "filter_id_": {"type": "integer"},
        "naïve": {"$ref": "#/$defs/Inner"},
        "rows": {"type": "array", "items": {"$ref": "#/$defs/Inner"}},
        "either": {
            "anyOf": [
                {"type": "object", "properties": {"a b": S}, "required": ["a b"]},
                {"type": "string"},
            ]
        },
        "": S,
        "x" * 70: S,
        "ok.name-1": S,
    },
    "required": ["filter[id]", "naïve"],
    "$defs": {
        "Inner": {
            "type": "object",
            "properties": {"a b": S, "a_b": S, "c/d": {"type": "integer"}},
            "required": ["a b"],
        }
    },
}
PAYLOAD = {
    "filter[id]": "x",
    "filter_id_": 3,
    "naïve": {"a b": "y", "a_b": "z", "c/d": 1},
    "rows": [{"a b": "r"}, {"a b": "s", "c/d": 2}],
    "either": {"a b": "q"},
    "": "empty",
    "x" * 70: "long",
    "ok.name-1": "kept",
}

_PACKAGES = itertools.count()


def _projected(provider: str, parameters: Any = PARAMETERS) -> Any:
    contract = Contract("tool", "t", "", parameters, "tools/t.yaml", "/parameters")
    projected, diagnostics = project_contract(contract, PROFILES[provider], ProviderOptions(), "t")
    assert projected.schema is not None, diagnostics
    return projected


def _keys(schema: Any) -> list[str]:
    return [
        name
        for node, _ in walker.walk(schema)
        if isinstance(node, dict) and isinstance(node.get("properties"), dict)
        for name in node["properties"]
    ]


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_no_property_key_outside_the_pattern_is_sent_and_each_reads_back(provider: str) -> None:
    projected = _projected(provider)
    keys = _keys(projected.schema)
    assert keys and all(KEY.match(key) for key in keys), [k for k in keys if not KEY.match(k)]
    for node, _ in walker.walk(projected.schema):  # collision-free within every object
        if isinstance(node, dict) and isinstance(node.get("properties"), dict):
            assert set(node.get("required", [])) <= set(node["properties"])
    renamed = {name: wire for line in projected.renamed_members() for name, wire in [_pair(line)]}
    assert renamed["/properties/filter[id]"] != "filter_id_"  # taken by another member
    wire = _wire(PAYLOAD, projected)
    assert reference_inverse(wire, projected) == PAYLOAD


def _pair(line: str) -> tuple[str, str]:
    pointer, wire = re.fullmatch(r"\w+ takes (.*) as '(.*)'", line).groups()  # type: ignore[union-attr]
    return pointer, wire


def _wire(payload: Any, projected: Any) -> Any:
    """The payload as the provider's model writes it, by the package's own fakes' writer."""
    from toolgen.compile.canonical.forward import forward_plan
    from toolgen.runtime._forward import forward

    plan = forward_plan(projected)
    assert plan is not None
    return forward(payload, plan["root"], plan["defs"])


def test_the_names_are_the_same_in_every_build_and_other_providers_keep_theirs() -> None:
    assert _projected("anthropic").schema == _projected("anthropic").schema
    assert set(_projected("openai").schema["properties"]) == set(PARAMETERS["properties"])


def test_the_package_reads_the_members_back_under_their_names(
    tmp_path: Path, suite_cache: Path
) -> None:
    name = f"member_names_{next(_PACKAGES)}"
    design = write_design(tmp_path / "design", {"tools/t.yaml": tool_file("t", PARAMETERS)})
    result = build(design, ["anthropic", "bedrock"], cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_package(tmp_path / "out" / name, result.files)
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        for provider in ("anthropic", "bedrock"):
            module = importlib.import_module(f"{name}.{provider}")
            fakes = importlib.import_module(f"{name}.testing.{provider}")
            assert all(KEY.match(key) for key in _keys(module.parameters("t")))
            (call,) = module.parse_tool_calls(fakes.response([("t", PAYLOAD)]))
            assert call.arguments.model_dump(mode="json") == PAYLOAD
    finally:
        sys.path.remove(str(tmp_path / "out"))


def test_an_open_object_with_a_refused_name_is_an_error_naming_it() -> None:
    """Its other members could take the new name: no exact inverse, so the build says so."""
    parameters = {
        "type": "object",
        "properties": {
            "o": {"type": "object", "properties": {"a b": S}, "additionalProperties": S}
        },
        "required": ["o"],
    }
    contract = Contract("tool", "t", "", parameters, "tools/t.yaml", "/parameters")
    projected, diagnostics = project_contract(
        contract, PROFILES["anthropic"], ProviderOptions(), "t"
    )
    assert projected.schema is None
    found = [(d.file, d.pointer, d.provider, d.code) for d in diagnostics if d.level == "error"]
    assert found == [
        (
            "tools/t.yaml",
            "/parameters/properties/o/properties/a b",
            "anthropic",
            "MEMBER_NAME_REFUSED",
        )
    ]


def test_a_tool_sent_non_strict_with_a_refused_name_is_an_error(
    tmp_path: Path, suite_cache: Path
) -> None:
    parameters = {"type": "object", "properties": {"a b": S}}
    design = write_design(
        tmp_path / "design", {"tools/t.yaml": tool_file("t", parameters, strict=False)}
    )
    result = build(design, ["anthropic"], cache_dir=suite_cache)
    codes = [(d.pointer, d.code) for d in result.diagnostics if d.level == "error"]
    assert codes == [("/parameters/properties/a b", "MEMBER_NAME_REFUSED")]


def test_toolgen_show_says_which_names_go_out_otherwise(tmp_path: Path, run_toolgen) -> None:
    design = write_design(tmp_path / "design", {"tools/t.yaml": tool_file("t", PARAMETERS)})
    shown = run_toolgen("show", str(design), "t", "--provider", "anthropic")
    assert shown.returncode == 0, shown.stderr
    assert "toolgen: anthropic takes /properties/filter[id] as 'filter_id__2'" in shown.stderr


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_a_quantifier_over_the_range_drops_its_pattern_there(provider: str) -> None:
    """The docs support "simple {n,m} cases"; {1,5000} is refused: the pattern goes, the canonical
    validation keeps it. OpenAI keeps it; a small range is kept everywhere."""
    parameters = {
        "type": "object",
        "properties": {
            "big": {"type": "string", "pattern": "^[a-z]{1,5000}$"},
            "small": {"type": "string", "pattern": "^[a-z]{1,20}$"},
            "literal": {"type": "string", "pattern": "^\\{1,5000}$"},
        },
        "required": ["big", "small", "literal"],
    }
    members = _projected(provider, parameters).schema["properties"]
    assert "pattern" not in members["big"]
    assert members["small"]["pattern"] == "^[a-z]{1,20}$"
    assert members["literal"]["pattern"] == "^\\{1,5000}$"
    assert _projected("openai", parameters).schema["properties"]["big"]["pattern"]
