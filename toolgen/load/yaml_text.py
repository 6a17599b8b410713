"""YAML design files into JSON values (toolgen.load.sources reads JSON itself, and imports this
module, and PyYAML, only for a YAML file): no timestamps, only true and false as booleans, no
duplicate keys, at most MAX_DEPTH levels, and no alias that expands a document past
MAX_ALIAS_VALUES values."""

from __future__ import annotations

import re
from typing import Any, TypeAlias

import yaml

from toolgen.load.source_limits import (
    MAX_ALIAS_VALUES,
    MAX_DEPTH,
    DuplicateKeyError,
    NodePath,
    SourceError,
    pointer_of,
    too_deep,
)


class YamlError(ValueError):
    """PyYAML's error, as the ValueError toolgen.load.sources reports (its message kept)."""


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
_YamlEntry: TypeAlias = tuple[yaml.Node, int, NodePath, list[tuple[str, yaml.Node]] | None]


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
                raise too_deep(path)
            continue
        if key in open_nodes:
            raise SourceError(
                "YAML_ALIAS", "an alias refers to a collection that contains it", pointer_of(path)
            )
        if depth > MAX_DEPTH:
            raise too_deep(path)
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


def parse_yaml(text: str) -> Any:
    """The JSON value of a YAML document; SourceError or YamlError when it is not one."""
    try:
        return _parse(text)
    except yaml.YAMLError as error:  # libyaml's own nesting guard (1,000 levels) among them
        if "exceeded maximum nesting depth" in str(error):
            raise too_deep(None) from None
        raise YamlError(str(error)) from error


def _parse(text: str) -> Any:
    loader = _JsonSafeLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _check_yaml_nodes(root)
        return loader.construct_document(root)
    finally:
        loader.dispose()
