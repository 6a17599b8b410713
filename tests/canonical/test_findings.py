"""Projection bugs found while writing the inverse, now guarded: a recursive $ref with sibling
keywords used to raise RecursionError; properties beside a union of objects used to project to a
schema no payload satisfies (now OBJECT_BESIDE_UNION)."""

from __future__ import annotations

import json

from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.providers import PROFILES


def test_recursive_ref_with_siblings_is_a_diagnostic_not_a_crash() -> None:
    schema = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/N"}},
        "$defs": {
            "N": {
                "type": "object",
                "properties": {
                    "kids": {
                        "type": "array",
                        "items": {"$ref": "#/$defs/N", "description": "a child"},
                    }
                },
            }
        },
    }
    contract = Contract("tool", "t", "", schema, "tools/t.yaml", "/parameters")
    projected, diagnostics = project_contract(contract, PROFILES["openai"], ProviderOptions(), "t")
    assert projected.schema is not None or diagnostics


def test_properties_beside_an_object_union_stay_satisfiable() -> None:
    """Closing both levels would admit nothing: the projection must keep the canonical payload
    valid, or reject the contract (it does: OBJECT_BESIDE_UNION)."""
    from jsonschema import Draft202012Validator

    schema = {
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": {"kind": {"type": "string"}},
                "anyOf": [
                    {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
                    {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]},
                ],
            }
        },
        "required": ["a"],
    }
    contract = Contract("tool", "t", "", schema, "tools/t.yaml", "/parameters")
    projected, diagnostics = project_contract(contract, PROFILES["openai"], ProviderOptions(), "t")
    canonical = {"a": {"kind": "k", "x": "1"}}
    assert Draft202012Validator(schema).is_valid(canonical)
    if projected.schema is not None:  # projected: the canonical payload, filled, must be valid
        assert Draft202012Validator(projected.schema).is_valid({"a": {"kind": "k", "x": "1"}})
    else:
        assert [(d.pointer, d.code) for d in diagnostics] == [
            ("/parameters/properties/a/anyOf", "OBJECT_BESIDE_UNION")
        ]


def test_a_described_recursive_ref_compiles_and_agrees_with_the_reference(tmp_path) -> None:
    """Found by fuzzing the build: the canonicalizer compiler inlined a ``$ref`` with a
    description inside its own target forever (RecursionError at build time)."""
    import importlib
    import sys

    from toolgen.build import build
    from toolgen.compile.canonical.reference import reference_inverse

    node = {"type": "array", "items": {"oneOf": [{"$ref": "#/$defs/D", "description": "again"}]}}
    parameters = {
        "type": "object",
        "properties": {"p": {"anyOf": [{"$ref": "#/$defs/D"}]}, "q": {"$ref": "#/$defs/D"}},
        "$defs": {"D": node},
    }
    (tmp_path / "design" / "tools").mkdir(parents=True)
    (tmp_path / "design" / "tools" / "t.json").write_text(
        json.dumps({"name": "t", "parameters": parameters})
    )
    result = build(tmp_path / "design", ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    for relative, text in result.files.items():
        target = tmp_path / "described_ref" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    sys.path.insert(0, str(tmp_path))
    try:
        compiled = importlib.import_module("described_ref._canonical_openai").TOOL_CANONICALIZERS[
            "t"
        ]
    finally:
        sys.path.remove(str(tmp_path))
    projected = result.projections[0].tools[0]
    assert projected.schema == json.loads(result.files["schemas/openai/tools/t.json"])
    for payload in ({"p": None, "q": [[[]], []]}, {"p": [[None]], "q": []}, {"p": [], "q": None}):
        assert compiled(payload) == reference_inverse(payload, projected)
    assert compiled({"p": None, "q": [[]]}) == {"q": [[]]}
