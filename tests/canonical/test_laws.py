"""The three laws of docs/projection.md ("The inverse and its laws") for the OpenAI projection
and its inverses (reference and compiled), as property tests over the example design, the hard
cases and a corpus sample.

- completeness: for x valid under S (objects that declare properties read as closed, as the
  projection closes them), fill(x) — every absent member written as null, a member that is
  optional *and* accepts null boxed (NullableOptionalBoxed: its value v written {"value": v}) —
  is valid under P(S) and C(fill(x)) == x. With ``optional_nullable = "keep"`` such a member is
  written as it is and cannot be told from an absent one, so it comes back as null: the stated
  exception (OPTIONAL_NULLABLE);
- soundness: for y valid under P(S), C(y) is valid under S without what the projection drops on
  purpose (minLength, uniqueItems, ...: the canonical validation reports those) and with oneOf
  read as anyOf (folded by the projection);
- identity: for x valid under S (objects read as closed, as for completeness: at a union, a
  member the projection never declared keeps a branch from admitting the payload), C(x) is x,
  the same object.

Where the projection encodes (toolgen.project.rewrites.encodings), fill(x) writes the encoding
too (a map as entries, JSON text for a value of any type or for a recursive reference where the
provider refuses recursion); soundness admits one more outcome, a
payload that breaks the encoding (a key twice, text that is not JSON) refused with an
EncodingError (a PayloadError at run time), never a wrong canonical payload; identity is not
claimed where a value is JSON text (a value of any type, or a recursive reference where the
provider refuses recursion: a canonical value there is read as JSON text), nor where a member is
boxed (a canonical null there reads as the absent member, a canonical object as a box).
"""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.conftest import GEMINI_CORPUS_SAMPLE, OTHER_PROFILES
from tests.canonical.support import (
    ENCODINGS,
    NO_IDENTITY,
    PROPERTY,
    Case,
    Compiled,
    Filler,
    case_of,
    closed,
    encodes,
    example_keys,
    examples,
    hard_keys,
    instances,
    relaxed,
    sample,
)
from tests.features.builds import write_compiled
from toolgen.infra.cache import Cache
from toolgen.infra.parallel import Runner
from toolgen.package.assemble import render_package

HARD = hard_keys()
EXAMPLE = example_keys()
CORPUS_SAMPLE = 40

LAW = settings(PROPERTY, max_examples=examples(12))
CORPUS_LAW = settings(LAW, max_examples=examples(6))


@cache
def _closed_instances(case: Case) -> st.SearchStrategy[Any]:
    return instances(closed(case.contract.schema))


@cache
def _projected_instances(case: Case) -> st.SearchStrategy[Any]:
    return instances(case.projected)


@cache
def _filler(case: Case) -> Filler:
    return case.filler()


@cache
def _relaxed(case: Case) -> Draft202012Validator:
    schema = relaxed(
        case.contract.schema, case.profile, case.members_as_text(), unrolls=case.unrolls
    )
    return Draft202012Validator(schema)


@cache
def _projected(case: Case) -> Draft202012Validator:
    return Draft202012Validator(case.projected)


#: The generated package's inverse of a case, where its test has a package of the case's
#: projection (``id(case)`` -> ``canonicalize`` of the case's contract in its provider module):
#: the package decides whether a provider gets a canonical module, and which (issue 34).
_PACKAGED: dict[int, Callable[[Any], Any]] = {}


def _inverses(case: Case) -> list[tuple[str, Callable[[Any], Any]]]:
    found = [("reference", case.reference), ("compiled", case.compiled)]
    if id(case) in _PACKAGED:
        found.append(("package", _PACKAGED[id(case)]))
    return found


def packaged(case: Case, module: ModuleType) -> Case:
    """``case``, read back through the provider module ``module`` of a generated package too."""
    kind, _, name = case.key.partition(":")
    read = module.canonicalize_output if kind == "output" else module.canonicalize
    _PACKAGED[id(case)] = lambda payload: read(name, payload)
    return case


#: The hard cases' profiles the package is rendered for: OpenAI's and OTHER_PROFILES, the
#: providers of one dialect into one package (the one each provider's users import), Gemini's
#: OpenAPI dialect into a package of its own (one package holds one dialect of a provider).
#: Bedrock's projections (a design changed in memory) and the corpus (hundreds of tools: a
#: minute to render a package per profile) are read back through the compiled module and the
#: reference only; tests/features/ reads every feature back through packages of each provider.


@pytest.fixture(scope="session")
def hard_packages(
    hard: Compiled,
    hard_for: Callable[[str], Compiled],
    tmp_path_factory: pytest.TempPathFactory,
    suite_cache: Path,
) -> Callable[[str], ModuleType]:
    """profile -> the provider module of the package rendered from the hard cases' projections
    (rendered and imported on first use, with the suite's build cache)."""
    folder = tmp_path_factory.mktemp("hard_packages")
    rendered: dict[str, ModuleType] = {}

    def module(profile: str) -> ModuleType:
        provider, _, dialect = profile.partition(":")
        together = dialect != "openapi"
        key = "together" if together else profile
        if key not in rendered:
            compiled = [hard] + [
                hard_for(p) for p in OTHER_PROFILES if (":openapi" in p) != together
            ]
            design = compiled[0].design
            assert design is not None
            projections = [c.projection for c in compiled if c.projection is not None]
            runner = Runner(cache=Cache(suite_cache))
            files = render_package(design, projections, runner).files
            name = f"hard_package_{key.replace(':', '_')}"
            write_compiled(folder / name, files)
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            importlib.invalidate_caches()
            rendered[key] = importlib.import_module(name)
        return importlib.import_module(f"{rendered[key].__name__}.{provider}")

    return module


def check_completeness(
    case: Case, data: st.DataObject, fits: Callable[[Any], bool] | None = None
) -> None:
    """Completeness on a canonical payload (one that ``fits``, where the projection is tighter
    than the canonical schema: recursion_depth)."""
    instances = _closed_instances(case)
    x = data.draw(instances if fits is None else instances.filter(fits), label="canonical")
    filled, expected = _filler(case)(x)
    assert _projected(case).is_valid(filled), (
        f"fill(x) is not valid under the projection: {filled!r}"
    )
    for label, inverse in _inverses(case):
        assert inverse(filled) == expected, label


def check_soundness(case: Case, data: st.DataObject) -> None:
    y = data.draw(_projected_instances(case), label="projected")
    for label, inverse in _inverses(case):
        try:
            result = inverse(y)
        except ValueError as error:  # EncodingError (the compiled module has its own class)
            assert type(error).__name__ == "EncodingError", f"{label}: {error!r}"
            assert encodes(case.projection, ENCODINGS), f"{label}: {error!r}"
            continue
        errors = [e.message for e in _relaxed(case).iter_errors(result)]
        assert not errors, f"{label}: {result!r} is not canonical: {errors}"


def check_identity(case: Case, data: st.DataObject) -> None:
    if encodes(case.projection, NO_IDENTITY):
        return  # not claimed: a canonical value there is read as JSON text, or as a box
    x = data.draw(_closed_instances(case), label="canonical")
    before = copy.deepcopy(x)
    for label, inverse in _inverses(case):
        assert inverse(x) is x, label
    assert x == before


LAWS = {
    "completeness": check_completeness,
    "soundness": check_soundness,
    "identity": check_identity,
}


@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("key", HARD)
@LAW
@given(data=st.data())
def test_hard_cases(
    hard: Compiled,
    hard_packages: Callable[[str], ModuleType],
    key: str,
    law: str,
    data: st.DataObject,
) -> None:
    LAWS[law](packaged(case_of(hard, key), hard_packages("openai")), data)


@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("key", HARD)
@pytest.mark.parametrize("profile", OTHER_PROFILES)
@settings(LAW, max_examples=examples(6))
@given(data=st.data())
def test_hard_cases_for_other_profiles(
    hard_for: Callable[[str], Compiled],
    hard_packages: Callable[[str], ModuleType],
    profile: str,
    key: str,
    law: str,
    data: st.DataObject,
) -> None:
    case = case_of(hard_for(profile), key, profile)
    LAWS[law](packaged(case, hard_packages(profile)), data)


@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("key", HARD)
@settings(LAW, max_examples=examples(4))
@given(data=st.data())
def test_hard_cases_for_bedrock(
    hard_bedrock: Compiled, key: str, law: str, data: st.DataObject
) -> None:
    """Bedrock strict (Anthropic's subset, non-strict where strict mode cannot go) and with
    ``strict = false`` (every tool non-strict: the canonical schema minus a root union)."""
    LAWS[law](case_of(hard_bedrock, key, hard_bedrock.expectations), data)


@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("key", EXAMPLE)
@LAW
@given(data=st.data())
def test_example_design(example: Compiled, key: str, law: str, data: st.DataObject) -> None:
    LAWS[law](case_of(example, key), data)


@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("key", EXAMPLE)
@pytest.mark.parametrize("profile", OTHER_PROFILES[1:])
@settings(LAW, max_examples=examples(6))
@given(data=st.data())
def test_example_design_for_other_profiles(
    example_for: Callable[[str], Compiled], profile: str, key: str, law: str, data: st.DataObject
) -> None:
    LAWS[law](case_of(example_for(profile), key, profile), data)


@pytest.mark.corpus
@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("index", range(CORPUS_SAMPLE))
@CORPUS_LAW
@given(data=st.data())
def test_corpus(corpus: Compiled, index: int, law: str, data: st.DataObject) -> None:
    LAWS[law](sample(corpus.cases, CORPUS_SAMPLE)[index], data)


@pytest.mark.corpus
@pytest.mark.parametrize("law", sorted(LAWS))
def test_every_encoded_corpus_tool(encoded_corpus: Compiled, law: str) -> None:
    """Beyond the sample: on each profile of ``ENCODED_PROFILES``, every corpus tool whose
    projection encodes a node (a map, an open object, a value of any type, a tuple, a box,
    recursion or a member as JSON text), each its own property run (one run drawing for every
    tool would overrun hypothesis's buffer)."""
    assert encoded_corpus.cases, "no corpus tool is encoded"
    for case in encoded_corpus.cases:
        try:
            _law_holds(LAWS[law], case)()
        except Exception as error:  # noqa: BLE001 - any failure: named by its tool
            raise AssertionError(f"{case.key}: {error!r}") from error


def _law_holds(law: Callable[[Case, st.DataObject], None], case: Case) -> Callable[[], None]:
    """A property run of ``law`` over ``case`` alone."""

    @settings(LAW, max_examples=examples(1))  # one payload per tool, law and profile
    @given(data=st.data())
    def holds(data: st.DataObject) -> None:
        law(case, data)

    return holds


@pytest.mark.corpus
@pytest.mark.parametrize("law", sorted(LAWS))
@pytest.mark.parametrize("index", range(GEMINI_CORPUS_SAMPLE))
@settings(LAW, max_examples=examples(4))
@given(data=st.data())
def test_corpus_for_gemini(
    corpus_gemini: Compiled, index: int, law: str, data: st.DataObject
) -> None:
    """Both dialects (the fixture's parameters): optionals stay optional in both; the OpenAPI
    dialect inlines references and writes non-string enums as text, read back by the inverse."""
    if index >= len(corpus_gemini.cases):
        pytest.skip("the dialect takes fewer corpus tools than the sample size")
    LAWS[law](corpus_gemini.cases[index], data)


def test_optional_nullable_keeps_absent_and_null_apart(hard: Compiled) -> None:
    """An optional member that accepts null is boxed (NullableOptionalBoxed): absent is written
    null and comes back absent, null is written {"value": null} and comes back null."""
    case = case_of(hard, "tool:optional_nullable")
    absent: dict[str, Any] = {"required_null": 1}
    filled, expected = _filler(case)(absent)
    assert filled == {"maybe": None, "maybe_ref": None, "required_null": 1, "plain": None}
    assert expected == absent
    null: dict[str, Any] = {"maybe": None, "maybe_ref": None, "required_null": None}
    filled, expected = _filler(case)(null)
    boxed_null = {"value": None}
    assert filled == {
        "maybe": boxed_null,
        "maybe_ref": boxed_null,
        "required_null": None,
        "plain": None,
    }
    assert expected == null
    for label, inverse in _inverses(case):
        assert inverse(_filler(case)(absent)[0]) == absent, label
        assert inverse(filled) == null, label
