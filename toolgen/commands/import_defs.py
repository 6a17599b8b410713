"""The definitions an import shares: written once under ``defs/`` and referenced by every tool.

Servers that build their tools from one model write the same definitions into each tool's schema
(``$defs``, or draft 7's ``definitions``). A definition that several tools hold under the same
name with the same JSON value becomes ``defs/NAME.yaml`` (``$defs: {NAME: ...}``), and the tools'
references to it (``#/$defs/NAME...``) become ``../defs/NAME.yaml#/$defs/NAME...``, which the
loader bundles back (docs/design.md): a fix of the definition is made in one file and reaches
every tool that uses it. A definition stays in each tool when the tools disagree on its value,
or when it could not mean the same outside them: it refers to anything but another shared
definition (the tool's root, a member), or it holds ``$id``, ``$anchor`` or a dynamic reference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from toolgen.load.loader import DEFS_FOLDER
from toolgen.schema import pointer as jp
from toolgen.schema import walker

#: The keywords that hold a resource's own definitions (2020-12's, then draft 7's).
DEFINITIONS = ("$defs", "definitions")
#: The schema resources of a tool document: what a reference in it is resolved against.
RESOURCES = ("parameters", "output")
#: Keywords that make a definition mean something else once moved out of its tool.
_ANCHORED = frozenset({"$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef"})
#: What a tool file's reference to a shared definition's file starts with (tools/ beside defs/).
FROM_TOOLS = f"../{DEFS_FOLDER}/"


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _definitions(resource: Any) -> Iterable[tuple[str, str, Any]]:
    """(keyword, name, schema) of the definitions at the top of a schema resource."""
    if not isinstance(resource, dict):
        return
    for keyword in DEFINITIONS:
        entries = resource.get(keyword)
        if isinstance(entries, dict):
            for name, schema in entries.items():
                yield keyword, name, schema


def _local_target(ref: Any) -> tuple[str, list[str]] | None:
    """(definition name, the tokens below it) of a local reference into a resource's definitions;
    None for any other reference."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    try:
        tokens = jp.split(jp.ref_pointer(ref))
    except ValueError:
        return None
    if len(tokens) < 2 or tokens[0] not in DEFINITIONS:
        return None
    return tokens[1], tokens[2:]


def _needs(schema: Any) -> set[str] | None:
    """The definitions ``schema`` refers to, when it could be moved out of its tool (every
    reference a local one into the definitions, no anchor or embedded resource); else None."""
    needed: set[str] = set()
    for node, _ in walker.walk(schema):
        if not isinstance(node, dict):
            continue
        if _ANCHORED & node.keys():
            return None
        if "$ref" in node:
            target = _local_target(node["$ref"])
            if target is None:
                return None
            needed.add(target[0])
    return needed


def shared_names(
    documents: Iterable[Mapping[str, Any]], keep: Iterable[str] = (), exclude: Iterable[str] = ()
) -> tuple[list[str], list[str]]:
    """The definitions to write once, sorted: held by two tools or more (or named in ``keep``:
    shared by an earlier import), with the same value wherever they are, each referring only to
    shared ones, none of ``exclude``; and, sorted, those several tools hold that are not."""
    values: dict[str, set[str]] = {}
    holders: dict[str, set[int]] = {}
    schemas: dict[str, Any] = {}
    for index, document in enumerate(documents):
        for resource in RESOURCES:
            for _, name, schema in _definitions(document.get(resource)):
                values.setdefault(name, set()).add(_key(schema))
                holders.setdefault(name, set()).add(index)
                schemas[name] = schema
    kept, excluded = set(keep), set(exclude)
    candidates = {
        name
        for name, found in values.items()
        if len(found) == 1 and (len(holders[name]) > 1 or name in kept) and name not in excluded
    }
    needs = {name: _needs(schemas[name]) for name in candidates}
    changed = True
    while changed:  # a definition is shared only with every one it refers to
        changed = False
        for name in sorted(candidates):
            needed = needs[name]
            if needed is None or not needed <= candidates:
                candidates.discard(name)
                changed = True
    several = {name for name, found in holders.items() if len(found) > 1}
    return sorted(candidates), sorted(several - candidates)


def _fragment(tokens: list[str]) -> str:
    """A reference's fragment for a JSON pointer, percent-encoded as the loader writes one."""
    return "#" + quote(jp.join("", *tokens), safe="/$~!&'()*+,;=:@")


def _rewritten(schema: Any, files: Mapping[str, str], prefix: str) -> Any:
    """``schema`` with its references to the shared definitions (name -> file name in defs/)
    made references into their files, each written ``prefix`` + file name, and without those
    definitions in its own ``$defs``."""

    def visit(node: Any, pointer: str) -> Any:
        copied = walker.map_children(
            node, pointer, lambda child: visit(child.schema, child.pointer)
        )
        if not isinstance(copied, dict):
            return copied
        target = _local_target(copied.get("$ref"))
        if target is not None and target[0] in files:
            name, below = target
            copied["$ref"] = prefix + files[name] + _fragment(["$defs", name, *below])
        return copied

    rewritten = visit(schema, "")
    if isinstance(rewritten, dict):
        for keyword in DEFINITIONS:
            entries = rewritten.get(keyword)
            if isinstance(entries, dict) and files.keys() & entries.keys():
                left = {k: v for k, v in entries.items() if k not in files}
                if left:
                    rewritten[keyword] = left
                else:
                    del rewritten[keyword]
    return rewritten


def shared_values(documents: Iterable[Mapping[str, Any]], names: Iterable[str]) -> dict[str, Any]:
    """name -> the value of each of ``names`` (one value wherever it is: :func:`shared_names`)."""
    wanted = set(names)
    values: dict[str, Any] = {}
    for document in documents:
        for resource in RESOURCES:
            for _, name, schema in _definitions(document.get(resource)):
                if name in wanted:
                    values.setdefault(name, schema)
    return values


@dataclass(frozen=True)
class SharedPlan:
    """Where the shared definitions go: name -> its file's name in defs/."""

    files: dict[str, str]

    def tool_document(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """A tool document that refers to the shared definitions' files instead of holding them."""
        result = dict(document)
        for resource in RESOURCES:
            if resource in result:
                result[resource] = _rewritten(result[resource], self.files, FROM_TOOLS)
        return result

    def def_document(self, name: str, schema: Any) -> dict[str, Any]:
        """The document of a shared definition's file (its references to the others rewritten)."""
        return {"$defs": {name: _rewritten(schema, self.files, "")}}

    def reached(self, roots: Iterable[Any], documents: Mapping[str, Any]) -> list[str]:
        """The shared definitions the schemas ``roots`` (of tool documents as
        :meth:`tool_document` made them) reach, directly or through one another (``documents``:
        name -> :meth:`def_document`), sorted."""
        by_file = {file: name for name, file in self.files.items()}
        work = [by_file[f] for f in _files_named(roots, FROM_TOOLS) if f in by_file]
        reached: set[str] = set()
        while work:
            name = work.pop()
            if name not in reached:
                reached.add(name)
                work += [by_file[f] for f in _files_named([documents[name]], "") if f in by_file]
        return sorted(reached)


def _files_named(schemas: Iterable[Any], prefix: str) -> list[str]:
    """The file names in defs/ that references in ``schemas``, written ``prefix`` + name, name."""
    found = []
    for schema in schemas:
        for node, _ in walker.walk(schema):
            ref = node.get("$ref") if isinstance(node, dict) else None
            if isinstance(ref, str) and ref.startswith(prefix) and "#" in ref:
                file = ref[len(prefix) :].partition("#")[0]
                if "/" not in file:
                    found.append(file)
    return found
