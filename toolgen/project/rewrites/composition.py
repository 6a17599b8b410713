"""``$ref``, ``allOf`` and ``oneOf`` written in forms a provider takes: a reference inlined (or
kept bare where it recurses), the schemas of an ``allOf`` merged (and a union of one schema beside
other keywords), ``oneOf`` folded into ``anyOf``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import ANNOTATIONS, STRUCTURAL, Counterpart, Rewrite
from toolgen.schema import pointer as jp
from toolgen.schema.equality import json_equal

#: a keyword both schemas of a merge give differently, and why they cannot be one schema
Conflict = tuple[str, str]


def _open_to_others(value: Any) -> bool:
    """Whether ``additionalProperties`` (None: absent) lets any other member in, whatever it is."""
    return value is None or value is True or value == {}


def _merged_members(
    base: dict[str, Any], site: dict[str, Any]
) -> tuple[dict[str, Any], list[Conflict]]:
    """The ``properties`` of two schemas that both declare members, as one (an intersection:
    each member is in either), and why that would not be equivalent: a member both declare
    differently, or ``additionalProperties`` of one schema that would apply to a member only the
    other declares (merged, that member would escape it)."""
    ours, theirs = base["properties"], site["properties"]
    conflicts: list[Conflict] = [
        ("properties", f"member {name!r} is declared differently by both")
        for name in theirs
        if name in ours and not json_equal(ours[name], theirs[name])
    ]
    for side, other in ((base, theirs), (site, ours)):
        extra = side.get("additionalProperties")
        outside = [name for name in other if name not in side["properties"]]
        if not _open_to_others(extra) and outside:
            conflicts.append(
                (
                    "additionalProperties",
                    f"the additionalProperties of one schema would also apply to {outside[0]!r}, "
                    "which only the other declares",
                )
            )
    return {**ours, **theirs}, conflicts


def merge(
    base: dict[str, Any], site: dict[str, Any]
) -> tuple[dict[str, Any], tuple[Conflict, ...]]:
    """``base`` with the keywords of ``site`` added (the schemas' intersection, as one), and the
    keywords both give differently under JSON equality (``true`` is not ``1``; each left as
    ``base`` has it: the caller reports them, with why), unless it only describes (then the
    site's wins). Where both declare members, the members are merged (:func:`_merged_members`)
    and ``additionalProperties`` kept where that stays equivalent; required members add up."""
    merged = dict(base)
    conflicts: list[Conflict] = []
    both_declare = isinstance(base.get("properties"), dict) and isinstance(
        site.get("properties"), dict
    )
    if both_declare:
        merged["properties"], found = _merged_members(base, site)
        conflicts += found
        extras = [s["additionalProperties"] for s in (base, site) if "additionalProperties" in s]
        closed = [e for e in extras if not _open_to_others(e)]
        if closed and not found:
            merged["additionalProperties"] = closed[-1]
            if any(not json_equal(e, closed[0]) for e in closed):
                conflicts.append(("additionalProperties", "both say it, differently"))
    for keyword, value in site.items():
        if both_declare and keyword in ("properties", "additionalProperties"):
            continue
        if keyword == "required" and isinstance(value, list):
            ours = merged.get("required")
            if isinstance(ours, list):
                merged["required"] = list(dict.fromkeys([*ours, *value]))
                continue
        if (
            keyword in merged
            and not json_equal(merged[keyword], value)
            and keyword not in ANNOTATIONS | STRUCTURAL
        ):
            conflicts.append((keyword, "both give it, differently"))
            continue
        merged[keyword] = value
    return merged, tuple(conflicts)


@dataclass(frozen=True)
class RefInlined(Rewrite):
    """A ``$ref`` with sibling keywords (or at the root) became its target, merged with the
    siblings (the site's annotations win). ``target`` is the pointer of the target."""

    target: str
    annotations_only: bool  # the siblings only describe (or there are none)

    @staticmethod
    def apply(
        node: dict[str, Any], target: dict[str, Any], target_pointer: str, *, target_kept: bool
    ) -> tuple[dict[str, Any], RefInlined, tuple[Conflict, ...]]:
        """``target`` (what the ``$ref`` of ``node`` resolves to) merged with the keywords beside
        the ``$ref``, the rule, and the keywords both give differently (:func:`merge`).
        ``target_kept``: the target is projected (it stays a definition), so its inverse can serve
        a site that only adds annotations."""
        site = {k: v for k, v in node.items() if k != "$ref"}
        annotations_only = not set(site) - STRUCTURAL - ANNOTATIONS and target_kept
        merged, conflicts = merge(target, site)
        return merged, RefInlined(target_pointer, annotations_only), conflicts

    def invert(self, at: Counterpart) -> Counterpart:
        """Where the site only added annotations, the inverse is the target's: one function for
        every such site (and the same one where the reference recurses)."""
        if self.annotations_only and not at.root:
            return replace(at, call=self.target)
        return at


@dataclass(frozen=True)
class RecursiveRefKept(Rewrite):
    """A ``$ref`` with annotation siblings, met again inside its own inlining, stayed a bare
    ``$ref`` (inlining again would never end); the annotations went."""

    target: str

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], RecursiveRefKept] | None:
        """The bare ``$ref`` of ``node`` and the rule; None when a sibling does more than
        describe (it cannot go, and the reference cannot be inlined again)."""
        if set(node) - {"$ref"} - STRUCTURAL - ANNOTATIONS:
            return None
        ref = node["$ref"]
        return {"$ref": ref}, RecursiveRefKept(jp.ref_pointer(ref))

    def invert(self, at: Counterpart) -> Counterpart:
        """The target's inverse, as for any bare reference."""
        return replace(at, call=self.target)


@dataclass(frozen=True)
class AllOfMerged(Rewrite):
    """A schema of an ``allOf`` was merged into its node (the last one: an ``allOf`` of several
    is merged one schema at a time, from the last, each recorded); ``branch`` is the canonical
    pointer of the merged schema. The same values where the merge has no conflict (:func:`merge`:
    members add up, ``additionalProperties`` only where it stays equivalent)."""

    branch: str

    @staticmethod
    def apply(
        node: dict[str, Any], branch_pointer: str
    ) -> tuple[dict[str, Any], AllOfMerged, tuple[Conflict, ...]] | None:
        """The last schema of ``node``'s ``allOf`` merged with the rest of ``node`` (its
        ``allOf`` without that schema, if others are left), the rule, and the keywords both give
        differently (:func:`merge`); None when ``node`` has no ``allOf``, or its last schema is
        no schema or ``false``."""
        all_of = node.get("allOf")
        if not (isinstance(all_of, list) and all_of and isinstance(all_of[-1], dict | bool)):
            return None
        last = all_of[-1]
        if last is False:
            return None  # no value: FALSE_SCHEMA
        rest = {k: v for k, v in node.items() if k != "allOf"}
        if len(all_of) > 1:
            rest["allOf"] = all_of[:-1]
        merged, conflicts = merge({} if last is True else last, rest)
        return merged, AllOfMerged(branch_pointer), conflicts

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing to undo: the merged node holds every keyword of both."""
        return at


@dataclass(frozen=True)
class UnionOfOneMerged(Rewrite):
    """An ``anyOf`` or ``oneOf`` of one schema beside other keywords (which it intersects with,
    as an ``allOf`` of one would) was merged into its node; ``branch`` is the canonical pointer
    of that schema. Nothing to undo."""

    branch: str

    @staticmethod
    def keyword(node: dict[str, Any]) -> str | None:
        """``anyOf`` or ``oneOf`` where ``node`` has a union of one schema beside keywords other
        than annotations (alone, it is written as it is); None where it has no such union."""
        for keyword in ("anyOf", "oneOf"):
            branches = node.get(keyword)
            if isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict):
                return keyword if set(node) - {keyword} - ANNOTATIONS - STRUCTURAL else None
        return None

    @staticmethod
    def apply(
        node: dict[str, Any], keyword: str, branch_pointer: str
    ) -> tuple[dict[str, Any], UnionOfOneMerged, tuple[Conflict, ...]]:
        """The one schema of ``node``'s ``keyword`` (:meth:`keyword`; its canonical pointer
        ``branch_pointer``) merged with the rest of ``node``, the rule, and the keywords both
        give differently (:func:`merge`)."""
        rest = {k: v for k, v in node.items() if k != keyword}
        merged, conflicts = merge(node[keyword][0], rest)
        return merged, UnionOfOneMerged(branch_pointer), conflicts

    def invert(self, at: Counterpart) -> Counterpart:
        return at


@dataclass(frozen=True)
class OneOfFolded(Rewrite):
    """``oneOf`` was written as ``anyOf`` (looser; the canonical validation keeps "exactly one")."""

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], OneOfFolded]:
        """``node`` (which has a ``oneOf``) with it written as ``anyOf``, in its place."""
        return {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}, OneOfFolded()

    def invert(self, at: Counterpart) -> Counterpart:
        """The ``anyOf`` branches are the ``oneOf`` branches, in order: the first that admits a
        valid payload is its only one."""
        return at


@dataclass(frozen=True)
class TypeIntoBranches(Rewrite):
    """``{"type": T, "oneOf": [A, B]}`` (a shape MCP servers write: ``type: object`` beside a
    union of objects) became ``{"oneOf": [A and T, B and T]}``: ``T`` written into each branch
    that has no type of its own (a branch with one, or a ``$ref``, is left as it is: where it
    admits what ``T`` refuses, the projection is looser and the canonical validation keeps
    ``T``). The same payloads; nothing to undo."""

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], TypeIntoBranches] | None:
        """``node`` with its ``type`` in the branches of its union; None when the node has no
        type beside a union, or asserts more than its type there (its members would be closed
        at both levels)."""
        keyword = next((k for k in ("anyOf", "oneOf") if isinstance(node.get(k), list)), None)
        if keyword is None or "type" not in node:
            return None
        if set(node) - {"type", keyword} - ANNOTATIONS - STRUCTURAL:
            return None
        branches = [
            {"type": node["type"], **b}
            if isinstance(b, dict) and not {"type", "$ref"} & set(b)
            else b
            for b in node[keyword]
        ]
        rest = {k: v for k, v in node.items() if k not in ("type", keyword)}
        return {**rest, keyword: branches}, TypeIntoBranches()

    def invert(self, at: Counterpart) -> Counterpart:
        return at
