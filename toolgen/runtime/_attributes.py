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

from typing import Any, Final

from pydantic import BaseModel

__all__ = ["Admitted", "admit", "admitted_classes", "members_of"]


class Admitted(set[type]):
    """The classes whose objects read as their wire form for ``members`` (those in ``optional``
    may be absent); ``refused`` the classes found not to."""

    def __init__(self, members: tuple[str, ...], optional: tuple[str, ...]) -> None:
        super().__init__()
        self.members = members
        self.optional = optional
        self.refused: set[type] = set()


_TABLES: Final[dict[tuple[tuple[str, ...], tuple[str, ...]], Admitted]] = {}


def admitted_classes(members: tuple[str, ...], optional: tuple[str, ...] = ()) -> Admitted:
    """The one table of the classes admitted for ``members`` (shared by every module)."""
    return _TABLES.setdefault((members, optional), Admitted(members, optional))


def admit(value: object, classes: Admitted) -> bool:
    """Whether ``value``'s class reads as its wire form for the members of ``classes`` (the
    generated checks test ``type(value) in classes`` first; this decides a new class once)."""
    cls = type(value)
    if cls in classes:
        return True
    if cls in classes.refused:
        return False
    if _reads_as_wire(cls, classes.members, classes.optional):
        classes.add(cls)
        return True
    classes.refused.add(cls)
    return False


def _reads_as_wire(cls: type, members: tuple[str, ...], optional: tuple[str, ...]) -> bool:
    if not isinstance(cls, type) or not issubclass(cls, BaseModel):
        return False
    if cls.model_dump is not BaseModel.model_dump:
        return False
    decorators: Any = cls.__pydantic_decorators__
    if decorators.model_serializers:
        return False
    serialized = {
        name
        for decorator in decorators.field_serializers.values()
        for name in decorator.info.fields
    }
    fields = cls.model_fields
    for name in members:
        field = fields.get(name)
        if field is None or name in serialized or field.exclude:
            return False
        if (field.alias or name) != name or (field.serialization_alias or name) != name:
            return False
        defaulted = field.default_factory is not None or field.default is not None
        if name in optional and not field.is_required() and defaulted:
            return False
    return True


def members_of(value: Any) -> dict[str, Any]:
    """The members of a JSON object, or of an SDK object its ``read_<surface>`` check accepted:
    its ``__dict__``, where a member the object was not given is None or missing (``admit``), so
    ``[name]`` and ``.get(name)`` read it as they read its wire form. The stream joiners read each
    level of an event through it, with no dump."""
    return value if type(value) is dict else value.__dict__
