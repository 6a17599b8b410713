"""The provider projection: one walk over a canonical schema, steered by a provider profile.

For every node the profile's table decides which keywords stay, which go (the canonical validation
keeps enforcing them) and which reject the contract. Objects are closed and made all-required, and
each canonically optional member is written the way the profile says (left optional, or made
required and nullable). A profile that leaves them optional but caps them (``optionals_over_cap``)
projects a schema over its cap twice: the first walk finds which members to write required and
nullable (the last ones, OptionalsOverCap), the second writes them so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.limits import check_limits, measure
from toolgen.project.nonstrict import non_object_root
from toolgen.project.openapi import write_openapi
from toolgen.project.rewrites import (
    JSON_TEXTS,
    STRUCTURAL,
    AllOfMerged,
    AnyAsJsonText,
    ConstAsEnum,
    DefaultNullRequired,
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
    NodeRecord,
    NullableOptionalBoxed,
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
)
from toolgen.project.rewrites import NULL_SCHEMA as NULL_SCHEMA
from toolgen.project.rewrites.composition import Conflict
from toolgen.providers.base import Profile
from toolgen.schema import pointer as jp
from toolgen.schema import walker
from toolgen.schema.nullability import NullOracle, default_is_null
from toolgen.schema.refs import (
    RefCycle,
    chase,
    recursive_refs,
    unreached_definitions,
    without_definitions,
)

_UNION = ("anyOf", "oneOf")
_MAP_VALUE = jp.join("", "items", "properties", "value")  # in a map's entries (MapAsPairs)


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


#: the encodings of an object schema, each saying where it applies (a map, an open object's other
#: members: toolgen.project.rewrites.encodings); the first that applies carries it
OBJECT_ENCODINGS: tuple[type[MapAsPairs] | type[ExtraMembers], ...] = (MapAsPairs, ExtraMembers)


def map_in_type_list(node: dict[str, Any]) -> bool:
    """Whether ``node`` (not a root) lists ``object`` among other types, none of them
    ``array``, and its object is a map: a map is written as an array of entries, so its type
    list is split into one branch per type (TypeListAsUnion), where the array of entries is told
    apart from every other branch by its type."""
    types = _types(node)
    if "object" not in types or len(types) < 2 or "array" in types:
        return False
    return MapAsPairs.applies({**node, "type": "object"}, root=False)


def is_object_schema(node: Any) -> bool:
    """Typed object, or untyped with declared members (``{"properties": {}}`` without a type
    accepts any value: it is no object schema)."""
    return isinstance(node, dict) and (
        "object" in _types(node) or ("type" not in node and bool(node.get("properties")))
    )


def _several_branches(branches: Any) -> bool:
    """Whether a union has more than one branch besides ``{"type": "null"}``."""
    if not isinstance(branches, list):
        return False
    return sum(not (isinstance(b, dict) and b.get("type") == "null") for b in branches) > 1


def _passes_optional_member(schema: Any, ref_keyword: str) -> bool:
    """Whether the path to a ``$ref`` from the definition (or root) holding it enters a member
    that its object does not require (so a payload can end the recursion by leaving it out)."""
    tokens = jp.split(ref_keyword)[:-1]
    start = 2 if len(tokens) >= 2 and tokens[0] in ("$defs", "definitions") else 0
    nodes = [jp.resolve(schema, jp.join("", *tokens[:start]))]
    for index in range(start, len(tokens)):
        token, node = tokens[index], nodes[-1]
        if index >= start + 1 and tokens[index - 1] == "properties" and len(nodes) >= 2:
            owner = nodes[-2]
            required = owner.get("required") if isinstance(owner, dict) else None
            if token not in (required if isinstance(required, list) else []):
                return True
        nodes.append(node[int(token)] if isinstance(node, list) else node[token])
    return False


def _authored(schema: Any, pointer: str) -> str:
    """A pointer into the projection as a pointer into the authored schema: without the
    ``anyOf/0`` steps of the null branches the projection wrapped around optional members."""
    tokens, node = [], schema
    steps = iter(jp.split(pointer))
    for token in steps:
        if token == "anyOf" and isinstance(node, dict) and "anyOf" not in node:
            next(steps, None)  # the wrapped member is branch 0
            continue
        tokens.append(token)
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            node = node.get(token) if isinstance(node, dict) else None
    return jp.join("", *tokens)


def _size(schema: Any) -> int:
    """The bytes of ``schema`` as compact JSON text."""
    return len(json.dumps(schema, separators=(",", ":")))


def make_nullable(node: dict[str, Any], *, type_arrays: bool = True) -> dict[str, Any]:
    """``node`` as the projection writes an optional member that does not accept null (the rule
    and its inverse: ``MadeNullable`` in toolgen.project.rewrites)."""
    return MadeNullable.apply(node, type_arrays=type_arrays)[0]


@dataclass
class _Built:
    """A projected node with the record of its subtree: its own rules, and its descendants'
    records under pointers relative to it (re-based when a wrapper moves it)."""

    schema: Any
    canonical: str
    rewrites: list[Rewrite] = field(default_factory=list)
    below: dict[str, NodeRecord] = field(default_factory=dict)

    def records(self, at: str) -> dict[str, NodeRecord]:
        """Its records with pointers under ``at``."""
        found = {at: NodeRecord(self.canonical, tuple(self.rewrites))}
        found.update({at + relative: record for relative, record in self.below.items()})
        return found

    def rewritten(self, schema: Any, rewrite: Rewrite) -> _Built:
        """The node rewritten by ``rewrite``; a wrapping rule moves it where it says
        (``wrapped_at``: ``/anyOf/0``, or the value of a box)."""
        if not rewrite.moves:
            return _Built(schema, self.canonical, [*self.rewrites, rewrite], self.below)
        return _Built(schema, self.canonical, [rewrite], self.records(rewrite.wrapped_at))


@dataclass(frozen=True)
class _Origins:
    """Where the keywords of a (possibly merged) node were authored, as pointers into the bundled
    schema: a node that inlined a ``$ref`` or merged a one-element ``allOf`` took some keywords from
    elsewhere, and a diagnostic about them must point there."""

    node: str
    keywords: dict[str, str]

    def of(self, keyword: str) -> str:
        return jp.join(self.keywords.get(keyword, self.node), keyword)

    def member(self, name: str) -> str:
        """Where the member ``name`` of the node's ``properties`` was authored (the members of
        two merged schemas come from both)."""
        holder = self.keywords.get(_member_key(name), self.keywords.get("properties", self.node))
        return jp.join(holder, "properties", name)


def _member_key(name: str) -> str:
    """The key of a member's origin among keywords' (no keyword holds a ``/``)."""
    return jp.join("properties", name)


def _merge_origins(
    origins: dict[str, str],
    base: dict[str, Any],
    base_pointer: str,
    site: dict[str, Any],
    merged_keyword: str,
    site_pointer: str,
) -> None:
    """Record that ``base``'s keywords come from ``base_pointer``, and those of ``site`` but
    ``merged_keyword`` (the ``$ref`` or ``allOf`` merged away) from where they were; where both
    declare members, each member's from where it was."""
    site_origins = {k: origins.get(k, site_pointer) for k in site if k != merged_keyword}
    site_members = {k: v for k, v in origins.items() if k.startswith("properties/")}
    origins.clear()
    origins.update({k: base_pointer for k in base})
    origins.update(site_origins)
    declared = [s.get("properties") for s in (base, site)]
    if all(isinstance(d, dict) for d in declared):
        origins.update({_member_key(name): base_pointer for name in base["properties"]})
        held = site_origins["properties"]
        for name in site["properties"]:
            origins[_member_key(name)] = site_members.get(_member_key(name), held)
    elif isinstance(site.get("properties"), dict):
        origins.update(site_members)


@dataclass(frozen=True)
class ProjectedContract:
    """A contract as one provider receives it; ``schema`` is None when the provider cannot take it.

    ``meaning`` is the projection as JSON Schema, the form the inverse reads: ``schema`` itself,
    unless the provider's dialect is OpenAPI (then ``schema`` respells it, toolgen.project.openapi).
    ``rewrites`` records how each node of ``meaning`` was made (toolgen.project.rewrites); ``provider``
    is the profile's name (``provider_name`` is the contract's name on that provider's wire).
    ``strict`` says whether the definition goes out with the provider's strict flag on (else the
    schema is the non-strict projection, toolgen.project.nonstrict, and the inverse is the identity).
    ``inputs`` is the cache key of the projection (a digest of everything it was made from), when
    a build with a cache made it: work on the projection can key its own cache entries on it."""

    contract: Contract
    provider_name: str
    schema: Any | None
    rewrites: RewriteRecord
    provider: str
    meaning: Any | None
    strict: bool = True
    inputs: str | None = field(default=None, compare=False)

    def renamed_members(self) -> list[str]:
        """What the provider is sent under other names (MembersRenamed), a line a member: its
        canonical pointer and its name on the wire."""
        return [
            f"{self.provider} takes {jp.join(node.canonical, 'properties', name)} as {wire!r}"
            for _, node in self.rewrites.nodes
            for rule in node.rewrites
            if isinstance(rule, MembersRenamed)
            for wire, name in rule.names
        ]


@dataclass
class _Projector:
    contract: Contract
    profile: Profile
    options: ProviderOptions
    # canonical pointers of the optional members written required and nullable (OptionalsOverCap)
    over_cap: frozenset[str] = frozenset()
    # why an optional member that accepts null is kept as it is although the design asks for the
    # box (the boxed projection broke a limit: _kept_after_limits); "" where it did not ask
    why_kept: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        # what a projection over the cap of optional members would write required (None: not over)
        self.over_cap_choice: frozenset[str] | None = None
        self.boxed = False  # whether an optional member that accepts null was boxed
        self.oracle = NullOracle(self.contract.schema)
        self.errored: set[str] = set()  # schema pointers that have an error
        # how many schemas each allOf merged has (by its pointer), as authored
        self.all_of_sizes: dict[str, int] = {}
        self.inlining: list[str] = []  # the $ref targets being inlined around the current node
        self.in_union = 0  # how many unions of several non-null branches enclose the current node
        # where the provider refuses recursion, the $ref keywords that close a cycle (pointers
        # into the authored schema): each is written as JSON text (RecursionAsJsonText)
        self.recursive: frozenset[str] = frozenset(
            () if self.profile.recursion else recursive_refs(self.contract.schema)
        )
        # recursion_depth = N: each such $ref is unrolled N times instead (_unrolled); the
        # targets being unrolled around the current node, and the bytes each site added
        self.depth = self.options.recursion_depth if self.recursive else None
        self.unrolled: list[str] = []
        self.unrolled_bytes: dict[str, int] = {}

    def has_error_within(self, pointer: str) -> bool:
        return any(p == pointer or p.startswith(pointer + "/") for p in self.errored)

    # -- reporting ---------------------------------------------------------------------------

    def report(self, pointer: str, code: str, message: str, level: Level = Level.ERROR) -> None:
        if level is Level.ERROR:
            self.errored.add(pointer)
        file, where = self.contract.locate(pointer)
        self.diagnostics.append(Diagnostic(file, where, self.profile.name, code, message, level))

    def error_count(self) -> int:
        return sum(d.level is Level.ERROR for d in self.diagnostics)

    # -- the walk ---------------------------------------------------------------------------

    def project(self) -> tuple[Any | None, RewriteRecord]:
        origins: dict[str, str] = {}
        rewrites: list[Rewrite] = []
        root = self._normalize(
            self.contract.schema,
            "",
            root=True,
            inlined=self.inlining,
            origins=origins,
            rewrites=rewrites,
        )
        if root is not None and self.contract.kind == "output" and RootWrapped.wraps(root):
            built = self._wrapped_root(root, _Origins("", origins), rewrites)
        else:
            if root is not None:
                self._check_root(root, self.contract.schema)
            built = self._project_node(
                root or {},
                _Origins("", origins),
                root=True,
                errors_before=self.error_count(),
                rewrites=rewrites,
            )
        projected, records = _reached_only(built.schema, built.records(""))
        self.inlining.clear()
        for site, added in self.unrolled_bytes.items():
            self.report(
                site,
                "RECURSION_UNROLLED",
                f"{self.profile.title} refuses recursion: this reference is unrolled "
                f"{self.depth} level(s) deep (recursion_depth = {self.depth}), adding "
                f"{added} bytes to the projected schema; deeper values cannot be written",
                Level.WARNING,
            )
        if not self.profile.recursion:
            for pointer in recursive_refs(projected):
                self.report(
                    _authored(self.contract.schema, pointer),
                    "UNSUPPORTED_RECURSION",
                    f"a recursive schema cannot be expressed in {self.profile.title}",
                )
        elif self.profile.recursion_through_optional:
            for pointer in recursive_refs(projected):
                if not _passes_optional_member(projected, pointer):
                    self.report(
                        pointer,
                        "RECURSION_THROUGH_REQUIRED",
                        f"{self.profile.title} takes a recursive reference only under a member "
                        "that is not required; make a member on the way optional",
                    )
        for pointer, code, message in check_limits(projected, self.profile.limits):
            self.report(pointer, code, message)
            if code == "LIMIT_OPTIONAL_MEMBERS" and self.profile.optionals_over_cap:
                self.over_cap_choice = self._choose_over_cap(projected, records)
        self.diagnostics += description_limit(self.contract, self.profile)
        if self.error_count():
            return None, RewriteRecord()
        return projected, RewriteRecord(tuple(records.items()))

    def _choose_over_cap(
        self, projected: Any, records: dict[str, NodeRecord]
    ) -> frozenset[str] | None:
        """The optional members to write required and nullable so that ``projected`` keeps at
        most the cap of optional members (canonical pointers; None: too few can be): the last
        ones in the order of the projected schema (its objects as a depth-first walk meets
        them, $defs where they are written, each object's members as authored), among the
        members of closed objects that do not accept null, and those that do where the design
        boxes them (``optional_nullable = "encode"``; else such a member could not be told from
        an absent one: it stays optional). Every projected copy of a chosen member (a
        definition inlined at several places) is written so."""
        cap = self.profile.limits.optional_members
        assert cap is not None
        order: list[tuple[str, bool]] = []
        for node, pointer in walker.walk(projected):
            if not isinstance(node, dict) or not isinstance(node.get("properties"), dict):
                continue
            required = node.get("required") or ()
            for name in node["properties"]:
                if name in required:
                    continue
                record = records.get(jp.join(pointer, "properties", name))
                order.append(
                    (record.canonical, self._nullable_member(record)) if record else ("", False)
                )
        optional = measure(projected).optional
        chosen: list[str] = []
        for canonical, convertible in reversed(order):
            if optional <= cap:
                break
            if convertible and canonical not in chosen:
                chosen.append(canonical)
                optional -= sum(c == canonical for c, _ in order)
        return frozenset(chosen) if optional <= cap else None

    def _nullable_member(self, record: NodeRecord) -> bool:
        """Whether the optional member of a closed object that ``record`` describes can be
        written required and nullable exactly (its canonical schema does not accept null, or
        null is its default, or the projection writes it as JSON text, which is never null, or
        boxes it)."""
        tokens = jp.split(record.canonical)
        if len(tokens) < 2 or tokens[-2] != "properties":
            return False  # a tuple's position or an open object's extra members
        if any(isinstance(r, JSON_TEXTS) for r in record.rewrites):
            return True
        try:
            canonical = jp.resolve(self.contract.schema, record.canonical)
        except (KeyError, ValueError, IndexError):
            return False
        return (
            self.options.optional_nullable == "encode"
            or not self.oracle.accepts_null(canonical)
            or default_is_null(self.contract.schema, canonical)
        )

    def _wrapped_root(
        self, root: dict[str, Any], origins: _Origins, rewrites: list[Rewrite]
    ) -> _Built:
        """An output root that admits no object, projected as a member of a closed object
        (RootWrapped); the definitions it holds stay at the root, with their records."""
        value = self._project_node(
            root, origins, root=False, errors_before=self.error_count(), rewrites=rewrites
        )
        written, rule = RootWrapped.apply(value.schema)
        member = jp.join("", "properties", rule.member)
        below = {}
        for pointer, record in value.records(member).items():
            hoisted = pointer[len(member) :]
            on_top = hoisted.startswith(("/$defs/", "/definitions/"))
            below[hoisted if on_top else pointer] = record
        return _Built(written, "", [rule], below)

    def _check_root(self, root: Any, authored: Any) -> None:
        if not isinstance(root, dict):
            return
        if any(k in root for k in _UNION):
            keyword = next(k for k in _UNION if k in root)
            if isinstance(authored, dict) and keyword not in authored and "oneOf" in authored:
                keyword = "oneOf"  # folded into anyOf by _normalize; point at what was written
            self.report(
                jp.join("", keyword),
                "ROOT_UNION",
                f"the root must be one object schema, not {keyword}; wrap the union in a property",
            )
        for pointer, code, message in non_object_root(root):
            self.report(pointer, code, message)

    def _node(self, node: Any, pointer: str) -> _Built:
        """The projection of one (normalized or raw) canonical node."""
        unrolling = self._unrolling(node, pointer)
        if unrolling is not None:
            return self._unrolled(node, pointer, unrolling)
        if isinstance(node, dict) and jp.join(pointer, "$ref") in self.recursive:
            return self._recursion_as_text(node, pointer)
        return self._node_at(node, pointer, {}, [])

    def _unrolling(self, node: Any, pointer: str) -> str | None:
        """The target of a ``$ref`` closing a cycle that ``recursion_depth`` unrolls once more
        at ``node`` (None: not such a site, or its depth is reached)."""
        if self.depth is None or not isinstance(node, dict):
            return None
        if jp.join(pointer, "$ref") not in self.recursive or not isinstance(node["$ref"], str):
            return None
        target = jp.ref_pointer(node["$ref"])
        return target if self.unrolled.count(target) < self.depth else None

    def _unrolled(self, node: dict[str, Any], pointer: str, target_pointer: str) -> _Built:
        """A ``$ref`` closing a cycle, unrolled (``recursion_depth``): its target inlined here as
        a copy, whose nodes are recorded with the target's canonical pointers (RefInlined, read
        structurally: no call to the definition's inverse), so the inverse reads each level as
        the canonical node it came from. The copy's own recursive references are unrolled again
        up to the depth; at the last level the member holding them goes where it is optional
        (_depth_reached), else they are JSON text."""
        target = self._resolve(node["$ref"], pointer)
        if target is None:
            return _Built({}, pointer)
        outermost = target_pointer not in self.unrolled
        # the definitions a target holds (the root's, where it is "#") stay where they are
        # projected: a copy would repeat them at each level
        target = {k: v for k, v in target.items() if k not in STRUCTURAL}
        merged, rule, conflicts = RefInlined.apply(node, target, target_pointer, target_kept=False)
        self._report_conflicts(conflicts, jp.join(pointer, "$ref"))
        origins: dict[str, str] = {}
        _merge_origins(origins, target, target_pointer, node, "$ref", pointer)
        self.unrolled.append(target_pointer)
        try:
            built = self._node_at(merged, pointer, origins, [rule])
        finally:
            self.unrolled.pop()
        if outermost:
            as_text = RecursionAsJsonText.apply(node, target_pointer)[0]
            added = _size(built.schema) - _size(as_text)
            site = jp.join(pointer, "$ref")
            self.unrolled_bytes[site] = self.unrolled_bytes.get(site, 0) + added
        return built

    def _node_at(
        self, node: Any, pointer: str, origins: dict[str, str], rewrites: list[Rewrite]
    ) -> _Built:
        """The projection of a node, normalized (``origins``: where the keywords of a node merged
        from a ``$ref`` were authored; ``rewrites``: the rules that made it so far)."""
        errors_before = self.error_count()
        inlined: list[str] = []
        normalized = self._normalize(
            node, pointer, root=False, inlined=inlined, origins=origins, rewrites=rewrites
        )
        if normalized is None:
            return _Built({}, pointer, rewrites)
        self.inlining.extend(inlined)
        try:
            return self._project_node(
                normalized,
                _Origins(pointer, origins),
                root=False,
                errors_before=errors_before,
                rewrites=rewrites,
            )
        finally:
            del self.inlining[len(self.inlining) - len(inlined) :]

    def _depth_reached(self, node: dict[str, Any], origins: _Origins) -> dict[str, Any]:
        """``node`` without its optional members that hold a ``$ref`` closing a cycle whose
        ``recursion_depth`` is reached here: the model cannot nest deeper (a required one stays,
        its reference written as JSON text, which is exact)."""
        members = node.get("properties")
        if not self.unrolled or not isinstance(members, dict):
            return node
        required = node.get("required")
        required = required if isinstance(required, list) else []
        cut = {
            name
            for name in members
            if name not in required and self._reaches_depth(origins.member(name))
        }
        if not cut:
            return node
        return {**node, "properties": {k: v for k, v in members.items() if k not in cut}}

    def _reaches_depth(self, member: str) -> bool:
        """Whether the authored subschema at ``member`` holds a recursive ``$ref`` whose target
        is unrolled ``recursion_depth`` times around the current node."""
        assert self.depth is not None
        for site in self.recursive:
            if site.startswith(member + "/"):
                ref = jp.resolve(self.contract.schema, site)
                if isinstance(ref, str) and self.unrolled.count(jp.ref_pointer(ref)) >= self.depth:
                    return True
        return False

    def _recursion_as_text(self, node: dict[str, Any], pointer: str) -> _Built:
        """A ``$ref`` that closes a cycle, on a provider that refuses recursion: the value as JSON
        text (RecursionAsJsonText). Inside a union of several branches the text could not be
        told from another branch's string, so it cannot be read back exactly: rejected there."""
        ref = node["$ref"]
        if self.in_union or not isinstance(ref, str):
            self.report(
                jp.join(pointer, "$ref"),
                "UNSUPPORTED_RECURSION",
                f"a recursive schema cannot be expressed in {self.profile.title}, and a "
                "recursive reference inside anyOf/oneOf cannot be written as JSON text (its text "
                "could be another branch's string)",
            )
            return _Built({}, pointer)
        written, rule = RecursionAsJsonText.apply(node, jp.ref_pointer(ref))
        return _Built(written, pointer, [rule])

    def _project_node(
        self,
        node: dict[str, Any],
        origins: _Origins,
        *,
        root: bool,
        errors_before: int,
        rewrites: list[Rewrite],
    ) -> _Built:
        pointer = origins.node
        node = self._depth_reached(node, origins)
        map_in_list = not root and map_in_type_list(node)
        if not root and (map_in_list or not self.profile.type_arrays):
            as_union = TypeListAsUnion.apply(node, map_in_list=map_in_list)
            if as_union is not None:
                return self._type_list_union(as_union[0], origins, [*rewrites, as_union[1]])
        below: dict[str, NodeRecord] = {}
        members: dict[str, _Built] = {}

        def one_child(found: walker.Child) -> Any:
            built = self._child(found, origins)
            if found.keyword == "properties" and isinstance(found.key, str):
                members[found.key] = built  # _close may still make it nullable
            else:
                keyword = "anyOf" if found.keyword == "oneOf" else found.keyword  # OneOfFolded
                keys = () if found.key is None else (found.key,)
                below.update(built.records(jp.join("", keyword, *keys)))
            return built.schema

        if self.profile.const_as_enum and "const" in node and "enum" not in node:
            node, as_enum = ConstAsEnum.apply(node)
            rewrites.append(as_enum)
            authored = origins.keywords.get("const", pointer)
            origins = _Origins(pointer, {**origins.keywords, "enum": authored})

        folding_type = TypeIntoBranches.apply(node) if not root else None
        if folding_type is not None:
            node = folding_type[0]
            rewrites.append(folding_type[1])
        narrowing = EnumNarrowed.apply(node)
        if narrowing is not None:
            node = narrowing[0]
            rewrites.append(narrowing[1])
        authored = "const" if any(isinstance(r, ConstAsEnum) for r in rewrites) else "enum"
        node = self._structured_enum(node, origins.of(authored), rewrites)
        takes_enum = self.profile.keep_if.get("enum")
        if (
            takes_enum
            and isinstance(node.get("enum"), list)
            and node["enum"]
            and "type" not in node
        ):
            scalars = not any(isinstance(v, dict | list) for v in node["enum"])
            if scalars and not takes_enum(node["enum"]) and not any(k in node for k in _UNION):
                node, typing = EnumTyped.apply(node, takes_enum)
                rewrites.append(typing)

        def child(found: walker.Child) -> Any:
            several = found.keyword in _UNION and _several_branches(node.get(found.keyword))
            self.in_union += several
            try:
                return one_child(found)
            finally:
                self.in_union -= several

        declaring = RequiredDeclared.apply(node) if not root and is_object_schema(node) else None
        if declaring is not None:
            node = declaring[0]
            rewrites.append(declaring[1])
        left_out = {"additionalProperties"}  # written by _close
        dropped: set[str] = set()
        encoding = self._object_encoding(node, root=root)
        if encoding is not None:
            # the keys of the encoded map (MapAsPairs.key), and the values of a pattern's map
            left_out |= {"propertyNames", "patternProperties"}
        positions = TupleAsObject.length(node)
        if positions is not None:  # written by _tuple
            left_out |= {"prefixItems", "items", "minItems", "maxItems"}
        for keyword, value in node.items():
            if keyword == "oneOf" or keyword in left_out:
                continue  # oneOf: folded into anyOf below, after its branches are projected
            verdict = self.profile.verdict(keyword)
            if verdict == "reject":
                self.report(
                    origins.of(keyword),
                    self.profile.reject[keyword],
                    f"{keyword!r} cannot be expressed in {self.profile.title}",
                )
                left_out.add(keyword)
            elif keyword == "additionalProperties":
                continue
            elif (
                verdict == "drop"
                or (keyword == "format" and value not in self.profile.formats)
                or (
                    keyword in self.profile.keep_if
                    and not self.profile.keep_if[keyword](self._as_sent(keyword, value, node))
                )
            ):
                dropped.add(keyword)
        kept = {k: v for k, v in node.items() if k not in left_out}
        result, dropping = KeywordsDropped.apply(kept, dropped)
        if dropping is not None:
            rewrites.append(dropping)
        result = walker.map_children(result, pointer, child)
        if "oneOf" in result:
            result, folding = OneOfFolded.apply(result)
            rewrites.append(folding)
        if self.profile.string_enums:
            result = self._stringify_enum(result, origins, rewrites)
        if self.profile.enum_case_may_differ:
            restoring = EnumCaseRestored.apply(result)
            if restoring is not None:
                rewrites.append(restoring)
        if positions is not None:
            result = self._tuple(node, origins, members, rewrites)
        if encoding is MapAsPairs:
            value = self._map_values(node, origins)
            result, as_map = MapAsPairs.apply(
                node, self._map_key(node), value.schema, sizes=self._keeps_sizes()
            )
            rewrites.append(as_map)
            below.update(value.records(_MAP_VALUE))
        elif root or is_object_schema(node):
            self._check_union_beside_object(node, origins)
            closing = node
            if encoding is ExtraMembers:
                closing = {k: v for k, v in node.items() if k != "additionalProperties"}
            result = self._close(
                result,
                closing,
                origins,
                root=root,
                members=members,
                rewrites=rewrites,
                extras=encoding is ExtraMembers,
            )
            if encoding is ExtraMembers and "properties" in result:
                result = self._extra_members(result, node, origins, members, rewrites)
        elif (
            "array" in _types(result)
            and "items" not in result
            and not {"enum", "const"} & set(result)  # the values are given: no text in them
            and not self.has_error_within(pointer)
        ):
            result = {**result, "items": AnyAsJsonText.apply({})[0]}  # elements of any type
            below["/items"] = NodeRecord(pointer, (AnyAsJsonText(),))
        if (
            not any(k in result for k in ("type", "enum", "const", "anyOf", "$ref"))
            and self.error_count() == errors_before
        ):
            if "enum" in node:  # the values decide it, but the provider's enums cannot hold them
                self.report(
                    origins.of("enum"),
                    "ENUM_NOT_EXPRESSIBLE",
                    f"this schema accepts the values of its enum only; {self.profile.title} "
                    "cannot write them as an enum (objects or arrays) and they have no declared "
                    "type to write instead",
                )
            else:
                result, as_text = AnyAsJsonText.apply(result)  # a value of any type
                rewrites.append(as_text)
                below.clear()
                members.clear()
        wire = self._renamed(result, origins, rewrites, open_object=encoding is ExtraMembers)
        if wire is not None:
            result = wire
        renaming = next((r for r in rewrites if isinstance(r, MembersRenamed)), None)
        for name, member in members.items():
            written = renaming.wire(name) if renaming is not None else name
            below.update(member.records(jp.join("", "properties", written)))
        built = _Built(result, pointer, rewrites, below)
        if not self.profile.type_arrays:
            split = TypeListSplit.apply(result)
            if split is None:
                self.report(
                    jp.join(pointer, "type"),
                    "UNSUPPORTED_TYPE_LIST",
                    f"a list of several types cannot be expressed in {self.profile.title}; use anyOf",
                )
            elif split[1] is not None:
                built = built.rewritten(split[0], split[1])
        return built

    def _structured_enum(
        self, node: dict[str, Any], authored: str, rewrites: list[Rewrite]
    ) -> dict[str, Any]:
        """``node``, whose enum may hold an object or an array the provider's enums cannot (its
        enums hold strings, or what ``keep_if`` says): then with its values written as JSON text
        (EnumAsJsonText), but inside a union, where the text could be another branch's string:
        there without its enum, reported at ``authored`` (the enum or const as written)."""
        values = node.get("enum")
        if not EnumAsJsonText.structured(values):
            return node
        takes = self.profile.keep_if.get("enum")
        if not self.profile.string_enums and (takes is None or takes(values)):
            return node
        if self.in_union:
            self.report(
                authored,
                "ENUM_TEXT_IN_UNION",
                f"{self.profile.title} cannot hold an object or array in an enum, and inside "
                "anyOf/oneOf the JSON text of one could be another branch's string, so it cannot "
                "be read back exactly",
            )
            return {k: v for k, v in node.items() if k != "enum"}
        written, rule = EnumAsJsonText.apply(node)
        rewrites.append(rule)
        return written

    def _as_sent(self, keyword: str, value: Any, node: dict[str, Any]) -> Any:
        """The value of ``keyword`` as the provider is sent it, where that differs from the
        node's: without type lists, a type list with null is split, its null a branch of its own
        (TypeListSplit), so an enum keeps its other values only."""
        types = node.get("type")
        split = not self.profile.type_arrays and isinstance(types, list) and "null" in types
        if keyword == "enum" and isinstance(value, list) and split:
            return [v for v in value if v is not None]
        return value

    def _type_list_union(
        self, union: dict[str, Any], origins: _Origins, rewrites: list[Rewrite]
    ) -> _Built:
        """A node with several types, split into one branch per type (TypeListAsUnion): each
        branch projected as a node of its own, reported where the canonical node's keywords
        are (every branch comes from that one node)."""
        below: dict[str, NodeRecord] = {}
        branches = []
        self.in_union += 1  # a branch is told from the others by the payload's type
        try:
            for index, branch in enumerate(union["anyOf"]):
                built = self._project_node(
                    branch, origins, root=False, errors_before=self.error_count(), rewrites=[]
                )
                branches.append(built.schema)
                below.update(built.records(jp.join("", "anyOf", index)))
        finally:
            self.in_union -= 1
        return _Built({**union, "anyOf": branches}, origins.node, rewrites, below)

    def _tuple(
        self,
        node: dict[str, Any],
        origins: _Origins,
        members: dict[str, _Built],
        rewrites: list[Rewrite],
    ) -> dict[str, Any]:
        """The tuple ``node`` as an object with a member per position (TupleAsObject); the
        positions past ``minItems`` are optional members, written the provider's way."""
        least = node.get("minItems", 0)
        nullable = self.profile.optional_style == "nullable"
        required = []
        for index, position in enumerate(node["prefixItems"]):
            name, pointer = str(index), jp.join(origins.of("prefixItems"), index)
            members[name] = self._node(position, pointer)
            if isinstance(least, int) and index < least:
                required.append(name)
            elif nullable:
                members[name] = self._optional_member(
                    members[name], position, pointer, position=True
                )
        positions = {name: built.schema for name, built in members.items()}
        written, rule = TupleAsObject.apply(
            node, positions, list(positions) if nullable else required
        )
        rewrites.append(rule)
        return written

    def _renamed(
        self,
        result: Any,
        origins: _Origins,
        rewrites: list[Rewrite],
        *,
        open_object: bool,
    ) -> dict[str, Any] | None:
        """``result`` with the member names the provider refuses sent under names it takes
        (MembersRenamed, recorded in ``rewrites``); None where there are none. In an object open
        to other members a new name could be one of theirs, so there it is reported instead."""
        rule = self.profile.member_names
        if rule is None or not isinstance(result, dict):
            return None
        if not isinstance(result.get("properties"), dict):
            return None
        renaming = MembersRenamed.apply(result, rule)
        if renaming is None:
            return None
        written, renamed = renaming
        if open_object:
            for _, name in renamed.names:
                self.report(
                    jp.join(origins.of("properties"), name),
                    "MEMBER_NAME_REFUSED",
                    f"{self.profile.title} refuses this member name as a property key; it would "
                    "go out under another name, but this object takes other members too, one of "
                    "which could have that name: rename the member in the design",
                )
            return None
        rewrites.append(renamed)
        return written

    @staticmethod
    def _object_encoding(node: dict[str, Any], *, root: bool) -> type[Rewrite] | None:
        """The encoding rule that carries the object schema ``node`` (each rule says where it
        applies: a map, or an open object's other members), None where it is closed as it is or
        is no object."""
        if not is_object_schema(node):
            return None
        return next((rule for rule in OBJECT_ENCODINGS if rule.applies(node, root=root)), None)

    def _map_key(self, node: dict[str, Any]) -> dict[str, Any]:
        """How the keys of the map (or the other members) of ``node`` are written."""
        return MapAsPairs.key(node, lambda pattern: self.profile.keeps("pattern", pattern))

    def _keeps_sizes(self) -> bool:
        return all(self.profile.verdict(k) == "keep" for k in ("minItems", "maxItems"))

    def _map_values(self, node: dict[str, Any], origins: _Origins) -> _Built:
        """The projection of the values of a map or of an open object's extra members (any
        value where ``additionalProperties`` is absent or true; a map written with
        ``patternProperties`` has its pattern's)."""
        keyed = MapAsPairs.pattern(node)
        if keyed is not None:
            return self._node(keyed[1], jp.join(origins.of("patternProperties"), keyed[0]))
        extra = node.get("additionalProperties")
        if extra is None:
            return self._node(True, origins.node)
        return self._node(extra, origins.of("additionalProperties"))

    def _extra_members(
        self,
        closed: dict[str, Any],
        node: dict[str, Any],
        origins: _Origins,
        members: dict[str, _Built],
        rewrites: list[Rewrite],
    ) -> dict[str, Any]:
        """The closed object ``closed`` with one more member holding the extra members of the
        open object ``node`` as a map (ExtraMembers)."""
        value = self._map_values(node, origins)
        pairs, as_map = MapAsPairs.apply({}, self._map_key(node), value.schema, sizes=False)
        required = self.profile.optional_style == "nullable"
        written, extra = ExtraMembers.apply(closed, pairs, required=required)
        canonical = origins.of("additionalProperties")
        members[extra.member] = _Built(pairs, canonical, [as_map], value.records(_MAP_VALUE))
        rewrites.append(extra)
        return written

    def _stringify_enum(
        self, node: dict[str, Any], origins: _Origins, rewrites: list[Rewrite]
    ) -> dict[str, Any]:
        """A string-only enum for the provider, with the texts the inverse reads back."""
        stringified = EnumStringified.apply(node)
        if stringified is None:
            self.report(
                origins.of("enum"),
                "ENUM_NOT_TEXT",
                f"{self.profile.title} takes string enums only, and these values cannot all be "
                "written as distinct texts (an object or array, or a value whose text is another "
                "value of the enum)",
            )
            return node
        written, rule = stringified
        if rule is None:
            return node
        if self.in_union and rule.values:
            self.report(
                origins.of("enum"),
                "ENUM_TEXT_IN_UNION",
                f"{self.profile.title} takes string enums only; inside anyOf/oneOf the text of a "
                "value could be another branch's string, so it cannot be read back exactly",
            )
            return node
        rewrites.append(rule)
        return written

    def _child(self, child: walker.Child, origins: _Origins) -> _Built:
        """The projection of a subschema, reported where it was authored."""
        if child.keyword == "properties" and isinstance(child.key, str):
            return self._node(child.schema, origins.member(child.key))
        below_keyword = child.pointer[len(jp.join(origins.node, child.keyword)) :]
        return self._node(child.schema, origins.of(child.keyword) + below_keyword)

    def _normalize(
        self,
        node: Any,
        pointer: str,
        *,
        root: bool,
        inlined: list[str],
        origins: dict[str, str],
        rewrites: list[Rewrite],
    ) -> dict[str, Any] | None:
        """Rewrite the forms the provider lacks into equivalent ones it has: a ``$ref`` with
        siblings is inlined, a one-element ``allOf`` merged (each recorded in ``rewrites``);
        ``oneOf`` is folded into ``anyOf`` by the caller."""
        if node is True:
            return {}
        if node is False:
            self.report(
                pointer, "FALSE_SCHEMA", "a schema that accepts nothing cannot be expressed"
            )
            return None

        def merge_all_of(at: dict[str, Any]) -> dict[str, Any]:
            """``at`` with the schemas of its ``allOf`` merged in, from the last, and a union of
            one schema beside other keywords, up to a ``$ref`` to inline."""
            while self._ref_to_inline(at, root) is None:
                keyword = "allOf" if isinstance(at.get("allOf"), list) else None
                keyword = keyword or UnionOfOneMerged.keyword(at)
                if keyword is None:
                    break
                holder = origins.get(keyword, pointer)
                branches = at[keyword]
                branch_pointer = jp.join(holder, keyword, len(branches) - 1)
                merging = (
                    AllOfMerged.apply(at, branch_pointer)
                    if keyword == "allOf"
                    else UnionOfOneMerged.apply(at, keyword, branch_pointer)
                )
                if merging is None:
                    break
                merged, rule, conflicts = merging
                several = self.all_of_sizes.setdefault(jp.join(holder, keyword), len(branches))
                self._report_conflicts(conflicts, jp.join(holder, keyword), schemas=several)
                base = branches[-1] if isinstance(branches[-1], dict) else {}
                _merge_origins(origins, base, branch_pointer, at, keyword, pointer)
                if keyword in merged:  # the allOf's other schemas, merged next
                    origins[keyword] = holder
                rewrites.append(rule)
                at = merged
            return at

        def to_inline(at: dict[str, Any] | None) -> str | None:
            ref = self._ref_to_inline(at, root) if at is not None else None
            return ref if ref not in self.inlining else None  # back in one: handled below

        def inline(at: dict[str, Any] | None, ref: str) -> dict[str, Any] | None:
            assert at is not None
            inlined.append(ref)
            target = self._resolve(ref, pointer)
            if target is None:
                return None
            target_pointer = jp.ref_pointer(ref)
            merged, rule, conflicts = RefInlined.apply(
                at, target, target_pointer, target_kept=not self._target_not_projected(ref)
            )
            rewrites.append(rule)
            self._report_conflicts(conflicts, jp.join(pointer, "$ref"))
            _merge_origins(origins, target, target_pointer, at, "$ref", pointer)
            return merge_all_of(merged)

        start: dict[str, Any] | None = merge_all_of(node)
        try:
            followed = chase(start, to_inline, inline)
        except RefCycle as cycle:
            back = cycle.pointer  # the $ref text: the chain is keyed by it
            self.report(jp.join(pointer, "$ref"), "REF_CYCLE", f"$ref {back!r} refers to itself")
            return None
        if followed is None:
            return None
        node = followed
        ref = self._ref_to_inline(node, root)
        if ref is not None:  # it leads back into a $ref being inlined around this node
            if self._target_not_projected(ref):  # no reference to keep: it never ends
                self.report(
                    jp.join(pointer, "$ref"),
                    "UNSUPPORTED_RECURSION",
                    f"a recursive schema cannot be expressed in {self.profile.title} "
                    f"(the reference cannot stay one; $ref {ref!r} leads back to itself)",
                )
                return None
            # Recursion through a $ref with siblings: inlining again would never end. Only
            # annotations may go (the reference stays); anything else cannot be expressed.
            kept = RecursiveRefKept.apply(node)
            if kept is None:
                self.report(
                    jp.join(pointer, "$ref"),
                    "UNSUPPORTED_RECURSIVE_REF",
                    f"$ref {ref!r} leads back to itself and has sibling keywords",
                )
                return None
            bare, rule = kept
            rewrites.append(rule)
            return bare
        all_of = node.get("allOf")
        if isinstance(all_of, list):  # a schema of it is false, or no schema: not merged
            self.report(
                jp.join(pointer, "allOf"),
                "UNSUPPORTED_ALL_OF",
                f"allOf with {len(all_of)} schemas cannot be expressed in {self.profile.title}",
            )
            node = {k: v for k, v in node.items() if k != "allOf"}
        if "oneOf" in node and "anyOf" in node:
            self.report(
                jp.join(pointer, "oneOf"),
                "UNSUPPORTED_ONE_OF",
                "oneOf beside anyOf cannot be folded",
            )
            return None
        # oneOf stays oneOf here (its branches are walked, and reported, under the authored
        # keyword); _node writes the projected branches as anyOf.
        return node

    def _ref_to_inline(self, node: dict[str, Any], root: bool) -> str | None:
        """The ``$ref`` the projection inlines at ``node``: one with siblings, at the root, or
        one whose target cannot stay a reference (None: the node keeps it, or has none)."""
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return None
        if root or self._target_not_projected(ref) or set(node) - {"$ref"} - STRUCTURAL:
            return ref
        return None

    def _target_not_projected(self, ref: str) -> bool:
        """Whether a reference cannot stay a reference: the dialect has none, or the profile
        drops the container of its target (``definitions`` where only ``$defs`` is taken)."""
        if self.profile.inline_refs:
            return True
        tokens = jp.split(jp.ref_pointer(ref)) if ref.startswith("#") else []
        return (
            bool(tokens) and tokens[0] in STRUCTURAL and self.profile.verdict(tokens[0]) != "keep"
        )

    def _resolve(self, ref: str, pointer: str) -> dict[str, Any] | None:
        try:
            target = jp.resolve(self.contract.schema, jp.ref_pointer(ref))
        except (KeyError, ValueError):
            self.report(jp.join(pointer, "$ref"), "REF_NOT_FOUND", f"$ref {ref!r} does not resolve")
            return None
        if isinstance(target, bool):
            return {} if target else None
        return dict(target)

    def _report_conflicts(
        self, conflicts: tuple[Conflict, ...], pointer: str, *, schemas: int = 1
    ) -> None:
        """A keyword two merged schemas give so that they cannot be one schema, and why
        (toolgen.project.rewrites.composition): of an ``allOf`` of several ``schemas``, the
        ``allOf`` cannot be expressed."""
        for keyword, why in conflicts:
            if schemas > 1:
                self.report(
                    pointer,
                    "UNSUPPORTED_ALL_OF",
                    f"allOf with {schemas} schemas cannot be expressed in {self.profile.title}: "
                    f"they cannot be merged into one schema ({keyword!r}: {why})",
                )
            else:
                self.report(
                    pointer,
                    "CONFLICTING_KEYWORDS",
                    f"{keyword!r} cannot be merged with the schema it merges with: {why}",
                )

    def _optional_member(
        self, projected: _Built, canonical: Any, pointer: str, *, position: bool = False
    ) -> _Built:
        """An optional member written as a required one that accepts null. One that accepts null
        already is written as it is where null is its default (DefaultNullRequired: absent and
        null are one value, so null reads back as absent), else boxed (NullableOptionalBoxed:
        null is absent, ``{"value": v}`` is ``v``), or, with ``optional_nullable = "keep"`` or
        ``"error"``, kept as it is: then absent and null cannot be told apart (reported; the
        inverse keeps null). ``position``: a tuple's position (whose default says nothing of
        an absent one)."""
        as_text = any(isinstance(r, JSON_TEXTS) for r in projected.rewrites)
        if as_text or not self.oracle.accepts_null(canonical):
            # JSON text is never null: null there is an absent member, "null" a null one
            schema, rewrite = MadeNullable.apply(
                projected.schema, type_arrays=self.profile.type_arrays
            )
            return projected.rewritten(schema, rewrite)
        if not position and default_is_null(self.contract.schema, canonical):
            return projected.rewritten(*DefaultNullRequired.apply(projected.schema))
        if self.options.optional_nullable == "encode":
            self.boxed = True
            return projected.rewritten(*NullableOptionalBoxed.apply(projected.schema))
        if not self.has_error_within(pointer):
            level = Level.ERROR if self.options.optional_nullable == "error" else Level.WARNING
            self.report(
                pointer,
                "OPTIONAL_NULLABLE",
                "optional and accepts null: strict mode cannot tell an absent member from null, "
                "so the inverse keeps null" + (f" ({self.why_kept})" if self.why_kept else ""),
                level,
            )
        return projected.rewritten(*OptionalKept.apply(projected.schema))

    def _check_union_beside_object(self, node: dict[str, Any], origins: _Origins) -> None:
        """Members beside an anyOf/oneOf of object branches: closing both levels would admit no
        payload at all (each level forbids the other's members), so the contract is rejected."""
        for keyword in _UNION:
            branches = node.get(keyword)
            if not isinstance(branches, list) or "properties" not in node:
                continue
            for branch in branches:
                target = branch
                if isinstance(branch, dict) and isinstance(branch.get("$ref"), str):
                    try:
                        target = jp.resolve(self.contract.schema, jp.ref_pointer(branch["$ref"]))
                    except (KeyError, ValueError):
                        continue
                if is_object_schema(target):
                    self.report(
                        origins.of(keyword),
                        "OBJECT_BESIDE_UNION",
                        f"properties beside {keyword} of objects cannot be expressed in {self.profile.title} "
                        "(both levels would be closed); repeat the shared properties in each branch",
                    )
                    return

    def _close(
        self,
        result: dict[str, Any],
        canonical: dict[str, Any],
        origins: _Origins,
        *,
        root: bool,
        members: dict[str, _Built],
        rewrites: list[Rewrite],
        extras: bool = False,
    ) -> dict[str, Any]:
        """Close an object: no additional members, every member required, optionals the provider's
        way (those over a cap required and nullable: ``over_cap``, OptionalsOverCap). ``extras``:
        its other members are written as one more member (ExtraMembers), so it is not closed to
        them."""
        pointer = origins.node
        extra = canonical.get("additionalProperties")
        if extra is not None and extra is not False:
            if extra is True or extra == {}:
                self.report(
                    origins.of("additionalProperties"),
                    "OPEN_OBJECT",
                    f"an open object cannot be expressed in {self.profile.title}: its members must all be declared",
                )
            else:
                self.report(
                    origins.of("additionalProperties"),
                    "MAP_OBJECT",
                    f"a map (additionalProperties with a schema) cannot be expressed in {self.profile.title}",
                )
            return result
        if extra is None and "properties" not in canonical and not root:
            if self.has_error_within(pointer):  # e.g. patternProperties, already reported
                return result
            self.report(
                pointer,
                "OPEN_OBJECT",
                "an object without properties accepts any members; closing it would forbid them all "
                "(declare its properties, or set additionalProperties: false if it must be empty)",
            )
            return result
        if (
            root
            and extra is None
            and not extras
            and not canonical.get("properties")
            and not any(k in canonical for k in _UNION)  # a root union is an error already
        ):
            self.report(
                pointer,
                "EMPTY_ROOT_CLOSED",
                f"the parameters declare no members and leave the object open (any members); "
                f"{self.profile.title} is sent an object without members, so the model can only "
                "send {} (declare the members, or set additionalProperties: false to say there "
                "are none)",
                Level.WARNING,
            )
        properties: dict[str, Any] = dict(result.get("properties") or {})
        required = canonical.get("required") or []
        for name in required:
            if name not in properties:
                self.report(
                    origins.of("required"),
                    "REQUIRED_WITHOUT_PROPERTY",
                    f"required member {name!r} has no schema under properties",
                )
        canonical_properties = canonical.get("properties") or {}
        if root:
            self._members_as_text(properties, result, members)
        if self.profile.optional_style == "nullable":
            for name in properties:
                if name not in required:
                    members[name] = self._optional_member(
                        members[name],
                        canonical_properties[name],
                        origins.member(name),
                    )
                    properties[name] = members[name].schema
        closed = dict(result)
        if "type" not in closed:
            closed = {"type": "object", **closed}
        closed["properties"] = properties
        if self.profile.optional_style == "nullable":
            closed["required"] = list(properties)
        elif required:
            closed["required"] = [name for name in properties if name in required]
        over = tuple(
            name
            for name in properties
            if name not in required and members[name].canonical in self.over_cap
        )
        if over and self.profile.optional_style == "omit":
            for name in over:
                members[name] = self._optional_member(
                    members[name],
                    canonical_properties[name],
                    origins.member(name),
                )
                closed["properties"][name] = members[name].schema
            closed, rule = OptionalsOverCap.apply(closed, over, list(required))
            rewrites.append(rule)
        closed["additionalProperties"] = False
        return closed

    def _members_as_text(
        self, properties: dict[str, Any], parameters: dict[str, Any], members: dict[str, _Built]
    ) -> None:
        """The top-level members of a tool that the provider's tool form does not take as
        projected (``ToolWire.carries``), written as JSON text (MemberAsJsonText)."""
        wire = self.profile.tool_wire
        if self.contract.kind != "tool" or wire is None or wire.carries is None:
            return
        for name, member in properties.items():
            if not wire.carries(member, parameters):
                written, rule = MemberAsJsonText.apply(member)
                members[name] = _Built(written, members[name].canonical, [rule])
                properties[name] = written


def _reached_only(
    projected: Any, records: dict[str, NodeRecord]
) -> tuple[Any, dict[str, NodeRecord]]:
    """The projected schema without the definitions it no longer reaches (each use inlined),
    with their records: only what a contract reaches is sent and counted. A use that only added
    annotations had its inverse call the definition's (RefInlined.annotations_only): it reads
    its own inlined copy instead, as where the target is not projected."""
    unreached = unreached_definitions(projected)
    if not unreached:
        return projected, records

    def gone(pointer: str) -> bool:
        return any(pointer == entry or pointer.startswith(entry + "/") for entry in unreached)

    kept = {}
    for pointer, record in records.items():
        if gone(pointer):
            continue
        rewrites = tuple(
            replace(rule, annotations_only=False)
            if isinstance(rule, RefInlined) and rule.annotations_only and gone(rule.target)
            else rule
            for rule in record.rewrites
        )
        kept[pointer] = (
            replace(record, rewrites=rewrites) if rewrites != record.rewrites else record
        )
    return without_definitions(projected, unreached), kept


def description_limit(contract: Contract, profile: Profile) -> list[Diagnostic]:
    limit = profile.limits.description
    if limit is None or len(contract.description) <= limit:
        return []
    size = len(contract.description)
    message = f"description of {size:,} characters exceeds the limit of {limit:,}"
    return [Diagnostic(contract.file, "/description", profile.name, "LIMIT_DESCRIPTION", message)]


def _over_cap(
    contract: Contract, profile: Profile, options: ProviderOptions, first: _Projector
) -> tuple[Any | None, RewriteRecord, _Projector]:
    """The projection of a contract over the profile's cap of optional members with the members
    ``first`` chose written required and nullable (OptionalsOverCap), where that has no error;
    else ``first``'s (failed) projection, its LIMIT_OPTIONAL_MEMBERS error saying why the members
    over the cap could not be written so."""
    assert first.over_cap_choice is not None
    second = _Projector(
        contract, profile, options, over_cap=first.over_cap_choice, why_kept=first.why_kept
    )
    meaning, rewrites = second.project()
    if meaning is not None:
        return meaning, rewrites, second
    why = "; ".join(
        d.message
        for d in second.diagnostics
        if d.level is Level.ERROR and d.code.startswith("LIMIT_")
    )
    if why:
        written = len(first.over_cap_choice)
        first.diagnostics = [
            replace(
                d,
                message=f"{d.message}; writing {written} of them required and nullable instead "
                f"(as {profile.title} takes them) fails too: {why}",
            )
            if d.code == "LIMIT_OPTIONAL_MEMBERS"
            else d
            for d in first.diagnostics
        ]
    first.boxed = second.boxed  # the members it chose included boxed ones (_kept_after_limits)
    return None, RewriteRecord(), first


def _strict(
    contract: Contract, profile: Profile, options: ProviderOptions, why_kept: str = ""
) -> tuple[Any | None, RewriteRecord, _Projector]:
    """The projection of ``contract`` (over the cap of optional members, the second one)."""
    projector = _Projector(contract, profile, options, why_kept=why_kept)
    meaning, rewrites = projector.project()
    if projector.over_cap_choice:
        meaning, rewrites, projector = _over_cap(contract, profile, options, projector)
    return meaning, rewrites, projector


def _kept_after_limits(
    contract: Contract, profile: Profile, options: ProviderOptions, boxed: _Projector
) -> tuple[Any | None, RewriteRecord, _Projector]:
    """Where boxing optional members that accept null (NullableOptionalBoxed: one more object
    level and one more union each) breaks a limit of the provider, the projection with them
    kept as they are (``optional_nullable = "keep"``), each OPTIONAL_NULLABLE warning saying
    why, if that one has no error; else ``boxed``'s (failed) projection."""
    why = "; ".join(
        d.message
        for d in boxed.diagnostics
        if d.level is Level.ERROR and d.code.startswith("LIMIT_")
    )
    if not why:
        return None, RewriteRecord(), boxed
    kept_options = replace(options, optional_nullable="keep")
    kept = _strict(contract, profile, kept_options, f"it is not boxed: with boxes, {why}")
    if kept[0] is None:
        return None, RewriteRecord(), boxed
    return kept


def project_contract(
    contract: Contract, profile: Profile, options: ProviderOptions, provider_name: str
) -> tuple[ProjectedContract, list[Diagnostic]]:
    """The strict projection of ``contract`` (every structured output, and tools in strict mode)."""
    meaning, rewrites, projector = _strict(contract, profile, options)
    if meaning is None and projector.boxed:
        meaning, rewrites, projector = _kept_after_limits(contract, profile, options, projector)
    schema = meaning
    if meaning is not None and profile.openapi is not None:
        schema = write_openapi(meaning, profile.openapi)
    if schema is not None and profile.tool_wire is not None and contract.kind == "tool":
        schema, problems = profile.tool_wire.apply(schema)
        for pointer, code, message in problems:
            projector.report(pointer, code, message)
        if problems:
            schema = meaning = None
        elif isinstance(schema, dict):  # what the wire form inlined is not sent either
            schema = without_definitions(schema, unreached_definitions(schema))
    projected = ProjectedContract(contract, provider_name, schema, rewrites, profile.name, meaning)
    # a node inlined at several places is reported once
    return projected, list(dict.fromkeys(projector.diagnostics))
