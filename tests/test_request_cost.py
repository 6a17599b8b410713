"""What a request costs before it is sent (issue 35, item 5): ``toolgen show --cost``, ``toolgen
build --max-request-tokens N`` and ``[toolgen] max_request_tokens`` (toolgen.package.request_cost).

The expected definitions are written here as each provider's API documents them (OpenAI's
``tools[].function``, Anthropic's ``tools[]``), independently of the request builders."""

from __future__ import annotations

import json
import math
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolgen.build import BuildResult, analyze
from toolgen.infra import tokenizers
from toolgen.package.request_cost import RequestCost, over_budget, request_costs

S = {"type": "string"}
LONG = "Search the knowledge base by full text, with filters on the author and the date. " * 4
TOOLS = {
    "tools/search.yaml": {
        "name": "search",
        "description": LONG,
        "parameters": {
            "type": "object",
            "properties": {"query": S, "author": S, "after": {"type": "string", "format": "date"}},
            "required": ["query"],
        },
    },
    "tools/ping.yaml": {
        "name": "ping",
        "description": "Check that the service answers.",
        "parameters": {"type": "object", "properties": {}},
    },
    "outputs/answer.yaml": {
        "name": "answer",
        "description": "The answer.",
        "schema": {"type": "object", "properties": {"text": S}, "required": ["text"]},
    },
}
CONFIG = '[toolgen]\nproviders = ["openai", "anthropic", "gemini"]\n'


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


@pytest.fixture(autouse=True)
def no_tokenizer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The estimate, whatever tokenizer library the machine has."""
    monkeypatch.setattr(tokenizers, "LIBRARIES", ())
    tokenizers.token_counter.cache_clear()
    yield
    tokenizers.token_counter.cache_clear()


@pytest.fixture
def design(make_design) -> Path:
    return make_design({**TOOLS, "toolgen.toml": CONFIG})


@pytest.fixture
def analyzed(design: Path) -> BuildResult:
    result = analyze(design)
    assert result.ok, [d.format() for d in result.diagnostics]
    return result


def _costs(result: BuildResult) -> dict[str, RequestCost]:
    return {cost.provider: cost for cost in request_costs(result.projections)}


def test_a_tool_costs_its_definition_as_the_api_takes_it(analyzed) -> None:
    costs = _costs(analyzed)
    assert sorted(costs) == ["anthropic", "gemini", "openai"]
    openai = {t.name: t for t in costs["openai"].tools}
    (projection,) = [p for p in analyzed.projections if p.profile.name == "openai"]
    for projected in projection.tools:
        contract = projected.contract
        function = {
            "name": projected.provider_name,
            "description": contract.description,
            "parameters": projected.schema,
            "strict": True,
        }
        sent = {"type": "function", "function": function}
        cost = openai[contract.name]
        assert cost.whole.size == _size(sent)
        assert cost.whole.tokens == math.ceil(_size(sent) / 4)
        assert cost.description.size == _size(contract.description)
        assert cost.schema.size == _size(projected.schema)
    anthropic = {t.name: t for t in costs["anthropic"].tools}
    (projection,) = [p for p in analyzed.projections if p.profile.name == "anthropic"]
    ping = next(p for p in projection.tools if p.contract.name == "ping")
    sent = {
        "name": "ping",
        "description": ping.contract.description,
        "input_schema": ping.schema,
        "strict": True,
    }
    assert anthropic["ping"].whole.size == _size(sent)


def test_the_full_request_is_every_tool_and_the_largest_output(analyzed) -> None:
    cost = _costs(analyzed)["openai"]
    definitions = sum(t.whole.size for t in cost.tools)
    assert cost.tool_list.size == definitions + 2 + (len(cost.tools) - 1)  # [a,b]
    (output,) = cost.outputs
    assert cost.largest_output is output
    assert cost.total.size == cost.tool_list.size + output.whole.size
    parts = cost.parts()
    assert parts["descriptions"].size == sum(
        _size(d) for d in (LONG, "Check that the service answers.", "The answer.")
    )
    assert parts["output schema"] == output.schema
    assert sum(part.size for part in parts.values()) == cost.total.size


def test_tokens_are_counted_exactly_where_a_tokenizer_of_the_provider_is_installed(
    analyzed, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenAI's profile names o200k_base; a library with tiktoken's API counts it (a fake one
    here: a token per character); Anthropic names none and keeps the estimate."""
    fake = types.ModuleType("fake_tokenizer")

    class Encoding:
        def encode(self, text: str, disallowed_special: Any = "all") -> list[str]:
            return list(text)

    fake.get_encoding = lambda name: Encoding() if name == "o200k_base" else None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_tokenizer", fake)
    monkeypatch.setattr(tokenizers, "LIBRARIES", ("not_installed_at_all", "fake_tokenizer"))
    tokenizers.token_counter.cache_clear()
    costs = _costs(analyzed)
    assert costs["openai"].method == "exact: fake_tokenizer o200k_base"
    ping = next(t for t in costs["openai"].tools if t.name == "ping")
    assert ping.whole.tokens == ping.whole.size  # ASCII: a character a byte
    assert costs["anthropic"].method.startswith("estimate")


def test_over_budget_names_the_tools_that_cost_most(analyzed) -> None:
    costs = request_costs(analyzed.projections)
    assert over_budget(costs, max(c.total.tokens for c in costs), "here") == []
    found = over_budget(costs, 1, "here")
    assert sorted(d.provider for d in found) == ["anthropic", "gemini", "openai"]
    for diagnostic in found:
        assert (diagnostic.file, diagnostic.pointer) == ("tools/search.yaml", "/parameters")
        assert diagnostic.code == "REQUEST_OVER_BUDGET"
        assert "over the budget of 1 (here); the tools that cost most: search " in (
            diagnostic.message
        )
        assert diagnostic.message.index("search") < diagnostic.message.index("ping")


def test_build_fails_over_the_budget_and_writes_nothing(cli, make_design, tmp_path) -> None:
    """The command line's budget wins over toolgen.toml's."""
    design = make_design({**TOOLS, "toolgen.toml": CONFIG + "max_request_tokens = 100000\n"})
    out = tmp_path / "gen"
    budget = ("--max-request-tokens", "50", "--provider", "openai", "-j", "1", "--no-cache", "-v")
    result = cli("build", design, "-o", out, *budget)
    assert result.exit_code == 1
    assert "openai: REQUEST_OVER_BUDGET" in result.stderr
    assert "(--max-request-tokens)" in result.stderr
    assert not out.exists()


def test_the_budget_of_toolgen_toml(cli, make_design) -> None:
    design = make_design({**TOOLS, "toolgen.toml": CONFIG + "max_request_tokens = 50\n"})
    result = cli("validate", design, "--provider", "anthropic", "-j", "1", "--no-cache", "-v")
    assert result.exit_code == 1
    assert "anthropic: REQUEST_OVER_BUDGET" in result.stderr
    assert "([toolgen] max_request_tokens in toolgen.toml)" in result.stderr


@pytest.mark.parametrize("value", ["0", '"50"', "true", "1.5"])
def test_a_budget_that_is_no_positive_integer_is_a_config_error(cli, make_design, value) -> None:
    config = CONFIG + f"max_request_tokens = {value}\n"
    design = make_design({**TOOLS, "toolgen.toml": config}, name="bad-budget")
    result = cli("show", design, "--cost")
    assert result.exit_code == 1
    assert "toolgen.toml:/toolgen/max_request_tokens: design: INVALID_CONFIG" in result.stderr


def test_show_cost_prints_each_definition_and_the_full_request(cli, design) -> None:
    result = cli("show", design, "--cost")
    assert result.exit_code == 0, result.stderr
    blocks = result.stdout.split("\n\n")
    assert [block.split(" ", 1)[0] for block in blocks] == ["openai", "anthropic", "gemini"]
    openai = blocks[0].splitlines()
    assert openai[0] == (
        "openai (Chat Completions; tokens: estimate: a token per 4 bytes of compact JSON)"
    )
    rows = [line.split() for line in openai[2:5]]
    assert [row[:2] for row in rows] == [["tool", "search"], ["tool", "ping"], ["output", "answer"]]
    assert openai[5].startswith("  full request (2 tool(s) and the output answer): ")
    assert "descriptions" in openai[6] and "output schema" in openai[6]
    one = cli("show", design, "ping", "--cost", "--provider", "anthropic")
    assert one.exit_code == 0
    lines = one.stdout.splitlines()
    assert lines[0].startswith("anthropic (Messages API;") and lines[2].split()[:2] == [
        "tool",
        "ping",
    ]
    assert lines[3].startswith("  full request (2 tool(s)")


def test_show_without_a_name_needs_cost(cli, design) -> None:
    assert cli("show", design, "--provider", "openai").exit_code == 2
    assert cli("show", design, "nope", "--cost").exit_code == 2
