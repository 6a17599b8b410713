"""The laws where ``recursion_depth = N`` unrolls a recursive reference on a provider that refuses
recursion (Anthropic, Mistral, Gemini's OpenAPI dialect), over a tree whose ``children`` recurse
(support.UNROLLED_TREE; the forward writer's side is in test_forward.py).

The projection is tighter than the canonical schema: a payload nesting ``children`` deeper than N
levels has no projected form. So completeness is claimed for payloads within the depth, and a
deeper one is shown unfillable while the canonical schema accepts it. Soundness and identity
hold for every payload.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import find, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.support import (
    UNROLL_DEPTH,
    UNROLLED_TREE,
    Case,
    nesting,
    within_depth,
)
from tests.canonical.test_laws import (
    LAW,
    _closed_instances,
    _filler,
    _inverses,
    _projected,
    check_completeness,
    check_identity,
    check_soundness,
)


def within(case: Case) -> st.SearchStrategy[Any]:
    """Canonical payloads that nest no deeper than the projection unrolls."""
    return _closed_instances(case).filter(within_depth)


@LAW
@given(data=st.data())
def test_completeness_within_the_depth(unrolled_tree: Case, data: st.DataObject) -> None:
    check_completeness(unrolled_tree, data, within_depth)


@LAW
@given(data=st.data())
def test_soundness(unrolled_tree: Case, data: st.DataObject) -> None:
    check_soundness(unrolled_tree, data)


@LAW
@given(data=st.data())
def test_identity(unrolled_tree: Case, data: st.DataObject) -> None:
    check_identity(unrolled_tree, data)


def test_a_deeper_payload_has_no_projected_form(unrolled_tree: Case) -> None:
    """Three levels of children: canonical, but the tighter projection has no form for it."""
    deepest = {"name": "c", "children": [{"name": "d"}]}
    payload = {"tree": {"name": "a", "children": [{"name": "b", "children": [deepest]}]}}
    assert Draft202012Validator(UNROLLED_TREE).is_valid(payload)
    assert not within_depth(payload)
    assert not _projected(unrolled_tree).is_valid(_filler(unrolled_tree)(payload)[0])


#: payloads at the depth's edge (the random ones rarely nest that deep)
AT_THE_DEPTH = [
    {"tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}},
    {"tree": {"name": "a", "children": [{"name": "b", "children": []}, {"name": "c"}]}},
    {"tree": {"name": "a", "children": []}},
    {"tree": {"name": "a"}},
]


@pytest.mark.parametrize("payload", AT_THE_DEPTH)
def test_completeness_at_the_depth(unrolled_tree: Case, payload: Any) -> None:
    assert within_depth(payload)
    filled, expected = _filler(unrolled_tree)(payload)
    assert _projected(unrolled_tree).is_valid(filled), filled
    for label, inverse in _inverses(unrolled_tree):
        assert inverse(filled) == expected == payload, label


def test_the_payloads_of_the_laws_reach_the_depth(unrolled_tree: Case) -> None:
    """The restricted strategy still holds payloads that nest to the depth."""
    found = find(within(unrolled_tree), lambda x: nesting(x["tree"]) == UNROLL_DEPTH)
    assert within_depth(found)
