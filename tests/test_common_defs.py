"""Definitions held in common (issue 35, item 4): the same ``$defs`` entry in many tools (as an
MCP server writes them) is one shared definition of the package: one model class, one inverse
function, one entry of the schema tables, as if the tools referred to one file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_watch_load import OPENAI, Watched

from toolgen.build import analyze, build
from toolgen.load.design import load_design
from toolgen.providers import settings

S = {"type": "string"}
USER = {
    "type": "object",
    "properties": {"id": S, "name": S, "email": {"type": "string", "format": "email"}},
    "required": ["id"],
}
COLOR = {"type": "string", "enum": ["red", "green"]}
MENTION = {"type": "object", "properties": {"user": {"$ref": "#/$defs/user"}}}
DEFS = {"user": USER, "color": COLOR, "mention": MENTION}


def _tool(name: str, properties: dict[str, Any], defs: dict[str, Any] = DEFS) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "$defs": defs}
    return {"name": name, "description": f"Tool {name}.", "parameters": parameters}


def _design(make_design: Callable[..., Path], **tools: dict[str, Any]) -> Path:
    files: dict[str, Any] = {"toolgen.toml": OPENAI}
    files.update({f"tools/{name}.yaml": value for name, value in tools.items()})
    return make_design(files)


def test_a_definition_every_tool_holds_is_one_shared_definition(make_design) -> None:
    root = _design(
        make_design,
        a=_tool("a", {"who": {"$ref": "#/$defs/user"}}),
        b=_tool("b", {"m": {"$ref": "#/$defs/mention"}, "c": {"$ref": "#/$defs/color"}}),
        c=_tool("c", {"c": {"$ref": "#/$defs/color"}}),
    )
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    assert sorted(design.shared) == ["color", "user"]  # mention: b's alone
    assert all(design.shared[n].common for n in design.shared)
    a, b, c = design.tools
    assert sorted(a.shared) == ["user"] and sorted(c.shared) == ["color"]
    assert sorted(b.shared) == ["color", "user"]
    # each points into its own file: a problem found there is reported where the copy is
    assert b.locate("/$defs/user/properties/id") == (
        "tools/b.yaml",
        "/parameters/$defs/user/properties/id",
    )
    assert b.schema["$defs"]["user"] == USER  # no schema changes


def test_one_model_class_one_inverse_and_one_table_entry(make_design) -> None:
    root = _design(
        make_design,
        a=_tool("a", {"who": {"$ref": "#/$defs/user"}}),
        b=_tool("b", {"whom": {"$ref": "#/$defs/user"}}),
        c=_tool("c", {"m": {"$ref": "#/$defs/mention"}}),
    )
    result = build(root)
    assert result.ok, [d.format() for d in result.diagnostics]
    files = result.files
    assert "class User(" in files["models/_shared.py"]
    for name in ("a", "b", "c"):
        assert "class User(" not in files[f"models/tools/{name}.py"]
    assert "from .._shared import User" in files["models/tools/a.py"]
    canonical = files["_canonical_openai.py"]
    assert canonical.count("def _def_user(") == 1
    tables = files["_tables_openai.py"]
    assert tables.count('"email":{') == 1, "user's projected definition is written once"
    assert tables.count('"user":"user"') == 3  # each schema names it


def test_the_sent_definitions_are_whole_again(make_design, import_package) -> None:
    root = _design(
        make_design,
        a=_tool("a", {"who": {"$ref": "#/$defs/user"}}),
        b=_tool("b", {"m": {"$ref": "#/$defs/mention"}}),
    )
    result = build(root)
    assert result.ok
    package = import_package(result.files)
    for name in ("a", "b"):
        sent = package.openai.parameters(name)
        assert sent == json.loads(result.files[f"schemas/openai/tools/{name}.json"])
    assert set(package.openai.parameters("b")["$defs"]) == {"mention", "user"}
    sent = package.openai.parameters("a")
    sent["$defs"]["user"]["changed"] = True  # a reader's copy is its own
    assert "changed" not in package.openai.parameters("b")["$defs"]["user"]


def test_a_name_whose_copies_differ_stays_each_tools_own(make_design) -> None:
    other_user = {**USER, "required": ["id", "name"]}
    root = _design(
        make_design,
        a=_tool("a", {"who": {"$ref": "#/$defs/user"}}),
        b=_tool("b", {"who": {"$ref": "#/$defs/user"}}, {"user": other_user}),
        c=_tool("c", {"who": {"$ref": "#/$defs/user"}}),
    )
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    assert design.shared == {}
    result = build(root)
    assert result.ok
    assert "class User(" in result.files["models/tools/b.py"]


def test_a_definition_referring_to_one_not_in_common_is_not_in_common(make_design) -> None:
    """``mention`` is the same text in both tools, but the ``user`` it refers to is not."""
    other_user = {**USER, "required": ["id", "name"]}
    root = _design(
        make_design,
        a=_tool("a", {"m": {"$ref": "#/$defs/mention"}}),
        b=_tool("b", {"m": {"$ref": "#/$defs/mention"}}, {**DEFS, "user": other_user}),
    )
    design, _ = load_design(root, settings())
    assert design is not None
    assert design.shared == {}


def test_a_name_of_a_definition_across_files_is_not_taken(make_design) -> None:
    root = make_design(
        {
            "toolgen.toml": OPENAI,
            "defs/d.yaml": {"$defs": {"color": {"type": "integer"}}},
            "tools/a.yaml": _tool("a", {"c": {"$ref": "#/$defs/color"}}),
            "tools/b.yaml": _tool("b", {"c": {"$ref": "#/$defs/color"}}),
            "tools/x.yaml": _tool("x", {"n": {"$ref": "../defs/d.yaml#/$defs/color"}}, {}),
        }
    )
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    assert design.shared["color"].schema == {"type": "integer"}
    assert not design.shared["color"].common
    assert design.tools[0].shared == {}


def test_a_refusal_in_a_common_definition_is_reported_in_each_tool(make_design) -> None:
    refused = {"type": "string", "not": {"const": ""}}
    defs = {"code": refused}
    strict = {"providers": {"openai": {"strict": True}}}
    root = _design(
        make_design,
        a={**_tool("a", {"c": {"$ref": "#/$defs/code"}}, defs), **strict},
        b={**_tool("b", {"c": {"$ref": "#/$defs/code"}}, defs), **strict},
    )
    result = analyze(root, ("openai",))
    assert sorted((d.file, d.pointer, d.code) for d in result.diagnostics) == [
        ("tools/a.yaml", "/parameters/$defs/code/not", "UNSUPPORTED_NOT"),
        ("tools/b.yaml", "/parameters/$defs/code/not", "UNSUPPORTED_NOT"),
    ]


def test_watch_rebuilds_follow_what_tools_hold_in_common(
    tmp_path: Path, make_design: Callable[..., Path]
) -> None:
    """Each rebuild is a cold build's files (Watched checks it): a tool's copy changed (no
    longer common: every tool's contract changes), changed back, and a description changed (the
    other contracts are the last build's objects)."""
    uses = {"m": {"$ref": "#/$defs/mention"}, "c": {"$ref": "#/$defs/color"}}
    root = _design(make_design, a=_tool("a", uses), b=_tool("b", uses), c=_tool("c", uses))
    watched = Watched(root, tmp_path / "cache")
    first = watched.build().design
    assert first is not None and sorted(first.shared) == ["color", "mention", "user"]
    other = {**DEFS, "user": {**USER, "required": ["id", "name"]}}
    make_design({"tools/b.yaml": _tool("b", uses, other)})
    second = watched.build().design
    assert second is not None and sorted(second.shared) == ["color"]  # mention refers to user
    make_design({"tools/b.yaml": _tool("b", uses)})
    third = watched.build().design
    assert third is not None and sorted(third.shared) == ["color", "mention", "user"]
    make_design({"tools/c.yaml": {**_tool("c", uses), "description": "Changed."}})
    fourth = watched.build().design
    assert fourth is not None
    assert fourth.tools[0] is third.tools[0] and fourth.tools[1] is third.tools[1]
    assert fourth.tools[2].description == "Changed."
