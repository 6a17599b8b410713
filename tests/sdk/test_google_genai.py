"""The example design's Gemini bindings with what a google-genai user holds.

No client call (the SDK would need a network): responses and stream chunks are built as the SDK
builds them, ``types.GenerateContentResponse.model_validate`` of the JSON; requests go into the
SDK's ``types.GenerateContentConfig``, which must hold them unchanged. The same calls type-check
under mypy --strict without a cast (tests/sdk_scripts/uses_google_genai.py).
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import forms
from tests.sdk.bodies import OUTPUT, OUTPUT_PAYLOAD, PAYLOADS, response_body
from tests.sdk.conftest import REPO
from toolgen.build import build
from toolgen.package.writer import write_package

genai_types = pytest.importorskip("google.genai.types", reason="google-genai is in the dev extras")
OPENAPI_PACKAGE = "toolgen_sdk_test_openapi"


def calls_of(gen: ModuleType) -> list[tuple[str, str, dict[str, Any]]]:
    """One call of every tool: (id, Gemini's tool name, args). Gemini's json_schema dialect keeps
    optional members optional: the canonical payloads are what the model writes."""
    gemini = gen.gemini
    return [
        (f"call_{n}", gemini.PROVIDER_NAMES[name], PAYLOADS[name])
        for n, name in enumerate(gemini.TOOLS)
    ]


def call_part(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"functionCall": {"id": call_id, "name": name, "args": args}}


def decoded(calls: list[Any]) -> list[tuple[str, str, Any]]:
    return [(c.id, c.name, c.arguments.model_dump(mode="json", exclude_none=True)) for c in calls]


def expected(gen: ModuleType) -> list[tuple[str, str, Any]]:
    return [(f"call_{n}", name, PAYLOADS[name]) for n, name in enumerate(gen.gemini.TOOLS)]


def test_generate_content_response(gen: ModuleType) -> None:
    body = response_body([call_part(*call) for call in calls_of(gen)])
    response = genai_types.GenerateContentResponse.model_validate(body)
    assert response.function_calls  # the SDK read the calls: the object is what users hold
    for form, value in forms(response, body).items():
        gen.gemini.validate_generate_content(value)
        assert decoded(gen.gemini.parse_tool_calls(value)) == expected(gen), form


def test_generate_content_stream(gen: ModuleType) -> None:
    """Each SSE chunk is a whole response holding what is new: here one call per chunk."""
    raw = [response_body([call_part(*call)]) for call in calls_of(gen)]
    chunks = [genai_types.GenerateContentResponse.model_validate(chunk) for chunk in raw]
    streams = {form: gen.gemini.ToolCallStream("generate_content") for form in forms(chunks[0])}
    for chunk, body in zip(chunks, raw, strict=True):
        for form, value in forms(chunk, body).items():
            streams.setdefault(form, gen.gemini.ToolCallStream("generate_content")).add(value)
    for form, stream in streams.items():
        assert decoded(stream.tool_calls()) == expected(gen), form


def test_structured_output_from_the_response_text(gen: ModuleType) -> None:
    body = response_body([{"text": json.dumps(OUTPUT_PAYLOAD)}])
    response = genai_types.GenerateContentResponse.model_validate(body)
    gen.gemini.validate_generate_content(response)
    assert response.text is not None
    parsed = gen.gemini.parse_output(OUTPUT, response.text)
    assert parsed.model_dump(mode="json", exclude_none=True) == OUTPUT_PAYLOAD


def test_tool_definitions_go_into_the_sdk_config_unchanged(gen: ModuleType) -> None:
    gemini = gen.gemini
    definitions = gemini.tool_definitions()
    as_tools = genai_types.GenerateContentConfig(
        tools=[genai_types.Tool.model_validate(tool) for tool in definitions]
    )
    as_dict = genai_types.GenerateContentConfig.model_validate({"tools": definitions})
    for config in (as_tools, as_dict):
        assert config.tools is not None
        declarations = config.tools[0].function_declarations
        assert [d.name for d in declarations] == [gemini.PROVIDER_NAMES[n] for n in gemini.TOOLS]
        assert [d.parameters_json_schema for d in declarations] == [
            gemini.parameters(n) for n in gemini.TOOLS
        ]
        assert config.model_dump(mode="json", by_alias=True, exclude_none=True) == {
            "tools": definitions
        }


def test_response_format_goes_into_the_sdk_config_unchanged(gen: ModuleType) -> None:
    members = gen.gemini.response_format(OUTPUT)
    config = genai_types.GenerateContentConfig.model_validate(members)
    assert config.response_mime_type == "application/json"
    assert config.response_json_schema == gen.gemini.output_schema(OUTPUT)
    assert config.model_dump(mode="json", by_alias=True, exclude_none=True) == members


@pytest.fixture(scope="module")
def openapi_gemini(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The example design's gemini module in the openapi dialect (``parameters``, upper-case
    types, ``nullable``), imported."""
    design = tmp_path_factory.mktemp("openapi") / "design"
    shutil.copytree(REPO / "examples" / "design", design)
    with (design / "toolgen.toml").open("a", encoding="utf-8") as config:
        config.write('\n[providers.gemini]\ndialect = "openapi"\n')
    result = build(design, ("gemini",))
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("openapi_package")
    write_package(root / OPENAPI_PACKAGE, result.files)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(f"{OPENAPI_PACKAGE}.gemini")
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith(OPENAPI_PACKAGE)]:
            del sys.modules[name]


def test_the_openapi_dialect_goes_into_the_sdk_config_unchanged(openapi_gemini: ModuleType) -> None:
    """The SDK's Schema model takes the OpenAPI spelling (``STRING``, ``nullable``) as written."""
    definitions = openapi_gemini.tool_definitions()
    assert "parameters" in definitions[0]["functionDeclarations"][0]
    config = genai_types.GenerateContentConfig.model_validate({"tools": definitions})
    assert config.model_dump(mode="json", by_alias=True, exclude_none=True) == {
        "tools": definitions
    }
    members = openapi_gemini.response_format(OUTPUT)
    assert "responseSchema" in members
    config = genai_types.GenerateContentConfig.model_validate(members)
    assert config.model_dump(mode="json", by_alias=True, exclude_none=True) == members
