"""Compiles an envelope schema (a JSON Schema 2020-12 subset) into a Python validator.

Each surface becomes one function, ``_wire_<surface>``: plain subscripts and ``type(x) is``
tests, no paths, no enumerate; a missing member surfaces as KeyError and any other mismatch as
``_Mismatch``. Only then does the runtime's ``explain_drift`` walk the schema itself (the module
holds it as JSON text) to find where and why, in the same order: each check is written once, and
successful calls (nearly all of them) never pay for paths.

A ``$ref`` target (or a surface's root) whose checks the module makes in more than one place, in
any surface, is one function, ``_check_<name>(value)``, unless a use sits in a loop (there a call
per item costs more than the checks of a small definition); a recursive schema is a function that
calls itself. Equal checks are found by content (``ContentKeys``), so one function serves them all.

The subset: ``type`` (one name, or a list of names for a value that may take several shapes,
with no keyword beside it that needs one type), ``properties``, ``required``, ``items``, ``minItems``, ``enum`` and
``const`` (strings), ``anyOf`` only as ``[S, {"type": "null"}]``, local ``$ref`` (a reference that
leads back to itself without descending into a member or an item is an error: checking it would
never end) and discriminated unions written as
``allOf: [{"if": {"properties": {D: {"const": V}}, "required": [D]}, "then": S}, ...]`` beside a
required string property D: a known variant is checked against S, an unknown one passes.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from toolgen.compile.validators.errors import EnvelopeSchemaError
from toolgen.compile.validators.statements import (
    Bind,
    If,
    Line,
    Loop,
    Statement,
    depth,
    guard,
    write,
)
from toolgen.render.codegen import Constants, Identifiers, LineEmitter, docstring
from toolgen.schema import pointer as jp
from toolgen.schema import refs, walker
from toolgen.schema.names import python_identifier, words

#: Keywords that never change a decision.
ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "examples"})

#: For each JSON type, the condition that holds when the value named by the argument is NOT of it.
#: bool is not a number and NaN or an infinity is not a number (unlike in jsonschema).
NOT_OF_TYPE: dict[str, Callable[[str], str]] = {
    "object": lambda v: f"type({v}) is not dict",
    "array": lambda v: f"type({v}) is not list",
    "string": lambda v: f"type({v}) is not str",
    "boolean": lambda v: f"type({v}) is not bool",
    "null": lambda v: f"{v} is not None",
    "integer": lambda v: f"type({v}) is not int and not integral_float({v})",
    "number": lambda v: f"type({v}) is not int and not finite_float({v})",
}
#: The form of each keyword's value that the compiler relies on: (test, how to say it).
_SHAPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "properties": (lambda v: isinstance(v, dict), "an object (member name -> schema)"),
    "required": (
        lambda v: isinstance(v, list) and all(isinstance(k, str) for k in v),
        "an array of member names",
    ),
    "minItems": (
        lambda v: type(v) is int and v >= 0,  # bool is not a count
        "a non-negative integer",
    ),
    "enum": (lambda v: isinstance(v, list), "an array"),
    "anyOf": (lambda v: isinstance(v, list), "an array"),
    "allOf": (lambda v: isinstance(v, list), "an array"),
}
#: How deep blocks may nest inside one generated function: Python allows 100 indentation levels
#: (the ``def`` and the ``try`` take two).
MAX_NESTING = 90
#: The helper (from ``_runtime``) each type test calls.
_TYPE_HELPERS = {"integer": "integral_float", "number": "finite_float"}
#: The helper (from ``_runtime``) that tests an integer or number that may be null, beside int.
_NULLABLE_HELPERS = {"integer": "integral_or_none", "number": "finite_or_none"}
#: Types whose test reads the value once, so the fast path can test ``parent["key"]`` in place.
_SINGLE_READ_TYPES = frozenset({"object", "array", "string", "boolean", "null"})


@dataclass(frozen=True)
class At:
    """Where the compiler stands: the Python expression of the value and how it was reached."""

    value: str
    path: tuple[str, ...]  # Python expressions of the data path (keys as repr, indices as names)
    pointer: str  # JSON pointer of the schema node, for EnvelopeSchemaError
    known: str | None = None  # JSON type already established by an enclosing check
    in_loop: bool = False  # checked once per item of an array


def validator_name(surface: str) -> str:
    """The public check of a surface: ``data`` returned as given."""
    return f"validate_{surface}"


def wire_checks_name(surface: str) -> str:
    """The compiled checks of a surface's JSON: its JSON form returned (an SDK object's dump)."""
    return f"_wire_{surface}"


#: Names a local variable may not take: what the module's functions use besides their locals.
_TAKEN = frozenset(
    {"data", "converted", "json_value", "integral_float", "finite_float"}
    | {"integral_or_none", "finite_or_none"}
)


@dataclass
class ModuleCompiler:
    """What the surfaces of one envelope module share: hoisted constants, imports, and the
    functions of ``$ref`` targets (one per content, whatever surface names it)."""

    provider: str
    constants: Constants = field(default_factory=Constants)
    imports: set[str] = field(default_factory=set)  # names used from outside the module
    names: Identifiers = field(default_factory=lambda: Identifiers(prefix="_"))
    sources: dict[str, str] = field(default_factory=dict)  # function name -> its source
    _keys: dict[str, str | None] = field(default_factory=dict)
    _bodies: dict[str, str] = field(default_factory=dict)  # source without its name -> name
    _pending: set[str] = field(default_factory=set)  # functions being compiled
    _recursive: set[str] = field(default_factory=set)  # called while being compiled
    #: content of a ``$ref`` target (or of a surface's root) -> how often the module checks it
    uses: Counter[str] = field(default_factory=Counter)

    def count_uses(self, schemas: dict[str, Any]) -> None:
        """Count, over every surface, the roots and the ``$ref`` that name each content: a
        sub-schema checked in several places is one function (see ``SurfaceCompiler._inlines``)."""
        for schema in schemas.values():
            keys = ContentKeys(schema)
            self.uses[keys.of("")] += 1
            for _, target in refs.local_refs(schema):
                self.uses[keys.of(target)] += 1

    def reserve(self, *names: str) -> None:
        for name in names:
            self.names.name(name.removeprefix("_"), key=("reserved", name))

    def target_function(self, compiler: SurfaceCompiler, target: str) -> str | None:
        """The name of the function checking the ``$ref`` target at ``target``; None when the
        target checks nothing."""
        key = compiler.contents.of(target)  # one function for equal checks, in any surface
        if key in self._keys:
            name = self._keys[key]
            if name in self._pending:
                self._recursive.add(name)
            return name
        tokens = jp.split(target)
        hint = "_".join(words(tokens[-1])) if tokens else compiler.surface
        name = self.names.name(f"check {hint}")
        self._keys[key] = name
        self._pending.add(name)
        try:
            source = compiler.function_source(name, target, hint)
        finally:
            self._pending.discard(name)
        if source is None:
            self._keys[key] = None
            self.names.release(name)
            return None
        if name not in self._recursive:
            anonymous = source.replace(f"def {name}(", "def (", 1)
            same = self._bodies.setdefault(anonymous, name)
            if same != name:  # the same function, already written for another surface
                self._keys[key] = same
                self.names.release(name)
                return same
        self.sources[name] = source
        return name


class ContentKeys:
    """What the schema at a pointer checks, as a short text equal for equal checks wherever they
    are written: its keywords with each ``$ref`` replaced by the key of its target (``$defs`` and
    annotations left out, so a surface's root and a definition elsewhere can be equal)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._keys: dict[str, str] = {}
        self._pending: set[str] = set()

    def of(self, target: str) -> str:
        if target in self._keys:
            return self._keys[target]
        if target in self._pending:
            return f"recursive {target}"
        self._pending.add(target)
        try:
            node = jp.resolve(self.root, target)
            text = json.dumps(self._keyed(node, target), separators=(",", ":"))
        except (KeyError, ValueError, TypeError):
            text = f"unresolved {target}"
        finally:
            self._pending.discard(target)
        key = hashlib.sha256(text.encode()).hexdigest()[:16]
        self._keys[target] = key
        return key

    def _keyed(self, node: Any, pointer: str) -> Any:
        ref = node.get("$ref") if isinstance(node, dict) else None
        if isinstance(ref, str) and ref.startswith("#"):
            return {"$ref": self.of(jp.ref_pointer(ref))}
        node = walker.map_children(node, pointer, lambda c: self._keyed(c.schema, c.pointer))
        if isinstance(node, dict):
            return {k: v for k, v in node.items() if k not in ANNOTATIONS}
        return node


class SurfaceCompiler:
    """The statements checking one surface's schema."""

    #: keyword -> method, in the order the checks run
    KEYWORDS: dict[str, str] = {
        "type": "_type",
        "const": "_const",
        "enum": "_enum",
        "minItems": "_min_items",
        "items": "_items",
        "properties": "_properties",
        "required": "_required",
        "allOf": "_all_of",
    }
    STRUCTURAL = frozenset({"$ref", "anyOf"})

    def __init__(
        self,
        provider: str,
        surface: str,
        schema: Any,
        module: ModuleCompiler | None = None,
    ) -> None:
        self.provider = provider
        self.surface = surface
        self.root = schema
        self.module = module if module is not None else ModuleCompiler(provider)
        self._locals = Identifiers(reserved=_TAKEN)
        self._tokens: dict[str, tuple[str, ...]] = {}  # local name -> its data path
        self._expanding: list[str] = []
        self.contents = ContentKeys(schema)

    @property
    def imports(self) -> set[str]:
        return self.module.imports

    # -- entry points --------------------------------------------------------------------------

    def compile(self) -> list[Statement]:
        """The statements of the surface's own function (the value is ``data``)."""
        if not isinstance(self.root, dict) or "$ref" in self.root:
            raise self.error("", 'the root of an envelope schema must be {"type": "object"}')
        if self.describe(self.root, "") != "object":
            raise self.error("", 'the root of an envelope schema must be {"type": "object"}')
        unbounded = refs.unbounded_refs(self.root)
        if unbounded:
            raise self.error(
                unbounded[0],
                "recursive $ref that leads back to itself without descending into a member or "
                "an item (checking it would never end)",
            )
        if self.module.uses[self.contents.of("")] > 1:  # checked elsewhere too: one function
            function = self.module.target_function(self, "")
            # The type test again in place: it tells mypy that ``data`` is a dict.
            narrowing = self._fail(NOT_OF_TYPE["object"]("data"))
            return [*narrowing, Line(f"{function}(data)")] if function is not None else narrowing
        return self.nested(self.node(self.root, At("data", (), "")), "")

    def nested(self, statements: list[Statement], pointer: str) -> list[Statement]:
        """``statements``, unless their blocks nest deeper than Python can indent."""
        if depth(statements) > MAX_NESTING:
            raise self.error(
                pointer,
                f"blocks nest more than {MAX_NESTING} levels deep in the function of this schema; "
                "move an inner schema to $defs (each $ref target is a function of its own)",
            )
        return statements

    def function_source(self, name: str, target: str, hint: str) -> str | None:
        """The source of the function ``name`` checking the ``$ref`` target at ``target``; None
        when it checks nothing."""
        compiler = self.sibling()
        value = python_identifier(hint, reserved=_TAKEN)
        compiler._locals = Identifiers(reserved=_TAKEN | {value})
        schema = self.resolve(target, target)
        body = compiler.node(schema, At(value, ("*path",), target))
        self.nested(body, target)
        if not body:
            return None
        emitter = LineEmitter()
        with emitter.block(f"def {name}({value}: Any) -> None"):
            write(emitter, body)
        return emitter.source()

    def sibling(self) -> SurfaceCompiler:
        """A compiler of the same kind for a function of this module."""
        return SurfaceCompiler(self.provider, self.surface, self.root, self.module)

    def node(self, schema: Any, at: At) -> list[Statement]:
        if schema is True:
            return []
        if not isinstance(schema, dict):
            raise self.error(at.pointer, "a schema must be an object or true here")
        unsupported = sorted(set(schema) - set(self.KEYWORDS) - self.STRUCTURAL - ANNOTATIONS)
        if unsupported:
            raise self.error(
                jp.join(at.pointer, unsupported[0]),
                f"keyword {unsupported[0]!r} is not supported in envelope schemas "
                f"(supported: {', '.join([*self.KEYWORDS, *sorted(self.STRUCTURAL)])})",
            )
        for keyword, (fits, shape) in _SHAPES.items():
            if keyword in schema and not fits(schema[keyword]):
                raise self.error(jp.join(at.pointer, keyword), f"{keyword} must be {shape}")
        if "$ref" in schema:
            return self._ref(schema, at)
        if "anyOf" in schema:
            return self._any_of(schema, at)
        out: list[Statement] = []
        for keyword, method in self.KEYWORDS.items():
            if keyword in schema:
                out += getattr(self, method)(schema, at)
                if keyword == "type" and isinstance(schema["type"], str):
                    at = replace(at, known=schema["type"])
        return out

    # -- structural keywords -------------------------------------------------------------------

    def _ref(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"$ref": "#/$defs/Usage"}``: a call to the function of the target, or its checks in
        place when this is the one use of the target (a call costs more than the checks of a
        small definition: the validator stays as fast as hand-written code)."""
        target = self.ref_pointer(schema, at.pointer)
        resolved = self.resolve(target, at.pointer)
        if self._inlines(target, at.in_loop):
            self._expanding.append(target)
            try:
                return self.node(resolved, replace(at, pointer=target))
            finally:
                self._expanding.pop()
        function = self.module.target_function(self, target)
        if function is None:
            return []
        return [Line(f"{function}({at.value})")]

    def _inlines(self, target: str, in_loop: bool) -> bool:
        """Whether ``target`` is checked in place: when it is not recursive, and either its one
        use in the module or a use in a loop (a call per item would cost more than the checks of
        a small definition: the validator stays as fast as hand-written code; a call per
        response costs nothing that shows). The same rule in every surface, so that a shared
        definition compiles to the same function wherever it is written."""
        if target in self._expanding:
            return False
        return in_loop or self.module.uses[self.contents.of(target)] == 1

    def _any_of(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"anyOf": [{"type": "string"}, {"type": "null"}]}``: null, or the other branch."""
        inner = self.nullable_inner(schema, at.pointer)
        if isinstance(inner, dict) and set(inner) - ANNOTATIONS == {"type"}:
            helper = _NULLABLE_HELPERS.get(str(inner["type"]))
            if helper is not None and at.known is None:  # one test instead of two (shorter)
                self.imports.add(helper)
                return self._fail(f"type({at.value}) is not int and not {helper}({at.value})")
        body = self.node(inner, replace(at, pointer=jp.join(at.pointer, "anyOf")))
        return guard(f"{at.value} is not None", body)

    # -- keywords --------------------------------------------------------------------------------

    def _type(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"type": "string"}``, or ``{"type": ["string", "object"]}`` for alternatives"""
        name = schema["type"]
        if _is_type_list(name):
            if at.known in name:
                return []
            for one in name:
                if one in _TYPE_HELPERS:
                    self.imports.add(_TYPE_HELPERS[one])
            return self._fail(" and ".join(NOT_OF_TYPE[n](at.value) for n in name))
        if not isinstance(name, str) or name not in NOT_OF_TYPE:
            raise self.error(
                jp.join(at.pointer, "type"),
                'type must be one type name; write a nullable value as anyOf [S, {"type": "null"}]',
            )
        if at.known == name:
            return []
        if name in _TYPE_HELPERS:
            self.imports.add(_TYPE_HELPERS[name])
        return self._fail(NOT_OF_TYPE[name](at.value))

    def _const(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"const": "chat.completion"}`` (strings only)"""
        value = schema["const"]
        if not isinstance(value, str):
            raise self.error(
                jp.join(at.pointer, "const"), "const must be a string in envelope schemas"
            )
        return self._fail(f"{at.value} != {value!r}")

    def _enum(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"enum": ["end_turn", "tool_use"]}`` (strings only; the set is a module constant)"""
        values = schema["enum"]
        if not values or not all(isinstance(v, str) for v in values):
            raise self.error(
                jp.join(at.pointer, "enum"), "enum must list strings in envelope schemas"
            )
        constant = self.module.constants.frozenset(
            f"{self.surface} {at.path[-1] if at.path else ''} values".replace("'", ""),
            [repr(v) for v in values],
        )
        return self._fail(f"type({at.value}) is not str or {at.value} not in {constant}")

    def _min_items(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"type": "array", "minItems": 1}``"""
        self._needs(at, "array", "minItems")
        count = schema["minItems"]
        if not count:
            return []
        return self._fail(f"len({at.value}) < {count!r}")

    def _items(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"type": "array", "items": {"$ref": "#/$defs/Choice"}}``"""
        self._needs(at, "array", "items")
        item = self._var(at.value, "item", "item")
        pointer = jp.join(at.pointer, "items")
        body = self.node(schema["items"], At(item, (*at.path, "item"), pointer, in_loop=True))
        if not body:
            return []
        return [Loop(item, None, at.value, tuple(body))]

    def _properties(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}``"""
        self._needs(at, "object", "properties")
        required = set(schema.get("required", ()))
        discriminator = self._discriminator(schema)
        out: list[Statement] = []
        for key, child in schema["properties"].items():
            pointer = jp.join(at.pointer, "properties", key)
            out += self._member(key, child, key in required, at, pointer, bind=key == discriminator)
        return out

    @staticmethod
    def _discriminator(schema: dict[str, Any]) -> str | None:
        """The discriminator of a union beside ``properties`` (checked in full by ``_all_of``)."""
        try:
            (key,) = schema["allOf"][0]["if"]["properties"]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        return str(key)

    def _required(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """``{"type": "object", "required": ["id"]}`` for names without a ``properties`` entry"""
        self._needs(at, "object", "required")
        declared = schema.get("properties", {})
        out: list[Statement] = []
        for key in schema["required"]:
            if key not in declared:
                out += self._fail(f"{key!r} not in {at.value}")
        return out

    def _all_of(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """A discriminated union; only the case whose constant the discriminator holds applies::

        {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
         "allOf": [{"if": {"properties": {"type": {"const": "function"}}, "required": ["type"]},
                    "then": {"$ref": "#/$defs/FunctionToolCall"}}]}
        """
        self._needs(at, "object", "allOf")
        discriminator, cases = self._union_cases(schema, at.pointer)
        bodies: dict[tuple[Statement, ...], list[str]] = {}
        for position, (value, then) in enumerate(cases):
            pointer = jp.join(at.pointer, "allOf", position, "then")
            body = tuple(self.node(then, replace(at, known="object", pointer=pointer)))
            if body:
                bodies.setdefault(body, []).append(value)
        if not bodies:
            return []
        tag = self._var(at.value, discriminator, "member")  # bound by _properties
        arms = []
        for body, values in bodies.items():
            if len(values) == 1:
                arms.append((f"{tag} == {values[0]!r}", body))
            else:
                arms.append((f"{tag} in ({', '.join(map(repr, values))})", body))
        return [If(tuple(arms))]

    # -- members ---------------------------------------------------------------------------------

    def _member(
        self, key: str, child: Any, required: bool, at: At, pointer: str, bind: bool
    ) -> list[Statement]:
        path = (*at.path, repr(key))
        name = self._var(at.value, key, "member")
        subscript = f"{at.value}[{key!r}]"
        if not bind and self._reads_once(child, pointer, at.in_loop):
            body = self.node(child, At(subscript, path, pointer, in_loop=at.in_loop))
            bound: list[Statement] = []
        else:
            body = self.node(child, At(name, path, pointer, in_loop=at.in_loop))
            bound = [Bind(name, subscript)]
        if not required and body and bound and self._null_passes(child, pointer):
            # Absent reads as None, which passes: no membership test (as fast, and shorter).
            return [Bind(name, f"{at.value}.get({key!r})"), *body]
        if not required:
            return guard(f"{key!r} in {at.value}", [*bound, *body]) if body else []
        if not body:  # present, any value
            return self._fail(f"{key!r} not in {at.value}")
        return [*bound, *body]

    def _null_passes(self, schema: Any, pointer: str) -> bool:
        """Whether ``schema`` is ``anyOf [S, null]`` whose null test comes first (not the one
        test of a nullable integer or number, where None costs a call)."""
        schema, pointer = self.follow_refs(schema, pointer)
        if not isinstance(schema, dict) or "anyOf" not in schema:
            return False
        inner = self.nullable_inner(schema, pointer)
        return not (
            isinstance(inner, dict)
            and set(inner) - ANNOTATIONS == {"type"}
            and str(inner["type"]) in _NULLABLE_HELPERS
        )

    def _reads_once(self, schema: Any, pointer: str, in_loop: bool) -> bool:
        if isinstance(schema, dict) and set(schema) - ANNOTATIONS == {"$ref"}:
            target = self.ref_pointer(schema, pointer)
            if not self._inlines(target, in_loop):
                return True  # a call: the value is its argument
            return self._reads_once(self.resolve(target, pointer), target, in_loop)
        if isinstance(schema, dict) and set(schema) - ANNOTATIONS == {"const"}:
            return True  # x != "value"
        return (
            isinstance(schema, dict)
            and set(schema) - ANNOTATIONS == {"type"}
            and isinstance(schema["type"], str)
            and schema["type"] in _SINGLE_READ_TYPES
        )

    # -- helpers -----------------------------------------------------------------------------------

    @staticmethod
    def _fail(condition: str) -> list[Statement]:
        """A mismatch when ``condition`` holds (explain_drift then finds where and why)."""
        return guard(condition, [Line("raise _Mismatch", leaves=True)])

    def _needs(self, at: At, json_type: str, keyword: str) -> None:
        if at.known != json_type:
            raise self.error(
                jp.join(at.pointer, keyword), f'{keyword} needs {{"type": "{json_type}"}} beside it'
            )

    def _var(self, parent: str, token: str, kind: str) -> str:
        """A local name from the last steps of the data path (as few as make it free), unique
        within the function."""
        tokens = (*self._tokens.get(parent, (parent,)), "_".join(words(token)) or token)
        hints = ["_".join(tokens[-count:]) for count in (1, 2, 3)]
        name = self._locals.shortest(hints, key=(*tokens, kind))
        self._tokens[name] = tokens
        return name

    def _union_cases(
        self, schema: dict[str, Any], pointer: str
    ) -> tuple[str, list[tuple[str, Any]]]:
        form = (
            "allOf is supported only as discriminator cases: "
            '[{"if": {"properties": {D: {"const": V}}, '
            '"required": [D]}, "then": S}, ...] beside a required string property D'
        )
        entries = schema["allOf"]
        discriminator: str | None = None
        cases: list[tuple[str, Any]] = []
        for position, entry in enumerate(entries):
            entry_pointer = jp.join(pointer, "allOf", position)
            condition = entry.get("if") if isinstance(entry, dict) else None
            if (
                not isinstance(condition, dict)
                or set(entry) - ANNOTATIONS != {"if", "then"}
                or set(condition) - ANNOTATIONS != {"properties", "required"}
                or not isinstance(condition["properties"], dict)
                or len(condition["properties"]) != 1
            ):
                raise self.error(entry_pointer, form)
            ((key, test),) = condition["properties"].items()
            if (
                condition["required"] != [key]
                or not isinstance(test, dict)
                or set(test) - ANNOTATIONS != {"const"}
                or not isinstance(test["const"], str)
                or discriminator not in (None, key)
            ):
                raise self.error(entry_pointer, form)
            if any(test["const"] == value for value, _ in cases):
                raise self.error(entry_pointer, f"the case {test['const']!r} is listed twice")
            discriminator = key
            cases.append((test["const"], entry["then"]))
        if discriminator is None:
            raise self.error(jp.join(pointer, "allOf"), form)
        declared = schema.get("properties", {}).get(discriminator)
        if (
            discriminator not in schema.get("required", ())
            or self.describe(declared, pointer) != "string"
        ):
            raise self.error(jp.join(pointer, "allOf"), form)
        return discriminator, cases

    def nullable_inner(self, schema: dict[str, Any], pointer: str) -> Any:
        """S of ``{"anyOf": [S, {"type": "null"}]}``."""
        branches = schema["anyOf"]
        siblings = set(schema) - ANNOTATIONS - {"anyOf"}
        nulls = [b for b in branches if isinstance(b, dict) and b == {"type": "null"}]
        if siblings or len(branches) != 2 or len(nulls) != 1:
            raise self.error(
                jp.join(pointer, "anyOf"),
                'anyOf is supported only as [S, {"type": "null"}] (a nullable value), '
                "alone in its schema",
            )
        return next(b for b in branches if b is not nulls[0])

    def ref_pointer(self, schema: dict[str, Any], pointer: str) -> str:
        ref = schema["$ref"]
        if set(schema) - ANNOTATIONS != {"$ref"}:
            raise self.error(pointer, "$ref must stand alone in envelope schemas")
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise self.error(
                jp.join(pointer, "$ref"), "only local references (#/...) are supported"
            )
        return jp.ref_pointer(ref)

    def follow_refs(self, schema: Any, pointer: str) -> tuple[Any, str]:
        """The schema a chain of plain ``$ref`` nodes leads to, and its pointer."""

        def target(node: Any, at: str) -> str | None:
            if isinstance(node, dict) and set(node) - ANNOTATIONS == {"$ref"}:
                return self.ref_pointer(node, at)
            return None

        try:
            return refs.follow(self.root, schema, pointer, target)
        except refs.RefCycle as cycle:
            raise self.error(
                cycle.pointer, "recursive $ref is not supported in envelope schemas"
            ) from None
        except (KeyError, ValueError):
            raise self.error(jp.join(pointer, "$ref"), "a $ref does not resolve") from None

    def resolve(self, target: str, pointer: str) -> Any:
        try:
            return jp.resolve(self.root, target)
        except (KeyError, ValueError):
            raise self.error(
                jp.join(pointer, "$ref"), f"reference #{target} does not resolve"
            ) from None

    def describe(self, schema: Any, pointer: str) -> str:
        """The expected-type text of a schema: ``string``, ``object or null``, ``"message"``..."""
        if not isinstance(schema, dict):
            return "value"
        if set(schema) - ANNOTATIONS == {"$ref"}:
            target = self.ref_pointer(schema, pointer)
            if target in self._expanding:
                return "value"
            self._expanding.append(target)
            try:
                return self.describe(self.resolve(target, pointer), target)
            finally:
                self._expanding.pop()
        if "anyOf" in schema:
            return self.describe(self.nullable_inner(schema, pointer), pointer) + " or null"
        if isinstance(schema.get("const"), str):
            return json.dumps(schema["const"])
        if isinstance(schema.get("enum"), list):
            return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
        if isinstance(schema.get("type"), str):
            return str(schema["type"])
        if _is_type_list(schema.get("type")):
            return " or ".join(schema["type"])
        return "value"

    def error(self, pointer: str, message: str) -> EnvelopeSchemaError:
        return EnvelopeSchemaError(self.provider, self.surface, pointer, message)


def _is_type_list(value: Any) -> bool:
    """``["string", "object"]``: two or more distinct type names other than null (a nullable
    value is written with anyOf, so the generated code can tell absent from null)."""
    return (
        isinstance(value, list)
        and len(value) >= 2
        and len(set(value)) == len(value)
        and all(isinstance(n, str) and n in NOT_OF_TYPE and n != "null" for n in value)
    )


def compile_surface(module: ModuleCompiler, surface: str, schema: Any) -> str:
    """The source of ``_wire_<surface>`` (unformatted); the functions of ``$ref`` targets,
    constants and imports it needs go to ``module``."""
    checks = SurfaceCompiler(module.provider, surface, schema, module).compile()
    module.imports.add("Any")
    name = wire_checks_name(surface)
    emitter = LineEmitter()
    with emitter.block(f"def {name}(data: object) -> dict[str, Any]"):
        emitter.lines(docstring(f"Check a {surface} envelope of {module.provider} as JSON."))
        with emitter.block("try"):
            write(emitter, checks)
            emitter.line("return data")
        with emitter.block("except (KeyError, _Mismatch)"):
            emitter.line(f"return _mismatched({name}, {surface!r}, data)")
    return emitter.source()


def check_schema(provider: str, surface: str, schema: Any) -> None:
    """Raise EnvelopeSchemaError unless ``schema`` is inside the compiled subset."""
    SurfaceCompiler(provider, surface, schema).compile()
