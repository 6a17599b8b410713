"""The compiled canonicalizers agree with the reference on every payload: instances of the
projection, the same broken (nulls everywhere, wrong types, extra and missing members), and any
JSON value at all. Agreement is equality of results, the same "same object" answer, an input
left unmutated, and the same text from the text entry points."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.canonical.support import (
    PROPERTY,
    Case,
    Compiled,
    case_of,
    example_keys,
    examples,
    hard_keys,
    instances,
    json_values,
    member_names,
    mutated,
    sample,
)
from toolgen.compile.canonical.reference import canonicalize_text
from toolgen.project.rewrites import EncodingError

HARD = hard_keys()
CORPUS_SAMPLE = 60

DIFF = settings(PROPERTY, max_examples=examples(40))
CORPUS_DIFF = settings(DIFF, max_examples=examples(12))


@cache
def _projected_instances(case: Case) -> st.SearchStrategy[Any]:
    return instances(case.projected)


@cache
def _names(case: Case) -> list[str]:
    return member_names(case.contract.schema)


def payloads(case: Case, data: st.DataObject) -> Any:
    kind = data.draw(st.sampled_from(["projected", "broken", "any"]), label="kind")
    if kind == "any":
        return data.draw(json_values(), label="payload")
    value = data.draw(_projected_instances(case), label="projected")
    return value if kind == "projected" else mutated(data, value, _names(case))


def check_agreement(case: Case, compiled_module: Any, data: st.DataObject) -> None:
    payload = payloads(case, data)
    before = copy.deepcopy(payload)
    try:
        expected = case.reference(payload)
    except EncodingError as error:
        # looser than the contract (a tuple with a hole, a duplicate map key): both inverses
        # refuse it with the same message, and the runtime reports it as a PayloadError
        with pytest.raises(ValueError) as raised:
            case.compiled(payload)
        assert str(raised.value) == str(error)
        assert payload == before, "the input was mutated"
        return
    actual = case.compiled(payload)
    assert actual == expected
    assert (actual is payload) == (expected is payload)
    assert payload == before, "the input was mutated"
    text = json.dumps(payload, ensure_ascii=data.draw(st.booleans(), label="ascii"))
    compiled_text = compiled_module.canonicalize_text(case.compiled, text)
    assert compiled_text == canonicalize_text(text, case.projection)
    raw = text.encode()
    assert compiled_module.canonicalize_text(case.compiled, raw) == canonicalize_text(
        raw, case.projection
    )


@pytest.mark.parametrize("key", HARD)
@DIFF
@given(data=st.data())
def test_hard_cases(hard: Compiled, key: str, data: st.DataObject) -> None:
    check_agreement(case_of(hard, key), hard.module, data)


@pytest.mark.parametrize("key", HARD)
@settings(DIFF, max_examples=examples(14))
@given(data=st.data())
def test_hard_cases_for_cerebras(hard_cerebras: Compiled, key: str, data: st.DataObject) -> None:
    check_agreement(case_of(hard_cerebras, key, "cerebras"), hard_cerebras.module, data)


@pytest.mark.parametrize("key", example_keys())
@DIFF
@given(data=st.data())
def test_example_design(example: Compiled, key: str, data: st.DataObject) -> None:
    check_agreement(case_of(example, key), example.module, data)


@pytest.mark.corpus
@pytest.mark.parametrize("index", range(CORPUS_SAMPLE))
@CORPUS_DIFF
@given(data=st.data())
def test_corpus(corpus: Compiled, index: int, data: st.DataObject) -> None:
    case = sample(corpus.cases, CORPUS_SAMPLE)[index]
    check_agreement(case, corpus.module, data)


def _outcome(inverse: Any, payload: Any) -> tuple[str, Any]:
    """What ``inverse`` makes of ``payload``: its result, or the message of the EncodingError it
    raises (a payload that breaks an encoding: ``{}`` where a member is boxed)."""
    try:
        return ("result", inverse(payload))
    except ValueError as error:
        assert type(error).__name__ == "EncodingError", repr(error)
        return ("error", str(error))


def test_every_corpus_tool_on_its_broken_forms(corpus: Compiled) -> None:
    """Not sampled: every projected corpus tool, on null-everywhere forms of a fixed payload."""
    for case in corpus.cases:
        properties = case.projected.get("properties", {})
        for payload in (
            dict.fromkeys(properties),
            {name: {} for name in properties},
            {name: [None, {}] for name in properties},
            {**dict.fromkeys(properties), "x": None},
        ):
            expected = _outcome(case.reference, payload)
            actual = _outcome(case.compiled, payload)
            assert actual == expected, case.key
            assert (actual[1] is payload) == (expected[1] is payload), case.key


def test_of_two_broken_encodings_both_inverses_name_the_first_declared(
    hard_cerebras: Compiled,
) -> None:
    """``places`` is declared before ``names``; the payload lists them the other way round. Both
    inverses read members in the declared order, so both refuse with the duplicate key."""
    case = case_of(hard_cerebras, "output:encodings.maps", "cerebras")
    twice = [{"key": "", "value": {"city": ""}}] * 2
    payload = {"counts": [], "names": [{"key": "a", "value": ""}], "places": twice}
    with pytest.raises(EncodingError, match="same key") as reference:
        case.reference(payload)
    with pytest.raises(ValueError, match="same key") as compiled:
        case.compiled(payload)
    assert str(compiled.value) == str(reference.value)
