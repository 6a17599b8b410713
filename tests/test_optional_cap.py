"""Over the cap of optional members of Anthropic strict tool use (24; Bedrock keeps it for Claude):
the members past the cap are written required and nullable (OptionalsOverCap, each MadeNullable),
the inverse removes their null, and the tool stays strict (issue 20). Each of them counts as a
union-typed schema, so a schema whose extra members and unions exceed 16 stays an error."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from types import ModuleType
from typing import Any

import pytest
from anthropic_strict_checker import assert_strict
from jsonschema import Draft202012Validator

from tests.canonical.hard_cases import TOOLS
from toolgen.build import build
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.package.writer import write_package
from toolgen.project.limits import measure
from toolgen.project.projection import project_contract
from toolgen.project.rewrites import OptionalsOverCap
from toolgen.project.strictness import project_tool
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.bedrock import BEDROCK

_PACKAGES = itertools.count(1)
S: dict[str, Any] = {"type": "string"}
PROFILES = [ANTHROPIC, BEDROCK]


def members(count: int, start: int = 0) -> dict[str, Any]:
    """``count`` members of assorted kinds (so that each way of accepting null is written)."""
    kinds: list[dict[str, Any]] = [
        S,
        {"type": "integer"},
        {"enum": ["a", "b"]},
        {"type": "string", "enum": ["x", "y"]},
        {"$ref": "#/$defs/Point"},
        {"type": "array", "items": S},
        {"anyOf": [S, {"type": "integer"}]},
    ]
    return {f"m{i:02}": kinds[i % len(kinds)] for i in range(start, start + count)}


POINT = {
    "type": "object",
    "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
    "required": ["x", "y"],
    "additionalProperties": False,
}
DEFS = {"Point": POINT}
WIDE = {
    "type": "object",
    "properties": {"id": S, **members(30)},
    "required": ["id"],
    "$defs": DEFS,
}


def project(
    schema: Any, profile: Any = ANTHROPIC, options: ProviderOptions | None = None
) -> tuple[Any, list[Any]]:
    contract = Contract("tool", "wide", "", schema, "tools/wide.json", "/parameters")
    return project_contract(contract, profile, options or ProviderOptions(), "wide")


def errors(diagnostics: list[Any]) -> list[str]:
    return [d.code for d in diagnostics if d.level == "error"]


def optional_names(schema: dict[str, Any]) -> list[str]:
    return [name for name in schema["properties"] if name not in schema.get("required", [])]


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_thirty_optional_members_stay_strict(profile: Any) -> None:
    projected, diagnostics = project(WIDE, profile)
    assert diagnostics == []
    assert projected.strict
    schema = projected.schema
    assert_strict(schema, name="wide")
    sizes = measure(schema)
    assert sizes.optional == 24
    # the first 24 optional members stay optional; the last 6 are required and accept null
    assert optional_names(schema) == [f"m{i:02}" for i in range(24)]
    assert schema["required"] == ["id", *(f"m{i:02}" for i in range(24, 30))]
    over = [schema["properties"][f"m{i:02}"] for i in range(24, 30)]
    defs = schema["$defs"]
    assert all(Draft202012Validator({**m, "$defs": defs}).is_valid(None) for m in over)
    # the anyOf members m06, m13, m20, m27 are unions already (m27 gains a null branch); the 5
    # other members made nullable are unions now (a type list, or a $ref wrapped in anyOf)
    assert sizes.unions == 4 + 5
    record = projected.rewrites
    assert record.rewrites("") == (OptionalsOverCap(tuple(f"m{i:02}" for i in range(24, 30))),)
    for i in range(30):
        pointer = f"/properties/m{i:02}"
        assert record.made_nullable(pointer) == (i >= 24), pointer


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_the_inverse_drops_the_nulls_it_added(profile: Any) -> None:
    projected, _ = project(WIDE, profile)
    payload = {"id": "a", "m00": "x", **{f"m{i:02}": None for i in range(24, 30)}}
    assert Draft202012Validator(projected.schema).is_valid(payload)
    assert reference_inverse(payload, projected) == {"id": "a", "m00": "x"}
    present = {**payload, "m24": "v", "m25": 3}
    assert reference_inverse(present, projected) == {"id": "a", "m00": "x", "m24": "v", "m25": 3}


NULLABLE = {f"n{i}": {"type": ["string", "null"]} for i in range(6)}


@pytest.mark.parametrize("setting", ["keep", "error"])
def test_members_that_accept_null_stay_optional_unless_boxed(setting: Any) -> None:
    """Without the box (``optional_nullable = "keep"`` or ``"error"``) an optional member that
    accepts null could not be told from an absent one once required: the members written
    required are chosen among the others (from the last)."""
    schema = {"type": "object", "properties": {**members(24), **NULLABLE}, "$defs": DEFS}
    projected, diagnostics = project(schema, options=ProviderOptions(optional_nullable=setting))
    assert diagnostics == []
    assert projected.schema["required"] == [f"m{i:02}" for i in range(18, 24)]
    assert optional_names(projected.schema)[-6:] == list(NULLABLE)


DEFAULT_NULL = {f"d{i}": {"type": ["string", "null"], "default": None} for i in range(6)}


@pytest.mark.parametrize("setting", ["encode", "keep", "error"])
@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_members_whose_default_is_null_are_written_as_they_are_over_the_cap(
    profile: Any, setting: Any
) -> None:
    """A member that accepts null and whose default is null is chosen as the others are, from
    the last, whatever ``optional_nullable`` says: absent and null are one value there, so it is
    written required as it is (no box) and its null reads back as absent."""
    schema = {"type": "object", "properties": {**members(24), **DEFAULT_NULL}, "$defs": DEFS}
    options = ProviderOptions(optional_nullable=setting)
    projected, diagnostics = project(schema, profile, options)
    assert diagnostics == []
    assert_strict(projected.schema, name="wide")
    assert projected.schema["required"] == list(DEFAULT_NULL)
    assert all(
        projected.schema["properties"][name] == {"type": ["string", "null"]}
        for name in DEFAULT_NULL
    )
    payload = {"d0": None, "d1": "x", **{f"d{i}": None for i in range(2, 6)}}
    assert reference_inverse(payload, projected) == {"d1": "x"}


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_members_that_accept_null_are_boxed_over_the_cap(profile: Any) -> None:
    """By default such a member is boxed (null: absent, ``{"value": v}``: v), so it is chosen as
    the others are, from the last; absent and null stay apart through the inverse."""
    schema = {"type": "object", "properties": {**members(24), **NULLABLE}, "$defs": DEFS}
    projected, diagnostics = project(schema, profile)
    assert diagnostics == []
    assert_strict(projected.schema, name="wide")
    assert projected.schema["required"] == list(NULLABLE)
    assert measure(projected.schema).optional == 24
    payload = {"n0": None, "n1": {"value": None}, "n2": {"value": "x"}}
    payload |= {name: None for name in list(NULLABLE)[3:]}
    assert Draft202012Validator(projected.schema).is_valid(payload)
    assert reference_inverse(payload, projected) == {"n1": None, "n2": "x"}


def test_nested_members_count_in_the_order_of_the_schema() -> None:
    """The cap is across every object of the schema: the objects in the order of a depth-first
    walk, each one's optional members as authored; the last ones go."""
    inner = {"type": "object", "properties": {f"i{i}": S for i in range(10)}}
    properties = {**members(15), "inner": inner, "z": S}
    schema = {"type": "object", "properties": properties, "$defs": DEFS}
    projected, diagnostics = project(schema)
    assert diagnostics == []
    written = projected.schema
    assert "required" not in written  # m00..m14, inner and z come first
    assert written["properties"]["inner"]["required"] == ["i7", "i8", "i9"]
    assert measure(written).optional == 24


def test_over_the_union_cap_too_it_stays_an_error() -> None:
    """24 optional members and 17 more: the 17 would be 17 union-typed schemas (cap 16)."""
    schema = {"type": "object", "properties": {f"p{i}": S for i in range(24 + 17)}}
    projected, diagnostics = project(schema)
    assert projected.schema is None
    assert errors(diagnostics) == ["LIMIT_OPTIONAL_MEMBERS"]
    (message,) = [d.message for d in diagnostics]
    assert "writing 17 of them required and nullable" in message
    assert "17 union-typed schemas" in message
    # with unions of its own, fewer extra members are enough to exceed it
    unions = {f"u{i}": {"type": ["string", "integer"]} for i in range(11)}
    schema = {"type": "object", "properties": {**members(30)}, "$defs": DEFS}
    schema["properties"].update(unions)
    schema["required"] = list(unions)
    assert project(schema)[0].schema is None
    # the fallback, where the design asks for it, still sends such a tool non-strict
    contract = Contract("tool", "t", "", schema, "tools/t.json", "/parameters")
    options = ProviderOptions(strict_fallback="non-strict")
    loose, found = project_tool(contract, ANTHROPIC, options, "t")
    assert not loose.strict and [d.code for d in found] == ["STRICT_FALLBACK"]


# -- the generated package ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ModuleType]:
    root = tmp_path_factory.mktemp("optcap")
    design = root / "design"
    (design / "tools").mkdir(parents=True)
    (design / "toolgen.toml").write_text(
        '[toolgen]\nproviders = ["anthropic", "bedrock"]\n', encoding="utf-8"
    )
    tools = {
        "wide": WIDE,
        "small": {"type": "object", "properties": {"q": S}},
    }
    for name, parameters in tools.items():
        tool = {"name": name, "description": f"The {name} tool.", "parameters": parameters}
        tool["priority"] = int(name == "wide")  # strict="auto" takes it first
        (design / "tools" / f"{name}.json").write_text(json.dumps(tool), encoding="utf-8")
    result = build(design)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert not [d for d in result.diagnostics if d.level != "info"], result.diagnostics
    name = f"toolgen_optcap_test_{next(_PACKAGES)}"
    write_package(root / "out" / name, result.files)
    # the two projections are alike: one module serves both
    assert "_canonical_anthropic.py" in result.files
    assert "from ._canonical_anthropic import" in result.files["bedrock.py"]
    sys.path.insert(0, str(root / "out"))
    return {
        provider: importlib.import_module(f"{name}.{provider}")
        for provider in ("anthropic", "bedrock")
    }


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_the_module_decodes_the_nulls_back_to_absent(
    package: dict[str, ModuleType], provider: str
) -> None:
    module = package[provider]
    payload = {"id": "a", "m03": "x", **{f"m{i:02}": None for i in range(24, 30)}}
    assert module.canonicalize("wide", payload) == {"id": "a", "m03": "x"}
    text = json.dumps(payload)
    assert json.loads(module.canonicalize_text("wide", text)) == {"id": "a", "m03": "x"}
    untouched = {"q": "x"}
    assert module.canonicalize("small", untouched) is untouched
    assert module.STRICT["wide"] is True


def test_the_anthropic_response_decodes_to_the_canonical_payload(
    package: dict[str, ModuleType],
) -> None:
    module = package["anthropic"]
    arguments = {"id": "a", **{f"m{i:02}": None for i in range(24, 30)}, "m24": "x"}
    response = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "wide", "input": arguments}],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    (call,) = module.parse_tool_calls(response)
    assert call.arguments.model_dump(exclude_unset=True) == {"id": "a", "m24": "x"}


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_strict_auto_counts_the_projected_schema(
    package: dict[str, ModuleType], provider: str
) -> None:
    """The tables count the projection (24 optional, the made-nullable members as unions), so
    ``strict="auto"`` keeps a request within the caps: "small" (one more optional) goes
    non-strict beside "wide"."""
    module = package[provider]
    sizes = module._TOOLS.sizes
    assert sizes["wide"] == (24, 4 + 5)
    assert sizes["small"] == (1, 0)
    definitions = [d.get("toolSpec", d) for d in module.tool_definitions()]
    assert {d["name"] for d in definitions if d.get("strict")} == {"wide"}
    assert len(definitions) == 2
    with pytest.raises(ValueError, match="exceed one request's limits"):
        module.tool_definitions(strict=True)


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_the_hard_case_goes_strict(profile: Any) -> None:
    """The laws run tests/canonical/hard_cases.py's ``optional.over_cap`` through Bedrock's
    projection with the non-strict fallback on: it must be strict there, over the cap."""
    projected, diagnostics = project(TOOLS["optional.over_cap"], profile)
    assert diagnostics == [] and projected.strict
    assert_strict(projected.schema)
    assert projected.rewrites.rewrites("") == (OptionalsOverCap(("tags",)),)
    assert projected.rewrites.rewrites("/properties/inner") == (OptionalsOverCap(("a", "n", "b")),)
