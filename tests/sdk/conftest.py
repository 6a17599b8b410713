"""Fixtures of the SDK tests: the example design's package, a loopback server, the clients."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.sdk.loopback import Loopback, serve
from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.providers import PROVIDER_NAMES

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "toolgen_sdk_test_gen"


@pytest.fixture(scope="session")
def gen(tmp_path_factory: pytest.TempPathFactory, suite_cache: Path) -> Iterator[ModuleType]:
    """The package built from examples/design for every provider, imported."""
    result = build(REPO / "examples" / "design", PROVIDER_NAMES, cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("sdk")
    write_package(root / PACKAGE, result.files)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="session")
def loopback() -> Iterator[Loopback]:
    yield from serve()


@pytest.fixture
def server(loopback: Loopback) -> Iterator[Loopback]:
    loopback.reset()
    yield loopback
    loopback.reset()


@pytest.fixture(scope="session")
def openai_client(loopback: Loopback) -> Any:
    openai = pytest.importorskip("openai", reason="the openai SDK is in the dev extras")
    return openai.OpenAI(
        base_url=loopback.url + "/v1",
        api_key="test",
        max_retries=0,
        http_client=openai.DefaultHttpxClient(trust_env=False),
    )


@pytest.fixture(scope="session")
def anthropic_client(loopback: Loopback) -> Any:
    anthropic = pytest.importorskip("anthropic", reason="the anthropic SDK is in the dev extras")
    return anthropic.Anthropic(
        base_url=loopback.url,
        api_key="test",
        max_retries=0,
        http_client=anthropic.DefaultHttpxClient(trust_env=False),
    )


@pytest.fixture(scope="session")
def genai_client(loopback: Loopback) -> Any:
    genai = pytest.importorskip("google.genai", reason="google-genai is in the dev extras")
    return genai.Client(
        api_key="test",
        http_options=genai.types.HttpOptions(
            base_url=loopback.url, api_version="v1beta", client_args={"trust_env": False}
        ),
    )
