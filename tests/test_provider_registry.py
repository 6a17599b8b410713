"""The registries of toolgen.providers, toolgen.formats and toolgen.apis are gathered from their
modules (REGISTRATION, IMPORT_FORMATS, APIS): the order they give is the order of the generated
modules and of import detection, so it is pinned here."""

from __future__ import annotations

import pkgutil

import toolgen.apis as apis
import toolgen.formats as formats
import toolgen.providers as providers
from toolgen.formats import IMPORT_FORMATS
from toolgen.providers import (
    BUILT_BY_DEFAULT,
    DIALECTS,
    ENDPOINTS,
    ON_REQUEST,
    PROFILES,
    envelope_providers,
)


def test_the_providers_in_their_order():
    assert tuple(PROFILES) == (
        "openai", "anthropic", "groq", "cerebras", "bedrock", "gemini", "mistral", "xai",
        "azure_openai", "openrouter", "deepseek", "cloudflare",
    )  # fmt: skip
    assert sorted(ON_REQUEST) == ["azure_openai", "deepseek", "mistral", "openrouter", "xai"]
    assert BUILT_BY_DEFAULT == (
        "openai", "anthropic", "groq", "cerebras", "bedrock", "gemini", "cloudflare",
    )  # fmt: skip
    assert envelope_providers() == tuple(sorted(PROFILES))


def test_dialects_and_their_default():
    assert {name: list(d) for name, d in DIALECTS.items()} == {"gemini": ["json_schema", "openapi"]}
    assert PROFILES["gemini"] is DIALECTS["gemini"]["json_schema"]


def test_endpoints_are_their_modules():
    # Bedrock signs its requests, Workers AI has an account in its URL, Azure OpenAI a resource
    assert list(ENDPOINTS) == [
        "openai", "anthropic", "groq", "cerebras", "bedrock", "gemini", "mistral", "xai",
        "openrouter", "deepseek", "cloudflare",
    ]  # fmt: skip
    for name, endpoint in ENDPOINTS.items():
        module = next(m for m in providers._MODULES if m.__name__.endswith(f".{name}"))
        assert module.REGISTRATION.endpoint is endpoint
        assert endpoint.env.endswith(("_API_KEY", "_BEDROCK", "_API_TOKEN"))
        assert endpoint.base_url.startswith("https://")
        assert endpoint.auth("k") and "k" in " ".join(endpoint.auth("k").values())


def test_import_formats_in_detection_order():
    assert [f.name for f in IMPORT_FORMATS] == [
        "mcp", "bedrock", "openai-chat", "openai-responses", "anthropic", "bfcl", "gemini",
    ]  # fmt: skip


def test_every_module_is_read_and_no_two_share_a_place():
    modules = list(providers._MODULES)
    registrations = [m.REGISTRATION for m in modules if hasattr(m, "REGISTRATION")]
    assert len({r.order for r in registrations}) == len(registrations)
    assert len(set(f.rank for f in formats._FOUND)) == len(formats._FOUND) == len(IMPORT_FORMATS)
    names = {m.name for m in pkgutil.iter_modules(providers.__path__)}
    assert names - {m.__name__.rsplit(".", 1)[1] for m in modules} == providers._READERS
    assert all(r.profile.name == m.__name__.rsplit(".", 1)[1] for m in modules
               if (r := getattr(m, "REGISTRATION", None)) is not None)  # fmt: skip


def test_every_wire_api_unit_is_read_and_each_name_is_one_api():
    units = {m.name for m in pkgutil.iter_modules(apis.__path__)} - apis._SHARED
    assert set(apis.UNITS) == units
    assert sorted(apis.by_name(name).name for name in ("chat", "responses", "messages")) == [
        "chat",
        "messages",
        "responses",
    ]
    names = [api.name for variants in apis.UNITS.values() for api in variants[:1]]
    assert len(set(names)) == len(names)  # a unit's plain API is the only one of its name
    assert {api.name for m in providers._MODULES if hasattr(m, "REGISTRATION")
            for api in m.REGISTRATION.profile.apis} <= set(names)  # fmt: skip
