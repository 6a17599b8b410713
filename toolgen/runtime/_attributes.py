"""Reading an SDK object through its attributes, as its wire form would read, without a dump.

The envelope modules check an SDK object (a pydantic model of the official SDKs) member by member:
a member is present when the object was given it (``__pydantic_fields_set__``), its value is in
``__dict__``. That reads as the wire form (``model_dump(mode="json", by_alias=True,
exclude_unset=True)``, what ``_runtime.json_value`` gives) only for a class whose members of
interest dump to themselves, which ``admit`` establishes once per class and set of members
(``Admitted``):

- a pydantic model whose ``model_dump`` is pydantic's own (no override);
- each member a declared field of that name, with no other alias, not excluded, with no field or
  model serializer;
- each member that may be absent defaults to None, or has no default (then an absent one is no
  attribute: the decoders read it with ``getattr(obj, name, None)``), so that an absent member
  reads as None, as ``.get`` on the wire form does.

Values are then checked with the same ``type(x) is`` tests as raw JSON, so a value that would dump
to something else (an enum member, a datetime, NaN) fails the check, and the object is read as its
wire form instead: the fast path accepts only what the dump would give, with the same values.
"""

from __future__ import annotations

import datetime
import enum
import typing
from typing import Any, Final

from pydantic import BaseModel

__all__ = ["Admitted", "admit", "admitted_classes", "members_of", "wire_object", "wire_string"]


class Admitted(set[type]):
    """The classes whose objects read as their wire form for ``members`` (those in ``optional``
    may be absent); ``refused`` the classes found not to."""

    def __init__(
        self, members: tuple[str, ...], optional: tuple[str, ...], wire: tuple[str, ...]
    ) -> None:
        super().__init__()
        self.members = members
        self.optional = optional
        #: the wire name of each member, in the order of ``members``
        self.wire = wire
        self.refused: set[type] = set()


_TABLES: Final[dict[tuple[tuple[str, ...], ...], Admitted]] = {}


def admitted_classes(
    members: tuple[str, ...], optional: tuple[str, ...] = (), wire: tuple[str, ...] | None = None
) -> Admitted:
    """The one table of the classes admitted for ``members`` (attribute names; ``wire`` their
    wire names when any differs), shared by every module."""
    named = members if wire is None else wire
    return _TABLES.setdefault((members, optional, named), Admitted(members, optional, named))


def admit(value: object, classes: Admitted) -> bool:
    """Whether ``value``'s class reads as its wire form for the members of ``classes`` (the
    generated checks test ``type(value) in classes`` first; this decides a new class once)."""
    cls = type(value)
    if cls in classes:
        return True
    if cls in classes.refused:
        return False
    if _reads_as_wire(cls, classes):
        classes.add(cls)
        return True
    classes.refused.add(cls)
    return False


def _dumps_itself(cls: type) -> bool:
    """A pydantic model class whose dump is pydantic's own and a JSON object."""
    if not isinstance(cls, type) or not issubclass(cls, BaseModel):
        return False
    if cls.model_dump is not BaseModel.model_dump:
        return False
    decorators: Any = cls.__pydantic_decorators__
    return not decorators.model_serializers


def _mentions_bytes(annotation: Any) -> bool:
    if annotation is bytes or annotation is bytearray:
        return True
    return any(_mentions_bytes(argument) for argument in typing.get_args(annotation))


def _reads_as_wire(cls: type, classes: Admitted) -> bool:
    if not _dumps_itself(cls):
        return False
    assert issubclass(cls, BaseModel)
    decorators: Any = cls.__pydantic_decorators__
    bytes_as_text = cls.model_config.get("ser_json_bytes", "utf8") in ("base64", "hex")
    serialized = {
        name
        for decorator in decorators.field_serializers.values()
        for name in decorator.info.fields
    }
    fields = cls.model_fields
    keys = {field.serialization_alias or field.alias or name for name, field in fields.items()}
    keeps_extra = cls.model_config.get("extra") == "allow"
    for name, wire in zip(classes.members, classes.wire, strict=True):
        field = fields.get(name)
        if field is None and name in classes.optional and not keeps_extra and wire not in keys:
            continue  # a member the class does not know: never set, absent from its dump too
        if field is None or name in serialized or field.exclude:
            return False
        if (field.serialization_alias or field.alias or name) != wire:
            return False
        defaulted = field.default_factory is not None or field.default is not None
        if name in classes.optional and not field.is_required() and defaulted:
            return False
        if not bytes_as_text and _mentions_bytes(field.annotation):
            return False
    return True


_TEXT_TYPES: Final = (datetime.datetime, datetime.date, datetime.time, bytes)


def wire_string(value: object) -> bool:
    """Whether a member of an admitted class that is no ``str`` is surely a JSON string in the
    dump: a ``str`` enum member whose value is its text, or a datetime, date, time or bytes (an
    admitted class writes bytes as text)."""
    if isinstance(value, enum.Enum):
        return isinstance(value, str) and value.value == value and type(value.value) is str
    return isinstance(value, _TEXT_TYPES)


_OBJECT_CLASSES: Final[dict[type, bool]] = {}


def wire_object(value: object) -> bool:
    """Whether a member that is no dict (a free-form object the SDK types as a model of its own)
    dumps to a JSON object: an instance of a pydantic model whose dump is pydantic's own."""
    cls = type(value)
    known = _OBJECT_CLASSES.get(cls)
    if known is None:
        known = _OBJECT_CLASSES[cls] = _dumps_itself(cls)
    return known


def members_of(value: Any) -> dict[str, Any]:
    """The members of a JSON object, or of an SDK object its ``read_<surface>`` check accepted:
    its ``__dict__``, where a member the object was not given is None or missing (``admit``), so
    ``[name]`` and ``.get(name)`` read it as they read its wire form. The stream joiners read each
    level of an event through it, with no dump."""
    return value if type(value) is dict else value.__dict__
