"""What the package writes of each projected schema: its compact JSON text (what a provider
module's table stores, toolgen/package/json_tables.py), its sizes (optional members, union-typed
schemas) and its JSON file.

A rebuild after one changed tool would otherwise measure and dump every schema of the design again.
The sizes and the JSON file are pure functions of the schema, so they are cached by the schema's
compact text (which the table needs anyway and which tells apart every two JSON values), in groups
cut by content as toolgen/render/formatting.py cuts a table: few entries to read, and a changed
schema recomputes only its own group.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.infra.cache import Cache, code_fingerprint, digest, grouped_results
from toolgen.infra.kept import each_by_identity
from toolgen.infra.parallel import Runner
from toolgen.package.json_tables import compact
from toolgen.project.limits import measure
from toolgen.render import formatting


def json_text(value: Any) -> str:
    """A JSON file of the package: two-space indents, text as it is, a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class SchemaText:
    compact: str  # the schema's compact JSON text
    sizes: tuple[int, int]  # (optional members, union-typed schemas)
    json: str  # the schema's JSON file


def schema_sizes(schema: Any) -> tuple[int, int]:
    """The sizes of a projected schema the strict-tool limits count: (optional members,
    union-typed schemas)."""
    stats = measure(schema)
    return stats.optional, stats.unions


def _measured(schema: Any) -> tuple[tuple[int, int], str]:
    return schema_sizes(schema), json_text(schema)


def _group_texts(_key: str, schemas: tuple[Any, ...]) -> list[tuple[tuple[int, int], str]]:
    """The sizes and JSON text of a group of schemas (``_key``, their cache key, is an argument
    only so that the runner's key function can read it)."""
    return [_measured(schema) for schema in schemas]


def _encode(value: list[tuple[tuple[int, int], str]]) -> Any:
    return [[optional, unions, text] for (optional, unions), text in value]


def _decode(value: Any) -> list[tuple[tuple[int, int], str]]:
    return [((int(optional), int(unions)), str(text)) for optional, unions, text in value]


def schema_texts(
    schemas: Sequence[Any],
    runner: Runner,
    provider: str = "",
    made_from: Sequence[tuple[str, str | None]] = (),
) -> list[SchemaText]:
    """The texts of each schema (not None), through ``runner``'s cache; ``provider``: whose
    projections they are (each provider's are kept apart in a process that builds again).
    ``made_from``: each schema's contract (``kind name``) and the cache key of the projection
    it is a function of (:func:`_by_projection`)."""
    if (
        runner.kept is None
        and runner.cache is not None
        and len(made_from) == len(schemas)
        and all(inputs is not None for _, inputs in made_from)
    ):
        keys = [(name, str(inputs)) for name, inputs in made_from]
        return _by_projection(schemas, keys, runner.cache, provider)
    # a schema kept from the last build (its projection kept decoded) keeps its text
    sources = each_by_identity(runner.kept, ("schema-compact", provider), schemas, compact)
    arguments: list[tuple[str, tuple[Any, ...]]] = []
    start = 0
    fingerprint = code_fingerprint()
    for group in formatting.grouped(sources, formatting.GROUP_MIN_CHARS):
        key = digest(fingerprint, "schema-texts", *group)
        arguments.append((key, tuple(schemas[start : start + len(group)])))
        start += len(group)
    results = runner.map(
        "schema-texts",
        _group_texts,
        arguments,
        key=lambda item: str(item[0]),
        encode=_encode,
        decode=_decode,
        parallel=False,
        keep_decoded=True,  # texts, only read
    )
    measured = [texts for group in results for texts in group]
    return [
        SchemaText(source, sizes, text)
        for source, (sizes, text) in zip(sources, measured, strict=True)
    ]


#: the cache's stage of schema texts kept by the projections they come from
_BY_PROJECTION_STAGE = "schema-text"


def _by_projection(
    schemas: Sequence[Any], made_from: Sequence[tuple[str, str]], cache: Cache, provider: str
) -> list[SchemaText]:
    """In a process that builds once: the texts of each schema found by the cache key of its
    projection (a projected schema is a function of it), a few dozen contracts an entry
    (:func:`grouped_results`). Only the schemas of changed projections are compacted, measured
    and dumped: a one-tool rebuild of the corpus design compacted 3,920 schemas to find their
    texts (22 ms)."""
    return grouped_results(
        cache,
        _BY_PROJECTION_STAGE,
        [name for name, _ in made_from],
        [inputs for _, inputs in made_from],
        lambda positions: [_schema_text(schemas[index]) for index in positions],
        lambda text: [text.compact, *text.sizes, text.json],
        _stored_text,
        provider,
    )


def _schema_text(schema: Any) -> SchemaText:
    sizes, text = _measured(schema)
    return SchemaText(compact(schema), sizes, text)


def _stored_text(found: Any) -> SchemaText:
    text, optional, unions, json_file = found
    return SchemaText(str(text), (int(optional), int(unions)), str(json_file))
