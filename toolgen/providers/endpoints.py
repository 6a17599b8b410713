"""Where a provider's API is, for ``toolgen canary record``: a provider module gives its
``Endpoint`` in its ``REGISTRATION`` (``ENDPOINTS`` of toolgen.providers gathers them). The usual
auth, a bearer key, is here; a provider that sends its key otherwise writes its own function."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass


def bearer(key: str) -> dict[str, str]:
    """The key as ``Authorization: Bearer`` (OpenAI and the APIs compatible with it)."""
    return {"Authorization": f"Bearer {key}"}


@dataclass(frozen=True)
class Endpoint:
    """Where a provider's API is and how its key is sent. ``base_url`` may name environment
    variables as ``{NAME}`` (an account in the URL), filled in by :meth:`url`; ``api_paths``
    puts a path before an API's own, per API name (one API served under another root)."""

    env: str  # the environment variable its SDKs read the key from
    base_url: str
    model: str  # a small model; --model chooses another
    auth: Callable[[str], dict[str, str]] = bearer  # the key -> the request's auth headers
    api_paths: tuple[tuple[str, str], ...] = ()  # (API name, the path before its own)

    def url(self, environ: Mapping[str, str]) -> tuple[str, list[str]]:
        """(the base URL with its ``{NAME}`` filled in, the names that are not set)."""
        names = re.findall(r"\{([A-Z0-9_]+)\}", self.base_url)
        missing = [name for name in names if not environ.get(name)]
        url = self.base_url
        for name in names:
            url = url.replace(f"{{{name}}}", environ.get(name, ""))
        return url, missing

    def api_path(self, api: str) -> str:
        """The path before the API ``api``'s own ("" for most)."""
        return dict(self.api_paths).get(api, "")
