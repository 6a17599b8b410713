"""Fixtures of the canonicalizer tests: compiled modules of the example design, the hard cases
and a deterministic corpus sample (session-scoped: each is compiled and imported once)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from tests.canonical import hard_cases
from tests.canonical.support import (
    CORPUS_TOOLS,
    ENCODINGS,
    REPO,
    UNROLL_DEPTH,
    UNROLLED_TREE,
    UNROLLING_PROVIDERS,
    Case,
    Compiled,
    compile_projection,
    corpus_contracts,
    encodes,
    load_and_project,
    projection_of,
    sample,
)
from tests.conftest import skip_without_corpus
from toolgen.load.contracts import Config, Contract, Design, ProviderOptions
from toolgen.load.design import load_design
from toolgen.project.design_projection import ProviderProjection, project_design
from toolgen.project.projection import ProjectedContract, project_contract
from toolgen.project.rewrites import (
    EnumStringified,
    NullableOptionalBoxed,
)
from toolgen.providers import profile_for
from toolgen.providers import settings as provider_settings
from toolgen.providers.bedrock import BEDROCK
from toolgen.providers.gemini import DIALECTS as GEMINI_DIALECTS

EXAMPLE_DESIGN = REPO / "examples" / "design"
_PACKAGES = itertools.count(1)


def _package() -> str:
    return f"toolgen_canonical_test_{next(_PACKAGES)}"


def write_files(root: Path, files: dict[str, object]) -> Path:
    for relative, value in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if relative.endswith(".json"):
            path.write_text(json.dumps(value, indent=2, ensure_ascii=False), encoding="utf-8")
        elif isinstance(value, str):
            path.write_text(value, encoding="utf-8")
        else:
            path.write_text(
                yaml.safe_dump(value, sort_keys=False, allow_unicode=True), encoding="utf-8"
            )
    return root


@pytest.fixture(scope="session")
def hard_design(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_files(tmp_path_factory.mktemp("hard") / "design", hard_cases.design_files())


@pytest.fixture(scope="session")
def hard(hard_design: Path, tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    design, projection = load_and_project(hard_design)
    return compile_projection(design, projection, tmp_path_factory.mktemp("hard_out"), _package())


#: The profiles the laws also run over, besides OpenAI's (``provider`` or ``provider:dialect``):
#: Cerebras has no type lists, so every optional member is wrapped in anyOf and type lists are
#: split; Gemini adds no nulls, and its OpenAPI dialect inlines references and writes non-string
#: enums as text (other rewrites in the record, the same laws); xAI keeps optionals optional and
#: refuses recursion; Mistral drops every validation keyword and writes nulls with anyOf.
#: (Azure OpenAI and OpenRouter are OpenAI's table under another name; DeepSeek differs in the
#: formats it keeps, which the laws do not assert.) Cloudflare Workers AI adds no nulls, writes
#: nullable members with anyOf and rejects recursion.
OTHER_PROFILES = (
    "cerebras",
    "gemini:json_schema",
    "gemini:openapi",
    "xai",
    "mistral",
    "cloudflare",
)


def _compiled_for(
    root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Compiled]:
    found: dict[str, Compiled] = {}

    def compiled(profile: str) -> Compiled:
        if profile not in found:
            provider, _, dialect = profile.partition(":")
            design, projection = load_and_project(root, provider, dialect or None)
            folder = tmp_path_factory.mktemp(f"{root.parent.name}_{provider}_{dialect}_out")
            found[profile] = compile_projection(design, projection, folder, _package())
        return found[profile]

    return compiled


@pytest.fixture(scope="session")
def hard_for(
    hard_design: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Compiled]:
    """The hard cases as one of ``OTHER_PROFILES`` projects them (compiled once each)."""
    return _compiled_for(hard_design, tmp_path_factory)


@pytest.fixture(scope="session")
def example_for(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Compiled]:
    """The example design as one of ``OTHER_PROFILES`` projects it (compiled once each)."""
    if not any((EXAMPLE_DESIGN / "tools").glob("*.*")):
        pytest.skip(f"no example design at {EXAMPLE_DESIGN}")
    return _compiled_for(EXAMPLE_DESIGN, tmp_path_factory)


@pytest.fixture(scope="session", params=["strict", "loose"])
def hard_bedrock(
    request: pytest.FixtureRequest, hard_design: Path, tmp_path_factory: pytest.TempPathFactory
) -> Compiled:
    """The hard cases as Bedrock projects them: strict where it can (Anthropic's subset:
    optionals stay optional, no recursion; the others fall back to non-strict), and with
    ``strict = false`` (the canonical schemas minus a root union)."""
    design, _ = load_and_project(hard_design)
    options = {"bedrock": ProviderOptions(strict=False)} if request.param == "loose" else {}
    config = replace(design.config, options=options, strict_fallback="non-strict")
    design = replace(design, config=config)
    compiled = compile_projection(
        design,
        project_design(design, BEDROCK),
        tmp_path_factory.mktemp(f"hard_bedrock_{request.param}_out"),
        _package(),
    )
    compiled.expectations = "bedrock" if request.param == "strict" else "bedrock:loose"
    return compiled


@pytest.fixture(scope="session")
def example(tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    if not any((EXAMPLE_DESIGN / "tools").glob("*.*")):
        pytest.skip(f"no example design at {EXAMPLE_DESIGN}")
    design, projection = load_and_project(EXAMPLE_DESIGN)
    return compile_projection(
        design, projection, tmp_path_factory.mktemp("example_out"), _package()
    )


@pytest.fixture(scope="session")
def corpus_tools() -> list[Contract]:
    """Every corpus tool that meta-validates and projects for OpenAI (read once)."""
    if not CORPUS_TOOLS.is_dir():
        skip_without_corpus(f"the shared corpus is not at {CORPUS_TOOLS}")
    return [contract for contract, _ in corpus_contracts()]


@pytest.fixture(scope="session")
def corpus(corpus_tools: list[Contract], tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    """Every corpus tool that projects, compiled into one module."""
    contracts = corpus_tools
    design, _ = load_and_project(EXAMPLE_DESIGN) if EXAMPLE_DESIGN.is_dir() else (None, None)
    projection = projection_of(contracts)
    corpus_design = Design(str(CORPUS_TOOLS), tuple(contracts), (), {}, Config(), "corpus" * 8)
    del design
    return compile_projection(
        corpus_design, projection, tmp_path_factory.mktemp("corpus_out"), _package()
    )


#: the profiles whose encoded corpus tools the laws run over, every one of them
ENCODED_PROFILES = (
    "openai", "bedrock", "mistral", "cloudflare", "gemini:json_schema", "gemini:openapi",
)  # fmt: skip


@pytest.fixture(scope="session")
def corpus_with_json_types() -> list[Contract]:
    """Every corpus tool that meta-validates and projects for OpenAI, BFCL's with JSON Schema
    type names (read once)."""
    if not CORPUS_TOOLS.is_dir():
        skip_without_corpus(f"the shared corpus is not at {CORPUS_TOOLS}")
    return [contract for contract, _ in corpus_contracts(json_types=True)]


@pytest.fixture(scope="session", params=ENCODED_PROFILES)
def encoded_corpus(
    request: pytest.FixtureRequest,
    corpus_with_json_types: list[Contract],
    tmp_path_factory: pytest.TempPathFactory,
) -> Compiled:
    """Every corpus tool whose projection for one profile encodes a node, compiled into one
    module: the laws run over each of them, not over a sample."""
    provider, _, dialect = request.param.partition(":")
    profile = profile_for(provider, ProviderOptions(dialect=dialect or None))
    chosen = []
    for contract in corpus_with_json_types:
        projected, _ = project_contract(contract, profile, ProviderOptions(), contract.name)
        if projected.schema is not None and encodes(projected, (*ENCODINGS, NullableOptionalBoxed)):
            chosen.append(projected)
    design = Design(
        str(CORPUS_TOOLS), tuple(p.contract for p in chosen), (), {}, Config(), "encoded" * 8
    )
    return compile_projection(
        design,
        ProviderProjection(profile, tuple(chosen), (), ()),
        tmp_path_factory.mktemp(f"encoded_corpus_{provider}_{dialect}_out"),
        _package(),
    )


#: How many corpus tools each Gemini dialect's laws run over (a spread sample: the whole corpus
#: would compile for half a minute per dialect).
GEMINI_CORPUS_SAMPLE = 24


def _enum_texts(projected: ProjectedContract) -> bool:
    return any(
        isinstance(rewrite, EnumStringified) and rewrite.values
        for _, node in projected.rewrites.nodes
        for rewrite in node.rewrites
    )


@pytest.fixture(scope="session", params=sorted(GEMINI_DIALECTS))
def corpus_gemini(
    request: pytest.FixtureRequest,
    corpus_tools: list[Contract],
    tmp_path_factory: pytest.TempPathFactory,
) -> Compiled:
    """A sample of the corpus tools as one Gemini dialect projects them (those it can take)."""
    profile = GEMINI_DIALECTS[request.param]
    projected = []
    for contract in corpus_tools:
        result, _ = project_contract(contract, profile, ProviderOptions(), contract.name)
        if result.schema is not None:
            projected.append(result)
    # the few tools whose enums go out as text (the inverse's own work) first, then a spread
    texts = [p for p in projected if _enum_texts(p)]
    others = [p for p in projected if not _enum_texts(p)]
    chosen = tuple(texts + sample(others, GEMINI_CORPUS_SAMPLE - len(texts)))
    corpus_design = Design(
        str(CORPUS_TOOLS), tuple(p.contract for p in chosen), (), {}, Config(), "gemini" * 8
    )
    return compile_projection(
        corpus_design,
        ProviderProjection(profile, chosen, (), ()),
        tmp_path_factory.mktemp(f"corpus_gemini_{request.param}_out"),
        _package(),
    )


@pytest.fixture(scope="session")
def hard_cerebras(hard_for: Callable[[str], Compiled]) -> Compiled:
    return hard_for("cerebras")


@pytest.fixture(scope="module", params=list(UNROLLING_PROVIDERS))
def unrolled_tree(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    """UNROLLED_TREE with ``recursion_depth = UNROLL_DEPTH``, as each provider that refuses
    recursion projects it, compiled."""
    provider = request.param
    root = write_files(
        tmp_path_factory.mktemp(f"unrolled_{provider}"),
        {
            "toolgen.toml": f"[providers.{provider}]\n{UNROLLING_PROVIDERS[provider]}"
            f"recursion_depth = {UNROLL_DEPTH}\n",
            "tools/t.json": {"name": "t", "description": "A tree.", "parameters": UNROLLED_TREE},
        },
    )
    design, diagnostics = load_design(root, provider_settings([provider]))
    assert design is not None, diagnostics
    projection = project_design(design, profile_for(provider, design.config.options_for(provider)))
    out = tmp_path_factory.mktemp(f"unrolled_{provider}_out")
    [found] = compile_projection(design, projection, out, _package()).cases
    assert found.unrolls
    return found
