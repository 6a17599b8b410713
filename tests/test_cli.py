"""The command line (issue 2, requirement 5): build, validate, show, --version; exit codes 0/1/2;
diagnostics printed together in a stable order, as text or JSON."""

from __future__ import annotations

import json
import re

import pytest

from toolgen import __version__

S = {"type": "string"}
GOOD = {
    "type": "object",
    "properties": {"city": S, "days": {"type": "integer"}},
    "required": ["city"],
}
LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<pointer>[^:]*): (?P<provider>[a-z]+): (?P<code>[A-Z_]+) (?P<message>.+)$"
)


@pytest.fixture
def good_design(make_design, tool, output):
    return make_design(
        {
            "tools/forecast.yaml": tool("weather.forecast", GOOD),
            "outputs/summary.yaml": output(
                "summary", {"type": "object", "properties": {"text": S}, "required": ["text"]}
            ),
            "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n',
        }
    )


@pytest.fixture
def bad_design(make_design, tool):
    """Errors in three files, from loading and from the projection (strict mode asked for: the
    projection's errors are not sent non-strict instead)."""
    return make_design(
        {
            "tools/b.yaml": tool(
                "b",
                {
                    "type": "object",
                    "properties": {"m": {"type": "object", "patternProperties": {"^x": S}}},
                },
            ),
            "tools/a.yaml": tool("a", {"type": "strng"}),
            "tools/c.yaml": tool(
                "c", {"type": "object", "properties": {"x": {"not": S}}, "required": ["x"]}
            ),
            "tools/ok.yaml": tool("ok", GOOD),
            "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n[providers.openai]\nstrict = true\n',
        },
        name="bad",
    )


def diagnostic_lines(text: str) -> list[re.Match[str]]:
    matches = [LINE.match(line) for line in text.splitlines() if not line.startswith("toolgen:")]
    assert all(matches), text
    return matches  # type: ignore[return-value]


# --------------------------------------------------------------------------------------------
# build
# --------------------------------------------------------------------------------------------


def test_build_succeeds(cli, good_design, tmp_path):
    out = tmp_path / "gen"
    result = cli("build", good_design, "-o", out)
    assert result.exit_code == 0, result.output
    assert (out / "openai.py").is_file()
    assert (out / ".toolgen-manifest.json").is_file()
    assert json.loads((out / "schemas/openai/names.json").read_text()) == {
        "tools": {"weather.forecast": "weather_forecast"},
        "outputs": {"summary": "summary"},
    }
    assert result.stdout == ""
    assert "wrote" in result.stderr


def test_build_with_design_errors_exits_1_and_writes_nothing(cli, bad_design, tmp_path):
    out = tmp_path / "gen"
    result = cli("build", bad_design, "-o", out)
    assert result.exit_code == 1
    assert not out.exists()
    lines = diagnostic_lines(result.stderr)
    found = [(m["file"], m["pointer"], m["provider"], m["code"]) for m in lines]
    assert found == [
        ("tools/a.yaml", "/parameters/type", "design", "INVALID_SCHEMA"),
        (
            "tools/b.yaml",
            "/parameters/properties/m/patternProperties",
            "openai",
            "UNSUPPORTED_PATTERN_PROPERTIES",
        ),
        ("tools/c.yaml", "/parameters/properties/x/not", "openai", "UNSUPPORTED_NOT"),
    ]
    assert "build failed" in result.stderr


def test_build_errors_leave_the_previous_output_alone(
    cli, good_design, bad_design, tmp_path, read_tree
):
    out = tmp_path / "gen"
    assert cli("build", good_design, "-o", out).exit_code == 0
    before = read_tree(out)
    assert cli("build", bad_design, "-o", out).exit_code == 1
    assert read_tree(out) == before


def test_diagnostics_are_stable_across_runs(cli, bad_design, tmp_path):
    first = cli("build", bad_design, "-o", tmp_path / "x")
    second = cli("validate", bad_design)
    assert first.exit_code == second.exit_code == 1

    def strip(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("toolgen:")]

    assert strip(first.stderr) == strip(second.stderr)
    assert strip(first.stderr) == sorted(strip(first.stderr))


def test_json_format(cli, bad_design, tmp_path):
    result = cli("build", bad_design, "-o", tmp_path / "gen", "--format", "json")
    assert result.exit_code == 1
    listed = json.loads(result.stdout)
    assert [(d["file"], d["pointer"], d["provider"], d["code"], d["level"]) for d in listed] == [
        ("tools/a.yaml", "/parameters/type", "design", "INVALID_SCHEMA", "error"),
        (
            "tools/b.yaml",
            "/parameters/properties/m/patternProperties",
            "openai",
            "UNSUPPORTED_PATTERN_PROPERTIES",
            "error",
        ),
        ("tools/c.yaml", "/parameters/properties/x/not", "openai", "UNSUPPORTED_NOT", "error"),
    ]
    assert all(d["message"] for d in listed)
    ok = cli("validate", bad_design, "--format", "json")
    assert json.loads(ok.stdout) == listed


def test_json_names_the_tools_that_reach_each_diagnostic(cli, make_design, tool):
    """``reached_by``: the tool whose file holds the node, or every tool that references the
    shared definition that holds it (and not the tool that does not)."""
    ref = {"$ref": "../defs/filter.yaml#/$defs/Filter"}
    design = make_design(
        {
            "defs/filter.yaml": {"$defs": {"Filter": {"not": S}}},
            "tools/query.yaml": tool("query", {"type": "object", "properties": {"f": ref}}),
            "tools/search.yaml": tool("search", {"type": "object", "properties": {"f": ref}}),
            "tools/own.yaml": tool(
                "own", {"type": "object", "properties": {"x": {"not": S}}, "required": ["x"]}
            ),
            "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n[providers.openai]\nstrict = true\n',
        },
        name="shared",
    )
    listed = json.loads(cli("validate", design, "--format", "json").stdout)
    reached = {(d["file"], d["code"]): d["reached_by"] for d in listed}
    assert reached == {
        ("defs/filter.yaml", "UNSUPPORTED_NOT"): [["tool", "query"], ["tool", "search"]],
        ("tools/own.yaml", "UNSUPPORTED_NOT"): [["tool", "own"]],
    }


def test_json_format_with_no_diagnostics(cli, good_design):
    result = cli("validate", good_design, "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_warnings_do_not_fail_the_build(cli, make_design, tool, tmp_path):
    design = make_design(
        {
            "tools/t.yaml": tool(
                "t", {"type": "object", "properties": {"n": {"type": ["string", "null"]}}}
            ),
            "toolgen.toml": '[providers.openai]\noptional_nullable = "keep"\n',
        }
    )
    result = cli("build", design, "-o", tmp_path / "gen", "--provider", "openai")
    assert result.exit_code == 0
    [line] = diagnostic_lines(result.stderr)
    assert (line["code"], line["pointer"]) == ("OPTIONAL_NULLABLE", "/parameters/properties/n")
    assert "warning" in line["message"]


def test_provider_option_selects_providers(cli, make_design, tool, tmp_path):
    design = make_design({"tools/t.yaml": tool("t", GOOD)})
    out = tmp_path / "gen"
    assert cli("build", design, "-o", out, "--provider", "openai").exit_code == 0
    assert sorted(p.name for p in (out / "schemas").iterdir()) == ["openai"]


# --------------------------------------------------------------------------------------------
# build --check
# --------------------------------------------------------------------------------------------


def test_check_up_to_date(cli, good_design, tmp_path, read_tree):
    out = tmp_path / "gen"
    assert cli("build", good_design, "-o", out).exit_code == 0
    before = read_tree(out)
    result = cli("build", good_design, "-o", out, "--check")
    assert result.exit_code == 0, result.stderr
    assert "up to date" in result.stderr
    assert read_tree(out) == before


def test_check_out_of_date_lists_the_files_and_writes_nothing(
    cli, good_design, tool, tmp_path, read_tree
):
    out = tmp_path / "gen"
    assert cli("build", good_design, "-o", out).exit_code == 0
    (good_design / "tools/forecast.yaml").write_text(
        json.dumps(tool("weather.forecast", {**GOOD, "required": ["city", "days"]}))
    )
    (good_design / "outputs/summary.yaml").unlink()
    (out / "openai.py").write_text("# edited by hand\n")
    before = read_tree(out)
    result = cli("build", good_design, "-o", out, "--check")
    assert result.exit_code == 1
    assert read_tree(out) == before
    listed = [line for line in result.stderr.splitlines() if not line.startswith("toolgen:")]
    assert any("openai.py" in line and "changed" in line for line in listed)
    assert any("schemas/openai/tools/weather_forecast.json" in line for line in listed)
    assert any("schemas/openai/outputs/summary.json" in line and "stale" in line for line in listed)
    assert "out of date" in result.stderr


def test_check_without_output(cli, good_design, tmp_path):
    out = tmp_path / "gen"
    result = cli("build", good_design, "-o", out, "--check")
    assert result.exit_code == 1
    assert not out.exists()
    assert "missing" in result.stderr


def test_check_with_design_errors(cli, bad_design, tmp_path):
    assert cli("build", bad_design, "-o", tmp_path / "gen", "--check").exit_code == 1


# --------------------------------------------------------------------------------------------
# validate and show
# --------------------------------------------------------------------------------------------


def test_validate(cli, good_design, bad_design, tmp_path):
    ok = cli("validate", good_design)
    assert ok.exit_code == 0
    assert "0 error(s)" in ok.stderr
    bad = cli("validate", bad_design)
    assert bad.exit_code == 1
    assert len(diagnostic_lines(bad.stderr)) == 3
    assert not any(tmp_path.rglob(".toolgen-manifest.json"))


def test_show(cli, good_design):
    result = cli("show", good_design, "weather.forecast", "--provider", "openai")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {
        "type": "object",
        "properties": {"city": S, "days": {"type": ["integer", "null"]}},
        "required": ["city", "days"],
        "additionalProperties": False,
    }
    output = cli("show", good_design, "summary", "--provider", "openai")
    assert output.exit_code == 0
    assert json.loads(output.stdout)["required"] == ["text"]


def test_show_a_rejected_tool(cli, bad_design):
    result = cli("show", bad_design, "c", "--provider", "openai")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert [m["code"] for m in diagnostic_lines(result.stderr)] == ["UNSUPPORTED_NOT"]


def test_show_a_tool_that_goes_non_strict(cli, make_design, tool):
    """With ``strict_fallback = "non-strict"``, what strict mode refuses is sent non-strict: exit
    0, the STRICT_FALLBACK warning and the mode on stderr, the canonical schema on stdout."""
    schema = {"type": "object", "properties": {"x": {"not": S}}, "required": ["x"]}
    files = {
        "tools/c.yaml": tool("c", schema),
        "toolgen.toml": '[toolgen]\nstrict_fallback = "non-strict"\n',
    }
    design = make_design(files, name="fallback")
    result = cli("show", design, "c", "--provider", "openai")
    assert result.exit_code == 0, result.stderr
    assert [m["code"] for m in diagnostic_lines(result.stderr)] == ["STRICT_FALLBACK"]
    assert "strict flag off" in result.stderr
    assert json.loads(result.stdout) == schema


def test_show_a_tool_whose_file_has_errors(cli, bad_design):
    """The tool exists; its schema is broken: a design error (1), not an unknown name (2)."""
    result = cli("show", bad_design, "a", "--provider", "openai")
    assert result.exit_code == 1
    assert "INVALID_SCHEMA" in result.stderr


def test_show_unknown_name(cli, good_design):
    result = cli("show", good_design, "nope", "--provider", "openai")
    assert result.exit_code == 2
    assert "weather.forecast" in result.stderr  # the known names are listed


# --------------------------------------------------------------------------------------------
# usage errors and --version
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("build",),
        ("build", "{design}"),  # no -o
        ("build", "{missing}", "-o", "{out}"),
        ("build", "{design}", "-o", "{out}", "--provider", "nobody"),
        ("build", "{design}", "-o", "{out}", "--format", "xml"),
        ("build", "{design}", "-o", "{out}", "--frobnicate"),
        ("validate",),
        ("validate", "{missing}"),
        ("show", "{design}", "weather.forecast"),  # no --provider
        ("show", "{design}"),
        ("deploy", "{design}"),
    ],
)
def test_usage_errors_exit_2(cli, good_design, tmp_path, args):
    values = {"design": good_design, "missing": tmp_path / "missing", "out": tmp_path / "gen"}
    result = cli(*(a.format(**values) for a in args))
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "gen").exists()


def test_refuses_a_foreign_output_folder(cli, good_design, tmp_path):
    out = tmp_path / "src"
    out.mkdir()
    (out / "main.py").write_text("print('mine')\n")
    result = cli("build", good_design, "-o", out)
    assert result.exit_code == 2
    assert "manifest" in result.stderr
    assert [p.name for p in out.iterdir()] == ["main.py"]


def test_output_is_a_file(cli, good_design, tmp_path):
    out = tmp_path / "gen"
    out.write_text("x")
    result = cli("build", good_design, "-o", out)
    assert result.exit_code == 2
    assert out.read_text() == "x"


def test_version(cli):
    result = cli("--version")
    assert result.exit_code == 0
    assert __version__ in result.stdout
    assert "toolgen" in result.stdout


def test_help(cli):
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("build", "validate", "show"):
        assert command in result.stdout


def test_python_dash_m_toolgen(run_toolgen, good_design, bad_design, tmp_path):
    """The real process: exit codes as the shell sees them."""
    assert run_toolgen("--version").returncode == 0
    ok = run_toolgen("build", good_design, "-o", tmp_path / "gen")
    assert ok.returncode == 0, ok.stderr
    assert run_toolgen("build", good_design, "-o", tmp_path / "gen", "--check").returncode == 0
    bad = run_toolgen("validate", bad_design)
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert run_toolgen("build", good_design).returncode == 2
