"""The envelope checks compiled a second time, over an SDK object's attributes.

``read_<surface>(data)`` is what the decoders call: raw JSON goes to ``_wire_<surface>``; an
SDK object is checked by ``_object_<surface>(data)``, the same checks in the same order, where an
object member is read from the object (present when in ``__pydantic_fields_set__``, its value in
``__dict__``) once ``_attributes.admit`` found that the class reads as its wire form. When any of
it fails (a class not admitted, an enum member where a string is checked, a mismatch), the object
goes to ``_wire_<surface>``, which reads it as its wire form (its dump) and explains any drift:
the drift decisions are those of the wire form by construction, and a valid object pays no dump.
``validate_<surface>(data)``, the public check, runs ``read_<surface>`` and gives ``data`` back.

A member is read under its attribute name (``attribute_name``): its wire name, or the snake_case
form of a camelCase one (google-genai declares ``function_call`` with the alias ``functionCall``);
``admit`` checks that the class's field of that name dumps under the wire name.

A free-form object (``{"type": "object"}`` and nothing to check inside) is a dict in most SDKs'
objects (``Dict[str, object]``) and may be a model of the SDK's own (google-genai's
``inline_data`` is a ``Blob``): either passes (``wire_object``). A string may be a ``str`` enum
member, a datetime or bytes in google-genai's objects (``finish_reason``, ``create_time``,
``thought_signature``), each written as a JSON string by the dump (``wire_string``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from toolgen.compile.validators.envelope_compiler import (
    NOT_OF_TYPE,
    At,
    ModuleCompiler,
    SurfaceCompiler,
    validator_name,
    wire_checks_name,
)
from toolgen.compile.validators.statements import Bind, Line, Statement, guard, write
from toolgen.render.codegen import Identifiers, LineEmitter, docstring

#: the keywords that check inside an object (without them an object is free-form)
_INSIDE = frozenset({"properties", "required", "allOf"})
#: a camelCase wire name (a lower-case word, then capitalized ones)
_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")


def attribute_name(wire: str) -> str:
    """The attribute an SDK class declares for the wire member ``wire``: ``function_call`` for
    ``functionCall`` (pydantic's ``to_camel`` alias generator undone), any other name as it is."""
    if _CAMEL.fullmatch(wire) is None:
        return wire
    return re.sub(r"[A-Z]", lambda upper: "_" + upper.group().lower(), wire)


@dataclass
class ObjectModuleCompiler(ModuleCompiler):
    """What the object checks of one module share (``ModuleCompiler``'s), and how the provider's
    SDK objects hold their members (``Api.sdk_objects``)."""

    sdk_objects: str = "wire"


def object_module(module: ModuleCompiler, sdk_objects: str = "wire") -> ObjectModuleCompiler:
    """The module compiler of the object checks: the constants and imports of ``module``, its
    own functions (``_object_<def>``)."""
    if sdk_objects not in ("wire", "genai"):
        raise ValueError(f"unknown way of SDK objects: {sdk_objects!r}")
    objects = ObjectModuleCompiler(
        module.provider, module.constants, module.imports, sdk_objects=sdk_objects
    )
    objects.names = Identifiers(prefix="_object_")
    objects.uses = module.uses
    return objects


class ObjectSurfaceCompiler(SurfaceCompiler):
    """The statements checking one surface over an SDK object (see the module docstring)."""

    def __init__(self, provider: str, surface: str, schema: Any, module: ModuleCompiler) -> None:
        super().__init__(provider, surface, schema, module)
        #: value expression -> (its fields-set name, its members name, the members admitted)
        self._objects: dict[str, tuple[str, str, tuple[str, ...]]] = {}
        #: google-genai's objects (``Api.sdk_objects``): snake_case attributes, richer values
        self._genai = isinstance(module, ObjectModuleCompiler) and module.sdk_objects == "genai"

    def _attribute(self, wire: str) -> str:
        return attribute_name(wire) if self._genai else wire

    def compile(self) -> list[Statement]:
        if self.module.uses[self.contents.of("")] > 1:
            function = self.module.target_function(self, "")
            return [Line(f"{function}(data)")] if function is not None else []
        return super().compile()

    def sibling(self) -> ObjectSurfaceCompiler:
        return ObjectSurfaceCompiler(self.provider, self.surface, self.root, self.module)

    def _type(self, schema: dict[str, Any], at: At) -> list[Statement]:
        if self._genai and schema["type"] == "string" and at.known != "string":
            self.imports.add("wire_string")
            return self._fail(f"{NOT_OF_TYPE['string'](at.value)} and not wire_string({at.value})")
        if schema["type"] != "object" or at.known == "object":
            return super()._type(schema, at)
        if not _INSIDE & set(schema):
            if not self._genai:
                return self._fail(NOT_OF_TYPE["object"](at.value))
            self.imports.add("wire_object")
            return self._fail(f"{NOT_OF_TYPE['object'](at.value)} and not wire_object({at.value})")
        self._objects.pop(at.value, None)  # a name bound again (in another arm): a new object
        return self._admit(schema, at)

    def _admit(self, schema: dict[str, Any], at: At) -> list[Statement]:
        """The admission of the object at ``at`` for the members ``schema`` reads (again for a
        union case's further members), its fields set and members bound, then the test that it
        was given every required member."""
        members, optional = _members(schema)
        required = tuple(m for m in members if m not in optional)
        known = self._objects.get(at.value)
        if known is not None:
            members = tuple(m for m in members if m not in known[2])
            optional = tuple(m for m in optional if m in members)
            required = tuple(m for m in required if m in members)
            if not members:
                return []
        self.imports.update({"admit", "admitted_classes"})
        where = at.path[-1] if at.path and at.path[-1] != "*path" else self.surface
        hint = where.replace("'", "")
        attributes = tuple(self._attribute(m) for m in members)
        wire = f", {members!r}" if attributes != members else ""
        classes = self.module.constants.add(
            f"{hint} classes",
            f"admitted_classes({attributes!r}, {tuple(self._attribute(m) for m in optional)!r}{wire})",
        )
        out = self._fail(f"type({at.value}) not in {classes} and not admit({at.value}, {classes})")
        if known is None:
            fields = self._var(at.value, "fields", "fields")
            values = self._var(at.value, "members", "members")
            out += [
                Bind(fields, f"{at.value}.__pydantic_fields_set__"),
                Bind(values, f"{at.value}.__dict__"),
            ]
            self._objects[at.value] = (fields, values, members)
        else:  # a union case's members: admitted in its arm alone (not remembered after it)
            fields = known[0]
        if required:
            names = self.module.constants.frozenset(
                f"{hint} required", [repr(self._attribute(m)) for m in required]
            )
            out += self._fail(f"not {fields} >= {names}")
        return out

    def _properties(self, schema: dict[str, Any], at: At) -> list[Statement]:
        return [*self._admit(schema, at), *super()._properties(schema, at)]

    def _required(self, schema: dict[str, Any], at: At) -> list[Statement]:
        # required members without a schema: tested by the admission, which ``_properties`` (run
        # first) made already when there are any (in a union case, not remembered: not again)
        return [] if "properties" in schema else self._admit(schema, at)

    def _member(
        self, key: str, child: Any, required: bool, at: At, pointer: str, bind: bool
    ) -> list[Statement]:
        fields, values, _ = self._objects[at.value]
        name = self._var(at.value, key, "member")
        attribute = self._attribute(key)
        subscript = f"{values}[{attribute!r}]"
        path = (*at.path, repr(key))
        if not bind and self._reads_once(child, pointer, at.in_loop) and not self._object(child):
            body = self.node(child, At(subscript, path, pointer, in_loop=at.in_loop))
            bound: list[Statement] = []
        else:
            body = self.node(child, At(name, path, pointer, in_loop=at.in_loop))
            bound = [Bind(name, subscript)]
        if not required:
            return guard(f"{attribute!r} in {fields}", [*bound, *body]) if body else []
        return [*bound, *body] if body else []  # present: tested with the others by _admit

    def _object(self, schema: Any) -> bool:
        """Whether ``schema`` (through its ``$ref`` chain) checks inside an object: its value is
        then bound (a free-form object is tested in place, as a dict)."""
        schema, _ = self.follow_refs(schema, "")
        return (
            isinstance(schema, dict)
            and schema.get("type") == "object"
            and bool(_INSIDE & set(schema))
        )


def _members(schema: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The members an object schema reads (declared or required), and those that may be absent."""
    required = set(schema.get("required", ()))
    members = sorted(set(schema.get("properties", {})) | required)
    return tuple(members), tuple(m for m in members if m not in required)


def object_function_name(surface: str) -> str:
    return f"_object_{surface}"


def reader_name(surface: str) -> str:
    return f"read_{surface}"


def compile_object_surface(module: ModuleCompiler, surface: str, schema: Any) -> str:
    """The source of ``_object_<surface>``, ``read_<surface>`` and ``validate_<surface>``
    (unformatted)."""
    checks = ObjectSurfaceCompiler(module.provider, surface, schema, module).compile()
    wire = wire_checks_name(surface)
    emitter = LineEmitter()
    with emitter.block(f"def {object_function_name(surface)}(data: Any) -> None"):
        emitter.lines(docstring(f"``{wire}``'s checks over an SDK object's attributes."))
        if checks:
            write(emitter, checks)
        else:
            emitter.line("return")
    emitter.line()
    emitter.line()
    with emitter.block(f"def {reader_name(surface)}(data: object) -> Any"):
        emitter.lines(
            docstring(
                "``data`` as the decoders read it once it holds: raw JSON checked by "
                f"``{wire}``, an SDK object through its attributes (as it is), or, when "
                "those do not hold, as its wire form (the dump, drift explained)."
            )
        )
        with emitter.block("if type(data) is not dict"):
            with emitter.block("try"):
                emitter.line(f"{object_function_name(surface)}(data)")
                emitter.line("return data")
            with emitter.block("except (AttributeError, KeyError, TypeError, _Mismatch)"):
                emitter.line("pass")
        emitter.line(f"return {wire}(data)")
    emitter.line()
    emitter.line()
    module.imports.add("TypeVar")
    with emitter.block(f"def {validator_name(surface)}(data: _T) -> _T"):
        emitter.lines(
            docstring(
                f"``data`` as given once it has the {surface} envelope of {module.provider}: raw "
                "JSON, or an SDK object (checked through its attributes, else as its wire form); "
                "SchemaDriftError at the first mismatch."
            )
        )
        emitter.line(f"{reader_name(surface)}(data)")
        emitter.line("return data")
    return emitter.source()
