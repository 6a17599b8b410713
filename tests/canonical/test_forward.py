"""The forward writer (toolgen/compile/canonical/forward.py plans, toolgen/runtime/_forward.py
writes): the inverse's own inverse, checked over the cases of the laws (test_laws.py).

For x valid under S (objects closed, as for completeness), forward(x) is valid under P(S), is
what the provider's ``fill`` writes (tests/canonical/support.py ``Filler``, the test's own
account of each rewrite), and both inverses read it back as x, with the stated exception of a
member that is optional and accepts null (it comes back as null).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.canonical.conftest import OTHER_PROFILES
from tests.canonical.support import Case, Compiled, case_of, examples, sample, within_depth
from tests.canonical.test_laws import (
    CORPUS_LAW,
    CORPUS_SAMPLE,
    EXAMPLE,
    HARD,
    LAW,
    _closed_instances,
    _filler,
    _inverses,
    _projected,
)
from toolgen.compile.canonical.forward import forward_plan
from toolgen.runtime._forward import forward


@cache
def _plan(case: Case) -> dict[str, Any] | None:
    return forward_plan(case.projection)


def written(case: Case, payload: Any) -> Any:
    """``payload`` as the provider of ``case`` writes it, by the forward plan of its projection."""
    plan = _plan(case)
    return payload if plan is None else forward(payload, plan["root"], plan["defs"])


def check_forward(
    case: Case, data: st.DataObject, fits: Callable[[Any], bool] | None = None
) -> None:
    """The forward law on a canonical payload (one that ``fits``, where the projection is
    tighter than the canonical schema)."""
    instances = _closed_instances(case)
    x = data.draw(instances if fits is None else instances.filter(fits), label="canonical")
    wire = written(case, x)
    errors = [e.message for e in _projected(case).iter_errors(wire)]
    assert not errors, f"forward(x) is not valid under the projection: {wire!r}: {errors}"
    filled, expected = _filler(case)(x)
    assert wire == filled
    for label, inverse in _inverses(case):
        assert inverse(wire) == expected, label


@pytest.mark.parametrize("key", HARD)
@LAW
@given(data=st.data())
def test_hard_cases(hard: Compiled, key: str, data: st.DataObject) -> None:
    check_forward(case_of(hard, key), data)


@pytest.mark.parametrize("key", HARD)
@pytest.mark.parametrize("profile", OTHER_PROFILES)
@settings(LAW, max_examples=examples(6))
@given(data=st.data())
def test_hard_cases_for_other_profiles(
    hard_for: Callable[[str], Compiled], profile: str, key: str, data: st.DataObject
) -> None:
    check_forward(case_of(hard_for(profile), key, profile), data)


@pytest.mark.parametrize("key", HARD)
@settings(LAW, max_examples=examples(4))
@given(data=st.data())
def test_hard_cases_for_bedrock(hard_bedrock: Compiled, key: str, data: st.DataObject) -> None:
    check_forward(case_of(hard_bedrock, key, hard_bedrock.expectations), data)


@pytest.mark.parametrize("key", EXAMPLE)
@pytest.mark.parametrize("profile", ["openai", *OTHER_PROFILES[1:]])
@settings(LAW, max_examples=examples(6))
@given(data=st.data())
def test_example_design(
    example: Compiled,
    example_for: Callable[[str], Compiled],
    profile: str,
    key: str,
    data: st.DataObject,
) -> None:
    compiled = example if profile == "openai" else example_for(profile)
    check_forward(case_of(compiled, key, profile), data)


@pytest.mark.corpus
@pytest.mark.parametrize("index", range(CORPUS_SAMPLE))
@CORPUS_LAW
@given(data=st.data())
def test_corpus(corpus: Compiled, index: int, data: st.DataObject) -> None:
    check_forward(sample(corpus.cases, CORPUS_SAMPLE)[index], data)


def test_a_union_takes_the_branch_its_canonical_value_fits(example: Compiled) -> None:
    """Each branch of the example's ``filter`` union (oneOf Equals / Range, both with ``field``
    and ``boost``) gets the nulls of its own absent members, not the other branch's."""
    case = case_of(example, "tool:search.documents")
    equals = {"query": "q", "filter": {"field": "f", "equals": "e"}}
    in_range = {"query": "q", "filter": {"field": "f", "gte": 1, "boost": None}}
    assert written(case, equals)["filter"] == {"field": "f", "equals": "e", "boost": None}
    assert written(case, in_range)["filter"] == {"field": "f", "gte": 1, "lte": None, "boost": None}
    for payload in (equals, in_range):
        for _, inverse in _inverses(case):
            assert inverse(written(case, payload)) == payload


@LAW
@given(data=st.data())
def test_an_unrolled_tree_within_its_depth(unrolled_tree: Case, data: st.DataObject) -> None:
    """``recursion_depth``: the forward writer writes the unrolled copies (no JSON text), for the
    payloads the tighter projection can hold (within the depth)."""
    check_forward(unrolled_tree, data, within_depth)


def test_a_two_level_tree_round_trips(unrolled_tree: Case) -> None:
    """Two levels of children (``recursion_depth = 2``) written and read back by both inverses."""
    payload = {"tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}}
    wire = written(unrolled_tree, payload)
    assert wire == _filler(unrolled_tree)(payload)[0]
    assert _projected(unrolled_tree).is_valid(wire), wire
    for label, inverse in _inverses(unrolled_tree):
        assert inverse(wire) == payload, label
