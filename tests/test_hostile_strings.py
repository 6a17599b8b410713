"""Hostile strings stay data (issue 11, item 6), for every provider module toolgen has, new ones
included: the package builds, imports and decodes payloads whose member names are Python keywords,
builtins, pydantic's own attributes or code, back to the canonical payload; nothing runs and
nothing is written outside OUT. tests/test_writer.py checks the literals in the OpenAI module."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.test_writer import HOSTILE
from toolgen.build import analyze, build
from toolgen.package.writer import write_package
from toolgen.providers import PROFILES, PROVIDER_NAMES

MARKER = "toolgen-hostile-marker"
RUNS = f"__import__('os').system('touch {MARKER}')"

TEXTS = [
    *HOSTILE,
    "para\u2029graph and line\u2028separators",
    RUNS,
    "{{ self.__init__.__globals__ }} {% import os %}",
    "ünïcødé ☃ 🐍 \u200b",
]
KEYWORDS = ["class", "def", "import", "None", "True", "lambda", "from", "async", "await", "match"]
BUILTINS = ["list", "str", "type", "id", "print", "object", "__builtins__", "self", "cls"]
PYDANTIC = [
    "model_config", "schema", "json", "model_dump", "copy", "dict", "fields", "model_fields",
    "validate", "construct", "parse_obj", "model_validate", "__dict__", "__class__", "_private",
    "__root__", "root", "MISSING",
]  # fmt: skip
CASE_TWINS = ["name", "Name", "NAME"]


def _parameters() -> tuple[dict[str, object], dict[str, object]]:
    """A schema whose every member is required (one payload for every provider) and its payload."""
    properties: dict[str, object] = {}
    payload: dict[str, object] = {}
    for index, text in enumerate(TEXTS):
        properties[f"p{index}"] = {
            "type": "string",
            "title": text,
            "description": text,
            "enum": [text, "plain"],
        }
        payload[f"p{index}"] = text
        properties[text] = {"type": "string", "pattern": "^" + re.escape(text[:20])}
        payload[text] = text
    for name in KEYWORDS + BUILTINS + PYDANTIC + CASE_TWINS:
        properties[name] = {"type": "integer", "description": name}
        payload[name] = len(name)
    properties["nested"] = {
        "type": "object",
        "properties": {name: {"type": "boolean"} for name in PYDANTIC},
        "required": PYDANTIC,
        "additionalProperties": False,
    }
    payload["nested"] = dict.fromkeys(PYDANTIC, True)
    parameters = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return parameters, payload


PROBE = textwrap.dedent("""
    import importlib, json, sys
    sys.path.insert(0, sys.argv[1])
    cases = json.loads(sys.stdin.read())
    gen = importlib.import_module("gen")
    from gen.models import model_for
    seen = {}
    for kind, name, payload in cases:
        model = model_for(kind, name)
        seen[name] = {"model": model.model_validate(payload).model_dump(mode="json")}
        for provider in gen.PROVIDERS:
            module = importlib.import_module("gen." + provider)
            if kind == "tool":
                wire = module.PROVIDER_NAMES[name]
                call = module.decode_tool_call(wire, json.dumps(payload), call_id="c")
                assert call.name == name, (call.name, name)
                seen[name][provider] = call.arguments.model_dump(mode="json")
                module.tool_definitions()
            else:
                seen[name][provider] = module.parse_output(name, json.dumps(payload)).model_dump(
                    mode="json"
                )
    print(json.dumps(seen))
""")


def _run_package(folder: Path, cases: list[tuple[str, str, object]]) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(folder)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        cwd=folder,  # a design string that ran `touch` would leave the marker here
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _everything_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")}


TOOL_NAMES = {
    "../../etc/passwd": None,
    "/etc/passwd": None,
    "C:\\Windows\\system32": None,
    "x" * 10_000: None,
    "ünïcødé ☃": None,
    "名前": None,
    RUNS: None,
    "": "INVALID_FIELD",
    " padded ": "INVALID_FIELD",
}
OUTPUT_NAME = "o'''\"\"\""


def test_hostile_strings_and_names_round_trip_through_every_provider(make_design, tmp_path):
    parameters, payload = _parameters()
    simple = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    named = [name for name, code in TOOL_NAMES.items() if code is None and name != RUNS]
    files: dict[str, object] = {
        f"tools/n{index}.json": {"name": name, "parameters": simple}
        for index, name in enumerate(named)
    }
    files["tools/t.json"] = {
        "name": RUNS,
        "description": "\n".join(TEXTS),
        "parameters": parameters,
    }
    files["outputs/o.json"] = {"name": OUTPUT_NAME, "description": RUNS, "schema": parameters}
    result = build(make_design(files), PROVIDER_NAMES)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert {p.profile.name for p in result.projections} == set(PROVIDER_NAMES)
    for provider in PROVIDER_NAMES:  # every name kept, every wire name valid for the provider
        names = json.loads(result.files[f"schemas/{provider}/names.json"])["tools"]
        assert sorted(names) == sorted([*named, RUNS])
        assert all(PROFILES[provider].names.is_valid(wire) for wire in names.values())

    before = _everything_under(tmp_path)
    write_package(tmp_path / "gen", result.files)
    cases = [("tool", RUNS, payload), ("output", OUTPUT_NAME, payload)]
    cases += [("tool", name, {"a": name}) for name in named]
    seen = _run_package(tmp_path, cases)
    # every provider with a generated module (a projection-only provider has none yet)
    modules = {provider for provider in PROVIDER_NAMES if f"{provider}.py" in result.files}
    assert {"openai", "anthropic"} <= modules
    for _, name, expected in cases:
        assert set(seen[name]) == {"model", *modules}
        for provider, dumped in seen[name].items():
            assert dumped == expected, (name[:20], provider)
    created = _everything_under(tmp_path) - before
    assert all(path.startswith("gen") for path in created), sorted(created)[:5]
    assert not list(tmp_path.rglob(MARKER))


def test_empty_and_padded_tool_names_are_refused(make_design, tool):
    refused = [name for name, code in TOOL_NAMES.items() if code is not None]
    files = {f"tools/t{index}.json": tool(name, {}) for index, name in enumerate(refused)}
    result = analyze(make_design(files), PROVIDER_NAMES)
    assert sorted((d.file, d.pointer, d.code) for d in result.diagnostics) == [
        (f"tools/t{index}.json", "/name", TOOL_NAMES[name]) for index, name in enumerate(refused)
    ]


def test_tool_names_that_differ_only_by_case_are_refused_for_every_provider(make_design, tool):
    files = {f"tools/{i}.yaml": tool(name, {}) for i, name in enumerate(["Lookup", "lookup"])}
    result = build(make_design(files), PROVIDER_NAMES)
    assert result.files == {}
    collisions = {d.provider for d in result.diagnostics if d.code == "CASE_COLLISION"}
    assert collisions == set(PROVIDER_NAMES)
