"""Property tests: for every tool of the example design and a deterministic corpus sample, the model
accepts every instance drawn from the canonical schema and dumps it back unchanged, and rejects
instances the canonical schema rejects (valid draws mutated until jsonschema says invalid)."""

from __future__ import annotations

import copy
import json
import os
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from models_support import CORPUS, EXAMPLES, Built, load, materialize, write_design
from pydantic import ValidationError

CORPUS_SAMPLE = 120
EXAMPLES_PER_TOOL = 6

corpus = pytest.mark.corpus


def _corpus_sample() -> list[dict[str, Any]]:
    from models_support import corpus_tools

    if not CORPUS.is_dir():
        if os.environ.get(
            "CI"
        ):  # a missing corpus fails in CI (tests.conftest.skip_without_corpus)
            raise FileNotFoundError(f"the shared corpus is not at {CORPUS} (CI is set)")
        return []
    return corpus_tools(CORPUS_SAMPLE)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("props")
    tools: dict[str, Any] = {f"corpus.{t['name']}": t["parameters"] for t in _corpus_sample()}
    # the example design joins as its own package (it has shared definitions of its own)
    sys.path.insert(0, str(root))
    built = []
    if tools:  # the corpus part: absent when ../shared/corpus is
        built.append(materialize(load(write_design(root / "design", tools=tools)), root))
    if any(EXAMPLES.glob("tools/*")):
        built.append(materialize(load(EXAMPLES), root))
    yield built
    sys.path.remove(str(root))


def _contracts(built: list[Built]) -> list[tuple[Built, Any]]:
    return [(b, c) for b in built for c in b.design.contracts]


def _strategy(schema: Any) -> st.SearchStrategy[Any]:
    return from_schema(schema)


def _collector(strategy: st.SearchStrategy[Any], seen: list[Any]) -> Any:
    """A hypothesis test that only records what it draws (bounded, derandomized)."""

    @settings(
        max_examples=EXAMPLES_PER_TOOL,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(instance: Any) -> None:
        seen.append(instance)

    return collect


_MUTANTS: list[Any] = [None, "x", 1.5, True, [], {}, 7]


def _mutations(instance: Any, schema: Any) -> list[Any]:
    """Instances near ``instance``: an extra member, each member removed, each member retyped."""
    if not isinstance(instance, dict):
        return []
    found = [{**instance, "__undeclared__": 1}]
    for key in instance:
        found.append({k: v for k, v in instance.items() if k != key})
        found += [{**instance, key: value} for value in _MUTANTS]
    for key in (schema.get("properties") or {}) if isinstance(schema, dict) else ():
        if key not in instance:
            found += [{**instance, key: value} for value in _MUTANTS[:3]]
    return found


def test_every_contract_has_a_model(package):
    for built in package:
        contracts = [
            *built.design.contracts,
            *(c.output for c in built.design.contracts if c.output),
        ]
        assert set(built.output.classes) == {(c.kind, c.name) for c in contracts}
        assert not [d for d in built.output.diagnostics if d.code == "MODEL_NOT_GENERATED"]


@corpus
def test_models_agree_with_the_canonical_schema(package):
    checked = skipped = rejected = drawn = 0
    problems: list[str] = []
    for built, contract in _contracts(package):
        model = built.model(contract.kind, contract.name)
        validator = Draft202012Validator(contract.schema)
        try:
            strategy = _strategy(contract.schema)
        except Exception:  # hypothesis-jsonschema: recursion, 2020-12-only keywords
            skipped += 1
            continue
        seen: list[Any] = []
        collect = _collector(strategy, seen)

        try:
            collect()
        except Exception:
            skipped += 1
            continue
        checked += 1
        drawn += len(seen)
        for instance in seen:
            payload = json.loads(json.dumps(instance))
            try:
                dumped = model.model_validate(copy.deepcopy(payload)).model_dump(mode="json")
            except ValidationError as error:
                problems.append(f"{contract.name}: valid instance rejected: {error.errors()[0]}")
                continue
            if dumped != payload:
                problems.append(f"{contract.name}: dump differs: {dumped!r} != {payload!r}")
            for mutant in _mutations(payload, contract.schema):
                if validator.is_valid(mutant):
                    continue
                try:
                    model.model_validate(mutant)
                except ValidationError:
                    rejected += 1
                    continue
                problems.append(f"{contract.name}: invalid instance accepted: {mutant!r}"[:300])
    print(f"{checked} contracts ({skipped} skipped), {drawn} drawn, {rejected} invalid rejected")
    assert checked > 0.8 * (checked + skipped), (checked, skipped)
    assert problems == []
    assert rejected > drawn  # the mutation side really ran
