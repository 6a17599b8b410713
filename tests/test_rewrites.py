"""Every rewrite rule of the projection has an inverse and a case here that exercises it: the
projection records the rule where it applied, and both inverses (reference and compiled) undo it.

A rule added to toolgen/project/rewrites/ without a case below fails ``test_every_rule_is_exercised``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.canonical.support import import_source
from toolgen.compile.canonical.compiler import render_canonical_module
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.load.contracts import Config, Contract, Design, ProviderOptions
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract, project_contract
from toolgen.project.rewrites import (
    AllOfMerged,
    AnyAsJsonText,
    ConstAsEnum,
    Counterpart,
    DefaultNullRequired,
    EncodingError,
    EnumAsJsonText,
    EnumCaseRestored,
    EnumNarrowed,
    EnumStringified,
    EnumTyped,
    ExtraMembers,
    KeywordsDropped,
    MadeNullable,
    MapAsPairs,
    MemberAsJsonText,
    MembersRenamed,
    NullableOptionalBoxed,
    NullForm,
    OneOfFolded,
    OptionalKept,
    OptionalsOverCap,
    RecursionAsJsonText,
    RecursiveRefKept,
    RefInlined,
    RequiredDeclared,
    Rewrite,
    RewriteRecord,
    RootWrapped,
    TupleAsObject,
    TypeIntoBranches,
    TypeListAsUnion,
    TypeListSplit,
    UnionOfOneMerged,
    record_from_json,
    record_to_json,
    rule_kinds,
)
from toolgen.providers import PROFILES, profile_for
from toolgen.render.templating import header

STR = {"type": "string"}


def obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    return schema


#: An object whose optional member ``x`` loses its null on the way back.
X = obj({"x": STR})


@dataclass(frozen=True)
class Case:
    name: str
    provider: str
    schema: dict[str, Any]
    rule: Callable[[Rewrite], bool]  # the rewrite the projection must record at ``pointer``
    pointer: str
    payload: Any  # as the provider writes it
    expected: Any  # the canonical payload
    reads: Counterpart | None = None  # what the inverse reads at ``pointer`` (None: the node)
    dialect: str | None = None  # [providers.NAME] dialect
    optional_nullable: str = "encode"  # [providers.NAME] optional_nullable
    kind: str = "tool"  # or "output"
    # the provider writes this payload although the projection does not admit it (a documented
    # deviation the inverse reads back: EnumCaseRestored)
    beyond_projection: bool = False


CASES = [
    Case(
        "ref_inlined_with_annotations",
        "openai",
        # b's bare reference keeps X a definition that is sent, whose inverse a serves
        {
            **obj(
                {"a": {"$ref": "#/$defs/X", "description": "d"}, "b": {"$ref": "#/$defs/X"}}, ["a"]
            ),
            "$defs": {"X": X},
        },
        lambda r: r == RefInlined("/$defs/X", annotations_only=True),
        "/properties/a",
        {"a": {"x": None}, "b": None},
        {"a": {}},
        Counterpart("/properties/a", call="/$defs/X"),
    ),
    Case(
        "ref_inlined_with_keywords",
        "openai",
        {
            **obj({"a": {"$ref": "#/$defs/XY", "required": ["y"]}}, ["a"]),
            "$defs": {"XY": obj({"x": STR, "y": {"type": ["string", "null"]}})},
        },
        lambda r: r == RefInlined("/$defs/XY", annotations_only=False),
        "/properties/a",
        {"a": {"x": None, "y": None}},
        {"a": {"y": None}},
    ),
    Case(
        "recursive_ref_kept",
        "openai",
        {
            **obj({"n": {"$ref": "#/$defs/N", "description": "top"}}, ["n"]),
            "$defs": {"N": obj({"v": STR, "next": {"$ref": "#/$defs/N", "description": "again"}})},
        },
        lambda r: r == RecursiveRefKept("/$defs/N"),
        "/properties/n/properties/next/anyOf/0",
        {"n": {"v": None, "next": {"v": "b", "next": None}}},
        {"n": {"next": {"v": "b"}}},
        Counterpart("/properties/n/properties/next/anyOf/0", call="/$defs/N"),
    ),
    Case(
        "keywords_dropped",
        "openai",
        obj({"a": {"type": "string", "minLength": 1, "format": "uri"}}),
        lambda r: r == KeywordsDropped(("minLength", "format")),
        "/properties/a",
        {"a": None},
        {},
    ),
    Case(
        "all_of_merged",
        "openai",
        obj({"a": {"allOf": [X]}}, ["a"]),
        lambda r: r == AllOfMerged("/properties/a/allOf/0"),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
    ),
    Case(
        "all_of_of_disjoint_objects_merged",
        "openai",
        obj({"a": {"allOf": [obj({"x": STR}, ["x"]), obj({"y": STR})]}}, ["a"]),
        lambda r: r == AllOfMerged("/properties/a/allOf/1"),
        "/properties/a",
        {"a": {"x": "1", "y": None}},
        {"a": {"x": "1"}},
    ),
    Case(
        "union_of_one_merged",
        "openai",
        obj({"a": {**obj({"x": STR}), "anyOf": [obj({"y": STR}, ["y"])]}}, ["a"]),
        lambda r: r == UnionOfOneMerged("/properties/a/anyOf/0"),
        "/properties/a",
        {"a": {"x": None, "y": "2"}},
        {"a": {"y": "2"}},
    ),
    Case(
        "one_of_folded",
        "openai",
        obj({"a": {"oneOf": [X, STR]}}, ["a"]),
        lambda r: r == OneOfFolded(),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
    ),
    Case(
        "nullable_type",
        "openai",
        obj({"a": STR}),
        lambda r: r == MadeNullable(NullForm.TYPE),
        "/properties/a",
        {"a": None},
        {},
    ),
    Case(
        "nullable_enum",
        "openai",
        obj({"a": {"enum": ["p", "q"]}}),
        lambda r: r == MadeNullable(NullForm.ENUM),
        "/properties/a",
        {"a": None},
        {},
    ),
    Case(
        "nullable_type_and_enum",
        "openai",
        obj({"a": {"type": "string", "enum": ["p", "q"]}}),
        lambda r: r == MadeNullable(NullForm.TYPE_AND_ENUM),
        "/properties/a",
        {"a": None},
        {},
    ),
    Case(
        "nullable_branch",
        "openai",
        obj({"a": {"anyOf": [X, STR]}}),
        lambda r: r == MadeNullable(NullForm.BRANCH),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
        Counterpart("/properties/a", null_branch=True),
    ),
    Case(
        "nullable_wrap",
        "openai",
        {**obj({"a": {"$ref": "#/$defs/X"}}), "$defs": {"X": X}},
        lambda r: r == MadeNullable(NullForm.WRAP),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
        Counterpart("/properties/a/anyOf/0"),
    ),
    Case(
        "nullable_wrap_without_type_lists",
        "cerebras",
        obj({"a": X}),
        lambda r: r == MadeNullable(NullForm.WRAP),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
        Counterpart("/properties/a/anyOf/0"),
    ),
    Case(
        "optionals_over_cap",
        "anthropic",
        obj({f"m{i}": STR for i in range(26)}),
        lambda r: r == OptionalsOverCap(("m24", "m25")),
        "",
        {"m0": "a", "m24": None, "m25": "b"},
        {"m0": "a", "m25": "b"},
    ),
    Case(
        "optionals_over_cap_member",
        "bedrock",
        obj({f"m{i}": STR for i in range(25)}),
        lambda r: r == MadeNullable(NullForm.TYPE),
        "/properties/m24",
        {"m24": None},
        {},
    ),
    Case(
        "optional_kept",
        "openai",
        obj({"a": {"type": ["string", "null"]}, "b": STR}),
        lambda r: r == OptionalKept(),
        "/properties/a",
        {"a": None, "b": None},
        {"a": None},
        optional_nullable="keep",
    ),
    Case(
        # issue_write.type of the GitHub MCP server: null removes the type, absent leaves it
        "optional_boxed",
        "openai",
        obj({"title": STR, "type": {"type": ["string", "null"]}}),
        lambda r: r == NullableOptionalBoxed(),
        "/properties/type",
        {"title": "t", "type": None},
        {"title": "t"},
        Counterpart("/properties/type/anyOf/0", decode=("boxed", "value")),
    ),
    Case(
        # the boxed member's own rules stay with it, inside the box (its optional x is unboxed
        # and loses its null)
        "optional_boxed_keeps_the_member_s_rules",
        "mistral",
        obj({"o": {**X, "type": ["object", "null"]}}),
        lambda r: r == NullableOptionalBoxed(),
        "/properties/o",
        {"o": {"value": {"x": None}}},
        {"o": {}},
        Counterpart("/properties/o/anyOf/0", decode=("boxed", "value")),
    ),
    Case(
        # over Bedrock's cap an optional member that accepts null is boxed too
        "optional_boxed_over_cap",
        "bedrock",
        obj({**{f"m{i}": STR for i in range(24)}, "n": {"type": ["string", "null"]}}),
        lambda r: r == NullableOptionalBoxed(),
        "/properties/n",
        {"m0": "a", "n": {"value": None}},
        {"m0": "a", "n": None},
        Counterpart("/properties/n/anyOf/0", decode=("boxed", "value")),
    ),
    Case(
        "type_list_split",
        "cerebras",
        obj({"a": {**X, "type": ["object", "null"]}}, ["a"]),
        lambda r: r == TypeListSplit(null_branch=True),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
        Counterpart("/properties/a/anyOf/0"),
    ),
    Case(
        "type_list_as_union",
        "mistral",
        obj({"a": {**X, "type": ["object", "string"], "minLength": 2}}, ["a"]),
        lambda r: r == TypeListAsUnion(),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
    ),
    Case(
        "type_list_as_union_of_a_map_and_null",
        "openai",
        obj({"m": {"type": ["object", "null"], "additionalProperties": STR}}, ["m"]),
        lambda r: r == TypeListAsUnion(),
        "/properties/m",
        {"m": [{"key": "k", "value": "v"}]},
        {"m": {"k": "v"}},
    ),
    Case(
        "default_null_required",
        "openai",
        obj({"label": {"anyOf": [STR, {"type": "null"}], "default": None}}),
        lambda r: r == DefaultNullRequired(),
        "/properties/label",
        {"label": None},
        {},
    ),
    Case(
        "enum_as_json_text",
        "gemini",
        obj({"c": {"const": [1, 2, 3]}}, ["c"]),
        lambda r: r == EnumAsJsonText(),
        "/properties/c",
        {"c": "[1, 2, 3]"},
        {"c": [1, 2, 3]},
        Counterpart("/properties/c", decode=("json", "")),
    ),
    Case(
        "type_list_of_one",
        "cerebras",
        obj({"a": {**X, "type": ["object"]}}, ["a"]),
        lambda r: r == TypeListSplit(null_branch=False),
        "/properties/a",
        {"a": {"x": None}},
        {"a": {}},
    ),
    Case(
        "const_as_enum",
        "gemini",
        obj({"a": {"const": "x"}}, ["a"]),
        lambda r: r == ConstAsEnum(),
        "/properties/a",
        {"a": "x"},
        {"a": "x"},
    ),
    Case(
        "enum_stringified",
        "gemini",
        obj({"n": {"type": "integer", "enum": [1, 2]}, "s": {"enum": ["1", 2.5]}}, ["n"]),
        lambda r: r == EnumStringified((("1", 1), ("2", 2))),
        "/properties/n",
        {"n": "2", "s": "1"},
        {"n": 2, "s": "1"},
        Counterpart("/properties/n", values=(("1", 1), ("2", 2))),
        dialect="openapi",
    ),
    Case(
        "enum_stringified_nullable",
        "gemini",
        obj({"n": {"enum": [1.5, True, None]}}, ["n"]),
        lambda r: r == EnumStringified((("1.5", 1.5), ("true", True))),
        "/properties/n/anyOf/0",
        {"n": "true"},
        {"n": True},
        Counterpart("/properties/n/anyOf/0", values=(("1.5", 1.5), ("true", True))),
        dialect="openapi",
    ),
    Case(
        "enum_typed",
        "gemini",
        obj({"n": {"enum": [1, 2, None, True]}}, ["n"]),
        lambda r: r == EnumTyped(kept=False),
        "/properties/n",
        {"n": None},
        {"n": None},
    ),
    Case(
        "type_into_branches",
        "openai",
        obj({"a": {"type": "object", "oneOf": [obj({"x": STR}, ["x"]), obj({"y": STR})]}}, ["a"]),
        lambda r: r == TypeIntoBranches(),
        "/properties/a",
        {"a": {"y": None}},
        {"a": {}},
    ),
    Case(
        "enum_narrowed",
        "cerebras",
        obj({"s": {"type": "string", "enum": ["a", None, 1]}}),
        lambda r: r == EnumNarrowed(),
        "/properties/s/anyOf/0",
        {"s": None},
        {},
    ),
    Case(
        "member_as_json_text",
        "cloudflare",
        obj({"a": {"anyOf": [STR, {"type": "integer"}]}}, ["a"]),
        lambda r: r == MemberAsJsonText(),
        "/properties/a",
        {"a": '"7"'},
        {"a": "7"},
        Counterpart("/properties/a", decode=("json", "")),
    ),
    Case(
        "root_wrapped",
        "openai",
        {"type": "array", "items": X},
        lambda r: r == RootWrapped("value"),
        "",
        {"value": [{"x": None}, {"x": "a"}]},
        [{}, {"x": "a"}],
        Counterpart("", decode=("unwrap", "value")),
        kind="output",
    ),
    Case(
        "required_declared",
        "openai",
        obj({"o": {"type": "object", "required": ["a"]}}, ["o"]),
        lambda r: r == RequiredDeclared(("a",)),
        "/properties/o",
        {"o": {"a": "[1]", "additional_members": [{"key": "b", "value": "2"}]}},
        {"o": {"a": [1], "b": 2}},
        Counterpart("/properties/o", decode=("extras", "additional_members")),
    ),
    Case(
        "map_as_pairs",
        "openai",
        obj({"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, ["m"]),
        lambda r: r == MapAsPairs(),
        "/properties/m",
        {"m": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]},
        {"m": {"a": 1, "b": 2}},
        Counterpart("/properties/m", decode=("pairs", "")),
    ),
    Case(
        "extra_members",
        "openai",
        obj({"o": {**obj({"a": STR}, ["a"]), "additionalProperties": True}}, ["o"]),
        lambda r: r == ExtraMembers("additional_members"),
        "/properties/o",
        {"o": {"a": "x", "additional_members": [{"key": "b", "value": "[1]"}]}},
        {"o": {"a": "x", "b": [1]}},
        Counterpart("/properties/o", decode=("extras", "additional_members")),
    ),
    Case(
        "tuple_as_object",
        "openai",
        obj({"t": {"type": "array", "prefixItems": [STR, STR], "items": False}}),
        lambda r: r == TupleAsObject(),
        "/properties/t",
        {"t": {"0": "a", "1": None}},
        {"t": ["a"]},
        Counterpart("/properties/t", decode=("tuple", "")),
    ),
    Case(
        "any_as_json_text",
        "openai",
        obj({"v": {"description": "anything"}, "w": {}}, ["v"]),
        lambda r: r == AnyAsJsonText(),
        "/properties/v",
        {"v": '{"a": [1, null]}', "w": None},
        {"v": {"a": [1, None]}},
        Counterpart("/properties/v", decode=("json", "")),
    ),
    Case(
        # a provider that refuses recursion: the reference that closes the cycle is JSON text
        # (an optional member stays optional, absent is absent)
        "recursion_as_json_text",
        "anthropic",
        {
            **obj({"n": {"$ref": "#/$defs/N"}}, ["n"]),
            "$defs": {"N": obj({"v": STR, "next": {"$ref": "#/$defs/N", "description": "more"}})},
        },
        lambda r: r == RecursionAsJsonText("/$defs/N"),
        "/$defs/N/properties/next",
        {"n": {"v": "a", "next": '{"v": "b", "next": {"v": "c"}}'}},
        {"n": {"v": "a", "next": {"v": "b", "next": {"v": "c"}}}},
        Counterpart("/$defs/N/properties/next", decode=("json", "")),
    ),
    Case(
        # where optionals are written as nullable, null is an absent member, "null" a null one
        "recursion_as_json_text_nullable",
        "mistral",
        {**obj({"v": STR, "sub": {"$ref": "#"}}, ["v"])},
        lambda r: r == RecursionAsJsonText(""),
        "/properties/sub/anyOf/0",
        {"v": "a", "sub": None},
        {"v": "a"},
        Counterpart("/properties/sub/anyOf/0", decode=("json", "")),
    ),
    Case(
        # Anthropic may write an enum's string in another letter case: read back as declared
        # ("a" and "A" fold alike: read as written)
        "enum_case_restored",
        "anthropic",
        obj({"s": {"enum": ["Active", "a", "A", 3]}}, ["s"]),
        lambda r: r == EnumCaseRestored(("Active",)),
        "/properties/s",
        {"s": "ACTIVE"},
        {"s": "Active"},
        Counterpart("/properties/s", decode=("case", '["Active"]')),
        beyond_projection=True,
    ),
    Case(
        # Anthropic refuses property keys outside ^[a-zA-Z0-9_.-]{1,64}$: sent as a_b, named back
        "members_renamed",
        "anthropic",
        obj({"o": obj({"a b": STR, "ok": STR}, ["a b"])}, ["o"]),
        lambda r: r == MembersRenamed((("a_b", "a b"),)),
        "/properties/o",
        {"o": {"a_b": "x", "ok": "y"}},
        {"o": {"a b": "x", "ok": "y"}},
        Counterpart("/properties/o", decode=("renamed", '[["a_b", "a b"]]')),
    ),
]


def _project(case: Case) -> ProjectedContract:
    folder, at = ("tools", "/parameters") if case.kind == "tool" else ("outputs", "/schema")
    contract = Contract(case.kind, case.name, "", case.schema, f"{folder}/{case.name}.json", at)
    profile = profile_for(case.provider, ProviderOptions(dialect=case.dialect))
    options = ProviderOptions(optional_nullable=case.optional_nullable)  # type: ignore[arg-type]
    projected, diagnostics = project_contract(contract, profile, options, case.name)
    assert projected.schema is not None, diagnostics
    return projected


@pytest.fixture(scope="module")
def projected() -> dict[str, ProjectedContract]:
    return {case.name: _project(case) for case in CASES}


@pytest.fixture(scope="module")
def compiled(
    projected: dict[str, ProjectedContract], tmp_path_factory: pytest.TempPathFactory
) -> Any:
    """One module for every case (the compiler reads each contract's own record)."""
    tools = tuple(p for p in projected.values() if p.contract.kind == "tool")
    outputs = tuple(p for p in projected.values() if p.contract.kind == "output")
    design = Design(
        "rewrites",
        tuple(p.contract for p in tools),
        tuple(p.contract for p in outputs),
        {},
        Config(),
        "0" * 64,
    )
    projection = ProviderProjection(PROFILES["openai"], tools, outputs, ())
    module = render_canonical_module(design, projection, header())
    assert module.source is not None, module.diagnostics
    return import_source(
        module.source, tmp_path_factory.mktemp("rewrites"), "toolgen_rewrites_test"
    )


def test_every_rule_has_an_inverse() -> None:
    for kind in rule_kinds():
        assert kind.invert is not Rewrite.invert, kind.__name__
        assert not getattr(kind, "__abstractmethods__", None), kind.__name__


def test_every_rule_has_its_forward_half_beside_its_inverse() -> None:
    """The rewriting of a node (``apply``) is declared by the rule itself, in the module of its
    inverse, not left to the projection."""
    for kind in rule_kinds():
        assert "apply" in vars(kind), f"{kind.__name__} has no apply"
        assert kind.apply.__module__ == kind.invert.__module__ == kind.__module__, kind.__name__
        assert kind.__module__.startswith("toolgen.project.rewrites."), kind.__name__


def test_every_rule_is_exercised(projected: dict[str, ProjectedContract]) -> None:
    recorded = {
        type(rewrite)
        for p in projected.values()
        for _, node in p.rewrites.nodes
        for rewrite in node.rewrites
    }
    assert recorded == set(rule_kinds())
    forms = {
        rewrite.form
        for p in projected.values()
        for _, node in p.rewrites.nodes
        for rewrite in node.rewrites
        if isinstance(rewrite, MadeNullable)
    }
    assert forms == set(NullForm)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_rule_is_recorded_where_it_applied(
    case: Case, projected: dict[str, ProjectedContract]
) -> None:
    record = projected[case.name].rewrites
    assert any(case.rule(r) for r in record.rewrites(case.pointer)), record.at(case.pointer)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_inverse_reads_the_rule(case: Case, projected: dict[str, ProjectedContract]) -> None:
    """A wrapper is stepped into, an added null branch set aside, an annotated $ref called."""
    expected = case.reads or Counterpart(case.pointer)
    assert projected[case.name].rewrites.counterpart(case.pointer) == expected


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_both_inverses_undo_it(
    case: Case, projected: dict[str, ProjectedContract], compiled: Any
) -> None:
    from jsonschema import Draft202012Validator

    p = projected[case.name]
    valid = Draft202012Validator(p.meaning).is_valid(case.payload)
    assert valid != case.beyond_projection, "not a provider payload"
    assert reference_inverse(case.payload, p) == case.expected
    canonicalizers = (
        compiled.TOOL_CANONICALIZERS if case.kind == "tool" else compiled.OUTPUT_CANONICALIZERS
    )
    assert canonicalizers[case.name](case.payload) == case.expected


def test_the_record_reads_back_from_the_cache_s_json(
    projected: dict[str, ProjectedContract],
) -> None:
    # every rule kind and null form is exercised (test above): each field must come back equal
    for p in projected.values():
        stored = json.loads(json.dumps(record_to_json(p.rewrites)))
        read = record_from_json(stored)
        assert read == p.rewrites
        assert [type(r) for _, n in read.nodes for r in n.rewrites] == [
            type(r) for _, n in p.rewrites.nodes for r in n.rewrites
        ]
        for pointer, node in p.rewrites.nodes:
            assert read.at(pointer) == node


def test_the_record_keeps_the_canonical_pointer(projected: dict[str, ProjectedContract]) -> None:
    """Inlined nodes point where they were authored; an added null branch at its member."""
    record = projected["ref_inlined_with_annotations"].rewrites
    assert record.canonical_pointer("/properties/a") == "/properties/a"
    assert record.canonical_pointer("/properties/a/properties/x") == "/$defs/X/properties/x"
    wrapped = projected["nullable_wrap"].rewrites
    assert wrapped.canonical_pointer("/properties/a/anyOf/1") == "/properties/a"
    folded = projected["one_of_folded"].rewrites
    assert folded.canonical_pointer("/properties/a/anyOf/0") == "/properties/a/oneOf/0"


def test_the_record_is_deterministic_and_immutable() -> None:
    first, second = (_project(CASES[2]).rewrites for _ in range(2))
    assert first == second and first.nodes == second.nodes
    with pytest.raises(AttributeError):
        first.nodes = ()  # type: ignore[misc]
    assert RewriteRecord().at("") is None


# -- the forward halves on their own --------------------------------------------------------------


def test_keywords_dropped_keeps_the_node_s_order_and_records_none_when_nothing_goes() -> None:
    node = {"type": "string", "minLength": 1, "format": "x", "description": "d"}
    kept, rule = KeywordsDropped.apply(node, {"format", "minLength", "pattern"})
    assert kept == {"type": "string", "description": "d"}
    assert list(kept) == ["type", "description"]
    assert rule == KeywordsDropped(("minLength", "format"))
    assert KeywordsDropped.apply(node, {"pattern"}) == (node, None)


def test_ref_inlined_merges_the_site_into_the_target_and_names_conflicts() -> None:
    target = {"type": "string", "description": "target", "maxLength": 3}
    node = {"$ref": "#/$defs/S", "description": "site", "maxLength": 4}
    merged, rule, conflicts = RefInlined.apply(node, target, "/$defs/S", target_kept=True)
    assert merged == {"type": "string", "description": "site", "maxLength": 3}
    assert conflicts == (("maxLength", "both give it, differently"),)
    assert rule == RefInlined("/$defs/S", annotations_only=False)
    described = {"$ref": "#/$defs/S", "title": "t"}
    assert RefInlined.apply(described, target, "/$defs/S", target_kept=True)[1].annotations_only
    assert not RefInlined.apply(described, target, "/$defs/S", target_kept=False)[
        1
    ].annotations_only


def test_recursive_ref_kept_only_where_the_siblings_describe() -> None:
    assert RecursiveRefKept.apply({"$ref": "#/$defs/N", "description": "d"}) == (
        {"$ref": "#/$defs/N"},
        RecursiveRefKept("/$defs/N"),
    )
    assert RecursiveRefKept.apply({"$ref": "#/$defs/N", "minItems": 1}) is None


def test_all_of_merged_merges_its_last_schema() -> None:
    node = {
        "allOf": [{"type": "string", "description": "b"}],
        "description": "n",
        "type": "integer",
    }
    merged, rule, conflicts = AllOfMerged.apply(node, "/allOf/0")
    assert merged == {"type": "string", "description": "n"}
    assert (rule, conflicts) == (AllOfMerged("/allOf/0"), (("type", "both give it, differently"),))
    two = {"allOf": [STR, {"minLength": 2}], "description": "d"}
    assert AllOfMerged.apply(two, "/allOf/1") == (
        {"minLength": 2, "allOf": [STR], "description": "d"},
        AllOfMerged("/allOf/1"),
        (),
    )
    assert AllOfMerged.apply({"allOf": [True]}, "/allOf/0") == ({}, AllOfMerged("/allOf/0"), ())
    assert AllOfMerged.apply({"allOf": [False]}, "/allOf/0") is None
    assert AllOfMerged.apply(STR, "/allOf/0") is None


def test_a_merge_of_objects_adds_their_members_where_that_stays_equivalent() -> None:
    """Members and required members add up; additionalProperties stays only where it would not
    reach a member the other schema declares (else the reason is given)."""
    a = {**obj({"a": STR}, ["a"]), "additionalProperties": False}
    b = obj({"b": STR}, ["b"])
    merged, _, conflicts = AllOfMerged.apply({"allOf": [obj({"a": STR}, ["a"]), b]}, "/allOf/1")
    assert conflicts == ()
    assert merged == {
        "type": "object",
        "properties": {"b": STR},
        "required": ["b"],
        "allOf": [obj({"a": STR}, ["a"])],
    }
    from toolgen.project.rewrites.composition import merge

    assert merge(obj({"a": STR}, ["a"]), b) == (
        {"type": "object", "properties": {"a": STR, "b": STR}, "required": ["a", "b"]},
        (),
    )
    closed_both = merge(a, {**obj({"a": STR}), "additionalProperties": False})
    assert closed_both == (a, ())
    _, conflicts = merge(a, b)
    assert conflicts == (
        (
            "additionalProperties",
            "the additionalProperties of one schema would also apply to 'b', which only the "
            "other declares",
        ),
    )
    _, conflicts = merge(obj({"a": STR}), obj({"a": {"type": "integer"}}))
    assert conflicts == (("properties", "member 'a' is declared differently by both"),)


def test_a_union_of_one_is_merged_only_beside_other_keywords() -> None:
    assert UnionOfOneMerged.keyword({"anyOf": [STR], "description": "d"}) is None
    assert UnionOfOneMerged.keyword({"anyOf": [STR, STR], "minLength": 1}) is None
    assert UnionOfOneMerged.keyword({"oneOf": [STR], "minLength": 1}) == "oneOf"
    merged, rule, conflicts = UnionOfOneMerged.apply(
        {"oneOf": [STR], "minLength": 1}, "oneOf", "/oneOf/0"
    )
    assert (merged, rule, conflicts) == (
        {"type": "string", "minLength": 1},
        UnionOfOneMerged("/oneOf/0"),
        (),
    )


def test_a_boxed_member_keeps_absent_and_null_apart(
    projected: dict[str, ProjectedContract], compiled: Any
) -> None:
    """issue_write.type of the GitHub MCP server, where null removes the issue type: a title-only
    update (null: the member absent) is no call that clears it ({"value": null})."""
    inverses = (
        lambda p: reference_inverse(p, projected["optional_boxed"]),
        compiled.TOOL_CANONICALIZERS["optional_boxed"],
    )
    for inverse in inverses:
        assert inverse({"title": "t", "type": None}) == {"title": "t"}
        assert inverse({"title": "t", "type": {"value": None}}) == {"title": "t", "type": None}
        assert inverse({"title": "t", "type": {"value": "bug"}}) == {"title": "t", "type": "bug"}


def test_the_box_holds_the_member_s_projection_and_its_annotations_go_outside() -> None:
    member = {"type": ["string", "null"], "title": "T", "description": "null removes it"}
    written, rule = NullableOptionalBoxed.apply(member)
    assert rule == NullableOptionalBoxed()
    box, null = written["anyOf"]
    assert null == {"type": "null"}
    assert box == {
        "type": "object",
        "properties": {"value": {"type": ["string", "null"]}},
        "required": ["value"],
        "additionalProperties": False,
    }
    assert written["title"] == "T"
    assert written["description"].startswith("null removes it (null leaves it unset")


def test_one_of_folded_const_as_enum_and_optional_kept_record_themselves() -> None:
    assert OneOfFolded.apply({"description": "d", "oneOf": [STR]}) == (
        {"description": "d", "anyOf": [STR]},
        OneOfFolded(),
    )
    assert ConstAsEnum.apply({"const": 3, "title": "t"}) == (
        {"enum": [3], "title": "t"},
        ConstAsEnum(),
    )
    nullable = {"type": ["string", "null"]}
    assert OptionalKept.apply(nullable) == (nullable, OptionalKept())


@pytest.mark.parametrize(
    ("name", "payload", "reason"),
    [
        ("map_as_pairs", {"m": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}, "same key"),
        ("any_as_json_text", {"v": "not json", "w": None}, "not valid JSON"),
        ("any_as_json_text", {"v": "NaN", "w": None}, "not valid JSON"),
        ("tuple_as_object", {"t": {"0": None, "1": "b"}}, "after an absent one"),
        (
            "extra_members",
            {"o": {"a": "x", "additional_members": [{"key": "a", "value": "1"}]}},
            "declared member",
        ),
        ("optional_boxed", {"title": "t", "type": {"value": "a", "also": 1}}, "not as an object"),
        ("optional_boxed", {"title": "t", "type": {}}, "not as an object"),
    ],
)
def test_a_payload_that_breaks_an_encoding_is_an_error(
    name: str, payload: Any, reason: str, projected: dict[str, ProjectedContract], compiled: Any
) -> None:
    """A duplicate key, text that is not JSON, an extra member named as a declared one: both
    inverses raise (a ValueError: the generated runtime reports it as a PayloadError)."""
    with pytest.raises(EncodingError, match=reason):
        reference_inverse(payload, projected[name])
    with pytest.raises(ValueError, match=reason):
        compiled.TOOL_CANONICALIZERS[name](payload)


def test_an_optional_value_of_any_type_keeps_absent_and_null_apart(
    projected: dict[str, ProjectedContract], compiled: Any
) -> None:
    """JSON text is never null: null is the absent member, the text "null" a null value."""
    p = projected["any_as_json_text"]
    for payload, expected in (
        ({"v": "1", "w": None}, {"v": 1}),
        ({"v": "1", "w": "null"}, {"v": 1, "w": None}),
    ):
        assert reference_inverse(payload, p) == expected
        assert compiled.TOOL_CANONICALIZERS["any_as_json_text"](payload) == expected


REQUIRED_ONLY = [
    {"type": "object", "required": ["a", "b"]},
    {"type": "object", "required": ["a"], "additionalProperties": {"type": "integer"}},
    {"type": "object", "required": ["a"], "additionalProperties": True, "maxProperties": 2},
]


@pytest.mark.parametrize("node", REQUIRED_ONLY)
def test_required_declared_accepts_what_the_object_accepts(node: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator

    declared = RequiredDeclared.apply(node)
    assert declared is not None
    values = [{}, {"a": 1}, {"a": "x"}, {"a": 1, "b": None}, {"a": 1, "b": 2, "c": 3}, {"b": 2}]
    for value in values:
        before = Draft202012Validator(node).is_valid(value)
        assert Draft202012Validator(declared[0]).is_valid(value) == before, value


def test_required_declared_leaves_an_object_that_takes_no_member() -> None:
    assert (
        RequiredDeclared.apply({"type": "object", "required": ["a"], "additionalProperties": False})
        is None
    )
    assert RequiredDeclared.apply({"type": "object", "properties": {}, "required": ["a"]}) is None
