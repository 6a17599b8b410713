"""What a value holds that its schema does not declare, though the schema accepts it: members not
among an object's ``properties``, discriminator values (a content block's, an output item's or a
stream event's ``type``) that no ``if``/``then`` branch names, and values outside the constants a
union lists beside an open branch. An envelope schema declares only what toolgen reads, so these
are additive drift: nothing breaks, but code that starts relying on them needs the schema extended.

Paths are written as the runtime's drift errors write them: ``choices[0].message.annotations``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.schema import pointer as jp

_JSON_TYPES = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
    (type(None), "null"),
)


@dataclass(frozen=True, order=True)
class Undeclared:
    path: str
    what: str  # "member", "type" (a discriminator value) or "value"
    detail: str  # the member's name, or the value (a discriminator's values are names, not data)


def _json_type(value: Any) -> str:
    return next(name for kind, name in _JSON_TYPES if isinstance(value, kind))


def _accepts_type(schema: dict[str, Any], value: Any) -> bool:
    declared = schema.get("type")
    if declared is None:
        return "const" not in schema and "enum" not in schema
    kinds = declared if isinstance(declared, list) else [declared]
    kind = _json_type(value)
    return kind in kinds or (kind == "integer" and "number" in kinds)


def _member_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _Walk:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.found: list[Undeclared] = []

    def resolve(self, schema: Any) -> Any:
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 64:
            ref = schema["$ref"]
            if not ref.startswith("#"):
                return {}
            target = jp.resolve(self.root, ref[1:])
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            seen += 1
        return schema

    def walk(self, value: Any, schema: Any, path: str) -> None:
        parts: list[dict[str, Any]] = []
        open_variant = self.applicable(value, schema, path, parts)
        if isinstance(value, dict):
            self.members(value, parts, path, report=not open_variant)
        elif isinstance(value, list):
            for part in parts:
                if "items" in part:
                    for index, item in enumerate(value):
                        self.walk(item, part["items"], f"{path}[{index}]")

    def applicable(self, value: Any, schema: Any, path: str, parts: list[dict[str, Any]]) -> bool:
        """Gather the schemas that apply to ``value`` (the union branch it takes, the allOf
        branches and the ``then`` of the discriminator value it has) into ``parts``; True when
        it is a variant no branch names (its members are then not judged)."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict):
            return False
        parts.append(schema)
        unknown = False
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list):
                branch = self.union(value, schema[key], path)
                if branch is not None:
                    unknown |= self.applicable(value, branch, path, parts)
        if isinstance(schema.get("allOf"), list):
            known: dict[str, set[Any]] = {}
            for branch in (self.resolve(b) for b in schema["allOf"]):
                if not isinstance(branch, dict):
                    continue
                condition = branch.get("if")
                if not isinstance(condition, dict):
                    unknown |= self.applicable(value, branch, path, parts)
                    continue
                for member, rule in (condition.get("properties") or {}).items():
                    if isinstance(rule, dict) and "const" in rule:
                        known.setdefault(member, set()).add(rule["const"])
                        if isinstance(value, dict) and value.get(member) == rule["const"]:
                            unknown |= self.applicable(value, branch.get("then"), path, parts)
            for member, constants in known.items():
                found = value.get(member) if isinstance(value, dict) else None
                if isinstance(found, str) and found not in constants:
                    self.found.append(Undeclared(_member_path(path, member), "type", found))
                    unknown = True
        return unknown

    def members(
        self, value: dict[str, Any], parts: list[dict[str, Any]], path: str, *, report: bool
    ) -> None:
        declared = [p["properties"] for p in parts if isinstance(p.get("properties"), dict)]
        extra = [
            p["additionalProperties"]
            for p in parts
            if isinstance(p.get("additionalProperties"), dict)
        ]
        closed = declared and not extra and not any("patternProperties" in p for p in parts)
        for key, member in value.items():
            where = _member_path(path, key)
            schemas = [d[key] for d in declared if key in d] or extra
            for schema in schemas:
                self.walk(member, schema, where)
            if not schemas and closed and report:
                self.found.append(Undeclared(where, "member", key))

    def union(self, value: Any, branches: list[Any], path: str) -> Any:
        """The branch of a union that ``value`` takes (by its JSON type), noting a string outside
        the constants the union lists."""
        resolved = [self.resolve(b) for b in branches]
        constants = [
            c
            for b in resolved
            if isinstance(b, dict)
            for c in ([b["const"]] if "const" in b else b.get("enum", []))
        ]
        if constants and isinstance(value, str) and value not in constants:
            self.found.append(Undeclared(path, "value", value))
        return next((b for b in resolved if isinstance(b, dict) and _accepts_type(b, value)), None)


def undeclared(
    value: Any, schema: dict[str, Any], root: dict[str, Any] | None = None
) -> list[Undeclared]:
    """Everything in ``value`` that ``schema`` leaves undeclared, sorted and without repeats;
    its local references are resolved in ``root`` (default: ``schema`` itself)."""
    walk = _Walk(schema if root is None else root)
    walk.walk(value, schema, "")
    return sorted(set(walk.found))
