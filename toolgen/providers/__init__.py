"""The provider profiles toolgen supports, by name."""

from toolgen.providers.base import Profile
from toolgen.providers.openai import OPENAI

PROFILES: dict[str, Profile] = {profile.name: profile for profile in (OPENAI,)}

PROVIDER_NAMES: tuple[str, ...] = tuple(PROFILES)
