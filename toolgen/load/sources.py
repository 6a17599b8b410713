"""Reading design files: YAML or JSON into plain JSON values, with diagnostics instead of tracebacks."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from toolgen.infra.diagnostics import DESIGN, Diagnostic
from toolgen.load.source_limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    DuplicateKeyError,
    NodePath,
    SourceError,
    pointer_of,
    too_deep,
)

SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _check_json_value(value: Any) -> None:
    """At most MAX_DEPTH levels, and finite numbers only (JSON has no infinities or NaN, YAML's
    .inf and .nan could not be written back)."""
    if not _plainly_valid(value):
        _raise_invalid(value)


def _plainly_valid(value: Any) -> bool:
    """:func:`_check_json_value` without the pointers its errors need: level by level, so that a
    valid file (nearly every one) costs no bookkeeping per node."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return False
        below = []
        for node in level:
            for item in node.values() if isinstance(node, dict) else node:
                if isinstance(item, dict | list):
                    below.append(item)
                elif isinstance(item, float) and not math.isfinite(item):
                    return False
        level = below
    return True


def _raise_invalid(value: Any, *, text: bool = False) -> None:
    """The error of an invalid value, where it is; with ``text``, a lone surrogate in a string or
    a member name is one too (no UTF-8 file, and no provider's JSON, can hold one: JSON joins an
    escaped pair into one character, YAML has no pairs). Iteratively: the value may be as deep as
    a parser allows."""
    pending: list[tuple[Any, int, NodePath]] = (
        [(value, 1, None)] if isinstance(value, dict | list) else []
    )
    if text and isinstance(value, str) and _SURROGATE.search(value):
        raise _lone_surrogate(None)
    while pending:
        node, depth, path = pending.pop()
        if depth > MAX_DEPTH:
            raise too_deep(path)
        for key, item in node.items() if isinstance(node, dict) else enumerate(node):
            if text and isinstance(key, str) and _SURROGATE.search(key):
                raise _lone_surrogate(path)
            if isinstance(item, dict | list):
                pending.append((item, depth + 1, (path, key)))
            elif isinstance(item, float) and not math.isfinite(item):
                message = f"{item} is not a JSON value (JSON numbers are finite)"
                raise SourceError("PARSE_ERROR", message, pointer_of((path, key)))
            elif text and isinstance(item, str) and _SURROGATE.search(item):
                raise _lone_surrogate((path, key))


def _lone_surrogate(path: NodePath) -> SourceError:
    message = "a lone surrogate escape: no UTF-8 text can hold it (write the character)"
    return SourceError("PARSE_ERROR", message, pointer_of(path))


#: an escape that can write a surrogate: JSON's ``\ud800``, YAML's ``\ud800`` and ``\U0000d800``
#: (the text itself is UTF-8, which holds none)
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse(text: str, suffix: str) -> Any:
    """Parse design text; raises ValueError (a SourceError when it has its own code) on bad input."""
    infinite: list[float] = []  # numbers too large for a float (1e999)

    def number(literal: str) -> float:
        found = float(literal)
        if not math.isfinite(found):
            infinite.append(found)
        return found

    try:
        if suffix == ".json":
            value = json.loads(
                text,
                object_pairs_hook=_no_duplicates,
                parse_constant=_no_constant,
                parse_float=number,
            )
            # no more objects and arrays than MAX_DEPTH (braces in strings count too): none
            # nests deeper, and every number was seen finite: the check has nothing to find
            if (
                not infinite
                and text.count("{") + text.count("[") <= MAX_DEPTH
                and not ("\\" in text and _SURROGATE_ESCAPE.search(text))
            ):
                return value
        else:
            # imported only for a YAML file: a design of JSON files builds without PyYAML
            from toolgen.load.yaml_text import parse_yaml

            value = parse_yaml(text)
    except RecursionError:  # the parser's own nesting guard, deeper than MAX_DEPTH anyway
        raise too_deep(None) from None
    _check_json_value(value)
    if "\\" in text and _SURROGATE_ESCAPE.search(text):
        _raise_invalid(value, text=True)
    return value


def may_hold_ref(data: bytes) -> bool:
    """Whether a design file's bytes can hold a ``$ref`` key: written out, or spelled with an
    escape (JSON's ``\\u0024``, YAML's ``\\x24`` or an escaped line break), which needs a
    backslash. (A YAML alias or merge key repeats text written out elsewhere in the file.)"""
    return b"$ref" in data or b"\\" in data


def read_source(path: str | Path, relative: str) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of one design file, or None with a diagnostic (a file over the size limit is
    not read)."""
    data, _, found = read_source_and_status(path, relative)
    return data, found


def read_source_and_status(
    path: str | Path, relative: str
) -> tuple[bytes | None, os.stat_result | None, list[Diagnostic]]:
    """:func:`read_source`, with the file's status as it was just before it was read (taken
    from the opened file: one lookup of its path, where a rebuild reads thousands of files);
    None with the diagnostic when it cannot be read."""
    try:
        with open(path, "rb") as file:
            status = os.fstat(file.fileno())
            if status.st_size > MAX_FILE_BYTES:
                message = (
                    f"{status.st_size:,} bytes; a design file may have at most {MAX_FILE_BYTES:,}"
                )
                return None, status, [Diagnostic(relative, "", DESIGN, "FILE_TOO_LARGE", message)]
            return file.read(), status, []
    except OSError as error:
        return None, None, [Diagnostic(relative, "", DESIGN, "UNREADABLE_FILE", str(error))]


def parse_source(data: bytes, suffix: str, relative: str) -> tuple[Any, list[Diagnostic]]:
    """The JSON value of a design file's bytes (``suffix`` says YAML or JSON), or None with a
    diagnostic."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, [Diagnostic(relative, "", DESIGN, "UNREADABLE_FILE", str(error))]
    if "\r" in text:  # the universal newlines of a file read as text
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        return parse(text, suffix), []
    except SourceError as error:
        return None, [Diagnostic(relative, error.pointer, DESIGN, error.code, str(error))]
    except ValueError as error:  # (toolgen.load.yaml_text's YamlError is one)
        message = " ".join(str(error).split())
        return None, [Diagnostic(relative, "", DESIGN, "PARSE_ERROR", message)]


def load_document(path: Path, relative: str) -> tuple[Any, list[Diagnostic]]:
    """The JSON value of one design file, or None with a diagnostic."""
    data, found = read_source(path, relative)
    if data is None:
        return None, found
    return parse_source(data, path.suffix.lower(), relative)
