"""The matrix's expectation for each (feature, profile): the package round-trips the feature, or
the build refuses it with a code (naming file, pointer and provider).

The doctrine (issue 34): whatever goes out encoded comes back decoded, on every provider; a
provider that cannot carry a feature even encoded refuses it at build time. So "round trip" is
the rule, and each refusal below says why that provider cannot carry the feature. A feature or a
profile with no decision fails test_every_pair_is_decided: adding either means deciding.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

ROUND_TRIP = "round trip"


@dataclass(frozen=True)
class Refused:
    """The build refuses the feature for the profile with ``code``, because ``why``."""

    code: str
    why: str

    def __str__(self) -> str:
        return f"refused with {self.code}"


Expectation = str | Refused

#: Every profile the rows below decide (tests/features/catalog.py PROFILE_KEYS must be these:
#: a new profile is decided here, for every feature, before the matrix passes).
DECIDED_PROFILES: tuple[str, ...] = (
    "openai",
    "anthropic",
    "groq",
    "cerebras",
    "bedrock",
    "gemini",
    "gemini:openapi",
    "mistral",
    "xai",
    "azure_openai",
    "openrouter",
    "deepseek",
    "cloudflare",
)


def everywhere(exceptions: Mapping[str, Refused] | None = None) -> dict[str, Expectation]:
    """Round trip on every decided profile but ``exceptions``."""
    exceptions = exceptions or {}
    unknown = set(exceptions) - set(DECIDED_PROFILES)
    assert not unknown, f"refusals for undecided profiles: {sorted(unknown)}"
    return {profile: exceptions.get(profile, ROUND_TRIP) for profile in DECIDED_PROFILES}


#: feature -> profile -> expectation
MATRIX: dict[str, dict[str, Expectation]] = {
    # encodings
    "map": everywhere(),
    "map_of_any": everywhere(),
    "map_bounds": everywhere(),
    "pattern_map": everywhere(),
    "property_names_map": everywhere(),
    "open_object_extras": everywhere(),
    "any_value": everywhere(),
    "any_value_described": everywhere(),
    "any_value_empty_properties": everywhere(),
    "array_without_items": everywhere(),
    "tuple": everywhere(),
    "tuple_shorter": everywhere(),
    "recursion": everywhere(),
    "optional_nullable": everywhere(),
    "optional_default_null": everywhere(),
    "member_of_no_one_type": everywhere(),
    "integer_enum": everywhere(),
    "string_enum": everywhere(),
    "member_names": everywhere(),
    "output_root_array": everywhere(),
    "output_root_string": everywhere(),
    # equivalent rewrites
    "ref_with_siblings": everywhere(),
    "one_element_all_of": everywhere(),
    "one_of": everywhere(),
    "type_list": everywhere(),
    "nullable_enum_type_list": everywhere(),
    "const": everywhere(),
    "enum_without_type": everywhere(),
    "dropped_string_lengths": everywhere(),
    "dropped_unique_items": everywhere(),
    "dropped_formats": everywhere(),
    "optionals_over_cap": everywhere(),
    "optional_without_null": everywhere(),
    "nested_empty_object": everywhere(),
    "nullable_object_without_properties": everywhere(),
    "id_defs_ref_optional": everywhere(),
    "one_branch_any_of_beside_properties": everywhere(),
    "all_of_disjoint_objects": everywhere(),
    "all_of_string_min_length": everywhere(),
    "array_const": everywhere(),
    "root_map": everywhere(),
}


def expectation(feature: str, profile: str) -> Expectation:
    """The decision for (feature, profile); KeyError where there is none."""
    return MATRIX[feature][profile]
