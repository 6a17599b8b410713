"""The wire APIs toolgen binds, one unit each: a module here (its ``Api``, canary requests and
stream framing) bound to its runtime module toolgen/runtime/_<api>.py (request builders, decoders,
tool loop, fakes), from whose objects every generated import and name is derived.

A unit module sets ``APIS`` (its variants, the plain one first) and may set ``COMBINED`` (request
builders of a provider that speaks several APIs, by their names in order); this package gathers
them, no API is named here by hand. Provider profiles (toolgen.providers) list the ``Api`` objects
they speak.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from types import ModuleType

from toolgen.apis.api import BASE_MODULES, Api, Requests, sdk_objects
from toolgen.apis.api import requests_for as _requests_for

__all__ = [
    "BASE_MODULES",
    "COMBINED",
    "UNITS",
    "Api",
    "Requests",
    "by_name",
    "requests_for",
    "sdk_objects",
]

#: Modules of this package that declare no API (what a unit is, what units share).
_SHARED = frozenset({"api", "canary_requests"})


def _modules() -> tuple[ModuleType, ...]:
    return tuple(
        importlib.import_module(f"{__name__}.{module.name}")
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda found: found.name)
        if module.name not in _SHARED
    )


_MODULES = _modules()
#: Every API and its variants, by unit module.
UNITS: dict[str, tuple[Api, ...]] = {
    module.__name__.rsplit(".", 1)[-1]: module.APIS for module in _MODULES
}
COMBINED: dict[tuple[str, ...], Requests] = {
    names: requests
    for module in _MODULES
    for names, requests in getattr(module, "COMBINED", {}).items()
}
_BY_NAME: dict[str, Api] = {}
for _apis in UNITS.values():
    for _api in _apis:
        _BY_NAME.setdefault(_api.name, _api)


def by_name(name: str) -> Api:
    """The API named ``name`` (its plain variant: the variants share its fakes and canary);
    KeyError for none."""
    return _BY_NAME[name]


def requests_for(apis: Sequence[Api]) -> Requests:
    """The request builders of a provider that speaks ``apis`` (KeyError for a combination no
    runtime module serves)."""
    return _requests_for(apis, COMBINED)
