"""Design loading (issue 2, requirement 2): tools/, outputs/, defs/, toolgen.toml; YAML and JSON;
relative $ref across files bundled into local $defs; meta-validation; examples checked."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from strict_checker import assert_strict

from toolgen.build import analyze
from toolgen.infra.diagnostics import has_errors
from toolgen.load.design import load_design
from toolgen.providers import PROVIDER_NAMES, settings

S = {"type": "string"}


def load(root):
    return load_design(root, settings())


def found(diagnostics) -> list[tuple[str, str, str]]:
    return [(d.file, d.pointer, d.code) for d in diagnostics if d.level == "error"]


def obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        node["required"] = required
    return node


# --------------------------------------------------------------------------------------------
# Folders and formats
# --------------------------------------------------------------------------------------------


def test_tools_outputs_and_defs_in_yaml_and_json(make_design, tool, output):
    root = make_design(
        {
            "tools/b.yaml": tool("b.second", obj({"x": S}, ["x"])),
            "tools/a.json": tool("a.first", obj({"y": {"type": "integer"}})),
            "tools/nested/c.yml": tool("c.third", {}),
            "outputs/report.yaml": output("report", obj({"text": S}, ["text"])),
            "defs/unused.yaml": {"$defs": {"Unused": S}},
            "README.md": "not a design file",
            "tools/notes.txt": "ignored: not .yaml/.yml/.json",
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    assert [c.name for c in design.tools] == ["a.first", "b.second", "c.third"]  # sorted by name
    assert [c.file for c in design.tools] == ["tools/a.json", "tools/b.yaml", "tools/nested/c.yml"]
    assert [c.name for c in design.outputs] == ["report"]
    assert design.outputs[0].pointer == "/schema"
    assert design.tools[0].pointer == "/parameters"
    assert design.tools[1].schema == obj({"x": S}, ["x"])


def test_name_defaults_to_the_file_stem(make_design):
    root = make_design({"tools/lookup.yaml": {"description": "d", "parameters": {}}})
    design, diagnostics = load(root)
    assert diagnostics == []
    assert design.tools[0].name == "lookup"
    assert design.tools[0].description == "d"


def test_yaml_values_stay_json(make_design, tool):
    text = """
name: dates
parameters:
  type: object
  properties:
    day: {type: string, enum: [2024-01-01, 2024-02-29]}
    on: {type: boolean}
    big: {type: integer, maximum: 9007199254740993}
  required: [day, "on", big]
"""
    design, diagnostics = load(make_design({"tools/dates.yaml": text}))
    assert diagnostics == []
    properties = design.tools[0].schema["properties"]
    assert list(properties) == ["day", "on", "big"]  # authored order, "on" a string key
    assert properties["day"]["enum"] == ["2024-01-01", "2024-02-29"]
    assert properties["big"]["maximum"] == 9007199254740993


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
def test_yaml_values_outside_json_are_diagnostics(make_design, value):
    text = "name: t\nparameters:\n  type: object\n  properties:\n"
    text += f"    n: {{type: number, maximum: {value}}}\n"
    design, diagnostics = load(make_design({"tools/t.yaml": text}))
    assert has_errors(diagnostics)
    assert [(d.file, d.code) for d in diagnostics if d.level == "error"] == [
        ("tools/t.yaml", "PARSE_ERROR")
    ]


@pytest.mark.parametrize(
    "relative, text, code",
    [
        ("tools/t.yaml", "name: t\nparameters: {type: object\n", "PARSE_ERROR"),
        ("tools/t.json", '{"name": "t", "parameters": {}', "PARSE_ERROR"),
        ("tools/t.yaml", "name: t\nname: u\nparameters: {}\n", "PARSE_ERROR"),
        ("tools/t.json", '{"name": "t", "name": "u", "parameters": {}}', "PARSE_ERROR"),
        ("tools/t.yaml", "- a list\n", "INVALID_FILE"),
        ("tools/t.yaml", "name: t\n", "MISSING_FIELD"),
        ("tools/t.yaml", "name: t\nparameters: {}\nparamters: {}\n", "UNKNOWN_FIELD"),
        ("tools/t.yaml", "name: 3\nparameters: {}\n", "INVALID_FIELD"),
        ("tools/t.yaml", "name: ''\nparameters: {}\n", "INVALID_FIELD"),
        ("tools/t.yaml", "name: t\ndescription: [a]\nparameters: {}\n", "INVALID_FIELD"),
        ("tools/t.yaml", "name: t\nexamples: {}\nparameters: {}\n", "INVALID_FIELD"),
        ("outputs/o.yaml", "name: o\nparameters: {}\n", "UNKNOWN_FIELD"),
        ("tools/t.yaml", "name: t\npriority: high\nparameters: {}\n", "INVALID_FIELD"),
        ("tools/t.yaml", "name: t\npriority: true\nparameters: {}\n", "INVALID_FIELD"),
        ("outputs/o.yaml", "name: o\npriority: 1\nschema: {}\n", "UNKNOWN_FIELD"),
    ],
)
def test_bad_files_are_diagnostics(make_design, relative, text, code):
    design, diagnostics = load(make_design({relative: text}))
    assert has_errors(diagnostics)
    assert code in {d.code for d in diagnostics}
    assert all(d.file == relative and d.provider == "design" for d in diagnostics)


@pytest.mark.parametrize(
    "text, pointer",
    [
        ('{"name": "t", "description": "a \\ud800", "parameters": {}}', "/description"),
        ('{"name": "t", "parameters": {"properties": {"\\udfff": {}}}}', "/parameters/properties"),
        ('{"name": "t", "parameters": {"enum": ["x", "\\uDC00y"]}}', "/parameters/enum/1"),
    ],
)
def test_a_lone_surrogate_escape_is_a_diagnostic_naming_where(make_design, text, pointer):
    """No UTF-8 file (the generated package, the cache) and no provider's JSON holds one: the
    build stopped with a traceback writing its cache before."""
    design, diagnostics = load(make_design({"tools/t.json": text}))
    assert [(d.file, d.pointer, d.code) for d in diagnostics] == [
        ("tools/t.json", pointer, "PARSE_ERROR")
    ]


def test_a_build_with_a_lone_surrogate_reports_it_and_a_pair_builds(make_design, run_toolgen):
    """Through the CLI, with the cache beside the design (the default): the lone escape is a
    diagnostic, not a traceback; an escaped pair is the one character it writes."""
    pair = '{"name": "t", "description": "\\ud83d\\ude00", "parameters": {"type": "object"}}'
    design = make_design({"tools/t.json": pair})
    built = run_toolgen("build", design, "-o", design.parent / "gen", "--provider", "openai")
    assert built.returncode == 0, built.stderr
    written = [f.read_text(encoding="utf-8") for f in (design.parent / "gen").rglob("*.py")]
    assert any("\U0001f600" in text for text in written)
    (design / "tools" / "t.json").write_text(pair.replace("\\ude00", ""), encoding="utf-8")
    result = run_toolgen("build", design, "-o", design.parent / "gen", "--provider", "openai")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "tools/t.json:/description: design: PARSE_ERROR" in result.stdout + result.stderr


def test_a_tool_may_give_a_priority(make_design, tool):
    design, diagnostics = load(
        make_design({"tools/a.yaml": tool("a", {}, priority=-2), "tools/b.yaml": tool("b", {})})
    )
    assert not has_errors(diagnostics)
    assert {c.name: c.priority for c in design.tools} == {"a": -2, "b": 0}


def test_unreadable_file(make_design):
    design, diagnostics = load(make_design({"tools/t.yaml": b"name: \xff\xfe\nparameters: {}\n"}))
    assert has_errors(diagnostics)
    assert found(diagnostics) == [("tools/t.yaml", "", "UNREADABLE_FILE")]


def test_empty_design(make_design):
    design, diagnostics = load(make_design({"defs/a.yaml": {"$defs": {}}}))
    assert has_errors(diagnostics)
    assert [d.code for d in diagnostics] == ["EMPTY_DESIGN"]


def test_not_a_folder(tmp_path):
    design, diagnostics = load(tmp_path / "missing")
    assert design is None  # the only case without a design
    assert [d.code for d in diagnostics] == ["NO_DESIGN"]


def test_duplicate_names(make_design, tool):
    design, diagnostics = load(
        make_design({"tools/a.yaml": tool("same", {}), "tools/b.yaml": tool("same", {})})
    )
    assert has_errors(diagnostics)
    assert found(diagnostics) == [("tools/b.yaml", "/name", "DUPLICATE_NAME")]


def test_a_tool_and_an_output_may_share_a_name(make_design, tool, output):
    design, diagnostics = load(
        make_design({"tools/a.yaml": tool("same", {}), "outputs/a.yaml": output("same", {})})
    )
    assert diagnostics == []


def test_every_problem_is_reported_together_in_a_stable_order(make_design, tool):
    root = make_design(
        {
            "tools/c.yaml": "name: c\nparameters: {type: object\n",
            "tools/a.yaml": tool("a", {"type": "strng"}),
            "tools/b.yaml": tool("b", obj({"m": {"$ref": "../defs/nope.yaml"}}), examples=[1]),
            "toolgen.toml": "[toolgen]\nproviders = ['nobody']\n",
        }
    )
    first = analyze(root)
    second = analyze(root)
    assert first.diagnostics == second.diagnostics
    from toolgen.infra.diagnostics import sort_diagnostics

    listed = sort_diagnostics(first.diagnostics)
    assert [d.file for d in listed] == sorted(d.file for d in listed)
    assert {d.file for d in listed} == {
        "tools/a.yaml",
        "tools/b.yaml",
        "tools/c.yaml",
        "toolgen.toml",
    }


# --------------------------------------------------------------------------------------------
# toolgen.toml
# --------------------------------------------------------------------------------------------


def test_config(make_design, tool):
    toml = '[toolgen]\nproviders = ["openai"]\n\n[providers.openai]\noptional_nullable = "error"\n'
    design, diagnostics = load(make_design({"tools/t.yaml": tool("t", {}), "toolgen.toml": toml}))
    assert diagnostics == []
    assert design.config.providers == ("openai",)
    assert design.config.options_for("openai").optional_nullable == "error"


@pytest.mark.parametrize(
    "toml, pointer, code",
    [
        ("[toolgen\n", "", "PARSE_ERROR"),
        ("[toolgen]\nproviders = ['nobody']\n", "/toolgen/providers", "UNKNOWN_PROVIDER"),
        ("[toolgen]\nproviders = 'openai'\n", "/toolgen/providers", "INVALID_CONFIG"),
        ("[toolgen]\nprovider = ['openai']\n", "/toolgen/provider", "UNKNOWN_FIELD"),
        ("[tolgen]\nproviders = ['openai']\n", "/tolgen", "UNKNOWN_FIELD"),
        (
            "[providers.openai]\noptional_nullable = 'sometimes'\n",
            "/providers/openai/optional_nullable",
            "INVALID_CONFIG",
        ),
        ("[providers.cerebras]\nstrict = false\n", "/providers/cerebras/strict", "UNKNOWN_FIELD"),
        ("[providers.nobody]\n", "/providers/nobody", "UNKNOWN_PROVIDER"),
        # the usual slip: the providers list at the top level instead of under [toolgen]
        ("providers = ['openai']\n", "/providers", "INVALID_CONFIG"),
        ("toolgen = 1\n", "/toolgen", "INVALID_CONFIG"),
        ("[providers]\nopenai = 1\n", "/providers/openai", "INVALID_CONFIG"),
    ],
)
def test_bad_config_is_a_diagnostic(make_design, tool, toml, pointer, code):
    design, diagnostics = load(make_design({"tools/t.yaml": tool("t", {}), "toolgen.toml": toml}))
    assert has_errors(diagnostics)
    assert (("toolgen.toml", pointer, code)) in found(diagnostics)


# --------------------------------------------------------------------------------------------
# Relative $ref across files, bundled into local $defs
# --------------------------------------------------------------------------------------------

MONEY = {
    "$defs": {
        "Money": {
            "type": "object",
            "properties": {"cents": {"type": "integer"}, "currency": {"$ref": "#/$defs/Currency"}},
            "required": ["cents", "currency"],
        },
        "Currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
    }
}


def test_references_across_files_become_local_defs(make_design, tool):
    root = make_design(
        {
            "tools/refund.yaml": tool(
                "refund",
                obj(
                    {
                        "amount": {"$ref": "../defs/money.yaml#/$defs/Money"},
                        "fee": {"$ref": "../defs/money.yaml#/$defs/Money"},
                    },
                    ["amount"],
                ),
            ),
            "tools/other.yaml": tool("other", obj({"x": S}, ["x"])),
            "defs/money.yaml": MONEY,
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    refund = next(c for c in design.tools if c.name == "refund")
    schema = refund.schema
    assert schema["properties"]["amount"] == {"$ref": "#/$defs/Money"}
    assert schema["$defs"]["Money"]["properties"]["currency"] == {"$ref": "#/$defs/Currency"}
    assert schema["$defs"]["Currency"] == MONEY["$defs"]["Currency"]
    assert set(refund.shared) == {"Money", "Currency"}
    other = next(c for c in design.tools if c.name == "other")
    assert "$defs" not in other.schema  # only what a contract uses is copied into it

    result = analyze(root, ("openai",))
    assert result.ok
    projected = next(p for p in result.projections[0].tools if p.contract.name == "refund").schema
    assert_strict(projected)
    assert projected["properties"]["fee"] == {
        "anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]
    }


def test_reference_to_a_whole_file(make_design, tool):
    root = make_design(
        {
            "tools/t.yaml": tool("t", obj({"c": {"$ref": "../defs/currency.json"}}, ["c"])),
            "defs/currency.json": {"type": "string", "enum": ["EUR", "USD"]},
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    schema = design.tools[0].schema
    ref = schema["properties"]["c"]["$ref"]
    assert ref.startswith("#/$defs/")
    assert schema["$defs"][ref[len("#/$defs/") :]] == {"type": "string", "enum": ["EUR", "USD"]}


def test_reference_to_its_own_file_by_name(make_design, tool):
    """``t.yaml#/$defs/X`` from inside t.yaml is the same resource as ``#/$defs/X``."""
    parameters = {**obj({"x": {"$ref": "t.yaml#/$defs/X"}}, ["x"]), "$defs": {"X": S}}
    root = make_design({"tools/t.yaml": tool("t", parameters, examples=[{"x": "s"}])})
    result = analyze(root, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    projected = result.projections[0].tools[0].schema
    assert_strict(projected)
    assert projected["properties"]["x"] == {"$ref": "#/$defs/X"}
    # the example was really checked against the bundled schema
    bad = make_design({"tools/t.yaml": tool("t", parameters, examples=[{"x": 1}])}, name="bad")
    assert [d.code for d in analyze(bad, ("openai",)).diagnostics] == ["INVALID_EXAMPLE"]


def test_reference_into_another_tool(make_design, tool):
    root = make_design(
        {
            "tools/a.yaml": tool(
                "a", {**obj({"x": {"$ref": "#/$defs/Shared"}}, ["x"]), "$defs": {"Shared": S}}
            ),
            "tools/b.yaml": tool("b", obj({"y": {"$ref": "a.yaml#/$defs/Shared"}}, ["y"])),
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    b = next(c for c in design.tools if c.name == "b")
    assert b.schema["$defs"]["Shared"] == S
    assert b.schema["properties"]["y"] == {"$ref": "#/$defs/Shared"}


def test_a_definition_of_an_embedded_resource_is_bundled_to_the_root(make_design, tool):
    """A local reference to a node that is neither the schema nor one of its own definitions
    (here a definition of an embedded resource, whose name the root's definitions have too)
    becomes a shared definition, qualified to keep the root's name; the copy in place goes, and
    a node of it is still located where it was authored."""
    embedded = {"$id": "urn:x", "$defs": {"T": {"not": S}}, "$ref": "#/$defs/T"}
    parameters = {**obj({"n": embedded, "m": {"$ref": "#/$defs/T"}}), "$defs": {"T": S}}
    design, diagnostics = load(make_design({"tools/t.json": tool("t", parameters)}))
    assert diagnostics == []
    schema = design.tools[0].schema
    assert schema["$defs"] == {"T": S, "t.T": {"not": S}}
    assert schema["properties"] == {"n": {"$ref": "#/$defs/t.T"}, "m": {"$ref": "#/$defs/T"}}
    located = design.tools[0].locate("/$defs/t.T/not")
    assert located == ("tools/t.json", "/parameters/properties/n/$defs/T/not")


def test_cycles_through_files(make_design, tool):
    root = make_design(
        {
            "tools/tree.yaml": tool(
                "tree",
                obj({"root": {"$ref": "../defs/a.yaml#/$defs/A"}}, ["root"]),
                examples=[{"root": {"b": {"a": {"b": {}}}}}],
            ),
            "defs/a.yaml": {
                "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "b.yaml#/$defs/B"}}}}
            },
            "defs/b.yaml": {
                "$defs": {"B": {"type": "object", "properties": {"a": {"$ref": "a.yaml#/$defs/A"}}}}
            },
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    schema = design.tools[0].schema
    assert set(schema["$defs"]) == {"A", "B"}
    assert schema["$defs"]["A"]["properties"]["b"] == {"$ref": "#/$defs/B"}
    assert schema["$defs"]["B"]["properties"]["a"] == {"$ref": "#/$defs/A"}
    result = analyze(root, ("openai",))
    assert result.ok
    assert_strict(result.projections[0].tools[0].schema)


def test_same_definition_name_in_two_files(make_design, tool):
    root = make_design(
        {
            "tools/t.yaml": tool(
                "t",
                obj(
                    {
                        "a": {"$ref": "../defs/one.yaml#/$defs/Item"},
                        "b": {"$ref": "../defs/two.yaml#/$defs/Item"},
                    },
                    ["a", "b"],
                ),
            ),
            "defs/one.yaml": {"$defs": {"Item": S}},
            "defs/two.yaml": {"$defs": {"Item": {"type": "integer"}}},
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    schema = design.tools[0].schema
    a, b = schema["properties"]["a"]["$ref"], schema["properties"]["b"]["$ref"]
    assert a != b
    from toolgen.schema import pointer as jp

    assert jp.resolve(schema, a[1:]) == S
    assert jp.resolve(schema, b[1:]) == {"type": "integer"}
    result = analyze(root, ("openai",))
    assert result.ok
    assert_strict(result.projections[0].tools[0].schema)


@pytest.mark.parametrize(
    "ref, code",
    [
        ("../defs/missing.yaml#/$defs/X", "REF_FILE_NOT_FOUND"),
        ("../defs/money.yaml#/$defs/Nope", "REF_NOT_FOUND"),
        ("#/$defs/Nope", "REF_NOT_FOUND"),
        ("../../outside.yaml", "REF_OUTSIDE_DESIGN"),
        ("https://example.com/schema.json", "UNSUPPORTED_REF"),
        ("/etc/schema.json", "UNSUPPORTED_REF"),
        ("#anchor", "UNSUPPORTED_REF"),
    ],
)
def test_broken_references_are_diagnostics(make_design, tool, ref, code):
    root = make_design(
        {"tools/t.yaml": tool("t", obj({"m": {"$ref": ref}}, ["m"])), "defs/money.yaml": MONEY}
    )
    design, diagnostics = load(root)
    assert has_errors(diagnostics)
    assert found(diagnostics) == [("tools/t.yaml", "/parameters/properties/m/$ref", code)]


def test_broken_reference_inside_a_shared_definition(make_design, tool):
    root = make_design(
        {
            "tools/t.yaml": tool("t", obj({"m": {"$ref": "../defs/a.yaml#/$defs/A"}}, ["m"])),
            "defs/a.yaml": {
                "$defs": {"A": {"type": "object", "properties": {"x": {"$ref": "gone.yaml"}}}}
            },
        }
    )
    design, diagnostics = load(root)
    assert has_errors(diagnostics)
    assert found(diagnostics) == [
        ("defs/a.yaml", "/$defs/A/properties/x/$ref", "REF_FILE_NOT_FOUND")
    ]


def test_a_property_named_ref_is_not_a_reference(make_design, tool):
    root = make_design(
        {
            "tools/t.yaml": tool(
                "t", obj({"$ref": {"type": "string", "description": "../nope.yaml"}}, ["$ref"])
            )
        }
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    assert design.tools[0].schema["properties"]["$ref"] == {
        "type": "string",
        "description": "../nope.yaml",
    }


# --------------------------------------------------------------------------------------------
# Meta-validation and examples
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "parameters, pointer",
    [
        ({"type": "strng"}, "/parameters/type"),
        ({"type": "object", "properties": []}, "/parameters/properties"),
        ({"type": "object", "required": "a"}, "/parameters/required"),
        (
            {"type": "object", "properties": {"a": {"minimum": "0"}}},
            "/parameters/properties/a/minimum",
        ),
        (3, "/parameters"),
    ],
)
def test_meta_validation(make_design, tool, parameters, pointer):
    design, diagnostics = load(make_design({"tools/t.yaml": tool("t", parameters)}))
    assert has_errors(diagnostics)
    assert ("tools/t.yaml", pointer, "INVALID_SCHEMA") in found(diagnostics)


def test_meta_validation_of_shared_definitions(make_design, tool):
    root = make_design(
        {"tools/t.yaml": tool("t", {}), "defs/bad.yaml": {"$defs": {"X": {"type": 12}}}}
    )
    design, diagnostics = load(root)
    assert has_errors(diagnostics)
    assert ("defs/bad.yaml", "/$defs/X/type", "INVALID_SCHEMA") in found(diagnostics)


def test_examples_are_checked_against_the_parameters(make_design, tool):
    parameters = obj({"amount": {"$ref": "../defs/money.yaml#/$defs/Money"}, "note": S}, ["amount"])
    good = [
        {"amount": {"cents": 5, "currency": "EUR"}},
        {"amount": {"cents": 0, "currency": "USD"}, "note": "n"},
    ]
    root = make_design(
        {"tools/t.yaml": tool("t", parameters, examples=good), "defs/money.yaml": MONEY}
    )
    design, diagnostics = load(root)
    assert diagnostics == []
    assert design.tools[0].examples == tuple(good)

    bad = [good[0], {"amount": {"cents": 5, "currency": "euro"}}, {"note": "no amount"}]
    root = make_design(
        {"tools/t.yaml": tool("t", parameters, examples=bad), "defs/money.yaml": MONEY}, name="bad"
    )
    design, diagnostics = load(root)
    assert has_errors(diagnostics)
    assert found(diagnostics) == [
        ("tools/t.yaml", "/examples/1", "INVALID_EXAMPLE"),
        ("tools/t.yaml", "/examples/2", "INVALID_EXAMPLE"),
    ]


def test_output_examples_are_checked(make_design, output):
    root = make_design(
        {
            "outputs/o.yaml": output(
                "o", obj({"n": {"type": "integer"}}, ["n"]), examples=[{"n": "x"}]
            )
        }
    )
    design, diagnostics = load(root)
    assert has_errors(diagnostics)
    assert found(diagnostics) == [("outputs/o.yaml", "/examples/0", "INVALID_EXAMPLE")]


# --------------------------------------------------------------------------------------------
# Per-contract provider restriction
# --------------------------------------------------------------------------------------------


def test_providers_field_restricts_where_a_tool_is_emitted(make_design, tool):
    others = [p for p in PROVIDER_NAMES if p != "openai"]
    if not others:
        pytest.skip("only one provider profile exists")
    root = make_design(
        {"tools/a.yaml": tool("a", {}, providers=[others[0]]), "tools/b.yaml": tool("b", {})}
    )
    result = analyze(root, ("openai",))
    assert result.ok
    assert [p.contract.name for p in result.projections[0].tools] == ["b"]


def test_unknown_provider_in_a_tool(make_design, tool):
    design, diagnostics = load(make_design({"tools/a.yaml": tool("a", {}, providers=["nobody"])}))
    assert has_errors(diagnostics)
    assert found(diagnostics) == [("tools/a.yaml", "/providers", "UNKNOWN_PROVIDER")]


def test_the_example_design_loads(example_design):
    design, diagnostics = load(example_design)
    assert [d.format() for d in diagnostics if d.level == "error"] == []
    assert design.tools
    # every cross-file reference was bundled: no schema keeps a non-local $ref
    for contract in design.contracts:
        text = json.dumps(contract.schema)
        assert '"$ref": "#' in text or '"$ref"' not in text
        for value in _refs(contract.schema):
            assert value.startswith("#"), (contract.file, value)


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        for key, value in node.items():
            if key not in ("enum", "const", "examples", "default"):
                found += _refs(value)
        return found
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_a_design_of_json_files_builds_without_importing_pyyaml(make_design, tool) -> None:
    """PyYAML is imported for a YAML design file only."""
    design = make_design({"tools/t.json": tool("t", {"type": "object", "properties": {}})})
    script = (
        "import sys\nfrom pathlib import Path\nfrom toolgen.build import build\n"
        "result = build(Path(sys.argv[1]), ('openai',))\n"
        "assert result.ok, [d.format() for d in result.diagnostics]\n"
        "print('yaml' in sys.modules)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script, str(design)], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "False", found.stdout + found.stderr
