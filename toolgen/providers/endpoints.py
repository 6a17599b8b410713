"""Where a provider's API is, for ``toolgen canary record``: a provider module gives its
``Endpoint`` in its ``REGISTRATION`` (``ENDPOINTS`` of toolgen.providers gathers them). The usual
auth, a bearer key, is here; a provider that sends its key otherwise writes its own function."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def bearer(key: str) -> dict[str, str]:
    """The key as ``Authorization: Bearer`` (OpenAI and the APIs compatible with it)."""
    return {"Authorization": f"Bearer {key}"}


@dataclass(frozen=True)
class Endpoint:
    """Where a provider's API is and how its key is sent."""

    env: str  # the environment variable its SDKs read the key from
    base_url: str
    model: str  # a small model; --model chooses another
    auth: Callable[[str], dict[str, str]] = bearer  # the key -> the request's auth headers
