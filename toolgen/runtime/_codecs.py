"""The codecs of the projection's encodings: each one the single place its encoding is defined.

Where a provider's strict mode cannot take a canonical form, the projection writes it in a shape
the provider takes (toolgen/project/rewrites/encodings.py: a rule a codec, naming it), and the
inverse reads it back. A :class:`Codec` owns both halves and the types on either side:

- ``reads``: the kind of value the provider writes for the node (``str``, ``list`` or ``dict``);
  a value of another kind is not of the encoding and passes unchanged (the canonical validation
  reports it);
- ``returns``: the canonical JSON types it gives back (empty: a value of any type);
- ``decode(value, argument)``: the inverse; a payload that breaks the encoding raises
  :class:`EncodingError` (a ``ValueError`` the generated runtime reports as a ``PayloadError``),
  whose message names positions, never what the model wrote;
- ``write(value, argument, plan)``: the writer of the testing fakes (toolgen/runtime/_forward.py),
  the decoder's inverse: ``decode(write(v), argument) == v``.

A decoder never makes an array or an object of a value whose JSON text holds no bracket or brace
(the runtime checks the depth of a changed payload again only where the text could nest deeper
than its limit: runtime/_runtime.py). One codec changes no schema: where a provider may write an
enum's string in another letter case (``case``), the projection sends the enum as it is and the
codec reads such a string back as the declared one.

The compiled canonicalizers call :func:`decode` with a codec's name, as toolgen's reference inverse
does, and the fakes call :func:`write`; toolgen's projection and compilers read :data:`CODECS`,
so an encoding whose codec is missing fails when toolgen is imported, naming it
(toolgen/project/rewrites/rule.py). Standard library only.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ._json import JsonRefused, loads

__all__ = [
    "CODECS",
    "Codec",
    "EncodingError",
    "decode",
    "json_text",
    "write",
]


class EncodingError(ValueError):
    """A payload that does not read back as the projection encoded it (a map with a key twice,
    JSON text that is not JSON); the generated runtime reports it as a PayloadError."""


@dataclass(frozen=True)
class Codec:
    """One encoding: its name (what the projection's record and compiled code call it), the kind
    of value the provider writes, the canonical types it gives back, its decoder and its writer."""

    name: str
    reads: type
    returns: tuple[str, ...]
    decode: Callable[[Any, str], Any]
    write: Callable[[Any, str, Mapping[str, Any]], Any]
    #: what the inverse does with it, for the docstrings of the generated modules
    note: str


# -- a value of any type as JSON text -------------------------------------------------------------


def _decode_json(value: Any, _: str) -> Any:
    """The value written as JSON text, read by the runtime's JSON reader (runtime/_json.py), under
    its limits: depth, size, no NaN or infinity, no lone surrogate, no member twice."""
    if not isinstance(value, str):
        return value
    try:
        return loads(value)
    except JsonRefused as refused:
        raise EncodingError(f"a value written as JSON text is refused: {refused.reason}") from None


def json_text(value: Any) -> str:
    """A value's JSON text as the fakes write it; an enum of JSON texts holds its values' texts
    written so (toolgen/project/rewrites/enums.py, EnumAsJsonText)."""
    return json.dumps(value)


def _write_json(value: Any, _: str, plan: Mapping[str, Any]) -> Any:
    return json_text(value)


JSON_TEXT = Codec(
    "json",
    str,
    (),
    _decode_json,
    _write_json,
    "values written as JSON text are parsed",
)


# -- a map as key/value entries -------------------------------------------------------------------

#: the members of one entry of an encoded map
KEY, VALUE = "key", "value"


def _decode_pairs(value: Any, _: str) -> Any:
    """A map written as ``{"key": name, "value": X}`` entries: the object they build."""
    if not isinstance(value, list):
        return value
    result: dict[str, Any] = {}
    where: dict[str, int] = {}
    for index, entry in enumerate(value):
        if not (isinstance(entry, dict) and len(entry) == 2 and KEY in entry and VALUE in entry):
            raise EncodingError(
                f'a map is written as entries {{"{KEY}": ..., "{VALUE}": ...}} and nothing else; '
                f"entry [{index}] is not one"
            )
        key = entry[KEY]
        if not isinstance(key, str):
            raise EncodingError(f"the key of entry [{index}] of a map is not a string")
        if key in result:
            raise EncodingError(f"entries [{where[key]}] and [{index}] of a map have the same key")
        result[key] = entry[VALUE]
        where[key] = index
    return result


def _write_pairs(value: Any, _: str, plan: Mapping[str, Any]) -> Any:
    if not isinstance(value, dict):
        return value
    return [{KEY: key, VALUE: member} for key, member in value.items()]


PAIRS = Codec(
    "pairs",
    list,
    ("object",),
    _decode_pairs,
    _write_pairs,
    "maps written as lists of key/value entries are built back",
)


# -- an open object's other members under one member ----------------------------------------------


def _decode_extras(value: Any, member: str) -> Any:
    """An open object whose other members the member ``member`` holds (as a map, decoded before):
    merged back into it."""
    if not isinstance(value, dict) or not isinstance(value.get(member), dict):
        return value  # none written, or not a map: the canonical validation reports the latter
    extras = value[member]
    result = {k: v for k, v in value.items() if k != member}
    for index, name in enumerate(extras):
        if name in result:
            raise EncodingError(
                f"entry [{index}] of the member {member!r} (the other members) has the name of a "
                "declared member"
            )
        result[name] = extras[name]
    return result


def _write_extras(value: Any, member: str, plan: Mapping[str, Any]) -> Any:
    if not isinstance(value, dict):
        return value
    declared = plan["members"]
    kept = {name: each for name, each in value.items() if name in declared}
    others = {name: each for name, each in value.items() if name not in declared}
    if not others and member not in plan["nulls"]:
        return kept  # an optional member holding none
    return {**kept, member: others}  # the member's own plan writes them as entries


EXTRAS = Codec(
    "extras",
    dict,
    ("object",),
    _decode_extras,
    _write_extras,
    "the other members of open objects, written as one more member, are merged back",
)


# -- a tuple as an object of positions ------------------------------------------------------------


def _decode_tuple(value: Any, _: str) -> Any:
    """A tuple written as an object with one member per position (``"0"``, ``"1"`` ...): the
    members in order."""
    if not isinstance(value, dict):
        return value
    result: list[Any] = []
    while str(len(result)) in value:
        result.append(value[str(len(result))])
    if len(result) != len(value):
        raise EncodingError("a tuple position is written after an absent one")
    return result


def _write_tuple(value: Any, _: str, plan: Mapping[str, Any]) -> Any:
    if not isinstance(value, list | tuple):
        return value
    return {str(index): element for index, element in enumerate(value)}


TUPLE = Codec(
    "tuple",
    dict,
    ("array",),
    _decode_tuple,
    _write_tuple,
    "tuples written as objects of positions are read back as arrays",
)


# -- a value as the one member of an object -------------------------------------------------------


def _only_member(value: Any, member: str, form: str) -> Any:
    """The one member ``member`` of an object (a value that is no object as it is; another
    object is an :class:`EncodingError` saying ``form``)."""
    if not isinstance(value, dict):
        return value
    if len(value) != 1 or member not in value:
        raise EncodingError(f"{form}, not as an object of {len(value)} other member(s)")
    return value[member]


def _decode_boxed(value: Any, member: str) -> Any:
    """An optional member that accepts null written as ``{member: v}`` (a null member, absent, is
    removed before): ``v``. A value that is no object is the canonical value as written (the
    canonical validation checks it); an object that is no box is an :class:`EncodingError`."""
    return _only_member(
        value,
        member,
        f"an optional member that accepts null is written as null (absent) or as "
        f"{{{member!r}: ...}}",
    )


def _decode_unwrap(value: Any, member: str) -> Any:
    """A value wrapped in an object as its one member ``member`` (an output whose root is no
    object): the member."""
    return _only_member(value, member, f"a wrapped value is written as its one member {member!r}")


def _write_member(value: Any, member: str, plan: Mapping[str, Any]) -> Any:
    return {member: value}


BOXED = Codec(
    "boxed",
    dict,
    (),
    _decode_boxed,
    _write_member,
    'optional members that accept null, boxed as {"value": ...}, are unboxed',
)
UNWRAP = Codec(
    "unwrap",
    dict,
    (),
    _decode_unwrap,
    _write_member,
    "outputs whose root is no object, wrapped in one, are unwrapped",
)


# -- enum strings in another letter case ---------------------------------------------------------


@functools.cache
def _case_table(argument: str) -> tuple[frozenset[str], dict[str, str]]:
    """The declared strings of ``argument`` (their JSON list), and each by its case-folded form."""
    declared: list[str] = json.loads(argument)
    return frozenset(declared), {value.casefold(): value for value in declared}


def _decode_case(value: Any, argument: str) -> Any:
    """A string that is none of the declared strings (``argument``: their JSON list, each with a
    case-folded form no other value of its enum shares) but differs from one only in letter
    case: that declared string. Any other value as it is (the canonical validation checks it)."""
    if not isinstance(value, str):
        return value
    declared, folded = _case_table(argument)
    if value in declared:
        return value
    return folded.get(value.casefold(), value)


def _write_as_is(value: Any, argument: str, plan: Mapping[str, Any]) -> Any:
    return value


CASE = Codec(
    "case",
    str,
    (),
    _decode_case,
    _write_as_is,
    "enum values written in another letter case are read back as declared",
)


# -- member names the provider takes -------------------------------------------------------------


@functools.cache
def _names_table(argument: str) -> tuple[dict[str, str], dict[str, str]]:
    """(wire name -> canonical name, canonical name -> wire name) of ``argument``: the JSON list of
    [wire, canonical] pairs of one object's renamed members."""
    pairs: list[list[str]] = json.loads(argument)
    return {wire: name for wire, name in pairs}, {name: wire for wire, name in pairs}


def _decode_names(value: Any, argument: str) -> Any:
    """An object whose members the provider was sent under other names (its keys' pattern
    refuses the canonical ones): each member back under its canonical name, in order. A member
    written under both names is an :class:`EncodingError`."""
    if not isinstance(value, dict):
        return value
    canonical, _ = _names_table(argument)
    if not any(name in canonical for name in value):
        return value
    result: dict[str, Any] = {}
    written: str
    for index, (written, member) in enumerate(value.items()):
        name = canonical.get(written, written)
        if name in result:
            raise EncodingError(f"member [{index}] is a renamed member written under both names")
        result[name] = member
    return result


def _write_names(value: Any, argument: str, plan: Mapping[str, Any]) -> Any:
    if not isinstance(value, dict):
        return value
    _, wire = _names_table(argument)
    return {wire.get(name, name): member for name, member in value.items()}


RENAMED = Codec(
    "renamed",
    dict,
    ("object",),
    _decode_names,
    _write_names,
    "members sent under other names (the provider refuses their own) are named back",
)


#: codec name -> codec: every encoding of the projection
CODECS: dict[str, Codec] = {
    codec.name: codec for codec in (JSON_TEXT, PAIRS, EXTRAS, TUPLE, BOXED, UNWRAP, CASE, RENAMED)
}


def decode(name: str, argument: str, value: Any) -> Any:
    """``value`` read back by the codec ``name`` (``argument``: the member it stands for, where
    the encoding has one)."""
    return CODECS[name].decode(value, argument)


def write(name: str, argument: str, value: Any, plan: Mapping[str, Any]) -> Any:
    """``value`` written by the codec ``name`` as the provider's model writes it (``plan``: the
    forward plan of the node, toolgen/runtime/_forward.py)."""
    return CODECS[name].write(value, argument, plan)
