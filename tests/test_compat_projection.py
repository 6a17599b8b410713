"""The rules the OpenAI-compatible profiles add to OpenAI's table (Mistral, xAI, DeepSeek) or keep
as they are (Azure OpenAI, OpenRouter), each checked on a small schema, with the diagnostics of
what they reject (file, pointer, provider) and the strict checker of each profile agreeing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from strict_checker import violations

from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.providers import BUILT_BY_DEFAULT, ON_REQUEST, PROFILES
from toolgen.providers.openai import OPENAI

S = {"type": "string"}


def project(schema: Any, provider: str) -> tuple[Any, list[Any]]:
    contract = Contract("tool", "t", "", schema, "tools/t.json", "/parameters")
    projected, diagnostics = project_contract(contract, PROFILES[provider], ProviderOptions(), "t")
    return projected.schema, diagnostics


def errors(diagnostics: list[Any]) -> list[tuple[str, str, str, str]]:
    return [(d.file, d.pointer, d.provider, d.code) for d in diagnostics if d.level == "error"]


def obj(properties: dict[str, Any], required: list[str] = (), **extra: Any) -> dict[str, Any]:  # type: ignore[assignment]
    return {"type": "object", "properties": properties, "required": list(required), **extra}


RECURSIVE = obj(
    {"root": {"$ref": "#/$defs/Node"}},
    ["root"],
    **{
        "$defs": {
            "Node": obj(
                {"name": S, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                ["name"],
            )
        }
    },
)
CONSTRAINED = obj(
    {
        "email": {"type": "string", "format": "email"},
        "when": {"type": "string", "format": "date-time"},
        "code": {"type": "string", "pattern": "^[A-Z]+$"},
        "count": {"type": "integer", "minimum": 1},
        "tags": {"type": "array", "items": S, "maxItems": 3},
        "note": S,
    },
    ["email", "when", "code", "count", "tags"],
)


@pytest.mark.parametrize("provider", ["xai", "mistral"])
def test_recursion_is_written_as_json_text(provider: str) -> None:
    """The reference that closes the cycle becomes a string of JSON text (RecursionAsJsonText);
    the one from the root into the definition stays; the strict checker finds no recursion."""
    schema, diagnostics = project(RECURSIVE, provider)
    assert diagnostics == []
    node = schema["$defs"]["Node"]
    children = node["properties"]["children"]
    if provider == "mistral":  # optional members are written nullable (anyOf with null)
        children = children["anyOf"][0]
    assert children["items"] == {
        "type": "string",
        "description": "a value of the shape of Node, written as JSON text",
    }
    assert schema["properties"]["root"] == {"$ref": "#/$defs/Node"}
    assert violations(schema, provider=provider) == []


@pytest.mark.parametrize("provider", ["xai", "mistral"])
def test_recursion_inside_a_union_is_rejected_with_a_pointer(provider: str) -> None:
    """In a union of several branches the text could be another branch's string: no exact
    inverse, so strict mode refuses it, naming the reference."""
    items = {"anyOf": [{"$ref": "#/$defs/Node"}, S]}
    schema, diagnostics = project(
        {
            **RECURSIVE,
            "$defs": {
                "Node": obj(
                    {"name": S, "children": {"type": "array", "items": items}},
                    ["name"],
                )
            },
        },
        provider,
    )
    assert schema is None
    assert errors(diagnostics) == [
        (
            "tools/t.json",
            "/parameters/$defs/Node/properties/children/items/anyOf/0/$ref",
            provider,
            "UNSUPPORTED_RECURSION",
        )
    ]


@pytest.mark.parametrize("provider", ["openai", "azure_openai", "openrouter", "deepseek"])
def test_recursion_stays_where_openai_takes_it(provider: str) -> None:
    schema, diagnostics = project(RECURSIVE, provider)
    assert errors(diagnostics) == []
    assert violations(schema, provider=provider) == []


def test_the_strict_checker_finds_the_cycle_a_profile_without_recursion_refuses() -> None:
    schema, _ = project(RECURSIVE, "openai")
    assert [rule for _, rule, _ in violations(schema, provider="xai")] == ["recursion"]


def test_xai_keeps_optionals_optional_and_closes_objects() -> None:
    schema, diagnostics = project(obj({"a": S, "b": {"type": "integer"}}, ["a"]), "xai")
    assert errors(diagnostics) == []
    assert schema == {
        "type": "object",
        "properties": {"a": S, "b": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    assert violations(schema, provider="xai") == []
    assert [r for _, r, _ in violations(schema)] == ["required-incomplete"]  # OpenAI's rule


def test_xai_folds_one_of_and_merges_a_one_element_all_of() -> None:
    schema, diagnostics = project(
        obj(
            {
                "x": {"oneOf": [S, {"type": "integer"}]},
                "y": {"allOf": [obj({"z": S}, ["z"])]},
            },
            ["x", "y"],
        ),
        "xai",
    )
    assert errors(diagnostics) == []
    assert schema["properties"]["x"] == {"anyOf": [S, {"type": "integer"}]}
    assert schema["properties"]["y"] == {
        "type": "object",
        "properties": {"z": S},
        "required": ["z"],
        "additionalProperties": False,
    }


def test_xai_rejects_all_of_with_two_subschemas_that_cannot_be_one() -> None:
    closed_a = {**obj({"a": S}), "additionalProperties": False}
    _, diagnostics = project(obj({"y": {"allOf": [closed_a, obj({"b": S})]}}, ["y"]), "xai")
    assert errors(diagnostics) == [
        ("tools/t.json", "/parameters/properties/y/allOf", "xai", "UNSUPPORTED_ALL_OF")
    ]


def test_mistral_keeps_structure_only_and_writes_nulls_with_any_of() -> None:
    schema, diagnostics = project(CONSTRAINED, "mistral")
    assert errors(diagnostics) == []
    properties = schema["properties"]
    assert properties["email"] == S and properties["when"] == S and properties["code"] == S
    assert properties["count"] == {"type": "integer"}
    assert properties["tags"] == {"type": "array", "items": S}
    assert properties["note"] == {"anyOf": [S, {"type": "null"}]}
    assert violations(schema, provider="mistral") == []
    # the OpenAI projection of the same schema is what Mistral's checker refuses
    openai_schema, _ = project(CONSTRAINED, "openai")
    rules = {rule for _, rule, _ in violations(openai_schema, provider="mistral")}
    assert rules == {"unsupported-keyword", "unsupported-format", "type-list"}


def test_deepseek_keeps_only_its_formats() -> None:
    schema, diagnostics = project(CONSTRAINED, "deepseek")
    assert errors(diagnostics) == []
    assert schema["properties"]["email"] == {"type": "string", "format": "email"}
    assert schema["properties"]["when"] == S
    assert violations(schema, provider="deepseek") == []
    openai_schema, _ = project(CONSTRAINED, "openai")
    assert [p for p, _, _ in violations(openai_schema, provider="deepseek")] == [
        "/properties/when/format"
    ]


@pytest.mark.parametrize("provider", ["azure_openai", "openrouter"])
def test_gateways_are_openais_table_under_their_own_name(provider: str) -> None:
    profile = PROFILES[provider]
    same_table = replace(
        profile,
        name="openai",
        title=OPENAI.title,
        apis=OPENAI.apis,
        rules=OPENAI.rules,
        non_strict=OPENAI.non_strict,
        derives_from=None,
        display_name=OPENAI.display_name,
        tokenizer=OPENAI.tokenizer,
        module_data=OPENAI.module_data,
    )
    # only the name, the rules' sources, the decoders, the lineage, the tokenizer and the fakes'
    # stream framing (OpenRouter's Responses streams) differ
    assert same_table == OPENAI
    # Azure serves OpenAI's models; OpenRouter routes to models of every tokenizer
    assert profile.tokenizer == {"azure_openai": "o200k_base", "openrouter": None}[provider]
    assert profile.derives_from == "openai"
    assert profile.non_strict is not None and OPENAI.non_strict is not None
    assert profile.non_strict.refused_at_root == OPENAI.non_strict.refused_at_root
    schema, _ = project(CONSTRAINED, provider)
    assert schema == project(CONSTRAINED, "openai")[0]


@pytest.mark.parametrize("provider", sorted(ON_REQUEST))
def test_names_are_64_of_letters_digits_underscore_dash(provider: str) -> None:
    names = PROFILES[provider].names
    assert names.is_valid("a" * 64) and names.is_valid("get_weather-2")
    assert not names.is_valid("a" * 65) and not names.is_valid("billing.refund")


def test_compatible_providers_are_built_on_request_only() -> None:
    assert {"mistral", "xai", "azure_openai", "openrouter", "deepseek"} == ON_REQUEST
    assert not ON_REQUEST & set(BUILT_BY_DEFAULT)
    assert {"openai", "anthropic", "groq", "cerebras", "bedrock"} <= set(BUILT_BY_DEFAULT)
