"""Helpers of the canonicalizer tests: compiling designs, strategies for canonical and projected
instances, the provider's ``fill``, and the relaxed canonical schema of the soundness law."""

from __future__ import annotations

import copy
import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolgen.compile.canonical.compiler import render_canonical_module
from toolgen.compile.canonical.reference import reference_for
from toolgen.compile.canonical.views import Unresolvable, ref_pointer, resolve
from toolgen.formats.bfcl_functions import bfcl_json_schema
from toolgen.load.contracts import Contract, Design, ProviderOptions
from toolgen.load.design import load_design
from toolgen.project.design_projection import ProviderProjection, project_design
from toolgen.project.projection import (
    OBJECT_ENCODINGS,
    ProjectedContract,
    is_object_schema,
    map_in_type_list,
    project_contract,
)
from toolgen.project.rewrites import (
    JSON_TEXTS,
    DefaultNullRequired,
    EnumAsJsonText,
    ExtraMembers,
    MapAsPairs,
    MemberAsJsonText,
    MembersRenamed,
    NullableOptionalBoxed,
    OptionalsOverCap,
    RequiredDeclared,
    Rewrite,
    RootWrapped,
    TupleAsObject,
)
from toolgen.providers import PROFILES, profile_for
from toolgen.providers import settings as provider_settings
from toolgen.providers.base import Profile
from toolgen.render.runtime_files import copied_with_imports
from toolgen.render.templating import header
from toolgen.schema import pointer as jp
from toolgen.schema import walker

OPENAI = PROFILES["openai"]
#: the encodings whose decoders the inverse applies (toolgen.project.rewrites.encodings)
ENCODINGS: tuple[type[Rewrite], ...] = (*JSON_TEXTS, ExtraMembers, MapAsPairs, TupleAsObject)
#: where the inverse reads a canonical value as an encoded one, or a canonical null as the
#: absent member it means (a default of null): identity is not claimed
NO_IDENTITY: tuple[type[Rewrite], ...] = (
    *JSON_TEXTS,
    EnumAsJsonText,
    NullableOptionalBoxed,
    DefaultNullRequired,
)


def encodes(projected: ProjectedContract, kinds: tuple[type[Rewrite], ...]) -> bool:
    """Whether the projection ``projected`` encodes a node with one of ``kinds``."""
    return any(
        isinstance(rule, kinds) for _, node in projected.rewrites.nodes for rule in node.rewrites
    )


REPO = Path(__file__).resolve().parents[2]
CORPUS_TOOLS = REPO.parent / "shared" / "corpus" / "tools"
EXAMPLE_DESIGN = REPO / "examples" / "design"


# -- compiling ---------------------------------------------------------------------------------


#: The base of every property test here: no deadline, and schema-driven draws may be slow or
#: filtered heavily. The example database and the randomness are the profile's (tests/conftest.py:
#: under CI the saved examples, then the same drawn examples every run, so a failure there
#: replays anywhere with CI set; elsewhere random, to find new failures).
#: ``examples(n)``: n examples a property, times TOOLGEN_EXAMPLES_SCALE (1 by default; a deeper
#: run sets, say, 5): the suite keeps a few per case, as it runs hundreds of cases.
EXAMPLES_SCALE = float(os.environ.get("TOOLGEN_EXAMPLES_SCALE", "1"))


def examples(count: int) -> int:
    return max(1, round(count * EXAMPLES_SCALE))


PROPERTY = settings(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


def hard_keys() -> list[str]:
    """``kind:name`` of every hand-written hard case."""
    from tests.canonical import hard_cases

    return sorted(
        [f"tool:{n}" for n in hard_cases.TOOLS] + [f"output:{n}" for n in hard_cases.OUTPUTS]
    )


@dataclass(eq=False)
class Case:
    """One projected contract with both inverses."""

    key: str  # "tool:name" or "output:name"
    projection: ProjectedContract
    compiled: Callable[[Any], Any]
    profile: Profile = OPENAI
    boxes: bool = True  # [providers.NAME] optional_nullable = "encode" (NullableOptionalBoxed)
    recursion_depth: int | None = None  # [providers.NAME] recursion_depth (unrolled, not text)

    @property
    def contract(self) -> Contract:
        return self.projection.contract

    @property
    def projected(self) -> Any:
        """The projection as JSON Schema (an OpenAPI dialect's wire form respells it)."""
        return self.projection.meaning

    def filler(self) -> Filler:
        """The provider's ``fill``: nulls for absent members where it makes them required, enum
        texts where its enums hold strings only. A tool sent non-strict gets neither (its schema is
        the canonical one)."""
        strict = self.projection.strict
        return Filler(
            self.contract.schema,
            nulls=strict and self.profile.optional_style == "nullable",
            enum_texts=strict and self.profile.string_enums,
            encodings=strict,
            boxes=strict and self.boxes,
            over_cap=self.over_cap() if strict else {},
            recursion_as_text=strict and not self.profile.recursion and not self.unrolls,
            unroll_depth=self.recursion_depth if strict and self.unrolls else None,
            members_as_text=self.members_as_text(),
            wrapped_root=self.wrapped_root(),
            profile=self.profile,
            renamed=self.renamed() if strict else {},
        )

    @property
    def unrolls(self) -> bool:
        """Whether the projection unrolls recursion (``recursion_depth``) instead of writing it
        as JSON text, where the provider refuses it."""
        return self.recursion_depth is not None and not self.profile.recursion

    def wrapped_root(self) -> str | None:
        """The member the projection wrapped the root in (RootWrapped), if it did."""
        record = self.projection.rewrites.at("")
        rules = record.rewrites if record is not None else ()
        return next((rule.member for rule in rules if isinstance(rule, RootWrapped)), None)

    def members_as_text(self) -> frozenset[str]:
        """The canonical pointers of the top-level members the projection wrote as JSON text
        (MemberAsJsonText: the provider's tool form takes members of one type only)."""
        return frozenset(
            node.canonical
            for _, node in self.projection.rewrites.nodes
            if any(isinstance(rule, MemberAsJsonText) for rule in node.rewrites)
        )

    def renamed(self) -> dict[int, dict[str, str]]:
        """The members the projection sent under other names (MembersRenamed: the provider
        refuses theirs), canonical name -> wire name, by the ``id`` of their canonical
        ``properties``; each wire name checked against the provider's rule here."""
        found: dict[int, dict[str, str]] = {}
        rule = self.profile.member_names
        for _, node in self.projection.rewrites.nodes:
            for rewrite in node.rewrites:
                if not isinstance(rewrite, MembersRenamed):
                    continue
                assert rule is not None, f"{self.profile.name} renames without a rule"
                properties = jp.resolve(self.contract.schema, jp.join(node.canonical, "properties"))
                names = {canonical: wire for wire, canonical in rewrite.names}
                assert all(rule.is_valid(wire) for wire in names.values()), names
                assert all(not rule.is_valid(canonical) for canonical in names), names
                found[id(properties)] = names
        return found

    def over_cap(self) -> dict[int, frozenset[str]]:
        """The members a projection over the provider's cap of optional members wrote required
        and nullable (OptionalsOverCap), by the ``id`` of their canonical ``properties``."""
        found: dict[int, set[str]] = {}
        record = self.projection.rewrites
        for pointer, node in record.nodes:
            for rule in node.rewrites:
                if not isinstance(rule, OptionalsOverCap):
                    continue
                for name in rule.members:
                    member = record.at(jp.join(pointer, "properties", name))
                    assert member is not None
                    owner = jp.join("", *jp.split(member.canonical)[:-1])
                    properties = jp.resolve(self.contract.schema, owner)
                    found.setdefault(id(properties), set()).add(name)
        return {key: frozenset(names) for key, names in found.items()}

    def reference(self, payload: Any) -> Any:
        return reference_for(self.projection)(payload)

    def __repr__(self) -> str:  # hypothesis and pytest ids
        return self.key

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis' own printer
        printer.text(repr(self))


@dataclass(eq=False)
class Compiled:
    source: str
    module: ModuleType
    cases: list[Case]
    design: Design | None = None  # what it was compiled from (a package renders from them too)
    projection: ProviderProjection | None = None
    #: the EXPECTED_REJECTIONS entry its cases are held to (a profile, or a variant of one)
    expectations: str = "openai"

    def __repr__(self) -> str:
        return f"<compiled {self.module.__name__}: {len(self.cases)} contracts>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis' own printer
        printer.text(repr(self))


def write_support(package: Path) -> None:
    """The fixed helpers a canonical module imports, in its package as the build writes them."""
    for name, text in copied_with_imports("_canonical_support", header()).items():
        (package / name).write_text(text, encoding="utf-8")


def import_source(source: str, folder: Path, package: str) -> ModuleType:
    """``source`` as ``<package>._canonical`` (a relative-import-only module in its package, with
    the helpers it imports)."""
    root = folder / package
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "_canonical.py").write_text(source, encoding="utf-8")
    write_support(root)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"{package}._canonical")


def compile_projection(
    design: Design, projection: ProviderProjection, folder: Path, package: str
) -> Compiled:
    rendered = render_canonical_module(design, projection, header())
    assert rendered.source is not None, rendered.diagnostics
    source = rendered.source
    module = import_source(source, folder, package)
    cases = []
    options = design.config.options_for(projection.profile.name)
    boxes = options.optional_nullable == "encode"
    for kind, table, contracts in (
        ("tool", module.TOOL_CANONICALIZERS, projection.tools),
        ("output", module.OUTPUT_CANONICALIZERS, projection.outputs),
    ):
        for projected in contracts:
            if projected.schema is not None:
                name = projected.contract.name
                cases.append(
                    Case(
                        f"{kind}:{name}",
                        projected,
                        table[name],
                        projection.profile,
                        boxes,
                        options.recursion_depth,
                    )
                )
    return Compiled(source, module, cases, design, projection)


def example_keys() -> list[str]:
    """The contracts of the example design (for parametrizing; empty when it is absent)."""
    design, _ = load_design(EXAMPLE_DESIGN, provider_settings(["openai"]))
    if design is None:
        return []
    return sorted(f"{c.kind}:{c.name}" for c in design.contracts)


def load_and_project(
    root: Path, provider: str = "openai", dialect: str | None = None
) -> tuple[Design, ProviderProjection]:
    design, diagnostics = load_design(root, provider_settings([provider]))
    assert design is not None, diagnostics
    return design, project_design(design, profile_for(provider, ProviderOptions(dialect=dialect)))


def projection_of(contracts: list[Contract]) -> ProviderProjection:
    projected = []
    for contract in contracts:
        result, _ = project_contract(contract, OPENAI, ProviderOptions(), contract.name)
        projected.append(result)
    return ProviderProjection(OPENAI, tuple(projected), (), ())


def corpus_contracts(*, json_types: bool = False) -> list[tuple[Contract, str]]:
    """Every corpus tool that meta-validates and projects, sorted, with a reason for the rest;
    with ``json_types``, also BFCL's functions with the JSON Schema type names a user porting them
    writes (BFCL writes Python's: ``dict``, ``float``...)."""
    found = []
    for path in sorted(CORPUS_TOOLS.glob("*.jsonl")):
        if path.name.endswith(".sources.jsonl"):
            continue
        for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = json.loads(line)
            schema = record.get("parameters")
            if not isinstance(schema, dict):
                continue
            if json_types and path.name.startswith("bfcl"):
                schema = bfcl_json_schema(schema)
            try:
                Draft202012Validator.check_schema(schema)  # BFCL's "type": "dict" fails here
            except Exception:  # noqa: BLE001 - any meta-validation failure: not a 2020-12 schema
                continue
            name = f"{path.stem}.{line_number}.{record.get('name') or 'output'}"
            contract = Contract(
                "tool",
                name,
                record.get("description") or "",
                schema,
                f"{path.name}:{line_number}",
                "/parameters",
            )
            try:
                result, _ = project_contract(contract, OPENAI, ProviderOptions(), "t")
            except RecursionError:
                continue  # a projection bug (recursive $ref with siblings): see test_findings
            if result.schema is not None:
                found.append((contract, name))
    return found


def sample(items: list[Any], count: int) -> list[Any]:
    """A deterministic, evenly spread sample."""
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


# -- schema transforms ---------------------------------------------------------------------------


def canonical_view(node: Any, root: Any, *, follow_bare: bool) -> dict[str, Any]:
    """``node`` as a canonical instance sees it: refs with siblings inlined (every ref when
    ``follow_bare``), ``allOf`` merged, ``oneOf`` read as ``anyOf``: the tests' own reading of
    canonical schemas (toolgen's inverses read the projection's record instead). A cycle or an
    unresolvable ref gives ``{}``."""
    if node is True or node is False or not isinstance(node, dict):
        return {}
    seen: set[str] = set()
    while True:
        ref = node.get("$ref")
        if isinstance(ref, str) and (follow_bare or set(node) - {"$ref", "$defs", "definitions"}):
            if ref in seen:
                return {}
            seen.add(ref)
            try:
                target = resolve(root, ref)
            except Unresolvable:
                return {}
            if not isinstance(target, dict):
                return {}
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        all_of = node.get("allOf")
        if isinstance(all_of, list):
            rest = {k: v for k, v in node.items() if k != "allOf"}
            merged: dict[str, Any] = {}
            for part in (*all_of, rest):
                if isinstance(part, dict):
                    merged = _both(merged, part)
            node = merged
            continue
        if "oneOf" in node and "anyOf" not in node:
            node = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
        branches = node.get("anyOf")
        if isinstance(branches, list) and len(branches) == 1 and set(node) - {"anyOf"}:
            node = _both(branches[0], {k: v for k, v in node.items() if k != "anyOf"})
            continue  # a union of one beside other keywords is their intersection
        return node


def _both(first: Any, second: dict[str, Any]) -> dict[str, Any]:
    """Two schemas of an intersection as one: their members and required members add up, the
    second's other keywords win (the tests' schemas merge without conflicts)."""
    merged = dict(first) if isinstance(first, dict) else {}
    for key, value in second.items():
        if key == "properties" and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        elif key == "required" and isinstance(merged.get(key), list):
            merged[key] = list(dict.fromkeys([*merged[key], *value]))
        else:
            merged[key] = value
    return merged


def transform(schema: Any, rule: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """``rule`` applied to every dict node of ``schema``, bottom up, through the shared walker."""

    def visit(node: Any, pointer: str) -> Any:
        node = walker.map_children(node, pointer, lambda child: visit(child.schema, child.pointer))
        return rule(node) if isinstance(node, dict) else node

    return visit(schema, "")


def closed(schema: Any) -> Any:
    """The canonical schema with the objects the projection closes silently (those that declare
    properties, and the root) closed: the domain of the completeness and identity laws."""

    def close(node: dict[str, Any]) -> dict[str, Any]:
        if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
            return {**node, "additionalProperties": False}
        return node

    result = transform(transform(schema, _merged_intersection), close)
    # a root that is a reference is closed where it points (the projection inlines it)
    if isinstance(result, dict) and "additionalProperties" not in result and "$ref" not in result:
        result = {**result, "additionalProperties": False}
    return result


def _merged_intersection(node: dict[str, Any]) -> dict[str, Any]:
    """An ``allOf`` of schemas without references, or a union of one beside other keywords, as
    the one schema the projection merges it into (and then closes, as one object)."""
    all_of = node.get("allOf")
    if isinstance(all_of, list) and all(isinstance(p, dict) and "$ref" not in p for p in all_of):
        merged: dict[str, Any] = {}
        for part in (*all_of, {k: v for k, v in node.items() if k != "allOf"}):
            merged = _both(merged, part)
        return merged
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword)
        if (
            isinstance(branches, list)
            and len(branches) == 1
            and isinstance(branches[0], dict)
            and "$ref" not in branches[0]
            and set(node) - {keyword}
        ):
            return _both(branches[0], {k: v for k, v in node.items() if k != keyword})
    return node


def recursive_sites(schema: Any) -> set[str]:
    """The pointers of the nodes whose ``$ref`` closes a cycle: its target reaches, through
    references, a schema that holds the node (the tests' own reading of recursion; the
    projection writes those as JSON text where the provider refuses recursion)."""
    targets: dict[str, str] = {}
    for node, pointer in walker.walk(schema):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(ref, str) and ref.startswith("#"):
            targets[pointer] = ref_pointer(ref)

    def holds(outer: str, pointer: str) -> bool:
        return pointer == outer or pointer.startswith(outer + "/")

    found = set()
    for site, target in targets.items():
        reached, pending = {target}, [target]
        while pending:
            at = pending.pop()
            for inner, goes in targets.items():
                if holds(at, inner) and goes not in reached:
                    reached.add(goes)
                    pending.append(goes)
        if any(holds(at, site) for at in reached):
            found.add(site)
    return found


def relaxed(
    schema: Any,
    profile: Profile = OPENAI,
    as_text: frozenset[str] = frozenset(),
    *,
    unrolls: bool = False,
) -> Any:
    """The canonical schema without what the profile drops on purpose (the canonical
    validation reports those) and with oneOf read as anyOf (the projection folds it). Where
    the profile refuses recursion, a reference that closes a cycle accepts any value: the
    projection writes it as JSON text, and its shape is the canonical validation's (unless it
    ``unrolls`` the recursion: ``recursion_depth``); so do the members at ``as_text``
    (canonical pointers: top-level members written as JSON text)."""

    def dropped(keyword: str, value: Any) -> bool:
        test = profile.keep_if.get(keyword)
        return keyword in profile.drop or (test is not None and not test(value))

    def relax(node: dict[str, Any]) -> dict[str, Any]:
        if profile.const_as_enum and "const" in node and "enum" not in node:
            node = {
                ("enum" if k == "const" else k): ([v] if k == "const" else v)
                for k, v in node.items()
            }
        node = {k: v for k, v in node.items() if not dropped(k, v)}
        keyed = MapAsPairs.pattern(node)
        if keyed is not None and not profile.keeps("pattern", keyed[0]):
            # the map's keys go out without their pattern: any key, each value of its schema
            node = {k: v for k, v in node.items() if k != "patternProperties"}
            node["additionalProperties"] = keyed[1]
        if "oneOf" in node and "anyOf" not in node:
            node = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
        return node

    by_text = not profile.recursion and not unrolls
    sites = set(as_text) | (recursive_sites(schema) if by_text else set())
    if sites:

        def untyped(node: Any, pointer: str) -> Any:
            if pointer in sites:
                return {}
            return walker.map_children(
                node, pointer, lambda child: untyped(child.schema, child.pointer)
            )

        schema = untyped(schema, "")
    return transform(schema, relax)


def is_recursive(schema: Any) -> bool:
    """Does a ``$ref`` chain of ``schema`` come back to where it started?"""

    def refs(node: Any) -> set[str]:
        return {
            n["$ref"]
            for n, _ in walker.walk(node)
            if isinstance(n, dict) and isinstance(n.get("$ref"), str)
        }

    graph: dict[str, set[str]] = {}
    pending = list(refs(schema))
    while pending:
        ref = pending.pop()
        if ref in graph:
            continue
        try:
            graph[ref] = refs(resolve(schema, ref))
        except Unresolvable:
            graph[ref] = set()
        pending += graph[ref]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in graph.get(start, ())
        )

    return any(reaches(ref, ref, set()) for ref in graph) or any(
        ref_pointer(r) == "" for r in graph
    )


# -- strategies --------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(-2, 2, allow_nan=False),
    st.text(max_size=3),
)


def instances(schema: Any) -> st.SearchStrategy[Any]:
    """Instances of a root schema: hypothesis-jsonschema where it works, else our own strategy
    (recursive schemas, 2020-12-only keywords), filtered by jsonschema either way."""
    validator = Draft202012Validator(schema)
    if not is_recursive(schema) and "prefixItems" not in json.dumps(schema):
        try:
            from hypothesis_jsonschema import from_schema

            # from_schema canonicalises the schema it is given in place (it inlined the
            # projection's $refs under the inverses' feet): it gets a copy
            strategy = from_schema(copy.deepcopy(schema))
            strategy.validate()
            return strategy.filter(validator.is_valid)
        except Exception:  # noqa: BLE001 - hypothesis-jsonschema's many refusals
            pass
    return _Own(schema).node(schema, 4, root=True).filter(validator.is_valid)


class _Own:
    """A small generator for the subset toolgen projects, bounded in depth (recursion)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.validator = Draft202012Validator(root)

    def node(self, node: Any, depth: int, *, root: bool = False) -> st.SearchStrategy[Any]:
        if depth <= 0 and isinstance(node, dict):
            # the ways out of a recursion: null (the projection made it all-required), or an
            # empty container where the schema allows one
            for smallest in (None, [], {}):
                if self.validator.evolve(schema=node).is_valid(smallest):
                    return st.just(smallest)
        if depth < -8:
            return st.nothing()  # a recursion with no way out: draw elsewhere
        view = canonical_view(node, self.root, follow_bare=True)
        if node is True or view == {}:
            return _SCALARS
        if "const" in view:
            return st.just(view["const"])
        if isinstance(view.get("enum"), list) and view["enum"]:
            return st.sampled_from(view["enum"])
        branches = view.get("anyOf")
        if isinstance(branches, list) and branches:
            return st.one_of([self.node(b, depth) for b in branches])
        types = view.get("type")
        types = (
            [types]
            if isinstance(types, str)
            else types or (["object"] if "properties" in view else ["string"])
        )
        return st.one_of([self.typed(t, view, depth) for t in types])

    def typed(self, kind: str, view: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        if kind == "null":
            return st.none()
        if kind == "boolean":
            return st.booleans()
        if kind in ("integer", "number"):
            low, high = view.get("minimum"), view.get("maximum")
            low = low if low is not None else view.get("exclusiveMinimum")
            high = high if high is not None else view.get("exclusiveMaximum")
            ints = st.integers(
                int(low) if low is not None else -100, int(high) if high is not None else 100
            )
            if kind == "integer":
                return ints
            return st.one_of(
                ints,
                st.floats(
                    low if low is not None else -100.0,
                    high if high is not None else 100.0,
                    allow_nan=False,
                ),
            )
        if kind == "string":
            pattern = view.get("pattern")
            return st.from_regex(pattern) if isinstance(pattern, str) else st.text(max_size=8)
        if kind == "array":
            items = view.get("items", True)
            least = view.get("minItems", 0)
            positions = view.get("prefixItems")
            if isinstance(positions, list) and positions and items is False:
                # a tuple: its first n positions, n from minItems to every position
                shortest = min(least, len(positions))
                longest = min(view.get("maxItems", len(positions)), len(positions))
                return st.integers(shortest, longest).flatmap(
                    lambda n: st.tuples(*(self.node(p, depth - 1) for p in positions[:n])).map(list)
                )
            most = max(least, min(view.get("maxItems", 3), 3 if depth > 0 else 0))
            if most == 0:
                return st.just([])
            return st.lists(self.node(items, depth - 1), min_size=least, max_size=most)
        if kind == "object":
            properties = view.get("properties") or {}
            required = view.get("required") or []
            must = {n: self.node(s, depth - 1) for n, s in properties.items() if n in required}
            may = {
                n: self.node(s, depth - 1)
                for n, s in properties.items()
                if n not in required and depth > 0
            }
            return st.fixed_dictionaries(must, optional=may)
        return _SCALARS


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value, small."""
    return st.recursive(
        _SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
        max_leaves=8,
    )


def mutated(data: st.DataObject, value: Any, member_names: list[str]) -> Any:
    """``value`` with some parts broken: nulls everywhere, wrong types, extra members."""
    choice = data.draw(st.integers(0, 9))
    if choice == 0:
        return data.draw(json_values())
    if choice == 1:
        return None
    if isinstance(value, dict):
        result = {k: mutated(data, v, member_names) for k, v in value.items()}
        if choice == 2:
            result = dict.fromkeys(result)
        elif choice == 3:
            result[data.draw(st.sampled_from(member_names or ["extra"]))] = data.draw(json_values())
        elif choice == 4 and result:
            del result[data.draw(st.sampled_from(sorted(result)))]
        return result
    if isinstance(value, list):
        result_list = [mutated(data, v, member_names) for v in value]
        if choice == 2:
            result_list.append(None)
        return result_list
    return value


def member_names(schema: Any) -> list[str]:
    """Every property name declared anywhere in ``schema`` (for extra members that look real)."""
    names: set[str] = set()
    for node, _ in walker.walk(schema):
        if isinstance(node, dict) and isinstance(node.get("properties"), dict):
            names.update(node["properties"])
    return sorted(names)


# -- the provider's fill ----------------------------------------------------------------------


class Filler:
    """How the provider writes a canonical instance: every absent member of an object written as
    null (``nulls``), and, where enums hold strings only (``enum_texts``), an enum value that is
    no string written as its compact JSON text. Also the expected inverse: absent again, except
    members that are optional *and* accept null written as they are (``boxes`` off:
    ``optional_nullable = "keep"``), which come back as null — the stated exception of the law.
    With ``boxes`` (the default) such a member is boxed (NullableOptionalBoxed): absent is null,
    a value ``v`` (null included) is ``{"value": v}``, and both come back as they were.

    Where the provider is strict (``encodings``), the encodings of
    toolgen.project.rewrites.encodings are written as the projection decides them
    (OBJECT_ENCODINGS of toolgen.project.projection): a map as key/value entries, an open object's extra members as
    entries of one more member, a value of any type as its JSON text (an optional one that is
    absent as null: JSON text keeps absent and null apart). Where the provider refuses recursion
    (``recursion_as_text``), a reference that closes a cycle is written as the JSON text of its
    value, which comes back as it is; so is a top-level member that the provider's tool form
    cannot take (``members_as_text``, canonical pointers: MemberAsJsonText). An output root
    that admits no object is written as the one member ``wrapped_root`` (RootWrapped)."""

    def __init__(
        self,
        canonical: Any,
        *,
        nulls: bool = True,
        enum_texts: bool = False,
        encodings: bool = False,
        boxes: bool = False,
        over_cap: Mapping[int, frozenset[str]] | None = None,
        recursion_as_text: bool = False,
        unroll_depth: int | None = None,
        members_as_text: frozenset[str] = frozenset(),
        wrapped_root: str | None = None,
        profile: Profile | None = None,
        renamed: Mapping[int, Mapping[str, str]] | None = None,
    ) -> None:
        self.wrapped_root = wrapped_root
        self.renamed = renamed or {}
        self.profile = profile
        self.root = canonical
        self.over_cap = over_cap or {}
        self.validator = Draft202012Validator(canonical)
        self.nulls = nulls
        self.enum_texts = enum_texts
        self.encodings = encodings
        self.boxes = boxes
        sites = recursive_sites(canonical) if recursion_as_text else set()
        sites |= members_as_text
        self.recursion_texts = {
            id(node) for node, pointer in walker.walk(canonical) if pointer in sites
        }
        # recursion unrolled ``unroll_depth`` levels: each recursive site's node -> its target;
        # the targets being unrolled around the value being filled
        self.unroll_depth = unroll_depth
        unrolled = recursive_sites(canonical) if unroll_depth is not None else set()
        self.unroll_targets = {
            id(node): ref_pointer(node["$ref"])
            for node, pointer in walker.walk(canonical)
            if pointer in unrolled
        }
        self.unrolled: list[str] = []

    def recursion_text(self, node: Any) -> bool:
        """Whether the projection writes ``node`` (a reference that closes a cycle) as JSON text."""
        return id(node) in self.recursion_texts

    def __call__(self, value: Any) -> tuple[Any, Any]:
        if self.wrapped_root is not None:  # the root is a member of the wrapper (RootWrapped)
            filled, expected = self.fill(value, self.root)
            return {self.wrapped_root: filled}, expected
        return self.fill(value, self.root, root=True)

    def any_value(self, node: Any, *, root: bool = False) -> bool:
        """Whether the projection writes ``node`` as JSON text (a value of any type)."""
        view = canonical_view(node, self.root, follow_bare=True)
        return (
            self.encodings
            and not root
            and not is_object_schema(view)
            and not any(k in view for k in ("type", "enum", "const", "anyOf", "oneOf", "$ref"))
        )

    def entries(self, value: dict[str, Any], schema: Any) -> tuple[list[Any], dict[str, Any]]:
        """The members of ``value`` as the key/value entries of an encoded map, and as read back."""
        pairs = [(name, self.fill(member, schema)) for name, member in value.items()]
        entries = [{"key": name, "value": filled} for name, (filled, _) in pairs]
        return entries, {name: expected for name, (_, expected) in pairs}

    def fill(self, value: Any, node: Any, *, root: bool = False) -> tuple[Any, Any]:
        target = self.unroll_targets.get(id(node))
        if target is None:
            return self._fill(value, node, root=root)
        self.unrolled.append(target)
        try:
            return self._fill(value, node, root=root)
        finally:
            self.unrolled.pop()

    def depth_reached(self, member: Any) -> bool:
        """Whether the projection removed the (optional) member of schema ``member``: it holds
        a recursive reference unrolled to the depth around the value (``recursion_depth``)."""
        assert self.unroll_depth is not None
        return any(
            self.unrolled.count(self.unroll_targets[id(node)]) >= self.unroll_depth
            for node, _ in walker.walk(member)
            if id(node) in self.unroll_targets
        )

    def _fill(self, value: Any, node: Any, *, root: bool = False) -> tuple[Any, Any]:
        view = canonical_view(node, self.root, follow_bare=True)
        declaring = RequiredDeclared.apply(view) if self.encodings and not root else None
        if declaring is not None and is_object_schema(view):
            view = declaring[0]  # its required members declared, as the projection does
        filled, expected = value, value
        properties = view.get("properties")
        encoding = (
            next((r for r in OBJECT_ENCODINGS if r.applies(view, root=root)), None)
            if self.encodings and is_object_schema(view)
            else None
        )
        if self.encodings and not root and map_in_type_list(view):
            encoding = MapAsPairs  # its type list is split, its object branch a map
        keyed = MapAsPairs.pattern(view)
        extra = keyed[1] if keyed is not None else view.get("additionalProperties", True)
        positions = TupleAsObject.length(view) if self.encodings else None
        if self.recursion_text(node) or self.any_value(node, root=root):
            filled = json.dumps(value)
        elif self.enum_as_text(view):
            filled = json.dumps(value)  # an enum of objects or arrays as JSON texts
        elif positions is not None and isinstance(value, list):
            pairs = [self.fill(v, s) for v, s in zip(value, view["prefixItems"], strict=False)]
            filled = {str(i): f for i, (f, _) in enumerate(pairs)}
            if self.nulls:
                filled.update({str(i): None for i in range(len(value), positions)})
            expected = [e for _, e in pairs]
        elif encoding is MapAsPairs and isinstance(value, dict):
            filled, expected = self.entries(value, extra)
        elif isinstance(value, dict) and (isinstance(properties, dict) or encoding is ExtraMembers):
            properties = properties if isinstance(properties, dict) else {}  # a root map's
            filled, expected = {}, {}
            required = view.get("required") or []
            wire = self.renamed.get(id(properties), {})
            for name, schema in properties.items():
                written = self.nulls or name in self.over_cap.get(id(properties), ())
                if self.unrolled and name not in required and self.depth_reached(schema):
                    written = False  # the projection has no such member at this level
                kept = (
                    written
                    and name not in required
                    and self.accepts_null(schema)
                    and not self.any_value(schema)
                    and not self.recursion_text(schema)
                )
                # null is its default: absent and null are one value, written null, read absent
                defaulted = kept and self.default_is_null(schema)
                if name in value:
                    filled[wire.get(name, name)], expected[name] = self.fill(value[name], schema)
                    if defaulted and value[name] is None:
                        del expected[name]
                    elif kept and self.boxes and not defaulted:
                        filled[wire.get(name, name)] = {"value": filled[wire.get(name, name)]}
                elif written:
                    filled[wire.get(name, name)] = None
                    if kept and not self.boxes and not defaulted:
                        expected[name] = None
            others = {name: value[name] for name in value if name not in properties}
            if encoding is ExtraMembers:
                member = ExtraMembers.name_for(properties)
                if others or self.nulls:
                    filled[member], extras = self.entries(others, extra)
                    expected.update(extras)
            else:
                filled.update(others)
                expected.update(others)
        elif isinstance(value, list) and isinstance(view.get("items"), dict):
            pairs = [self.fill(v, view["items"]) for v in value]
            filled, expected = [f for f, _ in pairs], [e for _, e in pairs]
        elif isinstance(value, list) and self.encodings and _is_array_of_any(view):
            filled = [json.dumps(v) for v in value]  # elements of any type
        elif self.enum_texts and not isinstance(value, str | dict | list) and value is not None:
            values = view.get("enum", [view["const"]] if "const" in view else None)
            if isinstance(values, list) and any(v == value for v in values):
                filled = json.dumps(value, separators=(",", ":"))
        branches = view.get("anyOf")
        if isinstance(branches, list):
            for branch in branches:
                if self.validator.evolve(schema=branch).is_valid(value):
                    filled, _ = self.fill(filled, branch)
                    _, expected = self.fill(expected, branch)
                    break
        return filled, expected

    def enum_as_text(self, view: dict[str, Any]) -> bool:
        """Whether the projection writes the values of ``view``'s enum (or const) as JSON texts:
        one is an object or array, which the provider's enums cannot hold."""
        values = view.get("enum", [view["const"]] if "const" in view else None)
        if not self.encodings or not EnumAsJsonText.structured(values):
            return False
        takes = self.profile.keep_if.get("enum")
        return self.profile.string_enums or (takes is not None and not takes(values))

    def default_is_null(self, schema: Any) -> bool:
        view = canonical_view(schema, self.root, follow_bare=True)
        return "default" in view and view["default"] is None

    def accepts_null(self, schema: Any) -> bool:
        return schema is True or (
            isinstance(schema, dict) and self.validator.evolve(schema=schema).is_valid(None)
        )


def _is_array_of_any(view: dict[str, Any]) -> bool:
    types = view.get("type")
    return (
        "items" not in view
        and not {"enum", "const"} & set(view)  # the values are given
        and (types == "array" or isinstance(types, list) and "array" in types)
    )


def projected_validator(case: Case) -> Draft202012Validator:
    return Draft202012Validator(case.projected)


__all__ = [
    "Case",
    "Compiled",
    "Filler",
    "ProjectedContract",
    "closed",
    "compile_projection",
    "corpus_contracts",
    "instances",
    "is_recursive",
    "json_values",
    "load_and_project",
    "member_names",
    "mutated",
    "projection_of",
    "recursive_sites",
    "relaxed",
    "sample",
]


#: What each profile is expected not to project, with the reason (profile -> key -> reason); a
#: contract missing from a projection and not listed here fails its law tests (a projection
#: regression is no quiet skip), and so does one listed here that projects.
EXPECTED_REJECTIONS: dict[str, dict[str, str]] = {
    "bedrock:loose": {
        "tool:keyword_named": "member names Anthropic refuses as property keys ('$ref', ''), "
        "in a tool sent non-strict: only strict mode renames them (MEMBER_NAME_REFUSED)",
        "tool:unicode.名前": "member names Anthropic refuses as property keys, in a "
        "tool sent non-strict (MEMBER_NAME_REFUSED)",
    },
    "gemini:openapi": {
        "tool:enums": "an enum of mixed values in a union: no exact text (ENUM_NOT_TEXT)",
        "tool:type_lists.enums": "an integer enum in a union split from a type list: its text "
        "could be the string branch's (ENUM_TEXT_IN_UNION)",
    },
}


def case_of(compiled: Compiled, key: str, profile: str = "openai") -> Case:
    """The case ``key`` of ``compiled`` (``profile``'s projection); fails where the contract
    does not project and EXPECTED_REJECTIONS does not say so."""
    found = {c.key: c for c in compiled.cases}
    reason = EXPECTED_REJECTIONS.get(profile, {}).get(key)
    if key in found and reason is not None:
        pytest.fail(f"{key} projects for {profile}, but EXPECTED_REJECTIONS says: {reason}")
    if key not in found:
        if reason is None:
            pytest.fail(f"{key} does not project for {profile} (not in EXPECTED_REJECTIONS)")
        pytest.skip(f"{profile} rejects {key} as expected: {reason}")
    return found[key]


# -- a tree unrolled to a depth (recursion_depth) ----------------------------------------------

#: ``[providers.X] recursion_depth`` of the unrolled tree's design
UNROLL_DEPTH = 2
#: a tree whose ``children`` recurse; the providers that refuse recursion, with their settings
UNROLLED_TREE = {
    "type": "object",
    "properties": {"tree": {"$ref": "#/$defs/Node"}},
    "required": ["tree"],
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name"],
        }
    },
}
UNROLLING_PROVIDERS = {"anthropic": "", "mistral": "", "gemini": 'dialect = "openapi"\n'}


def nesting(node: Any) -> int:
    """How many levels of a tree of UNROLLED_TREE hold ``children`` (0: the node has none)."""
    if not isinstance(node, dict) or "children" not in node:
        return 0
    return 1 + max((nesting(child) for child in node["children"]), default=0)


def within_depth(payload: Any) -> bool:
    """Whether a payload of UNROLLED_TREE nests no deeper than the projection unrolls it."""
    return nesting(payload["tree"]) <= UNROLL_DEPTH
