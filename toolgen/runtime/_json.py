"""JSON for the whole runtime: one reading of JSON text (arguments, outputs, joined stream
fragments) and one check of values that arrive already parsed (an ``input`` or ``args`` object,
an SDK object's dump), under the same limits, so a model only ever holds what it can write back.

Refused, as ``JsonRefused`` whose ``reason`` names the rule or the limit, never the content:

- nesting deeper than ``MAX_DEPTH`` arrays and objects (pydantic refuses to serialize a payload
  nested about 255 levels; 128 leaves room for the models around it), checked before parsing, so
  no input reaches Python's recursion limit;
- text longer than ``MAX_CHARS`` characters (1 MiB: about four times the longest answer a model
  writes today), or a parsed value that large;
- an integer of more than ``MAX_INTEGER_DIGITS`` digits (Python's own limit for converting
  integers to and from text), NaN, ``Infinity`` and numbers beyond the float range (``1e999``):
  a model never holds ``inf`` or ``nan``;
- lone surrogates (``"\\ud800"``), which no UTF-8 text can hold;
- an object with two members of the same name (JSON Schema cannot see them; the standard library
  would keep the last silently);
- in a parsed value, anything that is not JSON (a tuple, a non-string key, a set ...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from math import isfinite
from typing import Any, Final

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_INTEGER_DIGITS",
    "TOO_DEEP",
    "JsonRefused",
    "checked",
    "checked_depth",
    "dumps",
    "loads",
    "may_read_deeper",
    "read",
]

MAX_DEPTH: Final = 128
MAX_CHARS: Final = 1024 * 1024
MAX_INTEGER_DIGITS: Final = 4300
#: an integer of at most MAX_INTEGER_DIGITS digits is smaller than this in magnitude
_INTEGER_LIMIT: Final = 10**MAX_INTEGER_DIGITS


class JsonRefused(ValueError):
    """JSON the runtime does not read; ``reason`` says which rule or limit, never the content."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: the reason of a value nested too deep
TOO_DEEP: Final = f"nested deeper than {MAX_DEPTH} arrays and objects"
_TOO_LONG: Final = f"longer than {MAX_CHARS} characters"
_TOO_MANY_DIGITS: Final = f"an integer of more than {MAX_INTEGER_DIGITS} digits"
_BEYOND_FLOAT: Final = "a number beyond the float range (it would read as an infinity)"
_SURROGATE: Final = "a lone surrogate (text no UTF-8 can hold)"


def _integer(text: str) -> int:
    if len(text) > MAX_INTEGER_DIGITS and len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise JsonRefused(_TOO_MANY_DIGITS)
    try:
        return int(text)
    except ValueError:  # the interpreter's digit limit was set lower than ours
        raise JsonRefused(_TOO_MANY_DIGITS) from None


def _float(text: str) -> float:
    value = float(text)
    if value - value != 0.0:  # inf - inf is nan
        raise JsonRefused(_BEYOND_FLOAT)
    return value


def _constant(text: str) -> Any:
    raise JsonRefused("not valid JSON: NaN and infinities are no JSON numbers")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise JsonRefused("an object with two members of the same name")
    return value


_DECODER: Final = json.JSONDecoder(
    object_pairs_hook=_object, parse_float=_float, parse_int=_integer, parse_constant=_constant
)
#: the decoder's scanner (C): ``(value, end)`` of the value at an index, StopIteration when none
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = _DECODER.scan_once  # type: ignore[attr-defined]
_UNCHECKED_DECODER: Final = json.JSONDecoder(
    parse_float=_float, parse_int=_integer, parse_constant=_constant
)
#: the same scanner without the check of member names (no call into Python per object), for text
#: of at most one object, whose names ``_kept_every_member`` checks afterwards
_SCAN_UNCHECKED: Final[Callable[[str, int], tuple[Any, int]]] = _UNCHECKED_DECODER.scan_once  # type: ignore[attr-defined]
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
#: the C encoder ``_ENCODER.encode`` builds on every call, built once (no circular check: a
#: ``checked`` value nests at most MAX_DEPTH levels); None where the interpreter has no C encoder
_ENCODE: Final = (
    None
    if c_make_encoder is None
    else c_make_encoder(
        None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, False
    )
)
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


class _BracketsOnly(dict[int, str | None]):
    """A ``str.translate`` table: brackets kept (braces as brackets), every other character
    dropped (cached per character by CPython, so ASCII text translates at C speed)."""

    def __missing__(self, key: int) -> None:
        return None


_BRACKETS_ONLY: Final = _BracketsOnly({91: "[", 93: "]", 123: "[", 125: "]"})
_RUN: Final = re.compile(r"\[+|\]+")
#: leaf removals before the count goes run by run: each pass removes the empty pairs (the leaves)
#: of every level at once, so what remains has few runs even when the text was all brackets
_LEAF_PASSES: Final = 8
_RAW_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def _too_deep(text: str) -> bool:
    """Whether ``text`` opens more than MAX_DEPTH arrays and objects at once (brackets inside
    strings do not count), found without a loop per character: keep the brackets alone, remove
    the leaves a few times (each pass takes one level off every branch), then add up the runs of
    what remains."""
    brackets = _STRING.sub("", text).translate(_BRACKETS_ONLY)
    depth = 0
    while depth < _LEAF_PASSES and brackets:
        shorter = brackets.replace("[]", "")
        if len(shorter) == len(brackets):
            break  # mismatched brackets: the parser reports them
        brackets, depth = shorter, depth + 1
    for run in _RUN.finditer(brackets):
        token = run.group()
        if token[0] == "[":
            depth += len(token)
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= len(token)
    return False


def loads(text: str | bytes) -> Any:
    """The JSON value of ``text`` (bytes are read as UTF-8, or UTF-16/32 by their first bytes);
    JsonRefused when it is not JSON or breaks a rule of this module."""
    return read(text)[0]


def read(text: str | bytes) -> tuple[Any, bool]:
    """``loads``, and ``may_read_deeper(text)``, from the counts the reading makes anyway."""
    length = len(text)
    if length > MAX_CHARS:
        raise JsonRefused(_TOO_LONG)
    if not isinstance(text, str):
        try:
            text = bytes(text).decode(json.detect_encoding(text))
        except (UnicodeDecodeError, LookupError):
            raise JsonRefused("not UTF-8 text") from None
        length = len(text)
    braces = text.count("{")
    opens = braces
    # more than MAX_DEPTH levels open needs more than MAX_DEPTH characters
    if length > MAX_DEPTH:
        opens += text.count("[")
        if opens > MAX_DEPTH and _too_deep(text):
            raise JsonRefused(TOO_DEEP)
    if not text.isascii() and _RAW_SURROGATE.search(text) is not None:
        raise JsonRefused(_SURROGATE)
    try:
        # the decoder's scanner itself: a value that fills the text, with no wrapper in Python
        value, end = (_SCAN if braces > 1 else _SCAN_UNCHECKED)(text, 0)
    except JsonRefused:
        raise
    except (StopIteration, ValueError, RecursionError):
        value, end = None, -1
    if end != length:  # white space around the value, or no valid JSON: the whole decode
        value = _decoded(text)
    elif (
        braces == 1
        and (type(value) is not dict or text.count(":") != len(value))  # the common case, inline
        and not _kept_every_member(text, value)
    ):
        value = _SCAN(text, 0)[0]  # a name twice, or a colon the count cannot place: read again
    escaped = "\\u" in text
    if escaped and _ESCAPED_SURROGATE.search(text) is not None:
        checked(value)  # pairs are joined by the parser; a lone one stays in a string
    if length <= _DEEPER_TEXT:
        return value, False
    return value, opens + (text.count("\\u") if escaped else 0) > MAX_DEPTH


def _kept_every_member(text: str, value: Any) -> bool:
    """Whether ``value``, read from ``text`` holding one ``{``, is that object with all its
    members (no name twice). Each member of the text has one colon outside its strings; with no
    ``\\u`` escape (which could write a colon) the colons inside the strings of the kept members
    are those of the text's strings, less those of a dropped member: so the object kept every
    member exactly when the text's colons, less those of its kept strings, number its members. A
    string inside an array is not counted: False, and the caller reads the text again."""
    if type(value) is not dict:
        return False
    colons = text.count(":")
    if colons == len(value):
        return True
    if "\\u" in text:
        return False
    for name, member in value.items():
        colons -= name.count(":")
        if type(member) is str:
            colons -= member.count(":")
        elif type(member) is list:
            return False
    return colons == len(value)


def _decoded(text: str) -> Any:
    """``text`` through the decoder's whole ``decode`` (white space, trailing data), its syntax
    errors as JsonRefused."""
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        # the message and the position describe the syntax only, never the content
        raise JsonRefused(
            f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:  # the caller's own stack was nearly full
        raise JsonRefused(TOO_DEEP) from None


def checked(value: Any) -> Any:
    """``value`` when it is JSON within the limits of ``loads`` (nothing is copied); JsonRefused
    naming the first rule it breaks otherwise. The walk recurses at most ``MAX_DEPTH`` levels:
    deeper is refused before it is entered."""
    try:
        _size(value, 1)
    except RecursionError:  # the caller's own stack was nearly full
        raise JsonRefused(TOO_DEEP) from None
    return value


#: text of at most this many characters reads to no value deeper than MAX_DEPTH, the JSON text of
#: its strings read too: each level opens and closes in two characters of it (or of JSON text in
#: one of its strings, which holds them at least as characters)
_DEEPER_TEXT: Final = 2 * MAX_DEPTH


def may_read_deeper(text: str | bytes) -> bool:
    """Whether a value read from ``text``, the JSON text its strings hold read too, may nest
    deeper than MAX_DEPTH: each array or object opens at a bracket or brace of the text, or at a
    ``\\u`` escape that writes one (at any level of escaping, the text holds a ``\\u``), so
    text with at most MAX_DEPTH of those cannot. Counted without a walk, and only in text
    longer than ``_DEEPER_TEXT``."""
    if len(text) <= _DEEPER_TEXT:
        return False
    if not isinstance(text, str):
        try:
            text = bytes(text).decode(json.detect_encoding(text))
        except (UnicodeDecodeError, LookupError):
            return True  # no text ``loads`` reads
    return text.count("{") + text.count("[") + text.count("\\u") > MAX_DEPTH


def checked_depth(value: Any) -> Any:
    """``value`` when it nests at most MAX_DEPTH arrays and objects; JsonRefused otherwise (for a
    value built from JSON already checked, such as a payload whose JSON text was read: the other
    rules held for each part)."""
    try:
        _depth(value, 1)
    except RecursionError:  # the caller's own stack was nearly full
        raise JsonRefused(TOO_DEEP) from None
    return value


def _depth(node: Any, depth: int) -> None:
    kind = type(node)
    if kind is dict:
        node = node.values()
    elif kind is not list:
        return
    if depth > MAX_DEPTH:
        raise JsonRefused(TOO_DEEP)
    for item in node:
        kind = type(item)
        if kind is dict or kind is list:
            _depth(item, depth + 1)


def _text_size(text: str) -> int:
    if not text.isascii() and _RAW_SURROGATE.search(text) is not None:
        raise JsonRefused(_SURROGATE)
    return len(text) + 1


def _size(node: Any, depth: int) -> int:
    """What ``node`` counts against ``MAX_CHARS`` (a member or item each, and each string's
    length), once checked; the common kinds are tested first, by their exact type."""
    kind = type(node)
    if kind is str:
        return _text_size(node)
    if kind is dict or kind is list:
        if depth > MAX_DEPTH:
            raise JsonRefused(TOO_DEEP)
        if kind is dict:
            return _members_size(node, depth)
        size = 1
        for item in node:
            size += _leaf_size(item) if type(item) in _LEAVES else _size(item, depth + 1)
            if size > MAX_CHARS:
                raise JsonRefused(_TOO_LONG)
        return size
    return _other_size(node)


def _members_size(node: dict[Any, Any], depth: int) -> int:
    size = 1
    for key, member in node.items():
        if type(key) is not str:
            if not isinstance(key, str):
                raise JsonRefused("an object member name that is not a string (not JSON)")
            key = str(key)
        # the checks of _text_size and _leaf_size written out: this loop runs per member
        if not key.isascii() and _RAW_SURROGATE.search(key) is not None:
            raise JsonRefused(_SURROGATE)
        kind = type(member)
        if kind is str:
            if not member.isascii() and _RAW_SURROGATE.search(member) is not None:
                raise JsonRefused(_SURROGATE)
            size += len(key) + len(member) + 2
        elif member is None or kind is bool:
            size += len(key) + 2
        elif kind is int:
            if not -_INTEGER_LIMIT < member < _INTEGER_LIMIT:
                raise JsonRefused(_TOO_MANY_DIGITS)
            size += len(key) + 2
        else:
            size += len(key) + 1 + _size(member, depth + 1)
        if size > MAX_CHARS:
            raise JsonRefused(_TOO_LONG)
    return size


#: the kinds ``_leaf_size`` measures without a walk
_LEAVES: Final = frozenset({str, bool, type(None)})


def _leaf_size(node: Any) -> int:
    return 1 if type(node) is not str else _text_size(node)


def _other_size(node: Any) -> int:
    """``_size`` of a value that is no str, dict or list."""
    if type(node) is bool or node is None:
        return 1
    if isinstance(node, int):  # bool is handled above
        if not -_INTEGER_LIMIT < node < _INTEGER_LIMIT:
            raise JsonRefused(_TOO_MANY_DIGITS)
        return 1
    if isinstance(node, float):
        if not isfinite(node):
            raise JsonRefused("NaN or an infinity (no JSON number)")
        return 1
    if isinstance(node, str):  # a str subclass is written as its text
        return _text_size(str(node))
    raise JsonRefused(f"a {type(node).__name__}, which is not a JSON value")


def dumps(value: Any) -> str:
    """Compact JSON text of ``value`` (non-ASCII kept), once ``checked`` accepted it."""
    checked(value)
    try:
        if _ENCODE is None:
            return _ENCODER.encode(value)
        return "".join(_ENCODE(value, 0))
    except ValueError:  # the interpreter's digit limit was set lower than ours
        raise JsonRefused(_TOO_MANY_DIGITS) from None
    except RecursionError:  # the caller's own stack was nearly full
        raise JsonRefused(TOO_DEEP) from None
