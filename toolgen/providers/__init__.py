"""The provider profiles toolgen supports, by name (the order of the generated modules)."""

from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.base import Profile
from toolgen.providers.cerebras import CEREBRAS
from toolgen.providers.groq import GROQ
from toolgen.providers.openai import OPENAI

PROFILES: dict[str, Profile] = {
    profile.name: profile for profile in (OPENAI, ANTHROPIC, GROQ, CEREBRAS)
}

PROVIDER_NAMES: tuple[str, ...] = tuple(PROFILES)
