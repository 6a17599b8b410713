"""What a module of toolgen.providers declares to be listed: the registries of
``toolgen/providers/__init__.py`` are gathered from these, no provider is named there by hand.

A provider module sets ``REGISTRATION``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from toolgen.providers.base import Profile
from toolgen.providers.endpoints import Endpoint


@dataclass(frozen=True)
class Registration:
    """A provider: its profile (its default dialect's) and where the registries place it."""

    profile: Profile
    # Its place among the providers (lower first): the order of ``--provider`` choices, of the
    # default build's modules and of the provider tables.
    order: int
    # Built only when toolgen.toml or ``--provider`` names it (not in BUILT_BY_DEFAULT).
    on_request: bool = False
    # ``[providers.NAME] dialect`` -> profile, the default first; empty: one dialect.
    dialects: Mapping[str, Profile] = field(default_factory=dict)
    # Where its API is (key variable, base URL, a small model, auth headers), for ``toolgen
    # canary record``; None: the canary needs ``--base-url``.
    endpoint: Endpoint | None = None
