"""The feature matrix (issue 34, item 5): every encoding and every equivalent rewrite of the
projection, alone in a one-tool design (tests/features/catalog.py), × every provider profile and
dialect, end to end through the generated package, against an explicit expectation per pair
(tests/features/expectations.py): round trip, or refused at build time with a code.

One class of tests per feature (``--dist loadscope`` hands a class to one worker, which builds
the feature once: with every provider, every provider that takes it together, each alone):

- ``test_build``: the expectation holds (a refusal names the file, a pointer and the provider);
- ``test_round_trip``: canonical payloads (hypothesis), written by the package's fakes, valid
  under the projected schema, decoded from the raw body, the SDK's object and the stream (Workers
  AI: each model family's result shape), equal to the payload given (JSON equality); the package
  built with every other provider decodes the same bytes the same way
  (tests/features/round_trip.py); then blind samples: values of the projected schema decode to
  the reference inverse's canonical payload or to a clean PayloadError (tests/features/blind.py).

A failing pair lists every entry point that fails, with the first line of what went wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from tests.canonical.support import PROPERTY, closed, examples, instances
from tests.features.blind import check_blind, projected_values, unresolved
from tests.features.builds import Built, FeatureBuilds, Sessions, variant_of
from tests.features.catalog import EXAMPLES, FEATURES, PROFILE_KEYS, TOOL, Feature, provider_of
from tests.features.checks import canonical_validator
from tests.features.expectations import DECIDED_PROFILES, MATRIX, ROUND_TRIP, Refused, expectation
from tests.features.round_trip import check_output, check_tool

#: The matrix's property runs: few examples a pair (it has hundreds of pairs); in CI no
#: shrinking, whose hundreds of decodes per failing pair the suite's budget cannot pay (the
#: failing example is printed as drawn; a run outside CI, or make test-deep, shrinks it)
SHRINK = not os.environ.get("CI") or bool(os.environ.get("TOOLGEN_DEEP"))
MATRIX_RUN = settings(
    PROPERTY,
    max_examples=examples(2),
    phases=(Phase.explicit, Phase.reuse, Phase.generate, *((Phase.shrink,) if SHRINK else ())),
)


def test_every_pair_is_decided() -> None:
    """A feature or a profile without a decision for every pair fails: adding one is deciding."""
    assert set(DECIDED_PROFILES) == set(PROFILE_KEYS), "decide the new profiles in MATRIX"
    assert sorted(MATRIX) == sorted(FEATURES), "every feature has a row in MATRIX"
    assert sorted(EXAMPLES) == sorted(FEATURES), "every feature has examples"
    for feature, row in MATRIX.items():
        assert sorted(row) == sorted(PROFILE_KEYS), feature


@pytest.fixture(scope="session")
def build_sessions() -> Sessions:
    """The build sessions of the matrix's builds in this process: modules whose inputs did not
    change since another feature's build (envelopes, fixed modules) are not rendered again."""
    return Sessions()


@cache
def _instances(text: str) -> st.SearchStrategy[Any]:
    return instances(json.loads(text))


def _payloads(schema: Any, draws: Any | None) -> st.SearchStrategy[Any]:
    """Canonical payloads (cached by the schema's text)."""
    return _instances(json.dumps(closed(draws if draws is not None else schema), sort_keys=True))


class FeatureMatrix:
    """The tests of one feature (a subclass per feature, below)."""

    feature: ClassVar[Feature]

    @pytest.fixture(scope="class")
    @classmethod
    def builds(
        cls,
        tmp_path_factory: pytest.TempPathFactory,
        suite_cache: Path,
        build_sessions: Sessions,
    ) -> Iterator[FeatureBuilds]:
        folder = tmp_path_factory.mktemp(f"feature_{cls.feature.name}")
        builds = FeatureBuilds(cls.feature, folder, build_sessions, suite_cache)
        yield builds
        builds.forget()

    def ready(self, builds: FeatureBuilds, profile: str) -> tuple[Built, Built]:
        """The packages of a pair expected to round-trip: alone, and with every provider that
        takes the feature; a skip where test_build fails (it says why)."""
        if expectation(self.feature.name, profile) != ROUND_TRIP:
            pytest.skip(f"{profile} is expected to refuse {self.feature.name}")
        alone = builds.alone(profile)
        together = builds.together(variant_of(profile))
        if alone.package is None or together.package is None:
            pytest.skip("not built: test_build reports why")
        return alone, together

    @pytest.mark.parametrize("profile", PROFILE_KEYS)
    def test_build(self, builds: FeatureBuilds, profile: str) -> None:
        expected = expectation(self.feature.name, profile)
        provider = provider_of(profile)
        alone = builds.alone(profile)
        errors = [d.format() for d in alone.result.diagnostics if d.level == "error"]
        if isinstance(expected, Refused):
            assert not alone.result.ok, f"{provider} builds {self.feature.name}: {expected}"
            found = [d for d in builds.refusals(profile) if d.code == expected.code]
            assert found, f"expected {expected.code}, got {errors}"
            for diagnostic in found:
                assert diagnostic.provider == provider
                assert diagnostic.file in builds.files
                assert diagnostic.pointer.startswith(("/parameters", "/schema"))
            return
        if not alone.result.ok:
            self.fail(profile, {"build": f"refused: {'; '.join(errors)}"})
        assert not builds.refusals(profile), "refused with every provider built together"
        assert builds.together(variant_of(profile)).package is not None

    def fail(self, profile: str, failures: dict[str, str]) -> None:
        """Fail with every failing entry point listed (and written to TOOLGEN_MATRIX_REPORT,
        where that names a file: one JSON line per failing entry point)."""
        report_file = os.environ.get("TOOLGEN_MATRIX_REPORT")
        if report_file:
            lines = "".join(
                json.dumps(
                    {"feature": self.feature.name, "profile": profile, "entry": e, "error": m}
                )
                + "\n"
                for e, m in sorted(failures.items())
            )
            with open(report_file, "a", encoding="utf-8") as out:
                out.write(lines)
        pytest.fail(report(failures), pytrace=False)

    @pytest.mark.parametrize("profile", PROFILE_KEYS)
    @MATRIX_RUN
    @given(data=st.data())
    def test_round_trip(self, builds: FeatureBuilds, profile: str, data: st.DataObject) -> None:
        """A canonical payload of the tool (and of the output) through every entry point, then a
        blind sample of the projected schema; every failing entry point is listed."""
        alone, together = self.ready(builds, profile)
        feature = self.feature
        provider = provider_of(profile)
        failures: dict[str, str] = {}
        for kind, schema, check in (
            ("tool", feature.parameters, check_tool),
            ("output", feature.output, check_output),
        ):
            if schema is None:
                continue
            payload = data.draw(_payloads(schema, feature.draws), label=f"{kind} payload")
            found = check(feature, alone, together, provider, payload)
            failures |= found
            if WRITTEN[kind] in found:  # the projection refuses canonical payloads: no blind draw
                failures[f"blind:{kind}"] = f"not drawn: see {WRITTEN[kind]}"
                continue
            why = unresolved(alone.projected_schema(provider, kind))
            if why is not None:
                failures[f"blind:{kind}"] = why
                continue
            value = data.draw(projected_values(alone, provider, kind), label=f"{kind} value")
            failures |= check_blind(alone, provider, kind, value)
        if failures:
            self.fail(profile, failures)

    @pytest.mark.parametrize("profile", PROFILE_KEYS)
    def test_examples(self, builds: FeatureBuilds, profile: str) -> None:
        """The feature's own payloads (catalog.EXAMPLES: deeper than the smallest ones drawn
        first) through every entry point, as test_round_trip carries drawn ones."""
        feature = self.feature
        for kind, schema in (("tool", feature.parameters), ("output", feature.output)):
            for payload in EXAMPLES[feature.name]:
                if schema is not None:
                    assert canonical_validator(schema).is_valid(payload), (kind, payload)
        alone, together = self.ready(builds, profile)
        provider = provider_of(profile)
        failures: dict[str, str] = {}
        for index, payload in enumerate(EXAMPLES[feature.name]):
            for schema, check in (
                (feature.parameters, check_tool),
                (feature.output, check_output),
            ):
                if schema is not None:
                    found = check(feature, alone, together, provider, payload)
                    failures |= {f"{label} (example {index})": m for label, m in found.items()}
        if failures:
            self.fail(profile, failures)


#: the entry point that says the fakes' wire form is not valid under the projected schema
WRITTEN = {"tool": "arguments", "output": "output:written"}


def report(failures: dict[str, str]) -> str:
    return "failing entry points:\n" + "\n".join(
        f"  {label}: {message}" for label, message in sorted(failures.items())
    )


# -- features with a check of their own ---------------------------------------------------------


class MapBounds(FeatureMatrix):
    """A map's ``minProperties``/``maxProperties`` are carried as its entries' ``minItems``/
    ``maxItems`` where the profile keeps both (MapAsPairs): a map with too few or too many
    entries is refused by the provider's grammar, not only after decoding."""

    @pytest.mark.parametrize("profile", PROFILE_KEYS)
    def test_bounds_are_carried(self, builds: FeatureBuilds, profile: str) -> None:
        alone, _ = self.ready(builds, profile)
        provider = provider_of(profile)
        keeps = alone.profile(provider).keep
        if not {"minItems", "maxItems"} <= keeps:
            pytest.skip(f"{profile} does not keep minItems and maxItems: the bounds are dropped")
        validator = alone.projected_validator(provider, "tool")
        fakes = alone.fakes(provider)
        for keyword, entries in (("minItems", 0), ("maxItems", 4)):
            payload = {"id": "x", "value": {f"k{i}": i for i in range(entries)}}
            wire = fakes.arguments(TOOL, payload, check=False)  # out of the bounds
            assert not validator.is_valid(wire), f"{keyword}: {entries} entries are admitted"


class OptionalDefaultNull(FeatureMatrix):
    """A member whose ``default`` is null goes out unboxed on every profile (absent and null mean
    the same, so required-and-nullable is already exact): the model writes the value itself."""

    @pytest.mark.parametrize("profile", PROFILE_KEYS)
    def test_no_box(self, builds: FeatureBuilds, profile: str) -> None:
        alone, _ = self.ready(builds, profile)
        wire = alone.fakes(provider_of(profile)).arguments(TOOL, {"id": "x", "value": "bug"})
        sent = wire["value"]
        # (Workers AI writes a top-level member of no one type as JSON text: no box either)
        assert sent in ("bug", '"bug"'), f"sent {sent!r}: boxed"


_OWN_CHECKS: dict[str, type[FeatureMatrix]] = {
    "map_bounds": MapBounds,
    "optional_default_null": OptionalDefaultNull,
}

for _name, _feature in FEATURES.items():
    _class_name = "Test_" + _name
    globals()[_class_name] = type(
        _class_name,
        (_OWN_CHECKS.get(_name, FeatureMatrix),),
        {"feature": _feature, "__doc__": f"The matrix's row for {_name}. {_feature.note}"},
    )
