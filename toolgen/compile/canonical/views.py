"""What the inverse reads at each node of a projection, shared by the reference inverse and the
compiler so both read it the same way.

The projection records how it made every node (toolgen.project.rewrites). A :class:`Reading` answers, from
that record and the projected schema alone, what the inverse needs where it stands for one
canonical node (a :class:`Site`): the members whose null the projection added, the items, the
branches of the canonical union, the enum texts to read back as canonical values, or the ``$ref``
target whose inverse applies there. Nothing here
recognises a shape: a wrapper is stepped into, a null branch set aside, because the record says
the projection wrote them. ``tolerant`` gives the projected schema in which absent means null (the
form the inverse tests union branches against).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolgen.project.rewrites import RewriteRecord
from toolgen.schema import pointer as jp
from toolgen.schema import refs, walker
from toolgen.schema.nullability import NullOracle


class Unresolvable(LookupError):
    """A ``$ref`` that names nothing in its root (such a contract is never projected)."""


def resolve(root: Any, ref: str) -> Any:
    """The target of a local ``$ref`` in ``root`` (the fragment after ``#``)."""
    try:
        return jp.resolve(root, jp.ref_pointer(ref))
    except (KeyError, ValueError) as error:
        raise Unresolvable(ref) from error


def ref_pointer(ref: str) -> str:
    """The JSON pointer a local ``$ref`` names, the key of its function in compiled code."""
    return jp.ref_pointer(ref)


@dataclass(frozen=True)
class Member:
    """A declared member: where its projected form is, and whether null there is the absent
    member (then its null goes: the projection made the optional member nullable, or boxed it)."""

    name: str
    pointer: str
    drop_null: bool


@dataclass(frozen=True, eq=False)
class Site:
    """The inverse at one canonical node: a call to the inverse of ``call`` (a projected pointer),
    or the facets of the node at ``pointer``, applied in order (object or array, then union)."""

    pointer: str
    call: str | None = None
    members: Mapping[str, Member] | None = None  # None: not an object with properties
    items: str | None = None  # the pointer of the items schema
    branches: tuple[str, ...] | None = None  # the pointers of the canonical union's branches
    values: Mapping[str, Any] | None = None  # enum text -> canonical value (EnumStringified)
    decode: tuple[str, str] | None = None  # the decoder applied last (rewrites.encodings)


class Reading:
    """One projected schema read through its rewrite record."""

    def __init__(self, projected: Any, record: RewriteRecord) -> None:
        self.projected = projected
        self.record = record
        self._sites: dict[tuple[str, bool], Site | None] = {}

    def node(self, pointer: str) -> Any:
        return jp.resolve(self.projected, pointer)

    def site(self, pointer: str, *, root: bool = False) -> Site | None:
        """The site of the canonical node projected at ``pointer``; None where the projection
        has nothing (a ``$ref`` chain that does not end)."""
        key = (pointer, root)
        if key not in self._sites:
            self._sites[key] = self._site(pointer, root=root)
        return self._sites[key]

    def _site(self, pointer: str, *, root: bool) -> Site | None:
        at = self.record.counterpart(pointer, root=root)
        if at.call is not None:
            return self._call(at.call)
        try:
            node = self.node(at.pointer)
        except KeyError:
            return None
        values = dict(at.values) if at.values else None
        if not isinstance(node, dict):
            return Site(at.pointer, values=values, decode=at.decode)
        if isinstance(node.get("$ref"), str):  # the projection keeps a $ref only bare
            return self._call(jp.ref_pointer(node["$ref"]))
        members = None
        if isinstance(node.get("properties"), dict):
            members = {}
            for name in node["properties"]:
                member = jp.join(at.pointer, "properties", name)
                members[name] = Member(name, member, self.record.made_nullable(member))
        items = jp.join(at.pointer, "items") if isinstance(node.get("items"), dict | bool) else None
        branches = node.get("anyOf")
        union = None
        if isinstance(branches, list):
            count = len(branches) - (1 if at.null_branch else 0)
            union = tuple(jp.join(at.pointer, "anyOf", i) for i in range(count)) or None
        return Site(
            at.pointer,
            members=members,
            items=items,
            branches=union,
            values=values,
            decode=at.decode,
        )

    def _call(self, target: str) -> Site | None:
        """A call to the inverse of ``target``, a chain of bare references followed (the function
        of the last is the one called)."""
        try:
            end = refs.chase(target, self._referred, lambda _, next_target: next_target)
        except (refs.RefCycle, KeyError):
            return None
        return Site(end, call=end)

    def _referred(self, target: str) -> str | None:
        """The target the inverse of ``target`` defers to: that of its bare ``$ref``, if any."""
        node = self.node(self.record.counterpart(target).pointer)
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            return jp.ref_pointer(node["$ref"])
        return None


def tolerant(projected: Any) -> Any:
    """``projected`` in which a member that accepts null may also be absent: absent and null mean
    the same to the inverse. On a provider's payload (every member present) it decides exactly
    as ``projected``; on a canonical payload (optional members absent) it still finds its branch.
    """
    oracle = NullOracle(projected)

    def relax(node: Any, pointer: str) -> Any:
        node = walker.map_children(node, pointer, lambda child: relax(child.schema, child.pointer))
        if not isinstance(node, dict) or not isinstance(node.get("required"), list):
            return node
        return {**node, "required": must_be_present(node, oracle)}

    return relax(projected, "")


def must_be_present(projected: dict[str, Any], oracle: NullOracle) -> list[str]:
    """The members of a projected object that the tolerant form still requires."""
    required = projected.get("required")
    if not isinstance(required, list):
        return []
    properties = projected.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    return [
        name
        for name in required
        if name not in properties or not oracle.accepts_null(properties[name])
    ]
