"""Semantic comparison of two canonical schemas: what changed, and whether it breaks.

A change is **breaking** when the new schema may reject a value the old one accepted (a caller's
arguments, a stored payload): a member removed or newly required, a type, enum or bound narrowed,
a union branch removed, an object closed. It is **compatible** when the new schema only accepts
more (a new optional member, a widened enum, a loosened bound) or only describes differently.
When toolgen cannot tell whether a change narrows (a changed ``pattern``, a changed ``not``), it
calls it breaking and says why.

Both schemas are bundled (every ``$ref`` local). References are followed, so a change's pointer is
the path a payload meets (``/properties/amount/properties/currency``), and extracting or inlining a
definition is no change. Neither is key order, the order of ``required`` or ``enum``, ``oneOf``
written as ``anyOf``, ``const`` written as a one-value ``enum``, a one-branch ``allOf`` or
``anyOf``, an ``integer`` beside ``number``, or ``type: [X, "null"]`` written as an ``anyOf`` with a
null branch, or a list of several types written as an ``anyOf`` of one branch per type.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from toolgen.schema import pointer as jp
from toolgen.schema import refs
from toolgen.schema.equality import json_type
from toolgen.schema.type_union import branches_by_type


class Classification(enum.StrEnum):
    BREAKING = "breaking"
    COMPATIBLE = "compatible"


BREAKING, COMPATIBLE = Classification.BREAKING, Classification.COMPATIBLE


@dataclass(frozen=True, order=True)
class SchemaChange:
    """One difference, at ``pointer`` (relative to the compared schemas, through references)."""

    pointer: str
    kind: str
    classification: Classification
    message: str

    def under(self, prefix: str) -> SchemaChange:
        return replace(self, pointer=prefix + self.pointer)


#: Keywords that only describe: a change is compatible.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "$comment",
        "default",
        "examples",
        "example",
        "deprecated",
        "readOnly",
        "writeOnly",
        "contentMediaType",
        "contentEncoding",
    }
)
#: Keywords that do not constrain a value once references are followed.
_STRUCTURAL = frozenset(
    {"$defs", "definitions", "$schema", "$id", "$anchor", "$vocabulary", "$ref"}
)
LOWER_BOUNDS = frozenset(
    {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
)
UPPER_BOUNDS = frozenset(
    {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)
#: Subschema keywords whose absence means ``true``: a narrower subschema narrows the whole.
_ABSENT_IS_TRUE = (
    "items",
    "additionalItems",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)
#: Assertions whose new value toolgen does not try to relate to the old one: changed or added is
#: breaking, removed is compatible.
_OPAQUE = frozenset(
    {
        "pattern",
        "format",
        "not",
        "contains",
        "dependentRequired",
        "dependentSchemas",
        "contentSchema",
        "prefixItems",
    }
)
#: Assertions whose removal may narrow too (a conditional's branch; patternProperties beside a
#: closed object): any change is breaking.
_OPAQUE_EITHER_WAY = frozenset(
    {"if", "then", "else", "patternProperties", "$dynamicRef", "$dynamicAnchor", "$recursiveRef"}
)
_MEMBERS = ("properties", "required", "additionalProperties")
_UNIONS = ("anyOf", "oneOf")
#: Keywords that apply only to one type: harmless beside a null branch folded into ``type``.
_TYPE_SPECIFIC = (
    LOWER_BOUNDS
    | UPPER_BOUNDS
    | {"type", "enum", "pattern", "format", "multipleOf", "items", "prefixItems", "contains"}
    | {"uniqueItems", "properties", "required", "additionalProperties", "propertyNames"}
    | {"patternProperties", "dependentRequired", "dependentSchemas"}
)
NOTHING = False  # the normalized form of a schema that accepts no value


def json_key(value: Any) -> str:
    """A canonical text of a JSON value, for equality as JSON Schema sees it (1 == 1.0, 1 != true)."""

    def plain(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, list):
            return [plain(x) for x in v]
        return v

    return json.dumps(plain(value), sort_keys=True, ensure_ascii=False)


def _show(values: list[Any], limit: int = 5) -> str:
    shown = ", ".join(json.dumps(v, ensure_ascii=False) for v in values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _local_ref(node: Any) -> str | None:
    """The local ``$ref`` of a node (None for none, or one to another document)."""
    ref = node.get("$ref") if isinstance(node, dict) else None
    return ref if isinstance(ref, str) and ref.startswith("#") else None


class _Normalizer:
    """Rewrites one node of a bundled schema into a canonical form; subschemas stay as authored
    (they are normalized when the comparison reaches them)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.busy: set[int] = set()  # nodes being normalized: a reference back to one ends there

    def target(self, node: Any) -> Any:
        """The schema a bare ``$ref`` designates (through chains), else ``node`` itself: every
        reference to one definition is then one node, and recursion is met as a repeated node."""

        def bare_ref(at: Any) -> str | None:
            return _local_ref(at) if isinstance(at, dict) and set(at) == {"$ref"} else None

        return refs.chase(node, bare_ref, self._resolved, stop_at_dead_end=True)

    def _resolved(self, _node: Any, ref: str) -> Any:
        return jp.resolve(self.root, jp.ref_pointer(ref))

    def normalize(self, node: Any) -> dict[str, Any] | bool:
        if node is False:
            return NOTHING
        if not isinstance(node, dict) or id(node) in self.busy:
            return {}  # an in-place cycle (``A: {allOf: [A]}``) constrains nothing more
        self.busy.add(id(node))
        try:
            return self._normalize(node)
        finally:
            self.busy.discard(id(node))

    def _normalize(self, authored: dict[str, Any]) -> dict[str, Any] | bool:
        followed = self._follow_refs(dict(authored))
        if followed is NOTHING or not isinstance(followed, dict):
            return NOTHING
        merged = self._merge_all_of(followed)
        if merged is NOTHING or not isinstance(merged, dict):
            return NOTHING
        node = merged
        if "oneOf" in node and "anyOf" not in node:
            node = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
            node["\0oneOf"] = True  # remember the authored keyword, for pointers
        branches = node.get("anyOf")
        if isinstance(branches, list) and len(branches) == 1:
            node = self._merged(
                self._without(node, "anyOf", "\0oneOf"), self.normalize(branches[0])
            )
            if node is NOTHING:
                return NOTHING
        if "const" in node:
            const = node.pop("const")
            enum_values = node.get("enum")
            if isinstance(enum_values, list):
                node["enum"] = [v for v in enum_values if json_key(v) == json_key(const)]
            else:
                node["enum"] = [const]
        if isinstance(node.get("enum"), list) and "type" not in node:
            node["type"] = enum_types(node["enum"])  # the type the values have
        if "type" in node:
            types = node["type"] if isinstance(node["type"], list) else [node["type"]]
            if "number" in types:
                types = [t for t in types if t != "integer"]
            node["type"] = sorted(set(types))
            node = _enum_decides_type(node)
        if "type" in node and isinstance(node.get("anyOf"), list):
            typed = self._type_into_branches(node)
            if typed is NOTHING or not isinstance(typed, dict):
                return NOTHING
            node = typed
        return self._fold_null_branch(node)

    def _type_into_branches(self, node: dict[str, Any]) -> dict[str, Any] | bool:
        """``{type: T, anyOf: [A, B]}`` is ``{anyOf: [A and T, B and T]}`` (for ``oneOf`` too:
        where ``T`` holds, each branch is what it was): the form MCP servers write and the one a
        projection folds, compared as one. A branch that admits none of ``T`` goes."""
        types = node["type"]
        branches = []
        for branch in node["anyOf"]:
            typed = _with_types(self.normalize(branch), types)
            if typed is not NOTHING:
                branches.append(typed)
        if not branches:
            return NOTHING
        return {**self._without(node, "type"), "anyOf": branches}

    def _follow_refs(self, node: dict[str, Any]) -> dict[str, Any] | bool:
        """``node`` with the targets of its local ``$ref`` chain merged in (its own keywords
        beside each). A chain that comes back (an unbounded reference: the design loader reports
        it) or names nothing ends at the node that holds that reference."""

        def merged(at: Any, ref: str) -> Any:
            target = self._resolved(at, ref)
            if target is False:
                return NOTHING
            return self._merged(
                target if isinstance(target, dict) else {}, self._without(at, "$ref")
            )

        followed: dict[str, Any] | bool = refs.chase(
            node, _local_ref, merged, stop_at_dead_end=True
        )
        return followed

    def _merge_all_of(self, node: dict[str, Any]) -> dict[str, Any] | bool:
        """Branches of ``allOf`` that add keywords the node lacks are merged into it; what
        conflicts stays an ``allOf``."""
        branches = node.get("allOf")
        if not isinstance(branches, list):
            return node
        result = self._without(node, "allOf")
        kept = []
        for branch in branches:
            normalized = self.normalize(branch)
            if normalized is NOTHING:
                return NOTHING
            merged = self._merged(result, normalized, strict=True)
            if merged is None:
                kept.append(branch)
            else:
                result = merged
        if kept:
            result["allOf"] = kept
        return result

    @staticmethod
    def _without(node: dict[str, Any], *keys: str) -> dict[str, Any]:
        return {k: v for k, v in node.items() if k not in keys}

    @staticmethod
    def _merged(
        base: dict[str, Any] | bool, site: dict[str, Any] | bool, strict: bool = False
    ) -> Any:
        """``base`` and ``site`` as one node (site's annotations win). A keyword both give
        differently makes an ``allOf`` of the two (None when ``strict``)."""
        if base is NOTHING or site is NOTHING:
            return NOTHING
        assert isinstance(base, dict) and isinstance(site, dict)
        merged = dict(base)
        for keyword, value in site.items():
            if keyword in _STRUCTURAL:
                continue
            if (
                keyword in merged
                and keyword not in ANNOTATIONS
                and json_key(merged[keyword]) != json_key(value)
            ):
                if strict:
                    return None
                return {"allOf": [base, site]}
            merged[keyword] = value
        return merged

    def _fold_null_branch(self, node: dict[str, Any]) -> dict[str, Any]:
        """``anyOf: [S, {type: null}]`` is ``S`` with ``null`` in its type (and its enum)."""
        branches = node.get("anyOf")
        if not isinstance(branches, list) or len(branches) != 2:
            return node
        normalized = [self.normalize(b) for b in branches]
        nulls = [
            b for b in normalized if isinstance(b, dict) and _assertions(b) == {"type": ["null"]}
        ]
        others = [
            b
            for b in normalized
            if not (isinstance(b, dict) and _assertions(b) == {"type": ["null"]})
        ]
        if len(nulls) != 1 or len(others) != 1 or not isinstance(others[0], dict):
            return node
        other = others[0]
        if "type" not in other or set(_assertions(other)) - _TYPE_SPECIFIC:
            return node
        folded = self._merged(self._without(node, "anyOf", "\0oneOf"), other, strict=True)
        if folded is None:
            return node
        folded["type"] = sorted({*folded["type"], "null"})
        if isinstance(folded.get("enum"), list) and None not in folded["enum"]:
            folded["enum"] = [*folded["enum"], None]
        return folded


def _admits_type(types: list[str], value: Any) -> bool:
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def _enum_decides_type(node: dict[str, Any]) -> dict[str, Any]:
    """An ``enum`` beside ``type`` without the values the type refuses, and the type of the values
    it keeps: ``{type: string, enum: [a]}`` and ``{enum: [a]}`` are one schema."""
    values = node.get("enum")
    if not isinstance(values, list):
        return node
    kept = [v for v in values if _admits_type(node["type"], v)]
    return {**node, "type": enum_types(kept), "enum": kept}


def enum_types(values: list[Any]) -> list[str]:
    """The types of an enum's values (``number`` holds the integers), sorted."""
    types = {json_type(v) for v in values}
    return sorted(types - {"integer"} if "number" in types else types)


def _with_types(branch: dict[str, Any] | bool, types: list[str]) -> dict[str, Any] | bool:
    """A normalized ``branch`` that also requires one of ``types``."""
    if branch is NOTHING or not isinstance(branch, dict):
        return NOTHING
    if isinstance(branch.get("enum"), list):
        kept = [v for v in branch["enum"] if _admits_type(types, v)]
        return {**branch, "enum": kept} if kept else NOTHING
    if "type" not in branch:
        return {**branch, "type": types}
    both = {t for t in branch["type"] if t in types or (t == "integer" and "number" in types)} | (
        {"integer"} if "number" in branch["type"] and "integer" in types else set()
    )
    return {**branch, "type": sorted(both)} if both else NOTHING


def _assertions(node: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v
        for k, v in node.items()
        if k not in ANNOTATIONS and k not in _STRUCTURAL and k[0] != "\0"
    }


def _union_keyword(node: dict[str, Any]) -> str:
    return "oneOf" if node.get("\0oneOf") else "anyOf"


Rule = Callable[["_Comparison", dict[str, Any], dict[str, Any]], list[SchemaChange]]


class _Comparison:
    """One recursive comparison, driven by the keyword table :data:`RULES`.

    Pairs of nodes are remembered, so recursive schemas end (a pair met again on its own path is
    compared once, where it was first met) and shared definitions are compared once.
    """

    def __init__(self, old_root: Any, new_root: Any) -> None:
        self.old = _Normalizer(old_root)
        self.new = _Normalizer(new_root)
        self.active: set[tuple[int, int]] = set()
        self.memo: dict[tuple[int, int], tuple[Any, Any, list[SchemaChange]]] = {}

    def compare(self, old: Any, new: Any) -> list[SchemaChange]:
        old, new = self.old.target(old), self.new.target(new)
        key = (id(old), id(new))
        if key in self.memo:
            return self.memo[key][2]
        if key in self.active:
            return []
        self.active.add(key)
        try:
            found = self.compare_normalized(self.old.normalize(old), self.new.normalize(new))
        finally:
            self.active.discard(key)
        self.memo[key] = (old, new, found)  # the values are kept so that their ids stay unique
        return found

    def compare_normalized(
        self, old: dict[str, Any] | bool, new: dict[str, Any] | bool
    ) -> list[SchemaChange]:
        if old is NOTHING and new is NOTHING:
            return []
        if new is NOTHING:
            return [SchemaChange("", "NOW_REJECTS_ALL", BREAKING, "accepts no value any more")]
        if old is NOTHING:
            return [
                SchemaChange("", "NOW_ACCEPTS", COMPATIBLE, "accepted no value, accepts some now")
            ]
        assert isinstance(old, dict) and isinstance(new, dict)
        if any(k in old for k in _UNIONS) != any(k in new for k in _UNIONS):
            return _annotation_changes(old, new) + _distributed_union(self, old, new)
        rules: list[Rule] = []
        for keyword in sorted(set(old) | set(new)):
            rule = RULES.get(keyword, _annotation if keyword[0] != "\0" else None)
            if rule is not None and rule not in rules:
                rules.append(rule)
        changes: list[SchemaChange] = []
        for rule in rules:
            changes += rule(self, old, new)
        return changes

    def compare_at(self, prefix: str, old: Any, new: Any) -> list[SchemaChange]:
        return [change.under(prefix) for change in self.compare(old, new)]


def compare_schemas(old: Any, new: Any) -> list[SchemaChange]:
    """Every semantic difference between two bundled schemas, in a stable order."""
    return sorted(set(_Comparison(old, new).compare(old, new)))


# -- rules, one per keyword (or group of keywords that only make sense together) --------------


def _annotation_changes(old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    keywords = {k for k in (*old, *new) if k in ANNOTATIONS}
    return [c for k in sorted(keywords) for c in _annotation_keyword(k, old, new)]


def _annotation_keyword(
    keyword: str, old: dict[str, Any], new: dict[str, Any]
) -> list[SchemaChange]:
    if json_key(old.get(keyword)) == json_key(new.get(keyword)):
        return []
    verb = "added" if keyword not in old else "removed" if keyword not in new else "changed"
    return [
        SchemaChange(jp.join("", keyword), "ANNOTATION_CHANGED", COMPATIBLE, f"{keyword} {verb}")
    ]


def _annotation(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    """Annotations, and keywords 2020-12 does not define (annotations too)."""
    return _annotation_changes(old, new) + [
        c
        for k in sorted((set(old) | set(new)) - ANNOTATIONS - set(RULES))
        if k[0] != "\0"
        for c in _annotation_keyword(k, old, new)
    ]


def _ignore(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    return []


def _accepts_type(types: list[str] | None, name: str) -> bool:
    return types is None or name in types or (name == "integer" and "number" in types)


def _type(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    before, after = old.get("type"), new.get("type")
    removed = ["any type"] if before is None else [t for t in before if not _accepts_type(after, t)]
    if after is None:
        removed = []
    added = [t for t in (after or []) if not _accepts_type(before, t)] if before is not None else []
    if before is not None and after is None:
        added = ["any type"]
    was, now = "/".join(before or ["any"]), "/".join(after or ["any"])
    if removed:
        return [
            SchemaChange("/type", "TYPE_NARROWED", BREAKING, f"type narrowed from {was} to {now}")
        ]
    if added:
        return [
            SchemaChange("/type", "TYPE_WIDENED", COMPATIBLE, f"type widened from {was} to {now}")
        ]
    return []


def _enum(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    before, after = old.get("enum"), new.get("enum")
    if before is None and after is not None:
        return [
            SchemaChange(
                "/enum", "ENUM_NARROWED", BREAKING, f"now limited to the values {_show(after)}"
            )
        ]
    if after is None and before is not None:
        return [
            SchemaChange(
                "/enum", "ENUM_WIDENED", COMPATIBLE, "no longer limited to a list of values"
            )
        ]
    assert isinstance(before, list) and isinstance(after, list)
    old_keys, new_keys = {json_key(v) for v in before}, {json_key(v) for v in after}
    removed = [v for v in before if json_key(v) not in new_keys]
    added = [v for v in after if json_key(v) not in old_keys]
    changes = []
    if removed:
        changes.append(
            SchemaChange(
                "/enum", "ENUM_NARROWED", BREAKING, f"enum value(s) removed: {_show(removed)}"
            )
        )
    if added:
        changes.append(
            SchemaChange(
                "/enum", "ENUM_WIDENED", COMPATIBLE, f"enum value(s) added: {_show(added)}"
            )
        )
    return changes


def _bound(keyword: str) -> Rule:
    lower = keyword in LOWER_BOUNDS

    def rule(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
        before, after = old.get(keyword), new.get(keyword)
        pointer = jp.join("", keyword)
        if json_key(before) == json_key(after):
            return []
        if before is None:
            return [
                SchemaChange(pointer, "CONSTRAINT_TIGHTENED", BREAKING, f"{keyword} {after} added")
            ]
        if after is None:
            return [
                SchemaChange(
                    pointer, "CONSTRAINT_LOOSENED", COMPATIBLE, f"{keyword} {before} removed"
                )
            ]
        tighter = after > before if lower else after < before
        verb = "raised" if after > before else "lowered"
        if tighter:
            return [
                SchemaChange(
                    pointer,
                    "CONSTRAINT_TIGHTENED",
                    BREAKING,
                    f"{keyword} {verb} from {before} to {after}",
                )
            ]
        return [
            SchemaChange(
                pointer,
                "CONSTRAINT_LOOSENED",
                COMPATIBLE,
                f"{keyword} {verb} from {before} to {after}",
            )
        ]

    return rule


def _multiple_of(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    before, after = old.get("multipleOf"), new.get("multipleOf")
    if json_key(before) == json_key(after):
        return []
    if after is None:
        return [
            SchemaChange("/multipleOf", "CONSTRAINT_LOOSENED", COMPATIBLE, "multipleOf removed")
        ]
    if before is not None and (Fraction(str(before)) / Fraction(str(after))).denominator == 1:
        return [
            SchemaChange(
                "/multipleOf",
                "CONSTRAINT_LOOSENED",
                COMPATIBLE,
                f"multipleOf changed from {before} to {after}, a divisor",
            )
        ]
    what = "added" if before is None else f"changed from {before}"
    return [
        SchemaChange("/multipleOf", "CONSTRAINT_TIGHTENED", BREAKING, f"multipleOf {after} {what}")
    ]


def _unique_items(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    before, after = old.get("uniqueItems") is True, new.get("uniqueItems") is True
    if after and not before:
        return [
            SchemaChange(
                "/uniqueItems", "CONSTRAINT_TIGHTENED", BREAKING, "items must now be unique"
            )
        ]
    if before and not after:
        return [
            SchemaChange(
                "/uniqueItems",
                "CONSTRAINT_LOOSENED",
                COMPATIBLE,
                "items no longer need to be unique",
            )
        ]
    return []


def _opaque(keyword: str, either_way: bool = False) -> Rule:
    def rule(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
        before, after = old.get(keyword), new.get(keyword)
        pointer = jp.join("", keyword)
        if keyword not in new and not either_way:
            return [SchemaChange(pointer, "CONSTRAINT_LOOSENED", COMPATIBLE, f"{keyword} removed")]
        if keyword not in old:
            return [SchemaChange(pointer, "CONSTRAINT_TIGHTENED", BREAKING, f"{keyword} added")]
        if isinstance(before, dict | bool) and isinstance(after, dict | bool) and keyword != "not":
            if not cmp.compare(before, after):  # an equivalent subschema written differently
                return []
        elif json_key(before) == json_key(after):
            return []
        what = "removed" if keyword not in new else "changed"
        return [
            SchemaChange(
                pointer,
                "CONSTRAINT_CHANGED",
                BREAKING,
                f"{keyword} {what}; toolgen cannot tell whether every value accepted before is still accepted",
            )
        ]

    return rule


def _subschema(keyword: str) -> Rule:
    """A keyword whose absence means ``true``: compared as a subschema."""

    def rule(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
        return cmp.compare_at(jp.join("", keyword), old.get(keyword, True), new.get(keyword, True))

    return rule


#: What a removed member breaks in code: the canonical model has no field for it any more.
_CODE_BREAKS = "code that reads or sets it breaks (the model has no field for it now)"


def _member_removed(cmp: _Comparison, member: Any, new: dict[str, Any], at: str) -> SchemaChange:
    """A member no longer declared, and what that breaks, decided by the object it was removed
    from: a stored payload that has it now meets the new object's schema of undeclared members
    (an open object still takes it; a closed one rejects it), and code that reads or sets it
    meets a model without that field. A member that accepted no value was held by no payload
    and set by no code: nothing breaks."""
    if cmp.old.normalize(cmp.old.target(member)) is NOTHING:
        return SchemaChange(
            at, "MEMBER_REMOVED", COMPATIBLE, "member removed: it accepted no value; nothing breaks"
        )
    rest = new.get("additionalProperties", True)
    undeclared = cmp.new.normalize(cmp.new.target(rest))
    if "patternProperties" in new:
        payloads = "stored payloads that have it may be rejected now (patternProperties decide)"
    elif undeclared is NOTHING:
        payloads = "stored payloads that have it are rejected now (the object is closed)"
    elif undeclared == {}:
        payloads = "stored payloads that have it still validate (the object is open)"
    elif any(change.classification is BREAKING for change in cmp.compare(member, rest)):
        payloads = (
            "stored payloads that have it may be rejected now (undeclared members must match "
            "additionalProperties)"
        )
    else:
        payloads = "stored payloads that have it still validate (additionalProperties takes it)"
    return SchemaChange(
        at, "MEMBER_REMOVED", BREAKING, f"member removed: {payloads}; {_CODE_BREAKS}"
    )


def _members(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    """properties, required and additionalProperties together: a member's change depends on all three."""
    old_props, new_props = old.get("properties") or {}, new.get("properties") or {}
    old_req, new_req = set(old.get("required") or ()), set(new.get("required") or ())
    changes = []
    for name in sorted(set(old_props) | set(new_props)):
        at = jp.join("/properties", name)
        if name in old_req & new_req and (name not in old_props or name not in new_props):
            # required on both sides, declared on one: the other gives it the schema of its
            # undeclared members
            before = old_props.get(name, old.get("additionalProperties", True))
            after = new_props.get(name, new.get("additionalProperties", True))
            changes += cmp.compare_at(at, before, after)
        elif name not in new_props:
            changes.append(_member_removed(cmp, old_props[name], new, at))
        elif name not in old_props:
            if name in new_req:
                changes.append(
                    SchemaChange(at, "MEMBER_ADDED_REQUIRED", BREAKING, "new required member")
                )
            else:
                changes.append(SchemaChange(at, "MEMBER_ADDED", COMPATIBLE, "new optional member"))
        else:
            if name in new_req and name not in old_req:
                changes.append(
                    SchemaChange(at, "MEMBER_REQUIRED", BREAKING, "member became required")
                )
            elif name in old_req and name not in new_req:
                changes.append(
                    SchemaChange(at, "MEMBER_OPTIONAL", COMPATIBLE, "member became optional")
                )
            changes += cmp.compare_at(at, old_props[name], new_props[name])
    undeclared = (old_req ^ new_req) - set(old_props) - set(new_props)
    for name in sorted(undeclared):
        if name in new_req:
            changes.append(
                SchemaChange("/required", "MEMBER_REQUIRED", BREAKING, f"{name!r} became required")
            )
        else:
            changes.append(
                SchemaChange(
                    "/required", "MEMBER_OPTIONAL", COMPATIBLE, f"{name!r} no longer required"
                )
            )
    before = cmp.old.normalize(old.get("additionalProperties", True))
    after = cmp.new.normalize(new.get("additionalProperties", True))
    if after is NOTHING and before is not NOTHING:
        changes.append(
            SchemaChange(
                "/additionalProperties",
                "OBJECT_CLOSED",
                BREAKING,
                "object closed: members not listed are rejected now",
            )
        )
    elif before is NOTHING and after is not NOTHING:
        changes.append(
            SchemaChange(
                "/additionalProperties",
                "OBJECT_OPENED",
                COMPATIBLE,
                "object opened: members not listed are accepted now",
            )
        )
    else:
        changes += cmp.compare_at(
            "/additionalProperties",
            old.get("additionalProperties", True),
            new.get("additionalProperties", True),
        )
    return changes


def _signature(node: Any) -> str:
    """What tells union branches apart: their types and the constant members (discriminators)."""
    if not isinstance(node, dict):
        return json_key(node)
    constants = {
        name: sub["const"] if "const" in sub else sub["enum"]
        for name, sub in (node.get("properties") or {}).items()
        if isinstance(sub, dict) and ("const" in sub or len(sub.get("enum") or ()) == 1)
    }
    return json_key([node.get("type"), constants])


def _match_branches(
    cmp: _Comparison, old: list[Any], new: list[Any]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pairs (old index, new index) of branches that correspond, then the unmatched ones."""
    left, right = list(range(len(old))), list(range(len(new)))
    pairs = []
    for same in (
        lambda i, j: not cmp.compare(old[i], new[j]),
        lambda i, j: _signature(cmp.old.normalize(old[i])) == _signature(cmp.new.normalize(new[j])),
    ):
        for i in list(left):
            match = next((j for j in right if same(i, j)), None)
            if match is not None:
                pairs.append((i, match))
                left.remove(i)
                right.remove(match)
    if len(left) == 1 and len(right) == 1:
        pairs.append((left.pop(), right.pop()))
    return pairs, left, right


#: (kind, classification, message) of a branch removed and of a branch added: a union that loses
#: a branch accepts less; an allOf that loses one accepts more.
_BRANCH_VERDICTS = {
    "union": (
        ("UNION_BRANCH_REMOVED", BREAKING, "union branch removed"),
        ("UNION_BRANCH_ADDED", COMPATIBLE, "union branch added"),
    ),
    "allOf": (
        ("CONSTRAINT_LOOSENED", COMPATIBLE, "allOf branch removed"),
        ("CONSTRAINT_TIGHTENED", BREAKING, "allOf branch added"),
    ),
}


def _branch_changes(
    cmp: _Comparison,
    old: list[Any],
    new: list[Any],
    old_at: str | None,
    new_at: str | None,
    applicator: str,
) -> list[SchemaChange]:
    """Changes between two lists of branches; ``None`` for a side that is one schema, not a list."""

    def at(keyword: str | None, index: int) -> str:
        return "" if keyword is None else jp.join(keyword, index)

    pairs, removed, added = _match_branches(cmp, old, new)
    changes = [c for i, j in pairs for c in cmp.compare_at(at(new_at, j), old[i], new[j])]
    when_removed, when_added = _BRANCH_VERDICTS[applicator]
    changes += [SchemaChange(at(old_at, i), *when_removed) for i in removed]
    changes += [SchemaChange(at(new_at, j), *when_added) for j in added]
    return changes


def _union(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    """anyOf (and oneOf, folded into it by the normalizer)."""
    return _branch_changes(
        cmp,
        old["anyOf"],
        new["anyOf"],
        "/" + _union_keyword(old),
        "/" + _union_keyword(new),
        "union",
    )


def _distributed_union(
    cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]
) -> list[SchemaChange]:
    """One side is a union, the other not: compare the union's branches (each with the keywords
    beside the union) with the other side as a union of one branch (of one branch per type where
    it has several types)."""

    def branches(normalizer: _Normalizer, node: dict[str, Any]) -> tuple[list[Any], str | None]:
        if "anyOf" not in node:
            by_type = branches_by_type(node)  # several types: the union of one branch per type
            if by_type is None:
                return [_assertions(node)], None
            return [normalizer.normalize(b) for b in by_type["anyOf"]], None
        siblings = _assertions({k: v for k, v in node.items() if k != "anyOf"})
        merged = [_Normalizer._merged(normalizer.normalize(b), siblings) for b in node["anyOf"]]
        return merged, "/" + _union_keyword(node)

    old_branches, old_at = branches(cmp.old, old)
    new_branches, new_at = branches(cmp.new, new)
    return _branch_changes(cmp, old_branches, new_branches, old_at, new_at, "union")


def _all_of(cmp: _Comparison, old: dict[str, Any], new: dict[str, Any]) -> list[SchemaChange]:
    return _branch_changes(
        cmp, old.get("allOf", []), new.get("allOf", []), "/allOf", "/allOf", "allOf"
    )


RULES: dict[str, Rule] = {
    **{k: _ignore for k in _STRUCTURAL},
    "type": _type,
    "enum": _enum,
    **{k: _bound(k) for k in LOWER_BOUNDS | UPPER_BOUNDS},
    "multipleOf": _multiple_of,
    "uniqueItems": _unique_items,
    **{k: _opaque(k) for k in _OPAQUE},
    **{k: _opaque(k, either_way=True) for k in _OPAQUE_EITHER_WAY},
    **{k: _subschema(k) for k in _ABSENT_IS_TRUE},
    **{k: _members for k in _MEMBERS},
    "anyOf": _union,
    "oneOf": _opaque("oneOf", either_way=True),  # only left beside an anyOf
    "allOf": _all_of,
}
