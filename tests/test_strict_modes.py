"""Strict and non-strict tools in one design, per provider (issue 10, item 5).

One design serves every provider with a non-strict mode (OpenAI, Groq, Anthropic, Bedrock):
``lookup`` goes strict everywhere; ``notes`` asks for non-strict in its tool file; ``tree`` is
recursive through a union (a child, or its label), which Anthropic's strict subset cannot
express (a recursive reference elsewhere is written as JSON text, RecursionAsJsonText; inside a
union that text could be the other branch's string), so there (and on Bedrock) it falls
back to non-strict with a warning (the design opts in: ``strict_fallback = "non-strict"``; without
it the build fails closed), while OpenAI and Groq take it strict. The tests check the
projections (strict ones pass the provider's strict-subset checker, non-strict ones equal the
canonical schema minus what the provider refuses in every mode), the diagnostics, the generated
modules' flags and their inverses on payloads of both kinds, and the package under ruff and mypy.
"""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import anthropic_strict_checker, strict_checker
from tests.conftest import tool_file, write_design
from tests.lint_support import RUFF_CONFIGS, assert_mypy_strict_clean, assert_ruff_clean
from toolgen.build import BuildResult, analyze, build
from toolgen.infra.diagnostics import Level
from toolgen.package.writer import write_package
from toolgen.project.projection import ProjectedContract
from toolgen.providers import PROFILES

PROVIDERS = ("openai", "groq", "anthropic", "bedrock")
#: the strict-subset checker of each provider (Groq and Bedrock take OpenAI's and Anthropic's)
CHECKERS = {
    "openai": strict_checker,
    "groq": strict_checker,
    "anthropic": anthropic_strict_checker,
    "bedrock": anthropic_strict_checker,
}
_PACKAGES = itertools.count(1)

S = {"type": "string"}
LOOKUP = {
    "type": "object",
    "properties": {"query": {"type": "string", "minLength": 1}, "limit": {"type": "integer"}},
    "required": ["query"],
}
NOTES = {
    "type": "object",
    "properties": {
        "title": S,
        "labels": {"type": "object", "additionalProperties": S},  # a map: no strict mode has one
    },
    "required": ["title"],
    "anyOf": [{"required": ["title"]}, {"required": ["labels"]}],  # a root union: refused always
}
TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
    "additionalProperties": False,
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "label": S,
                "children": {
                    "type": "array",
                    "items": {"anyOf": [{"$ref": "#/$defs/Node"}, S]},  # a child, or its label
                },
            },
            "required": ["label"],
            "additionalProperties": False,
        }
    },
}
TREE_RECURSION = "/parameters/$defs/Node/properties/children/items/anyOf/0/$ref"


def _design(root: Path, *, fallback: bool = True, **overrides: Any) -> Path:
    tools = {
        "lookup": tool_file("lookup", LOOKUP),
        "notes": tool_file(
            "notes", NOTES, providers={name: {"strict": False} for name in PROVIDERS}
        ),
        "tree": tool_file("tree", TREE),
        **overrides,
    }
    files: dict[str, Any] = {f"tools/{name}.yaml": value for name, value in tools.items()}
    files["toolgen.toml"] = f"[toolgen]\nproviders = {json.dumps(list(PROVIDERS))}\n" + (
        'strict_fallback = "non-strict"\n' if fallback else ""
    )
    return write_design(root, files)


@pytest.fixture(scope="module")
def design(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _design(tmp_path_factory.mktemp("strict_modes") / "design")


@pytest.fixture(scope="module")
def result(design: Path) -> BuildResult:
    return build(design)


def _projected(result: BuildResult, provider: str, tool: str) -> ProjectedContract:
    (projection,) = [p for p in result.projections if p.profile.name == provider]
    (found,) = [p for p in projection.tools if p.contract.name == tool]
    return found


def test_the_design_builds_with_a_fallback_warning_where_strict_mode_cannot_go(result):
    assert result.ok
    assert [(d.file, d.pointer, d.provider, d.code, d.level) for d in result.diagnostics] == [
        ("tools/tree.yaml", TREE_RECURSION, provider, "STRICT_FALLBACK", Level.WARNING)
        for provider in ("anthropic", "bedrock")
    ]
    assert "UNSUPPORTED_RECURSION" in result.diagnostics[0].message


def test_without_the_opt_in_the_build_fails_closed(tmp_path):
    """A tool strict mode cannot carry is an error by default, naming where, the provider and
    how to opt in; the tool that asked for non-strict stays quiet."""
    result = analyze(_design(tmp_path / "design", fallback=False), PROVIDERS)
    assert not result.ok
    assert [(d.file, d.pointer, d.provider, d.code, d.level) for d in result.diagnostics] == [
        ("tools/tree.yaml", TREE_RECURSION, provider, "UNSUPPORTED_RECURSION", Level.ERROR)
        for provider in ("anthropic", "bedrock")
    ]
    assert 'strict_fallback = "non-strict"' in result.diagnostics[0].message


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_tool_goes_in_the_mode_the_design_gives(result, provider):
    modes = {
        tool: _projected(result, provider, tool).strict for tool in ("lookup", "notes", "tree")
    }
    assert modes == {"lookup": True, "notes": False, "tree": provider in ("openai", "groq")}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_strict_tools_pass_the_providers_strict_checker(result, provider):
    for tool in ("lookup", "notes", "tree"):
        projected = _projected(result, provider, tool)
        if projected.strict:
            CHECKERS[provider].assert_strict(projected.schema, name=projected.provider_name)
    # ... and the checker can fail: the non-strict projection is not a strict schema
    notes = _projected(result, provider, "notes")
    assert CHECKERS[provider].violations(notes.schema)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_non_strict_tools_are_the_canonical_schema_minus_a_root_union(result, provider):
    notes = _projected(result, provider, "notes")
    assert notes.schema == {k: v for k, v in NOTES.items() if k != "anyOf"}
    (dropped,) = notes.rewrites.rewrites("")
    assert dropped.keywords == ("anyOf",)
    if provider in ("anthropic", "bedrock"):
        assert _projected(result, provider, "tree").schema == TREE


@pytest.mark.parametrize(
    ("tree", "toml"),
    [
        (tool_file("tree", TREE, providers={"anthropic": {"strict": True}}), ""),
        (tool_file("tree", TREE), "[providers.anthropic]\nstrict = true\n"),
    ],
    ids=["tool-file", "toolgen.toml"],
)
def test_strict_asked_for_keeps_the_error(tmp_path, tree, toml):
    root = write_design(tmp_path / "d", {"tools/tree.yaml": tree, "toolgen.toml": toml})
    found = analyze(root, ("anthropic",))
    assert [(d.file, d.pointer, d.provider, d.code, d.level) for d in found.diagnostics] == [
        ("tools/tree.yaml", TREE_RECURSION, "anthropic", "UNSUPPORTED_RECURSION", Level.ERROR)
    ]


def test_a_tool_file_wins_over_toolgen_toml(tmp_path):
    off = tool_file("tree2", TREE, providers={"anthropic": {"strict": False}})
    root = write_design(
        tmp_path / "d",
        {
            "tools/tree.yaml": tool_file("tree", TREE),
            "tools/tree2.yaml": off,
            "toolgen.toml": "[providers.anthropic]\nstrict = true\n",
        },
    )
    found = analyze(root, ("anthropic",))
    assert [(d.file, d.code) for d in found.diagnostics] == [
        ("tools/tree.yaml", "UNSUPPORTED_RECURSION")
    ]
    modes = {p.contract.name: (p.strict, p.schema is not None) for p in found.projections[0].tools}
    assert modes == {"tree": (True, False), "tree2": (False, True)}


def test_strict_false_in_toolgen_toml_sends_every_tool_non_strict(tmp_path):
    root = write_design(
        tmp_path / "d",
        {
            "tools/lookup.yaml": tool_file("lookup", LOOKUP),
            "toolgen.toml": "[providers.anthropic]\nstrict = false\n",
        },
    )
    found = analyze(root, ("anthropic",))
    (lookup,) = found.projections[0].tools
    assert found.diagnostics == [] and lookup.strict is False
    assert lookup.schema == LOOKUP


def test_strict_false_is_refused_where_the_provider_has_no_non_strict_mode(tmp_path):
    root = write_design(
        tmp_path / "d",
        {"tools/t.yaml": tool_file("t", LOOKUP, providers={"cerebras": {"strict": False}})},
    )
    found = analyze(root, ("cerebras",))
    assert [(d.file, d.pointer, d.code) for d in found.diagnostics] == [
        ("tools/t.yaml", "/providers/cerebras/strict", "INVALID_FIELD")
    ]


# -- the generated modules ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def package(result: BuildResult, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("strict_modes_out")
    name = f"toolgen_strict_modes_{next(_PACKAGES)}"
    write_package(root / name, result.files)
    return root, name


def _module(package: tuple[Path, str], provider: str) -> ModuleType:
    root, name = package
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"{name}.{provider}")


TREE_PAYLOAD = {"root": {"label": "a", "children": [{"label": "b"}]}}
NOTES_PAYLOAD = {"title": "t", "labels": {"x": "y"}}


@pytest.mark.parametrize("provider", ("openai", "groq"))
def test_openai_style_flags_and_round_trips(package, provider):
    module = _module(package, provider)
    assert module.STRICT == {"lookup": True, "notes": False, "tree": True}
    flags = {d["function"]["name"]: d["function"]["strict"] for d in module.tool_definitions()}
    assert flags == {"lookup": True, "notes": False, "tree": True}
    # strict: the null strict mode forced on the absent optional member goes
    lookup = module.decode_tool_call("lookup", '{"query": "q", "limit": null}')
    assert lookup.arguments.model_dump(exclude_unset=True) == {"query": "q"}
    # non-strict: the payload is canonical as it comes (a null stays, and fails validation)
    payload = {"title": "t"}
    assert module.canonicalize("notes", payload) is payload
    assert module.canonicalize_text("notes", '{"title": null}') == '{"title": null}'
    with pytest.raises(module.PayloadError):
        module.decode_tool_call("notes", '{"title": null}')
    notes = module.decode_tool_call("notes", json.dumps(NOTES_PAYLOAD))
    assert notes.arguments.model_dump(exclude_unset=True, by_alias=True) == NOTES_PAYLOAD


def test_openai_responses_flags(package):
    module = _module(package, "openai")
    flags = {d["name"]: d["strict"] for d in module.tool_definitions(api="responses")}
    assert flags == {"lookup": True, "notes": False, "tree": True}


def test_anthropic_non_strict_tools_never_go_strict_nor_count(package):
    module = _module(package, "anthropic")
    assert module.STRICT == {"lookup": True, "notes": False, "tree": False}
    for strict in ("auto", True):
        flags = {d["name"]: d["strict"] for d in module.tool_definitions(strict=strict)}
        assert flags == {"lookup": True, "notes": False, "tree": False}
    assert module.tool_definition("tree")["input_schema"] == TREE
    for tool, payload in (
        ("tree", TREE_PAYLOAD),
        ("notes", NOTES_PAYLOAD),
        ("lookup", {"query": "q"}),
    ):
        assert module.canonicalize(tool, payload) is payload
        call = module.decode_tool_call(tool, json.dumps(payload))
        assert call.arguments.model_dump(exclude_unset=True, by_alias=True) == payload


def test_bedrock_leaves_the_flag_out_for_non_strict_tools(package):
    module = _module(package, "bedrock")
    specs = {d["toolSpec"]["name"]: d["toolSpec"] for d in module.tool_definitions()}
    assert {name: spec.get("strict") for name, spec in specs.items()} == {
        "lookup": True,
        "notes": None,
        "tree": None,
    }
    assert specs["tree"]["inputSchema"] == {"json": TREE}
    call = module.decode_tool_call("tree", json.dumps(TREE_PAYLOAD))
    assert call.arguments.model_dump(exclude_unset=True, by_alias=True) == TREE_PAYLOAD


@pytest.mark.parametrize("config", [c for _, c in RUFF_CONFIGS], ids=[i for i, _ in RUFF_CONFIGS])
def test_the_package_is_ruff_clean(package, config):
    assert_ruff_clean(package[0], config)


def test_the_package_is_mypy_strict_clean(package):
    assert_mypy_strict_clean(package[0], package[1])


# -- the tool file's providers mapping ---------------------------------------------------------


def test_a_providers_mapping_restricts_where_the_tool_is_emitted(tmp_path):
    providers = {"openai": None, "anthropic": {}, "groq": {"strict": False}}
    root = write_design(
        tmp_path / "d", {"tools/t.yaml": tool_file("t", LOOKUP, providers=providers)}
    )
    found = analyze(root, ("openai", "anthropic", "groq", "bedrock"))
    assert found.diagnostics == []
    modes = {p.profile.name: [t.strict for t in p.tools] for p in found.projections}
    assert modes == {"openai": [True], "anthropic": [True], "groq": [False], "bedrock": []}


@pytest.mark.parametrize(
    ("file", "providers", "pointer", "code"),
    [
        ("tools/t.yaml", {"openai": {"strict": "no"}}, "/providers/openai/strict", "INVALID_FIELD"),
        ("tools/t.yaml", {"openai": {"strct": False}}, "/providers/openai/strct", "UNKNOWN_FIELD"),
        ("tools/t.yaml", {"openai": ["strict"]}, "/providers/openai", "INVALID_FIELD"),
        ("tools/t.yaml", "openai", "/providers", "INVALID_FIELD"),
        (
            "outputs/t.yaml",
            {"openai": {"strict": False}},
            "/providers/openai/strict",
            "INVALID_FIELD",
        ),
    ],
    ids=["not-a-boolean", "unknown-setting", "not-a-mapping", "not-a-list", "on-an-output"],
)
def test_bad_provider_settings_are_diagnostics(tmp_path, file, providers, pointer, code):
    key = "parameters" if file.startswith("tools/") else "schema"
    document = {"name": "t", "description": "d", key: LOOKUP, "providers": providers}
    found = analyze(write_design(tmp_path / "d", {file: document}), ("openai",))
    assert [(d.file, d.pointer, d.code) for d in found.diagnostics] == [(file, pointer, code)]


# -- the tool file's top-level strict ---------------------------------------------------------


def test_a_top_level_strict_false_goes_everywhere_non_strict_where_it_can(tmp_path):
    """Emitted for every provider (it restricts nothing); non-strict where the provider has both
    modes, strict (without complaint) where it has one."""
    root = write_design(tmp_path / "d", {"tools/t.yaml": tool_file("t", LOOKUP, strict=False)})
    found = analyze(root, (*PROVIDERS, "cerebras", "xai"))
    assert found.diagnostics == []
    modes = {p.profile.name: [t.strict for t in p.tools] for p in found.projections}
    assert modes == {
        "openai": [False],
        "groq": [False],
        "anthropic": [False],
        "bedrock": [False],
        "cerebras": [True],
        "xai": [True],
    }


def test_the_providers_mapping_overrides_a_top_level_strict(tmp_path):
    providers = {"openai": {"strict": True}, "anthropic": {}}
    document = tool_file("t", LOOKUP, strict=False, providers=providers)
    root = write_design(tmp_path / "d", {"tools/t.yaml": document})
    found = analyze(root, ("openai", "anthropic", "groq"))
    assert found.diagnostics == []
    modes = {p.profile.name: [t.strict for t in p.tools] for p in found.projections}
    assert modes == {"openai": [True], "anthropic": [False], "groq": []}


def test_a_top_level_strict_wins_over_toolgen_toml(tmp_path):
    root = write_design(
        tmp_path / "d",
        {
            "tools/tree.yaml": tool_file("tree", TREE, strict=False),
            "tools/lookup.yaml": tool_file("lookup", LOOKUP, strict=True),
            "toolgen.toml": "[providers.anthropic]\nstrict = true\n"
            "[providers.openai]\nstrict = false\n",
        },
    )
    found = analyze(root, ("anthropic", "openai"))
    assert found.diagnostics == []
    modes = {
        p.profile.name: {t.contract.name: t.strict for t in p.tools} for p in found.projections
    }
    assert modes == {
        "anthropic": {"tree": False, "lookup": True},
        "openai": {"tree": False, "lookup": True},
    }


@pytest.mark.parametrize(
    ("file", "flag", "message"),
    [
        ("tools/t.yaml", "no", "strict must be true or false"),
        ("outputs/t.yaml", False, "a structured output always goes strict"),
        ("outputs/t.yaml", True, "a structured output always goes strict"),
    ],
    ids=["not-a-boolean", "false-on-an-output", "true-on-an-output"],
)
def test_a_bad_top_level_strict_is_a_diagnostic(tmp_path, file, flag, message):
    key = "parameters" if file.startswith("tools/") else "schema"
    document = {"name": "t", "description": "d", key: LOOKUP, "strict": flag}
    found = analyze(write_design(tmp_path / "d", {file: document}), ("openai",))
    assert [(d.file, d.pointer, d.code) for d in found.diagnostics] == [
        (file, "/strict", "INVALID_FIELD")
    ]
    assert message in found.diagnostics[0].message


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_a_non_strict_mode_states_its_rules_in_the_profile(name):
    """A profile derived from another (``replace(OPENAI, ...)``) inherits its non-strict mode: it
    must state the facts of its own (or set ``non_strict=None`` when the provider has none)."""
    profile = PROFILES[name]
    if profile.non_strict is not None:
        assert profile.non_strict.rules
        assert set(profile.non_strict.rules) <= set(profile.rules)
    else:
        assert not any(
            rule.topic == "non-strict" and "dropped" in rule.fact for rule in profile.rules
        )
