"""The forward plans of the testing fakes (``OUT/testing``): what a provider's model writes for a
canonical payload, read from the same record of rewrites as the inverse (``views.Reading``).

The inverse reads a provider's payload back: a node's members and items, then its union, then
its decoder (toolgen.project.rewrites.encodings). The forward undoes that, last step first: the
encoding, then the union (the first branch the canonical value fits), then members and items.
A plan is JSON data, one per contract, interpreted by toolgen/runtime/_forward.py (copied into
the package); nothing here re-decides what the projection did. Keys of a node's plan:

- ``call``: the plan of a ``$ref`` target (in ``defs``, by its projected pointer);
- ``encode``: ``[decoder, argument]``, the encoding whose decoder the inverse applies there;
- ``texts``: ``[[canonical value, text]...]``, enum values written as text (EnumStringified, or
  the texts of an encoded enum: EnumAsJsonText), each written as its text, the declared one;
- ``members`` / ``nulls`` / ``required`` / ``closed``: the declared members and their plans, the
  members the provider writes null when absent (required in the projection), the members the
  canonical value must have, and whether others are refused (for choosing a union branch);
- ``items``: the plan of the elements; ``branches``: the plans of the canonical union's branches;
- ``types`` / ``values``: the canonical JSON types and enum values of the node (absent: any),
  and ``null``: a canonical null fits (the node's null was split off into a branch).
"""

from __future__ import annotations

from typing import Any

from toolgen.compile.canonical.views import Reading, Site
from toolgen.project.projection import ProjectedContract
from toolgen.project.rewrites import EnumAsJsonText, OptionalKept, TypeListSplit
from toolgen.runtime._codecs import CODECS, decode
from toolgen.schema import pointer as jp
from toolgen.schema.equality import json_type


def forward_plan(projected: ProjectedContract) -> dict[str, Any] | None:
    """The forward plan of a projected contract: ``{"root": plan, "defs": {pointer: plan}}``;
    None where the provider's payloads are canonical as they are (a non-strict tool)."""
    if projected.meaning is None or not projected.strict:
        return None
    planner = _Planner(Reading(projected.meaning, projected.rewrites))
    root = planner.plan("", root=True)
    return {"root": root, "defs": dict(sorted(planner.defs.items()))}


def codec_value(codec: tuple[str, str], text: str) -> Any:
    """The canonical value a declared text of an encoded enum reads back as."""
    return decode(codec[0], codec[1], text)


class _Planner:
    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.defs: dict[str, dict[str, Any]] = {}

    def plan(self, pointer: str, *, root: bool = False) -> dict[str, Any]:
        site = self.reading.site(pointer, root=root)
        if site is None:
            return {}
        if site.call is not None:
            if site.call not in self.defs:
                self.defs[site.call] = {}  # taken before it is planned: recursion ends here
                self.defs[site.call] = self.plan(site.call)
            return {"call": site.call}
        plan = self._facets(site)
        if self._null_split(pointer):
            plan["null"] = True
        return plan

    def _facets(self, site: Site) -> dict[str, Any]:
        node = self.reading.node(site.pointer)
        node = node if isinstance(node, dict) else {}
        plan: dict[str, Any] = {}
        if site.decode is not None:
            plan["encode"] = list(site.decode)
        if site.values:
            plan["texts"] = [[value, text] for text, value in site.values.items()]
        elif site.decode is not None and self._texts_encoded(site):
            # an enum of encoded texts (EnumAsJsonText): each value goes out as its declared text
            plan["texts"] = [
                [codec_value(site.decode, text), text]
                for text in node["enum"]
                if isinstance(text, str)
            ]
        types = self._types(node, site)
        if types is not None:
            plan["types"] = types
        values = self._values(node, site)
        if values is not None:
            plan["values"] = values
        if site.members is not None:
            declared = node.get("required")
            required: list[str] = declared if isinstance(declared, list) else []
            plan["members"] = {name: self.plan(m.pointer) for name, m in site.members.items()}
            plan["nulls"] = [name for name in required if name in site.members]
            extras = site.decode[1] if site.decode and site.decode[0] == "extras" else None
            plan["required"] = [
                name
                for name in required
                if name in site.members
                and name != extras
                and not site.members[name].drop_null
                and not any(isinstance(r, OptionalKept) for r in self._rules(site, name))
            ]
            plan["closed"] = node.get("additionalProperties") is False and extras is None
        if site.items is not None:
            plan["items"] = self.plan(site.items)
        if site.branches is not None:
            plan["branches"] = [self.plan(branch) for branch in site.branches]
        return plan

    def _texts_encoded(self, site: Site) -> bool:
        """Whether the projection wrote the enum of ``site`` as the texts of its values."""
        return any(
            isinstance(r, EnumAsJsonText) for r in self.reading.record.rewrites(site.pointer)
        )

    def _rules(self, site: Site, member: str) -> tuple[Any, ...]:
        return self.reading.record.rewrites(jp.join(site.pointer, "properties", member))

    def _null_split(self, pointer: str) -> bool:
        """Whether the node at ``pointer`` is a wrapper whose null branch is the canonical node's
        own null (TypeListSplit): the plan stands for the first branch, and null fits too."""
        return any(
            isinstance(r, TypeListSplit) and r.null_branch
            for r in self.reading.record.rewrites(pointer)
        )

    @staticmethod
    def _types(node: dict[str, Any], site: Site) -> list[str] | None:
        if site.decode is not None:
            returns = CODECS[site.decode[0]].returns
            return list(returns) if returns else None
        declared = node.get("type")
        if declared is None:
            return None
        types = list(declared) if isinstance(declared, list) else [declared]
        for value in (site.values or {}).values():
            kind = json_type(value)
            if kind not in types:
                types.append(kind)
        return types

    @staticmethod
    def _values(node: dict[str, Any], site: Site) -> list[Any] | None:
        if site.decode is not None:
            return None
        values = node.get("enum", [node["const"]] if "const" in node else None)
        if not isinstance(values, list):
            return None
        back = site.values or {}
        return [back.get(v, v) if isinstance(v, str) else v for v in values]
