"""Whether a provider's module reads its payloads back, and with which canonical module, follows
from its projection's record alone (issue 34, item 1): a design whose only encoded feature is a
map decodes on every provider, and what a package decodes does not depend on which other
providers are built with it. The codecs are the one place each encoding is defined."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import tool_file, write_design
from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.project.rewrites import Rewrite, rule_kinds
from toolgen.runtime import _codecs as codecs
from toolgen.runtime._canonical_support import json_equal

_PACKAGES = itertools.count()

MAP_TOOL = tool_file(
    "tags.set",
    {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["id", "labels"],
    },
    "Set tags.",
)

TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name", "children"],
        }
    },
}


@pytest.fixture
def package(tmp_path: Path, suite_cache: Path) -> Iterator[Any]:
    """``package(tools, providers)``: the package built from a design of ``tools`` (tool files by
    name) for ``providers``, imported under a name of its own."""
    folders: list[str] = []

    def make(tools: dict[str, Any], providers: list[str]) -> ModuleType:
        name = f"inverse_decision_{next(_PACKAGES)}"
        design = write_design(
            tmp_path / name / "design", {f"tools/{k}.yaml": v for k, v in tools.items()}
        )
        result = build(design, providers, cache_dir=suite_cache)
        assert result.ok, [d.format() for d in result.diagnostics]
        write_package(tmp_path / name / "out" / name, result.files)
        folder = str(tmp_path / name / "out")
        sys.path.insert(0, folder)
        folders.append(folder)
        return importlib.import_module(name)

    yield make
    for folder in folders:
        sys.path.remove(folder)


@pytest.mark.parametrize("provider", ["anthropic", "bedrock", "gemini", "xai", "cloudflare"])
def test_a_design_whose_only_encoding_is_a_map_decodes_its_own_fakes(package, provider) -> None:
    """Before: these providers got an inverse only when another tool had a text enum or more
    optional members than Anthropic's cap, so ``labels`` reached the model as entries."""
    built = package({"tags": MAP_TOOL}, [provider])
    module = importlib.import_module(f"{built.__name__}.{provider}")
    fakes = importlib.import_module(f"{built.__name__}.testing.{provider}")
    payload = {"id": "x", "labels": {"a": "b", "c": "d"}}
    assert fakes.arguments("tags.set", payload)["labels"] == [
        {"key": "a", "value": "b"},
        {"key": "c", "value": "d"},
    ]
    keywords = (
        {"model": "@cf/meta/llama-3.3-70b-instruct-fp8-fast"} if provider == "cloudflare" else {}
    )
    calls = module.parse_tool_calls(fakes.response([("tags.set", payload)]), **keywords)
    assert [c.arguments.model_dump(mode="json") for c in calls] == [payload]


def test_a_package_without_anything_to_read_back_has_no_canonical_module(package) -> None:
    plain = tool_file(
        "ping",
        {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    )
    built = package({"ping": plain}, ["openai", "anthropic"])
    folder = Path(built.__file__).parent
    assert [p.name for p in folder.glob("_canonical_*.py")] == ["_canonical_support.py"]
    assert built.openai.canonicalize("ping", payload := {"n": 1}) is payload


def test_what_mistral_decodes_does_not_depend_on_openai_being_built_with_it(package) -> None:
    """OpenAI takes recursion; Mistral does not (its recursion goes out as JSON text). Built
    together, both shared OpenAI's canonical module and Mistral's text was not read back."""
    tree = tool_file("tree.put", TREE)
    payload = {"root": {"name": "a", "children": [{"name": "b", "children": []}]}}
    decoded = []
    for providers in (["mistral"], ["openai", "mistral"]):
        built = package({"tree": tree}, providers)
        fakes = importlib.import_module(f"{built.__name__}.testing.mistral")
        wire = fakes.arguments("tree.put", payload)
        assert isinstance(wire["root"]["children"][0], str)  # JSON text
        calls = built.mistral.parse_tool_calls(fakes.response([("tree.put", payload)]))
        decoded.append(calls[0].arguments.model_dump(mode="json"))
    assert decoded == [payload, payload]


def test_providers_projected_alike_share_one_canonical_module(package) -> None:
    built = package({"tags": MAP_TOOL}, ["openai", "groq", "mistral"])
    folder = Path(built.__file__).parent
    modules = sorted(p.name for p in folder.glob("_canonical_*.py") if "support" not in p.name)
    assert modules == ["_canonical_openai.py"]  # one map, all required: projected alike
    for provider in ("groq", "mistral"):
        assert "from ._canonical_openai import" in (folder / f"{provider}.py").read_text()


STATUS_TOOL = tool_file(
    "status.set",
    {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["Active", "Inactive"]},
            "kind": {"const": "Primary"},
            "either": {"enum": ["a", "A"]},
        },
        "required": ["status"],
    },
)


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_an_enum_string_in_another_letter_case_reads_back_as_declared(package, provider) -> None:
    """Anthropic does not guarantee the case of enum and const strings in strict tool use (its
    structured outputs docs, "Invalid outputs"): "ACTIVE" for "Active" is read back, where no
    other value folds to it ("a" and "A" stay as written)."""
    built = package({"status": STATUS_TOOL}, [provider])
    module = importlib.import_module(f"{built.__name__}.{provider}")
    fakes = importlib.import_module(f"{built.__name__}.testing.{provider}")
    body = fakes.response([("status.set", {"status": "Active"})])
    wire = {"status": "ACTIVE", "kind": "pRIMARY", "either": "a"}
    if provider == "anthropic":
        body["content"][-1]["input"] = wire
    else:
        body["output"]["message"]["content"][-1]["toolUse"]["input"] = wire
    (call,) = module.parse_tool_calls(body)
    assert call.arguments.model_dump(mode="json") == {
        "status": "Active",
        "kind": "Primary",
        "either": "a",
    }
    declared = {"status": "Inactive"}
    assert module.canonicalize("status.set", declared) is declared


def test_an_object_const_goes_out_as_its_declared_text_whatever_its_members_order(package):
    """Gemini's enums hold no object: the const is a one-text enum of its JSON text
    (EnumAsJsonText). The fakes write that text for a payload whose members come in another
    order (JSON equal), as the provider's grammar lets the model write nothing else."""
    const = {"b": 1, "a": [2, {"c": None}]}
    parameters = {"type": "object", "properties": {"v": {"const": const}}, "required": ["v"]}
    built = package({"c": tool_file("c", parameters)}, ["gemini"])
    fakes = importlib.import_module(f"{built.__name__}.testing.gemini")
    reordered = {"v": {"a": [2, {"c": None}], "b": 1}}
    assert fakes.arguments("c", reordered) == {"v": json.dumps(const)}
    (call,) = built.gemini.parse_tool_calls(fakes.response([("c", reordered)]))
    assert call.arguments.model_dump(mode="json") == {"v": const}


# -- the codecs ------------------------------------------------------------------------------------


def test_every_encoding_rule_names_a_codec_and_every_codec_serves_a_rule() -> None:
    named = {kind.codec for kind in rule_kinds() if kind.codec is not None}
    assert named == set(codecs.CODECS)


def test_a_rule_whose_codec_is_missing_fails_when_declared_naming_it(monkeypatch) -> None:
    monkeypatch.delitem(codecs.CODECS, "pairs")
    kinds = list(Rewrite.KINDS)
    with pytest.raises(LookupError, match="'pairs'") as raised:

        class Entries(Rewrite):  # noqa: F841 - declared for its check
            codec = "pairs"

            def invert(self, at: Any) -> Any:
                return at

    assert "Entries" in str(raised.value)
    assert kinds == Rewrite.KINDS


VALUES: list[tuple[str, str, Any, dict[str, Any]]] = [
    ("json", "", {"a": [1, 2.5, None, True, "x\u00e9"]}, {}),
    ("json", "", "text", {}),
    ("pairs", "", {"a": 1, "b": {"c": None}}, {}),
    ("pairs", "", {}, {}),
    ("extras", "more", {"a": 1, "x": 2}, {"members": {"a": {}, "more": {}}, "nulls": []}),
    ("tuple", "", ["a", 1, None], {}),
    ("boxed", "value", None, {}),
    ("unwrap", "value", [1, 2], {}),
]


@pytest.mark.parametrize(("name", "argument", "value", "plan"), VALUES)
def test_each_codec_reads_back_what_it_writes(name, argument, value, plan) -> None:
    written = codecs.write(name, argument, value, plan)
    assert isinstance(written, codecs.CODECS[name].reads)
    back = codecs.decode(name, argument, written)
    if name == "extras":  # the member holding the others is a map: its own codec reads it
        back = codecs.decode(name, argument, {**written, argument: written[argument]})
    assert json_equal(back, value)


@pytest.mark.parametrize(
    ("name", "argument", "value", "reason"),
    [
        ("json", "", "[" * 200 + "]" * 200, "nested deeper"),
        ("json", "", "1e999", "beyond the float range"),
        ("json", "", '"\\ud800"', "lone surrogate"),
        ("json", "", '{"a": 1, "a": 2}', "two members of the same name"),
        ("json", "", "NaN", "not valid JSON"),
        ("pairs", "", [{"key": "a", "value": 1, "extra": 2}], "entry \\[0\\] is not one"),
        ("pairs", "", [{"key": 1, "value": 1}], "key of entry \\[0\\]"),
        ("pairs", "", [{"key": "IGNORE", "value": 1}, {"key": "IGNORE", "value": 2}], "same key"),
        ("boxed", "value", {"value": 1, "IGNORE": 2}, "2 other member"),
    ],
)
def test_a_payload_that_breaks_a_codec_is_refused_naming_positions(name, argument, value, reason):
    """Within the runtime's JSON limits (a JSON text 200 deep would give a model that pydantic
    cannot dump), and never quoting what the model wrote."""
    with pytest.raises(codecs.EncodingError, match=reason) as raised:
        codecs.decode(name, argument, value)
    assert "IGNORE" not in str(raised.value)


def test_json_equality_tells_booleans_from_numbers() -> None:
    assert not json_equal(True, 1) and not json_equal(1, True) and not json_equal(False, 0)
    assert json_equal(1, 1.0) and json_equal([True, {"a": 1}], [True, {"a": 1.0}])
    assert not json_equal([True], [1]) and not json_equal({"a": False}, {"a": 0})
