"""Reading design files: YAML or JSON into plain JSON values, with diagnostics instead of tracebacks."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import yaml

from toolgen.diagnostics import DESIGN, Diagnostic

SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")


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


def _check_finite(value: Any) -> None:
    """JSON has no infinities or NaN (YAML's .inf and .nan): they could not be written back."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value} is not a JSON value (JSON numbers are finite)")
    if isinstance(value, dict):
        for item in value.values():
            _check_finite(item)
    elif isinstance(value, list):
        for item in value:
            _check_finite(item)


def parse(text: str, suffix: str) -> Any:
    """Parse design text; raises ValueError (with a readable message) on bad input."""
    if suffix == ".json":
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    value = yaml.load(text, Loader=_JsonSafeLoader)  # noqa: S506 - a safe loader
    _check_finite(value)
    return value


def load_document(path: Path, relative: str) -> tuple[Any, list[Diagnostic]]:
    """The JSON value of one design file, or None with a diagnostic."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, [Diagnostic(relative, "", DESIGN, "UNREADABLE_FILE", str(error))]
    try:
        return parse(text, path.suffix.lower()), []
    except (ValueError, yaml.YAMLError) as error:
        message = " ".join(str(error).split())
        return None, [Diagnostic(relative, "", DESIGN, "PARSE_ERROR", message)]
