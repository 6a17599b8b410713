"""The provider profiles toolgen supports, by name (the order of the generated modules). The
wire APIs they speak are in toolgen.apis, the formats ``toolgen import`` reads in toolgen.formats.

Every registry here is gathered from the modules of this package (toolgen.providers.registration):
a provider module's ``REGISTRATION`` gives its profile, its place in the order, whether it is
built on request, its dialects and its endpoint (``toolgen canary record``).
Adding a provider is adding its module (and an envelope folder where its responses differ from
those of the provider it derives from: toolgen.providers.surfaces).

A provider with several dialects (``[providers.NAME] dialect`` in toolgen.toml) lists them in
``DIALECTS``; ``PROFILES`` holds its default one. A profile without APIs is projection only:
``validate``, ``show`` and ``build --provider NAME`` (schema files) take it, but it is not in the
default provider list (``BUILT_BY_DEFAULT``) until toolgen can generate its module.

The OpenAI-compatible providers in ``ON_REQUEST`` (Mistral, xAI and the gateways) are built only
when toolgen.toml or ``--provider`` names them: most designs call one or two of them, and each adds
a module, its envelope validators and their build time to every default build.
"""

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

from toolgen.load.contracts import ProviderOptions, ProviderSettings
from toolgen.providers.base import Profile
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.registration import Registration

#: Modules of this package that read the registries: importing them while the registries are
#: gathered would be a cycle, and they declare nothing.
_READERS = frozenset({"surfaces", "table"})


def _modules() -> tuple[ModuleType, ...]:
    """The modules of this package but the readers, by name."""
    return tuple(
        importlib.import_module(f"{__name__}.{module.name}")
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda found: found.name)
        if module.name not in _READERS
    )


_MODULES = _modules()
_REGISTRATIONS: tuple[Registration, ...] = tuple(
    sorted(
        (module.REGISTRATION for module in _MODULES if hasattr(module, "REGISTRATION")),
        key=lambda registration: (registration.order, registration.profile.name),
    )
)

DIALECTS: dict[str, dict[str, Profile]] = {
    r.profile.name: dict(r.dialects) for r in _REGISTRATIONS if r.dialects
}

PROFILES: dict[str, Profile] = {r.profile.name: r.profile for r in _REGISTRATIONS}

PROVIDER_NAMES: tuple[str, ...] = tuple(PROFILES)

#: Built only when named (see the module docstring).
ON_REQUEST: frozenset[str] = frozenset(r.profile.name for r in _REGISTRATIONS if r.on_request)

#: What ``toolgen build`` generates when neither --provider nor toolgen.toml says.
BUILT_BY_DEFAULT: tuple[str, ...] = tuple(
    n for n, p in PROFILES.items() if p.apis and n not in ON_REQUEST
)

#: Where each provider's API is, for ``toolgen canary record`` (a provider without one needs
#: ``--base-url``).
ENDPOINTS: dict[str, Endpoint] = {
    r.profile.name: r.endpoint for r in _REGISTRATIONS if r.endpoint is not None
}


def envelope_providers() -> tuple[str, ...]:
    """The providers toolgen writes envelope validators for (every profile with an API), sorted."""
    return tuple(sorted(name for name, profile in PROFILES.items() if profile.apis))


def settings(names: Iterable[str] = PROVIDER_NAMES) -> dict[str, ProviderSettings]:
    """What the loader may know of providers ``names``: the settings each takes."""
    return {
        name: ProviderSettings(
            dialects=tuple(DIALECTS.get(name, {})),
            has_non_strict=PROFILES[name].non_strict is not None,
        )
        for name in names
    }


def profile_for(name: str, options: ProviderOptions) -> Profile:
    """The profile of provider ``name`` in the dialect its options choose (its strict flag is
    chosen per tool by the projection: toolgen.project.strictness.project_tool)."""
    if options.dialect is not None and name in DIALECTS:
        return DIALECTS[name].get(options.dialect, PROFILES[name])
    return PROFILES[name]
