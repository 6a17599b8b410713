"""Only the definitions a contract reaches are projected, checked, counted and sent (issue 35,
item 4): an MCP server writes the same ``$defs`` into every tool, and a tool that uses none of
them must not carry, fail on or count them."""

from __future__ import annotations

from typing import Any

from toolgen.build import analyze
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.load.design import load_design
from toolgen.providers import settings

S = {"type": "string"}


def _optional_members(count: int) -> dict[str, Any]:
    return {"type": "object", "properties": {f"m{i}": S for i in range(count)}}


#: A, reached from the parameters; B, reached from A; Unused, reached from nothing; Lone,
#: reached only from Unused.
DEFS = {
    "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
    "B": S,
    "Unused": {"type": "object", "properties": {"lone": {"$ref": "#/$defs/Lone"}}},
    "Lone": {"type": "integer"},
}


def _parameters(properties: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "$defs": defs,
    }


def test_a_contract_keeps_the_definitions_it_reaches_and_no_other(make_design, tool, output):
    root = make_design(
        {
            "tools/t.yaml": tool("t", _parameters({"a": {"$ref": "#/$defs/A"}}, DEFS)),
            "tools/none.yaml": tool("none", _parameters({"s": S}, DEFS)),
            "outputs/o.yaml": output("o", _parameters({"b": {"$ref": "#/$defs/B"}}, DEFS)),
        }
    )
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    by_name = {contract.name: contract for contract in design.contracts}
    assert list(by_name["t"].schema["$defs"]) == ["A", "B"]  # in the authored order
    assert "$defs" not in by_name["none"].schema
    assert list(by_name["o"].schema["$defs"]) == ["B"]


def test_a_tool_output_keeps_only_what_it_reaches(make_design, tool):
    parameters = _parameters({"s": S}, DEFS)
    returned = _parameters({"lone": {"$ref": "#/$defs/Lone"}}, DEFS)
    root = make_design({"tools/t.yaml": tool("t", parameters, output=returned)})
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    (contract,) = design.tools
    assert "$defs" not in contract.schema
    assert contract.output is not None
    assert list(contract.output.schema["$defs"]) == ["Lone"]


def test_what_a_provider_refuses_in_an_unreached_definition_is_not_reported(make_design, tool):
    """OpenAI strict mode refuses ``not`` (UNSUPPORTED_NOT): in a definition a tool does not
    reach, it is no problem of that tool's."""
    defs = {**DEFS, "Refused": {"type": "string", "not": {"const": ""}}}
    strict = {"providers": {"openai": {"strict": True}}}
    uses = _parameters({"r": {"$ref": "#/$defs/Refused"}}, defs)
    root = make_design(
        {
            "tools/uses.yaml": tool("uses", uses, **strict),
            "tools/clean.yaml": tool("clean", _parameters({"a": {"$ref": "#/$defs/A"}}, defs)),
        }
    )
    result = analyze(root, ("openai",))
    refusals = {(d.file, d.code) for d in result.diagnostics if d.level == "error"}
    assert refusals == {("tools/uses.yaml", "UNSUPPORTED_NOT")}
    (projection,) = result.projections
    clean = next(p for p in projection.tools if p.contract.name == "clean")
    assert clean.schema is not None
    assert set(clean.schema["$defs"]) == {"A", "B"}


def test_the_optional_members_of_unreached_definitions_are_not_counted(make_design, tool):
    """Anthropic caps optional members at 24 per request: 30 of them in a definition the tool
    does not use are not the tool's (the issue: "25 optional members" for a 5-parameter tool)."""
    defs = {"Big": _optional_members(30)}
    parameters = {"type": "object", "properties": {f"p{i}": S for i in range(5)}, "$defs": defs}
    root = make_design({"tools/t.yaml": tool("t", parameters)})
    result = analyze(root, ("anthropic",))
    assert [d.format() for d in result.diagnostics] == []
    (projected,) = result.projections[0].tools
    assert projected.strict
    assert "$defs" not in projected.schema


def test_a_shared_definition_used_only_by_an_unreached_one_is_not_copied(make_design, tool):
    money = {"$defs": {"Money": {"type": "number"}}}
    defs = {"Unused": {"$ref": "../defs/money.yaml#/$defs/Money"}}
    root = make_design(
        {
            "tools/t.yaml": tool("t", _parameters({"s": S}, defs)),
            "defs/money.yaml": money,
        }
    )
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    (contract,) = design.tools
    assert contract.shared == {}
    assert "$defs" not in contract.schema


def test_a_broken_reference_in_an_unreached_definition_is_still_an_error(make_design, tool):
    """It is an error in the design file, whoever uses the definition."""
    defs = {"Unused": {"$ref": "#/$defs/Nowhere"}}
    root = make_design({"tools/t.yaml": tool("t", _parameters({"s": S}, defs))})
    _, diagnostics = load_design(root, settings())
    assert [(d.pointer, d.code) for d in diagnostics] == [
        ("/parameters/$defs/Unused/$ref", "REF_NOT_FOUND")
    ]


def test_a_reference_into_an_unreached_definition_keeps_that_node_only(make_design, tool):
    """``#/$defs/Holder/properties/x`` names a node inside a definition: that node becomes a
    shared definition of its own; the definition holding it is not reached."""
    defs = {"Holder": {"type": "object", "properties": {"x": {"type": "integer"}}}}
    parameters = _parameters({"n": {"$ref": "#/$defs/Holder/properties/x"}}, defs)
    root = make_design({"tools/t.yaml": tool("t", parameters)})
    design, diagnostics = load_design(root, settings())
    assert diagnostics == []
    assert design is not None
    (contract,) = design.tools
    (name,) = contract.schema["$defs"]
    assert contract.schema["$defs"][name] == {"type": "integer"}
    assert contract.schema["properties"]["n"] == {"$ref": f"#/$defs/{name}"}


def test_a_definition_the_projection_inlined_everywhere_is_not_sent(make_design, tool):
    """A reference beside other keywords is inlined by the projection (RefInlined): once every
    use of a definition is, the definition is sent to nobody, and its members count once, where
    they are inlined (61 optional members counted against Anthropic's cap when it stayed)."""
    big = _optional_members(30)
    used = {"description": "Inlined: a reference with a sibling keyword.", "$ref": "#/$defs/Big"}
    parameters = {"type": "object", "properties": {"big": used}, "$defs": {"Big": big}}
    root = make_design({"tools/t.yaml": tool("t", parameters)})
    result = analyze(root, ("anthropic",))
    assert [d.format() for d in result.diagnostics] == []
    (projected,) = result.projections[0].tools
    assert projected.strict
    assert "$defs" not in projected.schema
    assert not any(pointer.startswith("/$defs") for pointer, _ in projected.rewrites.nodes)


def test_a_use_that_only_annotated_an_unsent_definition_reads_its_own_copy(make_design, tool):
    """``{$ref, description}`` is inlined (OpenAI strict takes no sibling of a $ref); its inverse
    would call the definition's, but the definition is sent to nobody: the use reads its inlined
    copy, and the null strict mode forced into the optional member goes."""
    defs = {"X": {"type": "object", "properties": {"x": S}}}
    parameters = _parameters({"a": {"$ref": "#/$defs/X", "description": "d"}}, defs)
    parameters["required"] = ["a"]
    root = make_design({"tools/t.yaml": tool("t", parameters)})
    result = analyze(root, ("openai",))
    assert [d.format() for d in result.diagnostics] == []
    (projected,) = result.projections[0].tools
    assert "$defs" not in projected.schema
    assert projected.rewrites.counterpart("/properties/a").call is None
    assert reference_inverse({"a": {"x": None}}, projected) == {"a": {}}


def test_a_definition_the_wire_form_inlined_is_not_sent(make_design, tool):
    """Workers AI writes top-level members ``{type, description}`` (its tool wire form), the
    definition a member referred to inlined: the definition is sent to nobody (the projection the
    inverse reads keeps it). A tool list read back so projects the same (tests/test_import.py)."""
    defs = {"Place": {"type": "object", "properties": {"city": S}, "required": ["city"]}}
    parameters = _parameters({"home": {"$ref": "#/$defs/Place"}}, defs)
    root = make_design({"tools/t.yaml": tool("t", parameters)})
    result = analyze(root, ("cloudflare",))
    assert [d.format() for d in result.diagnostics] == []
    (projected,) = result.projections[0].tools
    assert projected.schema is not None and "$defs" not in projected.schema
    assert projected.schema["properties"]["home"]["properties"] == {"city": S}
