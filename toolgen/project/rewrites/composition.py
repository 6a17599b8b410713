"""``$ref``, ``allOf`` and ``oneOf`` written in forms a provider takes: a reference inlined (or
kept bare where it recurses), a one-schema ``allOf`` merged, ``oneOf`` folded into ``anyOf``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from toolgen.project.rewrites.rule import ANNOTATIONS, STRUCTURAL, Counterpart, Rewrite
from toolgen.schema import pointer as jp
from toolgen.schema.equality import json_equal


def merge(base: dict[str, Any], site: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``base`` with the keywords of ``site`` added, and the keywords both give differently under
    JSON equality (``true`` is not ``1``; each left as ``base`` has it: the caller reports them),
    unless it only describes (then the site's wins)."""
    merged = dict(base)
    conflicts: list[str] = []
    for keyword, value in site.items():
        if (
            keyword in merged
            and not json_equal(merged[keyword], value)
            and keyword not in ANNOTATIONS | STRUCTURAL
        ):
            conflicts.append(keyword)
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
    ) -> tuple[dict[str, Any], RefInlined, tuple[str, ...]]:
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
    """A one-element ``allOf`` was merged into its node; ``branch`` is the canonical pointer of
    the merged branch."""

    branch: str

    @staticmethod
    def apply(
        node: dict[str, Any], branch_pointer: str
    ) -> tuple[dict[str, Any], AllOfMerged, tuple[str, ...]] | None:
        """The branch of ``node``'s one-schema ``allOf`` merged with the rest of ``node``, the
        rule, and the keywords both give differently (:func:`merge`); None when ``node`` has no
        such ``allOf``."""
        all_of = node.get("allOf")
        if not (isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict)):
            return None
        rest = {k: v for k, v in node.items() if k != "allOf"}
        merged, conflicts = merge(all_of[0], rest)
        return merged, AllOfMerged(branch_pointer), conflicts

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing to undo: the merged node holds every keyword of both."""
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
