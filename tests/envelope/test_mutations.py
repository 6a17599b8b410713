"""Mutations of recorded envelopes drift at the mutated path, or pass where forward compatibility
says so; the compiled validators and jsonschema decide alike on every one of them."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.envelope.support import (
    BODIES,
    RETYPED,
    STREAMS,
    Path_,
    bodies,
    covered,
    format_path,
    parent_of,
    spread,
    stream_events,
)

pytestmark = pytest.mark.corpus

UNKNOWN_VARIANT = "x_toolgen_unknown_variant"


def samples(
    surface_folders: dict[str, tuple[str, str]], per_surface: int
) -> list[tuple[str, str, str, Any]]:
    """(provider, surface, name, document) spread over each surface's recordings."""
    by_surface: dict[tuple[str, str], list[tuple[str, Any]]] = {}
    for folder, (provider, surface) in surface_folders.items():
        if surface_folders is BODIES:
            found = bodies(folder)
        else:
            found = [
                (f"{name}#{i}", e)
                for name, events in stream_events(folder)
                for i, e in enumerate(events)
            ]
        by_surface.setdefault((provider, surface), []).extend(found)
    return [
        (provider, surface, name, document)
        for (provider, surface), found in sorted(by_surface.items())
        for name, document in spread(_varied(found), per_surface)
    ]


def _varied(found: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Stream events with rare event types first, so a small sample still meets every type."""
    counts: dict[Any, int] = {}
    for _, document in found:
        counts[_kind(document)] = counts.get(_kind(document), 0) + 1
    return sorted(found, key=lambda item: counts[_kind(item[1])])


def _kind(document: Any) -> Any:
    """An event's type: its ``type`` member, or the one member that names it (Bedrock)."""
    if "type" not in document and len(document) == 1:
        return next(iter(document))
    return document.get("type")


def mutations(
    document: Any, schema: Any
) -> Iterator[tuple[str, Path_, Callable[[], None], Callable[[], None]]]:
    """(kind, path where drift is expected, apply, undo) for every covered path of ``document``."""
    for path, child_schema in covered(schema, schema, document):
        parent = parent_of(document, path)
        key = path[-1]
        original = parent[key]
        saved = list(parent.items())

        def restore(parent: Any = parent, saved: list[Any] = saved) -> None:
            parent.clear()
            parent.update(saved)

        yield "removed", path, lambda p=parent, k=key: p.pop(k), restore
        yield (
            "renamed",
            path,
            lambda p=parent, k=key: p.__setitem__(f"{k}_renamed", p.pop(k)),
            restore,
        )
        yield (
            "retyped",
            path,
            lambda p=parent, k=key, o=original: p.__setitem__(k, RETYPED[type(o)]),
            restore,
        )
        yield "nulled", path, lambda p=parent, k=key: p.__setitem__(k, None), restore
        if isinstance(original, list):
            yield "emptied", (*path, 0), lambda p=parent, k=key: p.__setitem__(k, []), restore
            items = _resolved_items(schema, child_schema)
            if items is not None and "allOf" in items:
                discriminator = next(iter(items["allOf"][0]["if"]["properties"]))
                added = {discriminator: UNKNOWN_VARIANT, "anything": [1, {"x": None}]}
                grown = [*original, added]
                yield (
                    "unknown variant",
                    path,
                    lambda p=parent, k=key, g=grown: p.__setitem__(k, g),
                    restore,
                )


def _resolved_items(root: Any, schema: Any) -> Any:
    items = schema.get("items") if isinstance(schema, dict) else None
    while isinstance(items, dict) and "$ref" in items:
        node = root
        for token in items["$ref"][2:].split("/"):
            node = node[token]
        items = node
    return items


def check_mutations(
    modules: dict[str, ModuleType],
    schemas: dict[str, dict[str, Any]],
    cases: list[tuple[str, str, str, Any]],
) -> int:
    drift_error = modules["_runtime"].SchemaDriftError
    checked = 0
    for provider, surface, name, original in cases:
        schema = schemas[provider][surface]
        reference = Draft202012Validator(schema)
        validate = getattr(modules[provider], f"validate_{surface}")
        document = copy.deepcopy(original)
        for kind, path, apply, undo in list(mutations(document, schema)):
            apply()
            try:
                expected_valid = reference.is_valid(document)
                try:
                    validate(document)
                    error = None
                except drift_error as drift:
                    error = drift
                where = f"{provider} {surface} {name}: {kind} at {format_path(path)}"
                assert (error is None) == expected_valid, where
                if error is not None:
                    assert error.path == format_path(path), (where, error)
                    assert error.actual in {
                        "missing",
                        "null",
                        "integer",
                        "string",
                        "array",
                        "object",
                    }, where
                checked += 1
            finally:
                undo()
        assert document == original, f"{name}: a mutation was not undone"
    return checked


def test_mutated_bodies(modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]) -> None:
    assert check_mutations(modules, schemas, samples(BODIES, 40)) > 1000


def test_mutated_stream_events(
    modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]
) -> None:
    assert check_mutations(modules, schemas, samples(STREAMS, 60)) > 1000


def test_forward_compatibility_on_recorded_shapes(
    modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]
) -> None:
    """Added members and unknown variants pass; a missing or non-string discriminator is drift."""
    runtime = modules["_runtime"]
    body = copy.deepcopy(bodies("openai/chat-completions")[0][1])
    validate = modules["openai"].validate_chat_completion
    body["brand_new_field"] = {"nested": [1, 2]}
    body["choices"][0]["message"]["tool_calls"].append({"type": "web_search", "whatever": 1})
    validate(body)
    body["choices"][0]["message"]["tool_calls"][-1]["type"] = 7
    with pytest.raises(runtime.SchemaDriftError) as raised:
        validate(body)
    assert raised.value.path == "choices[0].message.tool_calls[1].type"
    assert (raised.value.expected, raised.value.actual) == ("string", "integer")
    del body["choices"][0]["message"]["tool_calls"][-1]["type"]
    with pytest.raises(runtime.SchemaDriftError) as raised:
        validate(body)
    assert (raised.value.path, raised.value.actual) == (
        "choices[0].message.tool_calls[1].type",
        "missing",
    )
    body["choices"] = []
    with pytest.raises(runtime.SchemaDriftError) as raised:
        validate(body)
    assert (raised.value.path, raised.value.expected, raised.value.actual) == (
        "choices[0]",
        "object",
        "missing",
    )
