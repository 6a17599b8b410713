"""Where a provider's API is, for ``toolgen canary record``: a provider module gives its
``Endpoint`` in its ``REGISTRATION`` (``ENDPOINTS`` of toolgen.providers gathers them). The usual
auth, a bearer key, is here; a provider that sends its key otherwise writes its own function.

A base URL is what the provider's official SDK takes as its base URL (``base_url=`` of openai,
anthropic and groq, ``http_options.base_url`` of google-genai, ``endpoint_url`` of boto3), so
``--base-url`` takes the value a team already gives its SDK (a gateway, a proxy): the path the SDK
appends itself before an API's own path is ``api_paths`` (Anthropic's ``/v1`` before
``/messages``: its SDK's base URL is ``https://api.anthropic.com``). A ``--base-url`` that already
ends with that path, the form the canary took before, is taken without it, with a notice."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass


def bearer(key: str) -> dict[str, str]:
    """The key as ``Authorization: Bearer`` (OpenAI and the APIs compatible with it)."""
    return {"Authorization": f"Bearer {key}"}


def filled(text: str, environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """(``text`` with its ``{NAME}`` replaced by the environment's values, the names not set)."""
    names = re.findall(r"\{([A-Z0-9_]+)\}", text)
    for name in names:
        text = text.replace(f"{{{name}}}", environ.get(name, ""))
    return text, [name for name in names if not environ.get(name)]


@dataclass(frozen=True)
class ApiRoot:
    """Where one API's own paths go (``url``), the ``{NAME}``s of it that are not set, and the
    path taken off a base URL given in the old form (``old_form``: "" when it was not)."""

    url: str
    unset: list[str]
    old_form: str = ""


@dataclass(frozen=True)
class Endpoint:
    """Where a provider's API is and how its key is sent. ``base_url`` is the SDK's (see the
    module) and may name environment variables as ``{NAME}`` (an account in the URL); ``api_paths``
    is the path the SDK puts between its base URL and an API's own path, per API name."""

    env: str  # the environment variable its SDKs read the key from
    base_url: str
    model: str  # a small model; --model chooses another
    auth: Callable[[str], dict[str, str]] = bearer  # the key -> the request's auth headers
    api_paths: tuple[tuple[str, str], ...] = ()  # (API name, the path before its own)

    def url(self, environ: Mapping[str, str]) -> tuple[str, list[str]]:
        """(the base URL with its ``{NAME}`` filled in, the names that are not set)."""
        return filled(self.base_url, environ)

    def api_path(self, api: str) -> str:
        """The path before the API ``api``'s own ("" for most)."""
        return dict(self.api_paths).get(api, "")

    def root(self, api: str, environ: Mapping[str, str], base_url: str | None = None) -> ApiRoot:
        """Where ``api``'s paths go: under the SDK's base URL, or under ``base_url`` (given in the
        SDK's form; one that ends with the API's path already is taken without it)."""
        path, unset = filled(self.api_path(api), environ)
        if base_url is None:
            base, unset_base = self.url(environ)
            return ApiRoot(base.rstrip("/") + path, unset_base + unset)
        base = base_url.rstrip("/")
        old_form = path if path and base.endswith(path) else ""
        base = base[: len(base) - len(old_form)]
        return ApiRoot(base + path, unset, old_form)
