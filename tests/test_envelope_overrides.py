"""Envelope overrides from design/envelopes/ go through the build: a gateway's surface replaces
toolgen's, a new surface is added, and a broken override is a diagnostic, not a traceback."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from toolgen.build import build

REPO = Path(__file__).resolve().parents[1]
OPENAI_CHAT = json.loads(
    (REPO / "toolgen/providers/envelopes/openai/chat_completion.json").read_text()
)
RECORDED = json.loads((REPO / "examples/recorded/chat_tool_calls.json").read_text())


@pytest.fixture
def gateway_design(make_design, tool):
    # A gateway that adds a required "gateway_id" to OpenAI's chat completion.
    override = copy.deepcopy(OPENAI_CHAT)
    override["required"] = [*override["required"], "gateway_id"]
    override["properties"]["gateway_id"] = {"type": "string"}
    minimal = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}
    return make_design(
        {
            "tools/t.yaml": tool(
                "lookup", {"type": "object", "properties": {"q": {"type": "string"}}}
            ),
            "envelopes/openai/chat_completion.json": override,
            "envelopes/openai/audit_record.json": minimal,
        }
    )


def test_an_override_replaces_the_surface_and_a_new_one_is_added(gateway_design, import_package):
    result = build(gateway_design, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    openai = import_package(result.files).openai
    with pytest.raises(openai.SchemaDriftError) as caught:
        openai.validate_chat_completion(RECORDED)
    assert (caught.value.path, caught.value.expected, caught.value.actual) == (
        "gateway_id",
        "string",
        "missing",
    )
    openai.validate_chat_completion({**RECORDED, "gateway_id": "gw-1"})
    openai.validate_audit_record({"id": "a-1"})
    with pytest.raises(openai.SchemaDriftError):
        openai.validate_audit_record({"id": 7})


@pytest.fixture
def broken_override_design(make_design, tool):
    """An override of OpenAI's chat completion with a keyword outside the compiled subset."""
    broken = copy.deepcopy(OPENAI_CHAT)
    broken["properties"]["id"] = {"type": "string", "not": {"const": ""}}
    lookup = tool("lookup", {"type": "object", "properties": {"q": {"type": "string"}}})
    return make_design({"tools/t.yaml": lookup, "envelopes/openai/chat_completion.json": broken})


def test_an_override_outside_the_compiled_subset_is_a_diagnostic(broken_override_design):
    root = broken_override_design
    result = build(root, ("openai",))
    assert not result.ok and result.files == {}
    [diagnostic] = [d for d in result.diagnostics if d.code == "INVALID_ENVELOPE"]
    assert (diagnostic.file, diagnostic.provider) == (
        "envelopes/openai/chat_completion.json",
        "openai",
    )
    assert diagnostic.pointer.startswith("/properties/id")


def test_validate_reports_a_broken_override_like_build(broken_override_design, cli):
    root = broken_override_design
    result = cli("validate", root, "--provider", "openai")
    assert result.exit_code == 1
    assert "envelopes/openai/chat_completion.json:/properties/id" in result.stderr
    assert "INVALID_ENVELOPE" in result.stderr


@pytest.mark.parametrize(
    ("schema", "pointer", "words"),
    [
        (
            {
                "type": "object",
                "properties": {"n": {"$ref": "#/$defs/N"}},
                "$defs": {"N": {"$ref": "#/$defs/N"}},
            },
            "/$defs/N/$ref",
            "recursive",
        ),
    ],
    ids=["a reference to itself"],
)
def test_a_malformed_override_is_a_diagnostic_through_the_build(
    make_design, tool, schema, pointer, words
):
    """An override the envelope compiler cannot compile, though it is valid JSON Schema (the
    design loader checks that), is INVALID_ENVELOPE with the file, the pointer and the provider."""
    lookup = tool("lookup", {"type": "object", "properties": {"q": {"type": "string"}}})
    root = make_design({"tools/t.yaml": lookup, "envelopes/openai/extra.json": schema})
    result = build(root, ("openai",))
    assert not result.ok and result.files == {}
    [diagnostic] = result.diagnostics
    assert (diagnostic.file, diagnostic.pointer, diagnostic.provider, diagnostic.code) == (
        "envelopes/openai/extra.json",
        pointer,
        "openai",
        "INVALID_ENVELOPE",
    )
    assert words in diagnostic.message


def test_a_recursive_override_builds_and_validates(make_design, tool, import_package):
    """A recursive surface (a tree of nodes) is a function that calls itself in the package."""
    node = {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
    }
    tree = {**node, "$defs": {"Node": node}}
    lookup = tool("lookup", {"type": "object", "properties": {"q": {"type": "string"}}})
    root = make_design({"tools/t.yaml": lookup, "envelopes/openai/tree.json": tree})
    result = build(root, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    openai = import_package(result.files).openai
    good = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert openai.validate_tree(good) is good
    with pytest.raises(openai.SchemaDriftError) as caught:
        openai.validate_tree({"name": "a", "children": [{"name": "b", "children": [{}]}]})
    assert (caught.value.path, caught.value.actual) == ("children[0].children[0].name", "missing")
