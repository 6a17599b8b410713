"""Bundling: relative ``$ref`` across design files become local ``#/$defs/<name>`` references.

Each tool or output schema is a resource whose base is its file; a reference such as
``../defs/money.yaml#/$defs/Money`` names a schema in another file. Every such target becomes one
design-wide shared definition (one name, one schema), copied into the ``$defs`` of each contract that
uses it, directly or through other shared definitions. Cycles through files are fine: targets are
collected with a worklist, never by recursion over references.

A contract keeps only the definitions its schema reaches: an entry of its own ``$defs`` (or
``definitions``) that no reference from the rest of the schema leads to, directly or through other
entries, is left out, with the references inside it (an MCP server that writes the same ``$defs``
into every tool sends, checks and counts only what each tool uses). A broken reference in such an
entry is still reported: it is an error in the design file, whatever uses it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from toolgen.infra.diagnostics import DESIGN, Diagnostic
from toolgen.load.contracts import SharedDef
from toolgen.schema import pointer as jp
from toolgen.schema import walker
from toolgen.schema.refs import definition_entries, definition_entry

#: A schema location in the design: (file relative to the design folder, JSON pointer in that file).
Location = tuple[str, str]


@dataclass
class Documents:
    """The parsed design files and, for each, the pointer of the schema resource it holds."""

    values: dict[str, Any]
    resource_pointer: Callable[[str], str]
    #: files whose text holds no ``$ref`` key (toolgen.load.sources.may_hold_ref): not walked
    without_refs: frozenset[str] = frozenset()

    def resolve(self, location: Location) -> Any:
        file, pointer = location
        return jp.resolve(self.values[file], pointer)


@dataclass(frozen=True)
class _Ref:
    """One ``$ref`` found in a schema: where it is written and what it designates."""

    where: Location  # the ``$ref`` keyword itself
    local: bool  # stays a reference inside the same resource
    target: Location | None  # None when the reference is broken (a diagnostic says why)
    local_form: str | None = None  # a local reference spelled with its own file name, as "#..."
    hoisted: bool = False  # a same-file reference made a shared definition (_refs_in)


def _classify(
    ref: Any, base_file: str, where: Location, docs: Documents, resource: str | None = None
) -> tuple[_Ref, list[Diagnostic]]:
    """``resource``: the pointer a same-file reference is resolved from, when not the file's
    own resource (a tool file's ``output`` beside its ``parameters``)."""

    def broken(code: str, message: str) -> tuple[_Ref, list[Diagnostic]]:
        return _Ref(where, False, None), [Diagnostic(where[0], where[1], DESIGN, code, message)]

    if not isinstance(ref, str):
        return broken("INVALID_REF", "$ref must be a string")
    uri, _, fragment = ref.partition("#")
    if fragment and not fragment.startswith("/"):
        return broken("UNSUPPORTED_REF", f"$ref {ref!r}: only JSON-pointer fragments are supported")
    if ":" in uri or uri.startswith("/"):
        return broken(
            "UNSUPPORTED_REF", f"$ref {ref!r}: only relative references inside the design"
        )
    fragment = jp.unescape_uri(fragment)
    if uri == "":
        target_file = base_file
    else:
        target_file = posixpath.normpath(posixpath.join(posixpath.dirname(base_file), uri))
        if target_file.startswith("../") or target_file == "..":
            return broken("REF_OUTSIDE_DESIGN", f"$ref {ref!r} leaves the design folder")
        if target_file not in docs.values:
            return broken("REF_FILE_NOT_FOUND", f"$ref {ref!r}: no design file {target_file}")
    base = resource if resource is not None and uri == "" else docs.resource_pointer(target_file)
    target = (target_file, base + fragment)
    try:
        docs.resolve(target)
    except KeyError:
        return broken(
            "REF_NOT_FOUND", f"$ref {ref!r}: nothing at {fragment or '#'} in {target_file}"
        )
    if uri and target_file == base_file:  # "t.yaml#/$defs/X" inside t.yaml is "#/$defs/X"
        return _Ref(where, True, target, "#" + ref.partition("#")[2]), []
    return _Ref(where, uri == "", target), []


def _at_top(pointer: str, resource: str) -> bool:
    """Whether ``pointer`` is the resource at ``resource`` or one of its own definitions (an
    entry of its ``$defs`` or ``definitions``): where a local reference may stay one."""
    if not (pointer == resource or pointer.startswith(resource + "/")):
        return False
    tokens = jp.split(pointer[len(resource) :])
    return not tokens or (len(tokens) == 2 and tokens[0] in ("$defs", "definitions"))


def _refs_in(
    location: Location, docs: Documents, *, local_is_shared: bool, resource: str | None = None
) -> tuple[list[_Ref], list[Diagnostic]]:
    """The references inside the schema at ``location``.

    In a contract's own schema a same-file reference to the schema itself or to one of its own
    definitions stays local; one to any other node (a definition of an embedded resource, a
    member) designates a shared definition, like a reference into another file: the projection
    wraps and moves the nodes of a contract, so a reference to one of them would point elsewhere,
    or nowhere. Inside a shared definition every reference (local ones included) designates
    another shared definition. ``resource``: the pointer a same-file reference inside a shared
    definition is resolved from, when not the file's own resource.
    """
    file, base_pointer = location
    refs: list[_Ref] = []
    diagnostics: list[Diagnostic] = []
    if file in docs.without_refs:
        return refs, diagnostics
    for node, pointer in walker.walk(docs.resolve(location)):
        if isinstance(node, dict) and "$ref" in node:
            where = (file, base_pointer + jp.join(pointer, "$ref"))
            ref, found = _classify(
                node["$ref"], file, where, docs, resource if local_is_shared else base_pointer
            )
            target = ref.target
            if target is not None and (
                local_is_shared or (ref.local and not _at_top(target[1], base_pointer))
            ):
                ref = _Ref(ref.where, False, target, hoisted=ref.local and not local_is_shared)
            refs.append(ref)
            diagnostics.extend(found)
    return refs, diagnostics


def _reached(root: Location, schema: Any, refs: list[_Ref]) -> tuple[list[_Ref], frozenset[str]]:
    """The references of a contract's schema (``schema``, at ``root``; ``refs``: its
    ``_refs_in``) that apply, and the pointers of its own definitions that none of them reaches.
    A reference applies when it is outside the definitions, or inside one that a reference that
    applies names; a reference to a node inside a definition (made a shared definition of its
    own) reaches that node only."""
    file, resource = root
    inside: dict[str | None, list[_Ref]] = {}
    for ref in refs:
        inside.setdefault(definition_entry(ref.where[1], resource), []).append(ref)
    reached: set[str | None] = {None}
    pending = list(inside.get(None, ()))
    while pending:
        ref = pending.pop()
        if not ref.local or ref.target is None or ref.target[0] != file:
            continue
        entry = definition_entry(ref.target[1], resource)
        if entry is not None and entry not in reached:
            reached.add(entry)
            pending.extend(inside.get(entry, ()))
    entries = definition_entries(schema, resource)
    applying = [ref for ref in refs if definition_entry(ref.where[1], resource) in reached]
    return applying, frozenset(entries.difference(reached))


def _preferred_name(location: Location) -> str:
    file, pointer = location
    tokens = jp.split(pointer)
    stem = posixpath.basename(file).rsplit(".", 1)[0]
    return tokens[-1] if tokens else stem


def _assign_names(
    targets: set[Location],
    reserved: frozenset[str] = frozenset(),
    inner: frozenset[Location] = frozenset(),
) -> dict[Location, str]:
    """Design-wide unique names: the last pointer token, qualified by the file stem on a clash;
    a target of ``inner`` (a node inside a contract, made shared by a local reference) also
    avoids the ``reserved`` names (the contracts' own definitions', which its copy sits beside)."""
    ordered = sorted(targets)
    wanted: dict[str, list[Location]] = {}
    for target in ordered:
        wanted.setdefault(_preferred_name(target), []).append(target)
    names: dict[Location, str] = {}
    taken: set[str] = set()
    for target in ordered:
        name = _preferred_name(target)
        if len(wanted[name]) > 1 or (target in inner and name in reserved):
            stem = posixpath.basename(target[0]).rsplit(".", 1)[0]
            name = f"{stem}.{name}"
        candidate, index = name, 2
        while candidate in taken or (target in inner and candidate in reserved):
            candidate, index = f"{name}_{index}", index + 1
        names[target] = candidate
        taken.add(candidate)
    return names


def _def_ref(name: str) -> str:
    """The local reference to a shared definition: a JSON pointer, percent-encoded as a URI fragment."""
    return "#" + quote(jp.join("/$defs", name), safe="/$~!&'()*+,;=:@")


def _rewrite(
    schema: Any,
    base: Location,
    replacements: dict[str, str],
    dropped: frozenset[str] = frozenset(),
) -> Any:
    """A copy of ``schema`` with the ``$ref`` values at the given pointers replaced, and without
    the definitions at the pointers ``dropped`` (each a shared definition of its own now)."""

    def visit(node: Any, pointer: str) -> Any:
        copied = walker.map_children(
            node, pointer, lambda child: visit(child.schema, child.pointer)
        )
        if not isinstance(copied, dict):
            return copied
        ref_pointer = base[1] + jp.join(pointer, "$ref")
        if ref_pointer in replacements:
            copied["$ref"] = replacements[ref_pointer]
        for keyword in ("$defs", "definitions"):
            entries = copied.get(keyword)
            if dropped and isinstance(entries, dict):
                at = base[1] + jp.join(pointer, keyword)
                kept = {k: v for k, v in entries.items() if jp.join(at, k) not in dropped}
                if len(kept) < len(entries):
                    if kept:
                        copied[keyword] = kept
                    else:
                        del copied[keyword]
        return copied

    return visit(schema, "")


def _below(pointer: str, holder: str) -> bool:
    return pointer == holder or pointer.startswith(holder + "/")


def _is_definition(pointer: str) -> bool:
    """Whether ``pointer`` names a definition (an entry of ``$defs`` or ``definitions``)."""
    tokens = jp.split(pointer)
    return len(tokens) >= 2 and tokens[-2] in ("$defs", "definitions")


@dataclass(frozen=True)
class Targets:
    """Every shared target of a design's contracts, with the references inside each and its
    design-wide name, and the shared definitions they become."""

    refs: dict[Location, list[_Ref]]
    names: dict[Location, str]
    shared: dict[str, SharedDef]


@dataclass
class Bundler:
    docs: Documents
    #: what the last bundle found (:meth:`bundle`), for :meth:`bundle_again`
    targets: Targets | None = None
    #: the contract resources being bundled
    roots: list[Location] = field(default_factory=list)

    def bundle(
        self, roots: list[Location]
    ) -> tuple[list[tuple[Any, dict[str, SharedDef]]], dict[str, SharedDef], list[Diagnostic]]:
        """Bundle each root schema; returns (schema, shared defs it uses) per root, all shared defs, diagnostics."""
        self.roots = roots
        root_refs, unreached, diagnostics = self._root_refs(roots)

        # Collect the closure of shared targets with a worklist (cycles across files terminate).
        target_refs: dict[Location, list[_Ref]] = {}
        pending = [r.target for refs in root_refs for r in refs if not r.local and r.target]
        while pending:
            target = pending.pop()
            if target in target_refs:
                continue
            refs, found = _refs_in(
                target, self.docs, local_is_shared=True, resource=self._resource(target)
            )
            target_refs[target] = refs
            diagnostics.extend(found)
            pending.extend(r.target for r in refs if r.target)

        inner = frozenset(t for t in target_refs if self._inside_contract(t))
        names = _assign_names(set(target_refs), self._root_definitions(roots), inner)
        nested = {t for t in inner if _is_definition(t[1])}  # each a shared definition now
        shared: dict[str, SharedDef] = {}
        for target, refs in target_refs.items():
            replacements = {r.where[1]: _def_ref(names[r.target]) for r in refs if r.target}
            inside = frozenset(d for d in nested if d[0] == target[0] and _below(d[1], target[1]))
            schema = _rewrite(
                self.docs.resolve(target), target, replacements, frozenset(p for _, p in inside)
            )
            shared[names[target]] = SharedDef(names[target], target[0], target[1], schema)
        self.targets = Targets(target_refs, names, shared)
        return self._assemble(roots, root_refs, unreached, diagnostics), shared, diagnostics

    def bundle_again(
        self, roots: list[Location], targets: Targets
    ) -> list[tuple[Any, dict[str, SharedDef]]] | None:
        """:meth:`bundle` of some roots of a design whose shared targets are ``targets`` (a
        design the last bundle saw, with these roots changed): None when a root's references
        find a problem or a target outside ``targets`` (its name would depend on the design's
        other targets), else the same as :meth:`bundle` of every root gives these (a target's
        name and definition are functions of the set of targets and their files alone)."""
        root_refs, unreached, diagnostics = self._root_refs(roots)
        if diagnostics or any(
            r.target not in targets.names for refs in root_refs for r in refs if not r.local
        ):
            return None
        self.targets = targets
        bundled = self._assemble(roots, root_refs, unreached, diagnostics)
        return None if diagnostics else bundled

    def _resource(self, target: Location) -> str | None:
        """The pointer of the contract resource (a root) that holds ``target``, the deepest one
        (a tool's output beside its parameters); None outside every root."""
        holders = [p for f, p in self.roots if f == target[0] and _below(target[1], p)]
        return max(holders, key=len) if holders else None

    def _inside_contract(self, target: Location) -> bool:
        """Whether ``target`` is a node inside a contract's schema that is neither the schema
        nor one of its own definitions (made shared by a local reference: _refs_in)."""
        resource = self._resource(target)
        return resource is not None and not _at_top(target[1], resource)

    def _root_definitions(self, roots: list[Location]) -> frozenset[str]:
        """The names of the roots' own definitions."""
        names: set[str] = set()
        for root in roots:
            schema = self.docs.resolve(root)
            for keyword in ("$defs", "definitions"):
                entries = schema.get(keyword) if isinstance(schema, dict) else None
                names.update(entries if isinstance(entries, dict) else ())
        return frozenset(names)

    def _root_refs(
        self, roots: list[Location]
    ) -> tuple[list[list[_Ref]], list[frozenset[str]], list[Diagnostic]]:
        """Per root, the references that apply and its definitions none reaches (:func:`_reached`);
        the problems of every reference, those of unreached definitions too."""
        diagnostics: list[Diagnostic] = []
        root_refs: list[list[_Ref]] = []
        unreached: list[frozenset[str]] = []
        for root in roots:
            refs, found = _refs_in(root, self.docs, local_is_shared=False)
            applying, left_out = _reached(root, self.docs.resolve(root), refs)
            root_refs.append(applying)
            unreached.append(left_out)
            diagnostics.extend(found)
        return root_refs, unreached, diagnostics

    def _assemble(
        self,
        roots: list[Location],
        root_refs: list[list[_Ref]],
        unreached: list[frozenset[str]],
        diagnostics: list[Diagnostic],
    ) -> list[tuple[Any, dict[str, SharedDef]]]:
        assert self.targets is not None
        target_refs, names, shared = self.targets.refs, self.targets.names, self.targets.shared
        bundled: list[tuple[Any, dict[str, SharedDef]]] = []
        for root, refs, left_out in zip(roots, root_refs, unreached, strict=True):
            external = [r for r in refs if not r.local and r.target]
            replacements = {r.where[1]: _def_ref(names[r.target]) for r in external if r.target}
            replacements.update(
                {r.where[1]: r.local_form for r in refs if r.local and r.local_form}
            )
            used = self._closure(
                [names[r.target] for r in external if r.target], target_refs, names
            )
            schema = self.docs.resolve(root)
            dropped = left_out | frozenset(
                r.target[1]
                for r in external
                if r.hoisted and r.target and _is_definition(r.target[1])
            )
            if replacements or used or dropped:  # else the copy would equal the authored schema
                schema = _rewrite(schema, root, replacements, dropped)
            if used:
                diagnostics.extend(self._name_clashes(schema, root, used))
                if isinstance(schema, dict):
                    local_defs = dict(schema.get("$defs") or {})
                    local_defs.update({name: shared[name].schema for name in used})
                    schema["$defs"] = local_defs
            bundled.append((schema, {name: shared[name] for name in used}))
        return bundled

    @staticmethod
    def _closure(
        start: list[str], target_refs: dict[Location, list[_Ref]], names: dict[Location, str]
    ) -> list[str]:
        by_name = {name: target for target, name in names.items()}
        seen: set[str] = set()
        pending = list(start)
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            pending.extend(names[r.target] for r in target_refs[by_name[name]] if r.target)
        return sorted(seen)

    def _name_clashes(self, schema: Any, root: Location, used: list[str]) -> list[Diagnostic]:
        """A local definition with the name of a shared one this schema uses, unless the shared
        one is that very definition (a node of the schema made shared refers to it)."""
        local = schema.get("$defs") if isinstance(schema, dict) else None
        if not isinstance(local, dict):
            return []
        assert self.targets is not None
        shared = self.targets.shared
        return [
            Diagnostic(
                root[0],
                jp.join(root[1], "$defs", name),
                DESIGN,
                "DEFS_NAME_CLASH",
                f"local definition {name!r} has the name of a shared definition this schema uses; rename it",
            )
            for name in used
            if name in local
            and (shared[name].file, shared[name].pointer)
            != (root[0], jp.join(root[1], "$defs", name))
        ]
