"""Units (one contract's compiled code with local names) and their linking: the module does not
depend on where a unit came from (compiled now, read back from the cache, in any mix), and what
contracts have in common is written once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.canonical.conftest import write_files
from tests.canonical.support import compile_projection, load_and_project
from toolgen.compile.canonical.compiler import compile_contracts, compile_unit
from toolgen.compile.canonical.linker import link
from toolgen.compile.canonical.units import PLACEHOLDER, Unit
from toolgen.project.projection import ProjectedContract


def _contracts(root: Path) -> list[ProjectedContract]:
    _, projection = load_and_project(root)
    return [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]


def _read_back(unit: Unit) -> Unit:
    """``unit`` as the cache stores and returns it."""
    return Unit.from_json(json.loads(json.dumps(unit.to_json())))


def test_units_read_back_link_to_the_same_module(hard_design: Path) -> None:
    contracts = _contracts(hard_design)
    units = [compile_unit(p) for p in contracts]
    expected = link(contracts, units).parts
    assert expected["functions"] and expected["constants"]
    assert link(contracts, [_read_back(u) for u in units]).parts == expected
    for parity in (0, 1):  # partly from the cache
        mixed = [_read_back(u) if i % 2 == parity else u for i, u in enumerate(units)]
        assert link(contracts, mixed).parts == expected
    assert compile_contracts(contracts).parts == expected


def test_no_local_name_is_left_in_the_module(hard_design: Path) -> None:
    parts = compile_contracts(_contracts(hard_design)).parts
    for text in (*parts["functions"], *parts["constants"]):
        assert not PLACEHOLDER.search(text)


#: a shared definition with a union (a branch test, an inverse that changes something) and
#: local unions of the same forms in several tools
_PLACE = {
    "$defs": {
        "Place": {
            "type": "object",
            "properties": {
                "at": {
                    "anyOf": [
                        {"type": "string", "pattern": "^[A-Z]{2}$"},
                        {
                            "type": "object",
                            "properties": {"lat": {"type": "number"}, "note": {"type": "string"}},
                            "required": ["lat"],
                        },
                    ]
                },
                "label": {"type": "string"},
            },
            "required": ["at"],
        }
    }
}


def _tool(name: str) -> dict[str, object]:
    local = {
        "anyOf": [
            {"type": "string", "enum": ["a", "b"]},
            {"type": "object", "properties": {"n": {"type": "integer"}, "tag": {"type": "string"}}},
        ]
    }
    return {
        "name": name,
        "description": f"tool {name}",
        "parameters": {
            "type": "object",
            "properties": {
                "from": {"$ref": "../defs/place.yaml#/$defs/Place"},
                "to": {"$ref": "../defs/place.yaml#/$defs/Place"},
                "choice": local,
            },
            "required": ["from"],
        },
    }


@pytest.fixture(scope="module")
def shared_design(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files: dict[str, object] = {"defs/place.yaml": _PLACE}
    files.update({f"tools/t{i}.yaml": _tool(f"t{i}") for i in range(3)})
    return write_files(tmp_path_factory.mktemp("shared") / "design", files)


def test_what_contracts_share_is_written_once(shared_design: Path) -> None:
    """Each unit carries its own copy of the shared definition's functions and of the local
    union's tests; the module has one of each (the inverses of union branches are one a union,
    as in a module compiled in one pass)."""
    contracts = _contracts(shared_design)
    assert len(contracts) == 3
    units = [compile_unit(p) for p in contracts]
    for unit in units:  # every unit is complete alone
        kinds = [d.kind for d in unit.definitions]
        assert kinds.count("canon") == 1 and kinds.count("admits") >= 4
    parts = link(contracts, units).parts
    heads = [f.split("(", 1)[0] for f in parts["functions"]]
    assert heads.count("def _def_place") == 1
    assert len(heads) == len(set(heads))
    tests = [f.split("\n", 1)[1] for f in parts["functions"] if "-> bool:" in f.split("\n", 1)[0]]
    assert len(tests) == len(set(tests)), "two branch tests with the same body"
    assert len(tests) < sum(d.kind == "admits" for u in units for d in u.definitions)
    assert sum("re.compile" in c for c in parts["constants"]) == 1
    assert parts["uses_re"]
    assert list(parts["tools"]) == ["t0", "t1", "t2"]


def _optional_strings(prefix: str, count: int) -> dict[str, object]:
    return {f"{prefix}{i}": {"type": "string"} for i in range(count)}


def test_a_shared_definition_projected_two_ways_has_an_inverse_each(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Anthropic caps optional members per schema: in tool ``b`` (22 optional members of its
    own) the last members of shared definition X go required and nullable, in tool ``a`` they
    stay optional. Each tool's payloads must come back through the inverse of its own
    projection of X, not through the first tool's."""
    x = {"type": "object", "properties": _optional_strings("x", 5)}
    ref = {"$ref": "../defs/d.yaml#/$defs/X"}

    def tool(name: str, own: int) -> dict[str, object]:
        properties = {**_optional_strings("p", own), "x": ref}
        parameters = {"type": "object", "properties": properties, "required": ["x"]}
        return {"name": name, "description": name, "parameters": parameters}

    files = {"defs/d.yaml": {"$defs": {"X": x}}, "tools/a.yaml": tool("a", 0)}
    files["tools/b.yaml"] = tool("b", 22)
    root = write_files(tmp_path_factory.mktemp("two-ways") / "design", files)
    design, projection = load_and_project(root, "anthropic")
    b = next(p for p in projection.tools if p.contract.name == "b")
    assert b.schema["$defs"]["X"]["required"], "b's copy of X has members made required"
    a = next(p for p in projection.tools if p.contract.name == "a")
    assert "required" not in a.schema["$defs"]["X"] or not a.schema["$defs"]["X"]["required"]
    folder = tmp_path_factory.mktemp("two-ways-package")
    compiled = compile_projection(design, projection, folder, "two_ways")
    canonicalizers = compiled.module.TOOL_CANONICALIZERS
    assert canonicalizers["b"]({"x": {"x0": "s", "x4": None}}) == {"x": {"x0": "s"}}
    assert canonicalizers["a"]({"x": {"x0": "s"}}) == {"x": {"x0": "s"}}
