"""Diagnostics a person reads (issue 37, item 1): one line per problem (a node and a code) with
the tools and providers it concerns counted, within the screen's width; every diagnostic with
--verbose; a summary line per code. The grouping is a function of the list (and of which tools
reach which node), not of how many times the node was reported."""

from __future__ import annotations

from collections.abc import Iterable

from toolgen.infra.diagnostics import (
    Diagnostic,
    Level,
    format_problems,
    format_text,
    group_problems,
)

PROVIDERS = ("anthropic", "bedrock", "cerebras", "cloudflare", "gemini", "groq", "openai")
NODE = ("defs/filter.yaml", "/$defs/Filter/not")
#: the tools that reach the shared node, and one whose own file holds a problem
REACHING = [("tool", "query_database"), ("tool", "search")]


def refused(provider: str) -> Diagnostic:
    return Diagnostic(
        *NODE, provider, "UNSUPPORTED_NOT", f"'not' cannot be expressed in {provider}"
    )


def reach(diagnostic: Diagnostic) -> Iterable[tuple[str, str]]:
    if diagnostic.file == NODE[0]:
        return REACHING
    return [("tool", diagnostic.file.removeprefix("tools/").removesuffix(".yaml"))]


WARNING = Diagnostic(
    "tools/search.yaml",
    "/parameters/properties/query",
    "openai",
    "OPTIONAL_NULLABLE",
    "optional and nullable: absent reads as null",
    Level.WARNING,
)
NOTE = Diagnostic("toolgen.toml", "", "import", "CONFIG_WRITTEN", "builds for 7", Level.INFO)


def test_one_line_per_node_and_code_with_its_counts() -> None:
    diagnostics = [refused(p) for p in PROVIDERS] + [WARNING, NOTE]
    assert format_problems(diagnostics, reach).splitlines() == [
        # the first provider's message, which names it (each provider's names its own title)
        "defs/filter.yaml:/$defs/Filter/not: anthropic: UNSUPPORTED_NOT 'not' cannot be "
        "expressed in anthropic (2 tools, 7 providers)",
        NOTE.format(),
        # alone (one provider, one tool): as the diagnostic is
        WARNING.format(),
        "toolgen: 1 UNSUPPORTED_NOT error (2 tools, 7 providers)",
        "toolgen: 1 OPTIONAL_NULLABLE warning (1 tool, openai)",
    ]


def test_a_message_every_provider_words_alike_is_nobodys() -> None:
    alike = [
        Diagnostic(*NODE, p, "UNSUPPORTED_NOT", "'not' cannot be expressed here") for p in PROVIDERS
    ]
    assert format_problems(alike, reach).splitlines() == [
        "defs/filter.yaml:/$defs/Filter/not: UNSUPPORTED_NOT 'not' cannot be expressed here "
        "(2 tools, 7 providers)"
    ]


def test_the_report_does_not_depend_on_how_many_reported_a_node() -> None:
    """24 tools' projections reporting the shared node, or only the 2 that reach it (once
    unreached definitions are pruned): the same report."""
    once = [refused(p) for p in PROVIDERS]
    assert format_problems(once * 24, reach) == format_problems(once * 2, reach)
    [problem] = group_problems(once * 24, reach)
    assert problem.counts() == "2 tools, 7 providers"


def test_a_line_stays_within_the_width_and_keeps_its_counts() -> None:
    long = Diagnostic(*NODE, "anthropic", "UNSUPPORTED_NOT", "x" * 300)  # the first provider's
    diagnostics = [long, refused("openai")]
    [line] = format_problems(diagnostics, reach, width=100).splitlines()  # no summary for one
    assert len(line) == 100
    assert line.endswith("x… (2 tools, 2 providers)")
    assert format_problems(diagnostics, reach, width=None).splitlines()[0].count("x") == 300
    # a place, code and counts that fill the width are kept whole, the message an ellipsis
    assert format_problems(diagnostics, reach, width=60) == (
        "defs/filter.yaml:/$defs/Filter/not: anthropic: UNSUPPORTED_NOT … (2 tools, 2 providers)\n"
    )


def test_verbose_is_every_diagnostic_and_the_tools_that_reach_a_shared_node() -> None:
    diagnostics = [refused(p) for p in PROVIDERS] + [WARNING]
    lines = format_problems(diagnostics, reach, width=80, verbose=True).splitlines()
    assert lines[:7] == format_text(refused(p) for p in PROVIDERS).splitlines()
    assert lines[7] == "  reached by tool query_database, tool search"
    assert lines[8] == WARNING.format()  # in full, not cut to the width
    assert lines[9:] == [
        "toolgen: 1 UNSUPPORTED_NOT error (2 tools, 7 providers)",
        "toolgen: 1 OPTIONAL_NULLABLE warning (1 tool, openai)",
    ]


def test_outputs_are_counted_apart_and_design_is_no_provider() -> None:
    found = [
        Diagnostic(*NODE, "design", "UNSATISFIABLE_SCHEMA", "no value"),
        Diagnostic(*NODE, "openai", "UNSATISFIABLE_SCHEMA", "no value"),
    ]

    def with_output(_: Diagnostic) -> Iterable[tuple[str, str]]:
        return [("tool", "a"), ("output", "b")]

    [problem] = group_problems(found, with_output)
    assert problem.counts() == "1 tool, 1 output, openai"
