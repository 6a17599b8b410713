"""The canonicalizer compiler: canonical schema + projection -> straight-line Python
(``OUT/_canonical.py``).

Two stages. ``_Planner`` reads each projected contract once, through its record of rewrites and the
same reading as the reference inverse (``views.Reading``), into a small plan: per object the
members whose null goes and the members to descend into, per array the plan of its items, per
union its branches with their projected forms, and ``$ref`` targets as named functions (recursion
becomes a call). A fixed point then finds which plans can change a dict or a list at all; the rest
emit nothing.

``_UnitCompiler`` writes the plans out with the shared code-generation library
(``toolgen.render.codegen``: line emitter, names).
A union's branch test is compiled too (``_Checks``): one function per projected branch that
decides exactly as jsonschema on that (tolerant) branch, keyword by keyword from a table. Values
reach the source only through ``repr``; constants are hoisted and shared. Nothing in the output
walks a schema at run time.

Each contract is compiled alone, into a unit whose module-level names are local
(``toolgen.compile.canonical.units``), cached per contract (``caching``); the units are then linked into
the module (``linker``: global names in contract order, shared functions and constants once).

A projection the compiler cannot compile (a profile keeps a keyword the branch tests do not know)
is a ``CANONICALIZER_COMPILE`` diagnostic at the canonical node, never a traceback.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolgen.compile.canonical.caching import cached_units
from toolgen.compile.canonical.helpers import (
    RESERVED,
    SUPPORT_MODULE,
    import_statement,
    support_import,
)
from toolgen.compile.canonical.linker import PATTERN_HINT, CompiledParts, link
from toolgen.compile.canonical.rejoin import keep_texts, kept_texts, rejoined
from toolgen.compile.canonical.split import part_name, split_module
from toolgen.compile.canonical.units import (
    ADMITS,
    BRANCH,
    CANON,
    ROOT,
    VALID,
    Recorder,
    Unit,
    number,
)
from toolgen.compile.canonical.views import (
    Reading,
    Unresolvable,
    must_be_present,
    ref_pointer,
    resolve,
)
from toolgen.infra.cache import digest
from toolgen.infra.diagnostics import Diagnostic
from toolgen.infra.parallel import Later, Runner, stored_later
from toolgen.load.contracts import Contract, Design
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract
from toolgen.project.rewrites import RewriteRecord, record_to_json
from toolgen.render.codegen import LineEmitter
from toolgen.render.templating import format_later, render
from toolgen.runtime._codecs import CODECS
from toolgen.schema import pointer as jp
from toolgen.schema.nullability import NullOracle
from toolgen.schema.refs import local_refs


class CompileError(Exception):
    """A projected schema the branch-test compiler cannot compile: a keyword it does not know (a
    toolgen bug: every keyword a provider profile keeps must have a method here), or a value it
    cannot write (a pattern that is not a Python regular expression). ``pointer`` is the projected
    node, set by the innermost node test it passes through; ``keyword`` the keyword, when one is
    to blame."""

    def __init__(self, message: str, keyword: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.keyword = keyword
        self.pointer: str | None = None

    def at(self, pointer: str) -> CompileError:
        if self.pointer is None:
            self.pointer = pointer
        return self


# -- plans -----------------------------------------------------------------------------------


@dataclass
class _Context:
    """One projected contract: its projected root read through its record, and a null oracle."""

    contract: Contract
    provider: str
    projected: Any
    record: RewriteRecord
    reading: Reading
    projected_nulls: NullOracle
    _shared_forms: dict[str, str] = field(default_factory=dict)

    def error(self, error: CompileError) -> tuple[str, str]:
        """The compile error at the canonical node the failing projected node came from:
        (canonical pointer, message), a diagnostic once linked (:func:`_diagnostic`)."""
        pointer = self.record.canonical_pointer(error.pointer or "")
        if error.keyword is not None:
            pointer = jp.join(pointer, error.keyword)
        return pointer, f"cannot compile the inverse canonicalizer: {error.message}"

    def function_key(self, pointer: str, prefix: str) -> tuple[str, ...]:
        """Functions of shared definitions are the same in every contract that projects them
        alike (:meth:`shared_form`)."""
        parts = pointer.split("/")
        if len(parts) == 3 and parts[1] == "$defs" and parts[2] in self.contract.shared:
            return (prefix, "shared", parts[2], self.shared_form(pointer))
        return (prefix, self.contract.kind, self.contract.name, pointer)

    def shared_form(self, pointer: str) -> str:
        """A digest of how this contract projects the shared definition at ``pointer``: the
        projected definitions it reaches and their records. A provider may project one
        definition differently in two contracts (a cap on optional members counted per
        schema writes some of its members required and nullable in one only); each
        projection then has an inverse of its own. A definition that reaches a node of the
        contract's own is this contract's alone."""
        found = self._shared_forms.get(pointer)
        if found is not None:
            return found
        reached: list[str] = []
        pending = [pointer]
        own = False
        while pending:
            at = pending.pop()
            if at in reached:
                continue
            reached.append(at)
            for _, target in local_refs(jp.resolve(self.projected, at)):
                parts = target.split("/")
                if len(parts) == 3 and parts[1] == "$defs" and parts[2] in self.contract.shared:
                    pending.append(target)
                else:
                    own = True
        reached.sort()
        nodes = tuple(
            (at, node)
            for at, node in self.record.nodes
            if any(at == d or at.startswith(d + "/") for d in reached)
        )
        found = digest(
            [[d, jp.resolve(self.projected, d)] for d in reached],
            record_to_json(RewriteRecord(nodes)),
            [self.contract.kind, self.contract.name] if own else None,
        )
        self._shared_forms[pointer] = found
        return found

    def function_hint(self, pointer: str) -> str:
        parts = pointer.split("/")
        if len(parts) == 3 and parts[1] == "$defs" and parts[2] in self.contract.shared:
            return f"def {parts[2]}"
        return f"{self.contract.kind} {self.contract.name} {pointer}"


@dataclass
class _Member:
    name: str
    drop_null: bool  # null is the absent member (made nullable, or boxed)
    child: _Plan


@dataclass
class _Branch:
    plan: _Plan
    form: Any  # the projected branch
    context: _Context
    pointer: str  # of the projected branch


@dataclass
class _Plan:
    """The inverse at one node: a call, or facets applied in order (object or array, then union)."""

    call: str | None = None  # the function of a $ref target
    members: list[_Member] = field(default_factory=list)
    items: _Plan | None = None
    branches: list[_Branch] = field(default_factory=list)
    values: dict[str, Any] | None = None  # enum text -> canonical value
    decode: tuple[str, str] | None = None  # (decoder, argument), applied last


@dataclass
class _Function:
    name: str
    plan: _Plan


class _Planner:
    """Canonical + projected schema -> plans, one function per root and per ``$ref`` target
    (named locally: ``names`` records which functions each plan calls)."""

    def __init__(self, names: Recorder) -> None:
        self.functions: dict[tuple[str, ...], _Function] = {}
        self._names = names

    def root(self, context: _Context) -> str:
        key = ("canon", "root", context.contract.kind, context.contract.name)
        name = self._names.new(ROOT, f"{context.contract.kind} {context.contract.name}")
        function = _Function(name, _Plan())
        self.functions[key] = function
        with self._names.recording(self._names.definition(name).requests):
            function.plan = self.plan("", context, root=True)
        return function.name

    def plan(self, pointer: str, context: _Context, *, root: bool = False) -> _Plan:
        """The plan of the canonical node projected at ``pointer``."""
        site = context.reading.site(pointer, root=root)
        if site is None:
            return _Plan()
        if site.call is not None:
            return self.reference(site.call, context)
        plan = _Plan()
        for member in (site.members or {}).values():
            child = self.plan(member.pointer, context)
            plan.members.append(_Member(member.name, member.drop_null, child))
        if site.items is not None:
            plan.items = self.plan(site.items, context)
        for branch in site.branches or ():
            form = context.reading.node(branch)
            plan.branches.append(_Branch(self.plan(branch, context), form, context, branch))
        plan.values = dict(site.values) if site.values else None
        plan.decode = site.decode
        return plan

    def reference(self, target: str, context: _Context) -> _Plan:
        """A call to the function of a ``$ref`` target (one function per target and contract, or
        per shared definition)."""
        key = context.function_key(target, "canon")
        if key not in self.functions:
            name = self._names.new(CANON, context.function_hint(target), key=key)
            self._names.request(name)
            function = _Function(name, _Plan())
            self.functions[key] = function
            with self._names.recording(self._names.definition(name).requests):
                function.plan = self.plan(target, context)
        else:
            self._names.request(self.functions[key].name)
        return _Plan(call=self.functions[key].name)


def _emitter(*, merge_nested_ifs: bool = False) -> LineEmitter:
    """The emitter of one function, whose argument is ``value`` (no local takes that name, nor
    a helper's)."""
    return LineEmitter(merge_nested_ifs=merge_nested_ifs, reserved=RESERVED)


def _names(constants: Recorder, values: list[str]) -> str:
    """A frozenset of member names, in authored order in the source."""
    return constants.add("NAMES", f"frozenset({tuple(values)!r})")


_DICT = frozenset({"dict"})
_LIST = frozenset({"list"})
_STR = frozenset({"str"})


def _reads(codec: str) -> str:
    """The kind of value (``str``, ``list``, ``dict``) the codec's decoder reads."""
    return CODECS[codec].reads.__name__


def _kinds(plan: _Plan, known: dict[str, frozenset[str]]) -> frozenset[str]:
    """The kinds of value (dict, list) a plan can change, given those of the functions."""
    if plan.call is not None:
        return known.get(plan.call, frozenset())
    found = _own_kinds(plan, known)
    for branch in plan.branches:
        found |= _kinds(branch.plan, known)
    return found


def _own_kinds(plan: _Plan, known: dict[str, frozenset[str]]) -> frozenset[str]:
    """What the object and array facets of a plan (not its union) can change."""
    found: frozenset[str] = frozenset()
    if any(m.drop_null or _kinds(m.child, known) for m in plan.members):
        found |= _DICT
    if plan.items is not None and _kinds(plan.items, known):
        found |= _LIST
    if plan.values:
        found |= _STR
    if plan.decode is not None:
        found |= frozenset({_reads(plan.decode[0])})
    return found


def _changes(plans: dict[str, _Plan]) -> dict[str, frozenset[str]]:
    """For each function, the kinds of value its plan can change: a least fixed point, so
    recursion alone never counts as a change."""
    known: dict[str, frozenset[str]] = dict.fromkeys(plans, frozenset())
    changed = True
    while changed:
        changed = False
        for name, plan in plans.items():
            now = _kinds(plan, known)
            if now != known[name]:
                known[name] = now
                changed = True
    return known


# -- branch tests ----------------------------------------------------------------------------


def _type_test(name: str, variable: str) -> str:
    """jsonschema's draft 2020-12 type checker, as an expression."""
    tests = {
        "object": f"isinstance({variable}, dict)",
        "array": f"isinstance({variable}, list)",
        "string": f"isinstance({variable}, str)",
        "boolean": f"isinstance({variable}, bool)",
        "null": f"{variable} is None",
        "number": f"is_number({variable})",
        "integer": f"is_integer({variable})",
    }
    if name not in tests:
        raise CompileError(f"unknown type {name!r}")
    return tests[name]


_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "$comment",
        "$defs",
        "definitions",
        "format",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
_OBJECT = ("properties", "required", "additionalProperties")
_ARRAY = ("items", "minItems", "maxItems")
_NUMBER = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_COMPARISONS = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<=", "exclusiveMaximum": ">="}


class _Checks:
    """Compiled branch tests: the statements of ``def _admits_...(value) -> bool`` that decide as
    jsonschema does on the tolerant projected form (absent counts as null), written out by the
    linker (``linker.check_function``). One method per keyword group."""

    def __init__(self, names: Recorder) -> None:
        self.constants = names
        self._names = names
        self._by_body: dict[str, str] = {}
        self._by_ref: dict[tuple[str, ...], str] = {}

    def function(self, form: Any, context: _Context, pointer: str) -> str:
        """The name of a function testing ``form``, the projected node at ``pointer``
        (deduplicated by body)."""
        emitter = _emitter(merge_nested_ifs=True)
        requests: list[int] = []
        with self._names.recording(requests):
            self.node(form, "value", context, emitter, pointer)
        emitter.line("return True")
        body = emitter.source()
        name = self._by_body.get(body)
        if name is None:
            name = self._names.new(ADMITS, pointer=pointer, body=body, requests=requests)
            self._by_body[body] = name
        self._names.request(name)
        return name

    def reference(self, ref: str, context: _Context) -> str:
        pointer = ref_pointer(ref)
        key = context.function_key(pointer, "valid")
        name = self._by_ref.get(key)
        if name is not None:
            self._names.request(name)
            return name
        name = self._names.new(VALID, "valid " + context.function_hint(pointer), key=key)
        self._names.request(name)
        definition = self._names.definition(name)
        definition.pointer = pointer
        self._by_ref[key] = name
        try:
            target = resolve(context.projected, ref)
        except Unresolvable as error:
            raise CompileError(f"$ref {ref!r} does not resolve in the projection") from error
        emitter = _emitter(merge_nested_ifs=True)
        with self._names.recording(definition.requests):
            self.node(target, "value", context, emitter, pointer)
        emitter.line("return True")
        definition.body = emitter.source()
        return name

    # -- keywords ------------------------------------------------------------------------------

    def node(
        self, form: Any, variable: str, context: _Context, out: LineEmitter, pointer: str
    ) -> None:
        """Statements that ``return False`` unless ``variable`` is valid under ``form``, the
        projected node at ``pointer`` (where a compile error points)."""
        try:
            self._keywords(form, variable, context, out, pointer)
        except CompileError as error:
            raise error.at(pointer) from None

    def _keywords(
        self, form: Any, variable: str, context: _Context, out: LineEmitter, pointer: str
    ) -> None:
        if form is True:
            return
        if form is False or not isinstance(form, dict):
            out.line("return False")
            return
        unknown = (
            set(form)
            - _ANNOTATIONS
            - {"type", "enum", "const", "anyOf", "$ref", "pattern", *_OBJECT, *_ARRAY, *_NUMBER}
        )
        if unknown:
            raise CompileError(f"cannot compile a branch test with {sorted(unknown)}")
        types = form.get("type")
        types = [types] if isinstance(types, str) else types if isinstance(types, list) else None
        if "$ref" in form:
            with out.block(f"if not {self.reference(form['$ref'], context)}({variable})"):
                out.line("return False")
        if types is not None:
            self.type(types, variable, out)
        if "enum" in form:
            self.enum(form["enum"], variable, out)
        if "const" in form:
            self.const(form["const"], variable, out)
        self.guarded(
            types,
            "object",
            f"isinstance({variable}, dict)",
            _OBJECT,
            form,
            out,
            lambda: self.object(form, variable, context, out, pointer),
        )
        self.guarded(
            types,
            "array",
            f"isinstance({variable}, list)",
            _ARRAY,
            form,
            out,
            lambda: self.array(form, variable, context, out, pointer),
        )
        self.guarded(
            types,
            "string",
            f"isinstance({variable}, str)",
            ("pattern",),
            form,
            out,
            lambda: self.pattern(form["pattern"], variable, out),
        )
        self.guarded(
            types,
            "number",
            f"is_number({variable})",
            _NUMBER,
            form,
            out,
            lambda: self.number(form, variable, out),
        )
        if "anyOf" in form:
            self.any_of(form["anyOf"], variable, context, out, pointer)

    @staticmethod
    def guarded(
        types: list[Any] | None,
        kind: str,
        test: str,
        keywords: tuple[str, ...],
        form: dict[str, Any],
        out: LineEmitter,
        emit: Callable[[], None],
    ) -> None:
        """Keywords that apply to one kind of value only: under a type test, unless ``type``
        already allows nothing else."""
        if not any(k in form for k in keywords):
            return
        only = types is not None and (
            set(types) <= {"integer", "number"} if kind == "number" else types == [kind]
        )
        if only:
            emit()
            return
        with out.block(f"if {test}"):
            emit()

    def type(self, types: list[Any], variable: str, out: LineEmitter) -> None:
        """``{"type": ["string", "null"]}``"""
        tests = [_type_test(t, variable) for t in types]
        test = tests[0] if len(tests) == 1 else f"({' or '.join(tests) or 'False'})"
        with out.block(f"if not {test}"):
            out.line("return False")

    def enum(self, values: Any, variable: str, out: LineEmitter) -> None:
        """``{"enum": ["a", "b", null]}``: strings by set membership, anything else as jsonschema
        compares (``True`` is not ``1``, ``1`` is ``1.0``)."""
        if not isinstance(values, list):
            raise CompileError("enum must be a list")
        strings = [v for v in values if isinstance(v, str)]
        others = [v for v in values if not isinstance(v, str)]
        tests = []
        if strings:
            names = self.constants.add("STRINGS", f"frozenset({tuple(strings)!r})")
            tests.append(f"(isinstance({variable}, str) and {variable} in {names})")
        if others == [None]:
            tests.append(f"{variable} is None")
        elif others:
            tests.append(
                f"in_enum({variable}, {self.constants.add('VALUES', repr(tuple(others)))})"
            )
        with out.block(f"if not ({' or '.join(tests) or 'False'})"):
            out.line("return False")

    def const(self, value: Any, variable: str, out: LineEmitter) -> None:
        """``{"const": "active"}``"""
        if value is None:
            failed = f"{variable} is not None"
        elif isinstance(value, str):
            failed = f"{variable} != {self.constants.add('CONST', repr(value))}"
        else:
            failed = f"not json_equal({variable}, {self.constants.add('CONST', repr(value))})"
        with out.block(f"if {failed}"):
            out.line("return False")

    def object(
        self, form: dict[str, Any], variable: str, context: _Context, out: LineEmitter, pointer: str
    ) -> None:
        """``{"properties": {...}, "required": [...], "additionalProperties": false}``; required
        keeps only the members that do not accept null (absent counts as null)."""
        properties = form.get("properties", {})
        if not isinstance(properties, dict):
            raise CompileError("properties must be an object")
        extra = form.get("additionalProperties", True)
        if extra is False:
            names = _names(self.constants, list(properties))
            with out.block(f"if not {variable}.keys() <= {names}"):
                out.line("return False")
        elif extra is not True:
            raise CompileError("additionalProperties with a schema")
        must = must_be_present(form, context.projected_nulls)
        if must:
            names = _names(self.constants, must)
            with out.block(f"if not {variable}.keys() >= {names}"):
                out.line("return False")
        for name, schema in properties.items():
            if schema is True or schema == {}:
                continue
            member = out.fresh(name if isinstance(name, str) else "member")
            key = repr(name)
            at = jp.join(pointer, "properties", name)
            if name in must:
                out.line(f"{member} = {variable}[{key}]")
                self.node(schema, member, context, out, at)
                continue
            out.line(f"{member} = {variable}.get({key}, ABSENT)")
            with out.block(f"if {member} is not ABSENT"):
                self.node(schema, member, context, out, at)

    def array(
        self, form: dict[str, Any], variable: str, context: _Context, out: LineEmitter, pointer: str
    ) -> None:
        """``{"items": {...}, "minItems": 1, "maxItems": 5}``"""
        if "minItems" in form:
            with out.block(f"if len({variable}) < {form['minItems']!r}"):
                out.line("return False")
        if "maxItems" in form:
            with out.block(f"if len({variable}) > {form['maxItems']!r}"):
                out.line("return False")
        items = form.get("items", True)
        if isinstance(items, list):
            raise CompileError("items as a list")
        if items is not True and items != {}:
            element = out.fresh("item")
            with out.block(f"for {element} in {variable}"):
                self.node(items, element, context, out, jp.join(pointer, "items"))

    def pattern(self, pattern: Any, variable: str, out: LineEmitter) -> None:
        """``{"pattern": "^[A-Z]{2}$"}``: ``re.search``, as jsonschema."""
        if not isinstance(pattern, str):
            raise CompileError("pattern must be a string")
        try:
            re.compile(pattern)
        except re.error as error:
            # The generated module compiles it on import; jsonschema's own test would fail too.
            raise CompileError(
                f"the pattern {pattern!r} is not a Python regular expression ({error}), so a "
                "union branch cannot be tested against it",
                "pattern",
            ) from None
        compiled = self.constants.add(PATTERN_HINT, f"re.compile({pattern!r})")
        with out.block(f"if {compiled}.search({variable}) is None"):
            out.line("return False")

    def number(self, form: dict[str, Any], variable: str, out: LineEmitter) -> None:
        """``{"minimum": 1, "exclusiveMaximum": 10, "multipleOf": 0.5}``"""
        for keyword, operator in _COMPARISONS.items():
            if keyword in form:
                with out.block(f"if {variable} {operator} {form[keyword]!r}"):
                    out.line("return False")
        if "multipleOf" in form:
            with out.block(f"if not multiple_of({variable}, {form['multipleOf']!r})"):
                out.line("return False")

    def any_of(
        self, branches: Any, variable: str, context: _Context, out: LineEmitter, pointer: str
    ) -> None:
        """``{"anyOf": [...]}``: one function per branch."""
        if not isinstance(branches, list):
            raise CompileError("anyOf must be a list")
        names = [
            self.function(b, context, jp.join(pointer, "anyOf", i)) for i, b in enumerate(branches)
        ]
        with out.block(f"if not ({' or '.join(f'{n}({variable})' for n in names) or 'False'})"):
            out.line("return False")


# -- the inverse functions -------------------------------------------------------------------


_KIND_ORDER = ("dict", "list", "str")


def _isinstance(variable: str, kinds: frozenset[str]) -> str:
    names = [kind for kind in _KIND_ORDER if kind in kinds]
    if len(names) > 1:
        return f"isinstance({variable}, ({', '.join(names)}))"
    return f"isinstance({variable}, {names[0]})"


class _UnitCompiler:
    """One projected contract -> its unit: the functions of its inverse and their branch tests,
    with local names."""

    def __init__(self, projected: ProjectedContract) -> None:
        self.names = Recorder()
        self.constants = self.names
        self.planner = _Planner(self.names)
        self.checks = _Checks(self.names)
        self.errors: list[tuple[str, str]] = []
        self._changes: dict[str, frozenset[str]] = {}
        self.context = _Context(
            projected.contract,
            projected.provider,
            projected.meaning,
            projected.rewrites,
            Reading(projected.meaning, projected.rewrites),
            NullOracle(projected.meaning),
        )

    def kinds(self, plan: _Plan) -> frozenset[str]:
        return _kinds(plan, self._changes)

    def compile(self) -> Unit:
        root = self.planner.root(self.context)
        functions = {f.name: f.plan for f in self.planner.functions.values()}
        self._changes = _changes(functions)
        for function in list(self.planner.functions.values()):
            if function.name == root or self._changes[function.name]:
                definition = self.names.definition(function.name)
                with self.names.recording(definition.emits):
                    definition.body = self.function(function.name, function.plan)
        return Unit(self.names.definitions, number(root), list(dict.fromkeys(self.errors)))

    def function(self, name: str, plan: _Plan) -> str:
        out = _emitter()
        with out.block(f"def {name}(value: Any) -> Any"):
            self.node(plan, "value", out, lambda new: out.line(f"return {new}"))
            out.line("return value")
        return out.source()

    # -- one node -------------------------------------------------------------------------------

    def node(
        self,
        plan: _Plan,
        source: str,
        out: LineEmitter,
        on_change: Callable[[str], None],
        keyword: str = "if",
    ) -> None:
        """Statements that compute the inverse of ``source`` and hand a changed result to
        ``on_change`` (never called when nothing changes: copy on write)."""
        kinds = self.kinds(plan)
        if not kinds:
            return
        with out.block(f"{keyword} {_isinstance(source, kinds)}"):
            result = out.fresh(f"new {source}")
            if plan.call is not None:
                out.line(f"{result} = {plan.call}({source})")
            else:
                out.line(f"{result} = {source}")
                self.facets(plan, source, result, kinds, out)
            with out.block(f"if {result} is not {source}"):
                on_change(result)

    def facets(
        self, plan: _Plan, source: str, result: str, kinds: frozenset[str], out: LineEmitter
    ) -> None:
        own = _own_kinds(plan, self._changes)
        if "dict" in own:
            with (
                self._only(source, "dict", kinds, out),
                self._typed(source, result, "dict", kinds, out) as typed,
            ):
                self.members(plan.members, source, typed, out)
        if "list" in own and plan.items is not None and self.kinds(plan.items):
            with (
                self._only(source, "list", kinds, out),
                self._typed(source, result, "list", kinds, out) as typed,
            ):
                self.items(plan.items, source, typed, out)  # type: ignore[arg-type]
        if "str" in own and plan.values:
            with self._only(source, "str", kinds, out):
                # typed Any: a text's value is no str, which the str-typed result then holds
                texts = self.constants.add("TEXTS", repr(plan.values), "dict[str, Any]")
                out.line(f"{result} = {texts}.get({source}, {source})")
        union = frozenset().union(*(self.kinds(b.plan) for b in plan.branches))
        if union:
            if union >= kinds:
                self.union(plan.branches, result, out)
            else:
                with out.block(f"if {_isinstance(result, union)}"):
                    self.union(plan.branches, result, out)
        if plan.decode is not None:
            decoder, argument = plan.decode
            with out.block(f"if isinstance({result}, {_reads(decoder)})"):
                out.line(f"{result} = decode({decoder!r}, {argument!r}, {result})")

    @contextlib.contextmanager
    def _only(
        self, source: str, kind: str, kinds: frozenset[str], out: LineEmitter
    ) -> Iterator[None]:
        if kinds == frozenset({kind}):
            yield
        else:
            with out.block(f"if isinstance({source}, {kind})"):
                yield

    @staticmethod
    @contextlib.contextmanager
    def _typed(
        source: str, result: str, kind: str, kinds: frozenset[str], out: LineEmitter
    ) -> Iterator[str]:
        """The variable the facet of ``kind`` writes: ``result`` itself where the value can be
        of that kind only; else a variable of its own, starting as ``source`` (``result`` is
        still ``source`` there, but typed with every kind, so a dict's or a list's operations
        would not type-check on it), handed back to ``result``."""
        if kinds == frozenset({kind}):
            yield result
            return
        typed = out.fresh(f"{result} {kind}")
        out.line(f"{typed} = {source}")
        yield typed
        out.line(f"{result} = {typed}")

    @staticmethod
    def _copy(source: str, result: str, kind: str, out: LineEmitter) -> None:
        with out.block(f"if {result} is {source}"):
            out.line(f"{result} = {kind}({source})")

    def members(self, members: list[_Member], source: str, result: str, out: LineEmitter) -> None:
        """An object: each null the projection added goes; members with work inside are entered."""
        for member in members:
            key = repr(member.name)
            child = self.kinds(member.child)
            if not member.drop_null and not child:
                continue
            if not child:
                with out.block(f"if {source}.get({key}, ABSENT) is None"):
                    self._copy(source, result, "dict", out)
                    out.line(f"del {result}[{key}]")
                continue
            variable = out.fresh(member.name if isinstance(member.name, str) else "member")
            keyword = "if"
            if member.drop_null:
                keyword = "elif"
                out.line(f"{variable} = {source}.get({key}, ABSENT)")
                with out.block(f"if {variable} is None"):
                    self._copy(source, result, "dict", out)
                    out.line(f"del {result}[{key}]")
            else:
                out.line(f"{variable} = {source}.get({key})")

            def replace(new: str, key: str = key) -> None:
                self._copy(source, result, "dict", out)
                out.line(f"{result}[{key}] = {new}")

            self.node(member.child, variable, out, replace, keyword)

    def items(self, items: _Plan, source: str, result: str, out: LineEmitter) -> None:
        """An array: elements are never removed, only replaced by their inverse."""
        index = out.fresh(f"{source} index")
        element = out.fresh(f"{source} item")

        def replace(new: str) -> None:
            self._copy(source, result, "list", out)
            out.line(f"{result}[{index}] = {new}")

        with out.block(f"for {index}, {element} in enumerate({source})"):
            self.node(items, element, out, replace)

    def union(self, branches: list[_Branch], result: str, out: LineEmitter) -> None:
        """The first branch whose projected form admits the value; else every branch in turn."""
        calls = [self.branch_function(b) if self.kinds(b.plan) else None for b in branches]
        fallback = result
        for call in calls:
            if call is not None:
                fallback = f"{call}({fallback})"
        arms: list[tuple[list[str], str]] = []
        for branch, call in zip(branches, calls, strict=True):
            try:
                check = self.checks.function(branch.form, branch.context, branch.pointer)
            except CompileError as error:
                self.errors.append(branch.context.error(error))
                continue  # the build fails on the diagnostic; the module is not written
            test = f"{check}({result})"
            action = f"{call}({result})" if call is not None else result
            if arms and arms[-1][1] == action:
                arms[-1][0].append(test)
            else:
                arms.append(([test], action))
        while arms and arms[-1][1] == fallback:
            arms.pop()
        if not arms:
            if fallback != result:
                out.line(f"{result} = {fallback}")
            return
        for position, (tests, action) in enumerate(arms):
            keyword = "if" if position == 0 else "elif"
            with out.block(f"{keyword} {' or '.join(tests)}"):
                if action != result:
                    out.line(f"{result} = {action}")
        if fallback != result:
            with out.block("else"):
                out.line(f"{result} = {fallback}")

    def branch_function(self, branch: _Branch) -> str:
        if branch.plan.call is not None:
            return branch.plan.call
        name = self.names.new(BRANCH)
        self.names.request(name)
        definition = self.names.definition(name)
        with self.names.recording(definition.requests):
            definition.body = self.function(name, branch.plan)
        return name


# -- the module ------------------------------------------------------------------------------


def compile_contracts(
    contracts: list[ProjectedContract], runner: Runner | None = None
) -> CompiledParts:
    """The parts of ``_canonical.py`` for projected contracts (with a schema), in the given order:
    each contract compiled alone into a unit (cached: ``toolgen.compile.canonical.caching``), then
    the units linked."""
    return link(contracts, cached_units(contracts, compile_unit, runner or Runner()))


def compile_unit(projected: ProjectedContract) -> Unit:
    return _UnitCompiler(projected).compile()


@dataclass(frozen=True)
class CanonicalModule:
    """The source of ``OUT/_canonical.py``; None, with diagnostics, when it cannot be compiled.
    Split (``render_canonical_module(..., split=True)``): ``parts`` holds the module of each
    contract's canonicalizer, by its name in the parts package ``<module>_parts``."""

    source: str | None
    diagnostics: tuple[Diagnostic, ...] = ()
    parts: dict[str, str] = field(default_factory=dict)


def render_canonical_module(
    design: Design,
    projection: ProviderProjection,
    header: str,
    runner: Runner | None = None,
    *,
    split: str | None = None,
) -> CanonicalModule:
    """The black-formatted source of ``OUT/_canonical.py`` (or of a provider's own
    ``_canonical_<provider>.py``): one canonicalizer per projected tool and output, keyed by
    canonical name in ``TOOL_CANONICALIZERS`` and ``OUTPUT_CANONICALIZERS``. ``split``: the
    module's name; its canonicalizers then go to modules of their own, imported on first use
    (``toolgen.compile.canonical.split``)."""
    return submit_canonical_module(design, projection, header, runner, split=split).result()


def _support_import(functions: list[str], split: str | None) -> str:
    """The module's import of the helpers its functions name. A module that is split imports
    only ``canonicalize_text`` here: the split gives its core the import of the helpers the
    functions left in it name (``split._core_imports``, which replaces this line), so the scan
    of every function's text (megabytes, at every rebuild) would be thrown away."""
    if split:
        return import_statement(f".{SUPPORT_MODULE}", ["canonicalize_text"])
    return support_import("\n".join(functions), ".", "canonicalize_text")


def submit_canonical_module(
    design: Design,
    projection: ProviderProjection,
    header: str,
    runner: Runner | None = None,
    *,
    split: str | None = None,
) -> Later[CanonicalModule]:
    """:func:`render_canonical_module`, compiled now and formatted by ``runner``'s workers while
    the caller goes on; the module (and its split) when ``result()`` is asked for. A module that
    does not compile is ready at once (its diagnostics)."""
    del design  # the projection carries every contract; kept for the integrator's signature
    projected = [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]
    runner = runner or Runner()
    compiled = compile_contracts(projected, runner)
    if compiled.diagnostics:
        return Later.done(CanonicalModule(None, compiled.diagnostics))
    context = {
        "header": header,
        "provider": projection.profile.name,
        "notes": projection.inverse_notes(),
        "parts_package": f"{split}_parts" if split else None,
        "tool_rows": [(name, part_name(root)) for name, root in compiled.parts["tools"].items()],
        "output_rows": [
            (name, part_name(root)) for name, root in compiled.parts["outputs"].items()
        ],
        "support_import": _support_import(compiled.parts["functions"], split),
        **compiled.parts,
    }
    kept = runner.kept
    if split and kept is not None:
        found = kept_texts(kept, split, compiled.parts["functions"])
        if found is not None:
            return _rejoined(compiled, context, found, split, header, runner)
    if split and kept is None and runner.cache is not None:
        return _stored_whole(compiled, context, split, header, runner)
    return _formatted_whole(compiled, context, split, header, runner)


#: the cache's stage of whole split modules (toolgen.compile.canonical.compiler._stored_whole)
MODULE_STAGE = "canonical-module"


def _stored_whole(
    compiled: CompiledParts,
    context: dict[str, Any],
    split: str,
    header: str,
    runner: Runner,
) -> Later[CanonicalModule]:
    """In a process that builds once, with a cache: the split module from the cache by what it
    is made from, the template's context (the linked functions, tables and notes; not the
    checks' schemas, which the template does not write), else made whole and stored. A rebuild
    after an edit that changes no canonicalizer (a description, a tool another provider
    refuses) then neither renders, formats nor splits the module again: a tenth of a second for
    the corpus design's 3,920 contracts, against about a hundredth for the key."""
    assert runner.cache is not None
    return stored_later(
        runner.cache,
        MODULE_STAGE,
        [split, {name: value for name, value in context.items() if name != "checks"}],
        lambda: _formatted_whole(compiled, context, split, header, runner),
        lambda module: [module.source, module.parts],
        _stored_module,
    )


def _stored_module(found: Any) -> CanonicalModule:
    source, parts = found
    if type(source) is not str or not isinstance(parts, dict):
        raise TypeError("not a split module")
    return CanonicalModule(source, parts=parts)


def _roots(compiled: CompiledParts) -> list[str]:
    return [*compiled.parts["tools"].values(), *compiled.parts["outputs"].values()]


def _formatted_whole(
    compiled: CompiledParts,
    context: dict[str, Any],
    split: str | None,
    header: str,
    runner: Runner,
) -> Later[CanonicalModule]:
    """The module rendered and formatted whole, then split (``split``: its name)."""
    formatting = format_later(render("_canonical.py.j2", runner, **context), runner=runner)

    def finish() -> CanonicalModule:
        formatted = formatting.result()
        if not split:
            return CanonicalModule(formatted)
        core = split  # narrowed to str for the closure below
        roots = _roots(compiled)
        functions = {
            line.split("(", 1)[0].removeprefix("def ") for line in compiled.parts["functions"]
        }
        key = ("split", formatted, tuple(roots), frozenset(functions), core, header)
        cut = runner.keeping(
            key,
            lambda: Later.done(split_module(formatted, roots, functions, core, header, runner)),
        ).result()
        if runner.kept is not None:
            keep_texts(runner.kept, core, compiled.parts["functions"], cut)
        return CanonicalModule(cut.core, parts=cut.parts)

    return Later(finish)


def _rejoined(
    compiled: CompiledParts,
    context: dict[str, Any],
    found: list[str | None],
    split: str,
    header: str,
    runner: Runner,
) -> Later[CanonicalModule]:
    """The split module put together from its functions' kept texts and the template formatted
    without them (toolgen/compile/canonical/rejoin.py); formatted whole when it cannot be."""
    skeleton = format_later(
        render("_canonical.py.j2", runner, **{**context, "functions": []}), runner=runner
    )

    def finish() -> CanonicalModule:
        functions = compiled.parts["functions"]
        cut = rejoined(skeleton.result(), functions, found, _roots(compiled), split, header, runner)
        if cut is None:
            return _formatted_whole(compiled, context, split, header, runner).result()
        return CanonicalModule(cut.core, parts=cut.parts)

    return Later(finish)
