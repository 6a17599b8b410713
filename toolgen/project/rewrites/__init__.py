"""The rewrites of the provider projection, each written beside its inverse.

The projection (toolgen.project.projection) writes some canonical forms another way for a provider: a
``$ref`` with siblings inlined, the schemas of an ``allOf`` (or a union of one beside other
keywords) merged, ``oneOf`` folded into ``anyOf``,
an optional member made nullable (every one, or on a provider that caps optional members those
over its cap: OptionalsOverCap) or, where it accepts null already, written as it is where null
is its default (DefaultNullRequired) and else boxed (NullableOptionalBoxed), a type list split
into ``anyOf``. For every projected node it
records which rules it applied, in order (a :class:`NodeRecord`), keyed by the node's pointer in
the projected schema beside the pointer of the canonical node it came from (a :class:`RewriteRecord`).

The inverses (toolgen.compile.canonical) read that record and never recognise shapes: each rule's
``invert`` says what the inverse sees at a node the rule rewrote (a :class:`Counterpart`). A rule
that moves the node it rewrites (a wrapper) is the first rule of the wrapper's record; the wrapped
node's own rules stay with it, under ``/anyOf/0`` (the rule's ``wrapped_at``). A node the
projection adds (the null branch of a wrapper, a box) has no record of its own.

Each rule sits in one module of its family, its forward half (``apply``: the rewriting of a node,
returning the rule to record) beside its inverse; the projection's walk decides where a rule
applies and calls ``apply``. A new rule is a new :class:`Rewrite` subclass: it cannot be declared
without ``invert``, and tests/test_rewrites.py fails until it has an ``apply`` and a case
exercises it.
"""

from __future__ import annotations

from toolgen.project.rewrites.composition import (
    AllOfMerged,
    OneOfFolded,
    RecursiveRefKept,
    RefInlined,
    TypeIntoBranches,
    UnionOfOneMerged,
)
from toolgen.project.rewrites.encodings import (
    JSON_TEXTS,
    AnyAsJsonText,
    EncodingError,
    ExtraMembers,
    MapAsPairs,
    MemberAsJsonText,
    RecursionAsJsonText,
    RootWrapped,
    TupleAsObject,
)
from toolgen.project.rewrites.enums import (
    ConstAsEnum,
    EnumAsJsonText,
    EnumCaseRestored,
    EnumNarrowed,
    EnumStringified,
    EnumTyped,
    enum_text,
)
from toolgen.project.rewrites.keywords import KeywordsDropped
from toolgen.project.rewrites.members import MembersRenamed, RequiredDeclared
from toolgen.project.rewrites.nulls import (
    DefaultNullRequired,
    MadeNullable,
    NullForm,
    OptionalKept,
    OptionalsOverCap,
)
from toolgen.project.rewrites.presence import NullableOptionalBoxed
from toolgen.project.rewrites.record import NodeRecord, RewriteRecord
from toolgen.project.rewrites.record_json import record_from_json, record_to_json
from toolgen.project.rewrites.rule import (
    ANNOTATIONS,
    NULL_SCHEMA,
    STRUCTURAL,
    Counterpart,
    Rewrite,
    rule_kinds,
)
from toolgen.project.rewrites.type_lists import TypeListAsUnion, TypeListSplit

__all__ = [
    "ANNOTATIONS",
    "JSON_TEXTS",
    "NULL_SCHEMA",
    "STRUCTURAL",
    "AllOfMerged",
    "AnyAsJsonText",
    "ConstAsEnum",
    "Counterpart",
    "DefaultNullRequired",
    "EncodingError",
    "EnumCaseRestored",
    "EnumAsJsonText",
    "EnumNarrowed",
    "EnumStringified",
    "EnumTyped",
    "ExtraMembers",
    "KeywordsDropped",
    "MadeNullable",
    "MapAsPairs",
    "MemberAsJsonText",
    "MembersRenamed",
    "NodeRecord",
    "NullForm",
    "NullableOptionalBoxed",
    "OneOfFolded",
    "OptionalKept",
    "OptionalsOverCap",
    "RecursionAsJsonText",
    "RecursiveRefKept",
    "RefInlined",
    "RequiredDeclared",
    "Rewrite",
    "RewriteRecord",
    "RootWrapped",
    "TupleAsObject",
    "TypeIntoBranches",
    "TypeListAsUnion",
    "TypeListSplit",
    "UnionOfOneMerged",
    "enum_text",
    "record_from_json",
    "record_to_json",
    "rule_kinds",
]
