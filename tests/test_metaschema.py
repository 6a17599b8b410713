"""The flat 2020-12 meta-schema (toolgen/schema/metaschema.py) agrees with the official one: the same
schemas pass, and the ones that fail report the same problems (the official one repeats a problem
once per vocabulary; compared as sets of (path, message)).

Compared on every schema of the JSON-Schema-Test-Suite (draft 2020-12) and every test instance of
it read as a schema (mostly invalid ones: numbers, arrays, wrong keyword types), on every tool
schema of the corpus (BFCL's as written, with Python type names, and with JSON Schema names),
and on a few hand-written schemas that each break one rule of one vocabulary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolgen.formats.bfcl_functions import bfcl_json_schema
from toolgen.schema.metaschema import flat_meta_schema, meta_validator

OFFICIAL = Draft202012Validator(Draft202012Validator.META_SCHEMA)

#: each breaks one rule of one vocabulary (and must be rejected by both)
BROKEN: list[Any] = [
    5,
    [],
    {"$id": "https://example.com/a#fragment"},
    {"$anchor": "1starts-with-a-digit"},
    {"$vocabulary": {"https://example.com/v": "yes"}},
    {"$defs": {"a": 5}},
    {"definitions": {"a": "b"}},
    {"dependencies": {"a": [1]}},
    {"$recursiveAnchor": "no spaces allowed"},
    {"prefixItems": []},
    {"items": {"type": "bogus"}},
    {"properties": {"a": {"properties": {"b": {"minLength": -1}}}}},
    {"patternProperties": {"^a": 3}},
    {"allOf": [{"type": "string"}, {"enum": 1}]},
    {"not": {"dependentRequired": {"a": ["b", "b"]}}},
    {"if": {"multipleOf": 0}, "then": {"maxContains": 1.5}},
    {"unevaluatedProperties": {"required": "a"}},
    {"type": []},
    {"type": ["string", "string"]},
    {"title": 1, "description": [], "deprecated": "no", "readOnly": 0, "examples": {}},
    {"contentMediaType": 1, "contentSchema": {"type": 1}},
    {"format": 1},
]


def _problems(validator: Any, schema: Any) -> set[tuple[tuple[str, ...], str]]:
    return {(tuple(map(str, e.absolute_path)), e.message) for e in validator.iter_errors(schema)}


def _assert_agree(schemas: list[Any]) -> int:
    """Checks every schema with both; returns how many were rejected."""
    flat, rejected = meta_validator(), 0
    for schema in schemas:
        official = _problems(OFFICIAL, schema)
        assert _problems(flat, schema) == official, json.dumps(schema)[:300]
        rejected += bool(official)
    return rejected


def _unique(values: list[Any]) -> list[Any]:
    seen: dict[str, Any] = {}
    for value in values:
        seen.setdefault(json.dumps(value, sort_keys=True), value)
    return list(seen.values())


def _references(schema: Any) -> list[tuple[str, Any]]:
    """(keyword, value) of every $ref and $dynamicRef of a schema (not of the names of its
    ``properties``, which are keywords here)."""
    if isinstance(schema, list):
        return [found for item in schema for found in _references(item)]
    if not isinstance(schema, dict):
        return []
    found = [(key, schema[key]) for key in ("$ref", "$dynamicRef") if key in schema]
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            found += [f for rule in value.values() for f in _references(rule)]
        elif isinstance(value, dict | list):
            found += _references(value)
    return found


def test_the_flat_meta_schema_refers_only_to_its_root() -> None:
    Draft202012Validator.check_schema(flat_meta_schema())
    references = _references(flat_meta_schema())
    assert references and set(references) == {("$ref", "#")}


def test_hand_written_breakages_are_rejected_alike() -> None:
    assert _assert_agree(BROKEN) == len(BROKEN)


@pytest.mark.corpus
def test_the_test_suite_schemas_and_instances_agree(corpus_dir: Path) -> None:
    values: list[Any] = []
    suite = corpus_dir / "json-schema-test-suite"
    for path in sorted(suite.glob("*.json")):
        if path.name == "manifest.json":
            continue
        for group in json.loads(path.read_text(encoding="utf-8")):
            values.append(group["schema"])
            values += [test["data"] for test in group["tests"]]
    values = _unique(values)
    assert len(values) > 800
    rejected = _assert_agree(values)
    assert 100 < rejected < len(values) - 100  # both kinds are compared


@pytest.mark.corpus
def test_the_corpus_tool_schemas_agree(corpus_dir: Path) -> None:
    values: list[Any] = []
    for path in sorted((corpus_dir / "tools").glob("*.jsonl")):
        if path.name.endswith(".sources.jsonl"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            for key in ("parameters", "input_schema", "inputSchema", "schema"):
                if key in record:
                    values.append(record[key])
                    if path.name.startswith("bfcl"):
                        values.append(bfcl_json_schema(record[key]))
    values = _unique(values)
    assert len(values) > 3000
    assert _assert_agree(values) > 0  # BFCL's Python type names are rejected
