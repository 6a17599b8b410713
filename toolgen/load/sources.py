"""Reading design files: YAML or JSON into plain JSON values, with diagnostics instead of tracebacks."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any, TypeAlias

import yaml

from toolgen.infra.diagnostics import DESIGN, Diagnostic
from toolgen.schema import pointer as jp

SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")

# Limits of one design file (README, "The design folder"), checked before any stage that recurses
# (parsers, meta-validation, the walker) sees the file, so that no input ends in a RecursionError,
# a hang or an exhausted memory.
#: Bytes of one file: generous for schemas (a provider accepts some 100 KB per tool) and keeps a
#: build of a runaway file to seconds.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Nested objects and arrays in one file (the file's own mapping is level 1). A tool schema that
#: a provider accepts needs a few dozen; every stage stays far from Python's recursion limit.
MAX_DEPTH = 64
#: Values YAML aliases may add to a document once expanded.
MAX_ALIAS_VALUES = 10_000


class _JsonSafeLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """A YAML loader that yields only JSON values: no timestamps, no duplicate keys."""


# YAML 1.1 would turn 2024-01-01 into a date object, which is not JSON; keep it a string. It would
# also read on/off/yes/no (a property called ``on``, an enum of ``[yes, no]``) as booleans: like
# YAML 1.2 and JSON, only true and false are.
_BOOL = "tag:yaml.org,2002:bool"
_JsonSafeLoader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in ("tag:yaml.org,2002:timestamp", _BOOL)
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_JsonSafeLoader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class DuplicateKeyError(ValueError):
    pass


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)  # type: ignore[no-untyped-call]
        if not isinstance(key, str):
            key = str(key).lower() if isinstance(key, bool) else str(key)
        if key in mapping:
            raise DuplicateKeyError(f"duplicate key {key!r} (line {key_node.start_mark.line + 1})")
        mapping[key] = loader.construct_object(value_node, deep=True)  # type: ignore[no-untyped-call]
    return mapping


_JsonSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


class SourceError(ValueError):
    """A design file toolgen refuses to read further, with the stable code of its diagnostic."""

    def __init__(self, code: str, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.pointer = pointer


#: A pointer built only when needed: (parent path, token), None at the root.
_Path = tuple[Any, str | int] | None


def _pointer(path: _Path) -> str:
    tokens: list[str | int] = []
    while path is not None:
        path, token = path
        tokens.append(token)
    return jp.join("", *reversed(tokens))


def _too_deep(path: _Path) -> SourceError:
    return SourceError(
        "TOO_DEEP",
        f"objects and arrays nest more than {MAX_DEPTH} levels deep here; toolgen reads at most "
        f"{MAX_DEPTH} (a schema that deep has no provider that accepts it)",
        _pointer(path),
    )


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
    pending: list[tuple[Any, int, _Path]] = (
        [(value, 1, None)] if isinstance(value, dict | list) else []
    )
    if text and isinstance(value, str) and _SURROGATE.search(value):
        raise _lone_surrogate(None)
    while pending:
        node, depth, path = pending.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        for key, item in node.items() if isinstance(node, dict) else enumerate(node):
            if text and isinstance(key, str) and _SURROGATE.search(key):
                raise _lone_surrogate(path)
            if isinstance(item, dict | list):
                pending.append((item, depth + 1, (path, key)))
            elif isinstance(item, float) and not math.isfinite(item):
                message = f"{item} is not a JSON value (JSON numbers are finite)"
                raise SourceError("PARSE_ERROR", message, _pointer((path, key)))
            elif text and isinstance(item, str) and _SURROGATE.search(item):
                raise _lone_surrogate((path, key))


def _lone_surrogate(path: _Path) -> SourceError:
    message = "a lone surrogate escape: no UTF-8 text can hold it (write the character)"
    return SourceError("PARSE_ERROR", message, _pointer(path))


def _node_children(node: yaml.Node) -> list[tuple[str, yaml.Node]]:
    """(pointer token, child) of a YAML collection; a mapping's keys are children too."""
    if isinstance(node, yaml.SequenceNode):
        return [(str(index), item) for index, item in enumerate(node.value)]
    pairs = []
    for key, item in node.value:
        token = key.value if isinstance(key, yaml.ScalarNode) else "?"
        pairs += [(token, key), (token, item)]
    return pairs


#: a node still to visit: the node, its depth, its path, and its children once entered
_YamlEntry: TypeAlias = tuple[yaml.Node, int, _Path, list[tuple[str, yaml.Node]] | None]


def _check_yaml_nodes(root: yaml.Node) -> None:
    """Before anything is constructed: at most MAX_DEPTH levels, no alias that contains itself,
    and aliases that add at most MAX_ALIAS_VALUES values once expanded (a "billion laughs"
    document is a few lines that expand to billions of values in every later stage)."""
    if isinstance(root, yaml.ScalarNode):
        return
    # Per collection (by identity: an alias is the same node again): values in it once aliases
    # are expanded, and levels of collections in it.
    sizes: dict[int, int] = {}
    heights: dict[int, int] = {}
    open_nodes: set[int] = set()  # entered, not yet finished: the current path
    distinct = 0  # values written in the document, each alias once
    pending: list[_YamlEntry] = [(root, 1, None, None)]
    while pending:
        node, depth, path, finished = pending.pop()
        key = id(node)
        if finished is not None:
            collections = [id(c) for _, c in finished if not isinstance(c, yaml.ScalarNode)]
            scalars = len(finished) - len(collections)
            sizes[key] = 1 + scalars + sum(sizes[c] for c in collections)
            heights[key] = 1 + max((heights[c] for c in collections), default=0)
            distinct += 1 + scalars
            open_nodes.discard(key)
            continue
        if key in sizes:  # an alias of a finished collection: its height is known
            if depth - 1 + heights[key] > MAX_DEPTH:
                raise _too_deep(path)
            continue
        if key in open_nodes:
            raise SourceError(
                "YAML_ALIAS", "an alias refers to a collection that contains it", _pointer(path)
            )
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        open_nodes.add(key)
        children = _node_children(node)
        pending.append((node, depth, path, children))
        pending.extend(
            (child, depth + 1, (path, token), None)
            for token, child in children
            if not isinstance(child, yaml.ScalarNode)
        )
    expanded = sizes[id(root)] - distinct
    if expanded > MAX_ALIAS_VALUES:
        raise SourceError(
            "YAML_ALIAS",
            f"aliases expand this document by {expanded:,} values; toolgen allows "
            f"{MAX_ALIAS_VALUES:,} (write the schema once in defs/ and $ref it instead)",
        )


#: an escape that can write a surrogate: JSON's ``\ud800``, YAML's ``\ud800`` and ``\U0000d800``
#: (the text itself is UTF-8, which holds none)
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _parse_yaml(text: str) -> Any:
    loader = _JsonSafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _check_yaml_nodes(root)
        return loader.construct_document(root)
    finally:
        loader.dispose()


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
            value = _parse_yaml(text)
    except RecursionError:  # the parser's own nesting guard, deeper than MAX_DEPTH anyway
        raise _too_deep(None) from None
    except yaml.YAMLError as error:  # libyaml's own nesting guard (1,000 levels)
        if "exceeded maximum nesting depth" in str(error):
            raise _too_deep(None) from None
        raise
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
    except (ValueError, yaml.YAMLError) as error:
        message = " ".join(str(error).split())
        return None, [Diagnostic(relative, "", DESIGN, "PARSE_ERROR", message)]


def load_document(path: Path, relative: str) -> tuple[Any, list[Diagnostic]]:
    """The JSON value of one design file, or None with a diagnostic."""
    data, found = read_source(path, relative)
    if data is None:
        return None, found
    return parse_source(data, path.suffix.lower(), relative)
