"""Every real-world tool of the corpus (../shared/corpus/tools) and every contract of the example
design either projects to a schema that the independent strict-mode checker accepts, or is
rejected with a diagnostic that names the provider, a stable code and a pointer that exists.

BFCL writes Python type names (``dict``, ``float``, ``tuple`` ...); the test also projects a copy
with the JSON Schema names a user porting those tools would write, so the 3,469 BFCL tools test the
projection and not only the meta-validation. All ~3,900 tools are projected (no sampling).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from anthropic_strict_checker import violations as anthropic_violations
from cloudflare_checker import violations as cloudflare_violations
from gemini_checker import violations as gemini_violations
from jsonschema import Draft202012Validator
from strict_checker import violations

from toolgen.build import analyze
from toolgen.formats.bfcl_functions import bfcl_json_schema
from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.providers import PROFILES
from toolgen.providers.base import Profile
from toolgen.providers.bedrock import BEDROCK
from toolgen.providers.cloudflare import CLOUDFLARE
from toolgen.providers.gemini import DIALECTS as GEMINI_DIALECTS
from toolgen.schema import pointer as jp
from toolgen.schema.names import provider_name

pytestmark = pytest.mark.corpus

OPENAI = PROFILES["openai"]
META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


@functools.cache
def _meta_valid(text: str) -> bool:
    """Whether a schema (as canonical JSON text) is valid under the 2020-12 meta-schema: asked
    once per corpus tool, not once per provider (the meta-schema is most of these tests' time)."""
    return bool(META.is_valid(json.loads(text)))


def corpus_tools(corpus: Path) -> list[tuple[str, dict[str, Any]]]:
    tools = []
    for path in sorted((corpus / "tools").glob("*.jsonl")):
        if path.name.endswith(".sources.jsonl"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = json.loads(line)
            record["name"] = (
                record.get("name") or f"{path.stem}_{number}"
            )  # output schemas have none
            tools.append((f"{path.stem}:{number}", record))
            if path.name.startswith("bfcl"):
                tools.append(
                    (
                        f"{path.stem}:{number}:json-types",
                        {**record, "parameters": bfcl_json_schema(record["parameters"])},
                    )
                )
    return tools


Checker = Callable[..., list[tuple[str, str, str]]]


def _gemini_checker(dialect: str) -> Checker:
    def check_gemini(schema: Any, *, name: str, description: str) -> list[tuple[str, str, str]]:
        return gemini_violations(schema, dialect, name=name, description=description)

    return check_gemini


def _anthropic_checker(schema: Any, *, name: str, description: str) -> list[tuple[str, str, str]]:
    return anthropic_violations(schema, name=name)  # no description limit is documented


def _compatible_checker(provider: str) -> Checker:
    def check_compatible(schema: Any, *, name: str, description: str) -> list[tuple[str, str, str]]:
        return violations(schema, name=name, description=description, provider=provider)

    return check_compatible


#: The OpenAI-compatible profiles, each against the strict checker with its own rules, and the
#: share of the corpus each one projects: every tool where a profile differs most from OpenAI's
#: (xAI, Mistral), a sample where it differs in one rule (DeepSeek's formats) or only in name.
COMPATIBLE_STRIDES = {"xai": 3, "mistral": 3, "deepseek": 7, "azure_openai": 7, "openrouter": 7}


def _cloudflare_checker(
    schema: Any, *, name: str, description: str, kind: str = "tool"
) -> list[tuple[str, str, str]]:
    # no description limit is documented
    return cloudflare_violations(schema, name=name, tool=kind == "tool")


#: Each profile under test with its independent checker, written from PROVIDERS.md.
TARGETS: dict[str, tuple[Profile, Checker]] = {
    "openai": (OPENAI, violations),
    **{name: (PROFILES[name], _compatible_checker(name)) for name in COMPATIBLE_STRIDES},
    "bedrock": (BEDROCK, _anthropic_checker),
    "cloudflare": (CLOUDFLARE, _cloudflare_checker),
    **{
        f"gemini:{dialect}": (profile, _gemini_checker(dialect))
        for dialect, profile in GEMINI_DIALECTS.items()
    },
}


#: Every corpus contract some profile still rejects (label -> the codes of its error diagnostics on
#: each target that rejects it, and why no encoding carries it): a rejection that is not listed
#: fails, and so does a listed one that projects. These are design errors of the source, not
#: contracts toolgen could carry.
_LONG_DESCRIPTION = (
    "a description of 1,115 characters, over the 1,024 the provider takes (truncating it would "
    "change what the model is told)"
)
CORPUS_REJECTIONS: dict[str, tuple[dict[str, tuple[str, ...]], str]] = {
    "mcp_github_mcp_server:83": (
        {target: ("LIMIT_DESCRIPTION",) for target in ("openai", "xai", "mistral")},
        _LONG_DESCRIPTION,
    ),
}


def _kind(label: str) -> str:
    """Whether the corpus record at ``label`` is a tool's parameters or a structured output."""
    return "output" if "_output_schemas:" in label else "tool"


def check(
    name: str, description: str, parameters: Any, target: str = "openai", *, kind: str = "tool"
) -> tuple[str, list[str], tuple[str, ...]]:
    """("projected" | "rejected" | "invalid", problems with how that happened, the codes of the
    error diagnostics)."""
    profile, checker = TARGETS[target]
    if not _meta_valid(json.dumps(parameters, sort_keys=True)):
        return "invalid", [], ()  # loading reports INVALID_SCHEMA (checked on a sample below)
    folder, at = ("tools", "/parameters") if kind == "tool" else ("outputs", "/schema")
    contract = Contract(
        kind=kind,
        name=name,
        description=description or "",
        schema=parameters,
        file=f"{folder}/t.json",
        pointer=at,
    )
    wire = provider_name(name, profile.names)
    projected, diagnostics = project_contract(contract, profile, ProviderOptions(), wire)
    errors = [d for d in diagnostics if d.level == "error"]
    codes = tuple(sorted({d.code for d in errors}))
    problems = []
    if projected.schema is not None:
        if errors:
            problems.append(f"projected despite errors {[d.code for d in errors]}")
        problems += [
            f"{p or '/'}: {rule}: {message}"
            for p, rule, message in checker(
                projected.schema,
                name=wire,
                description=description or "",
                **({"kind": kind} if target == "cloudflare" else {}),
            )
        ]
        return "projected", problems, codes
    if not errors:
        problems.append("no schema and no error diagnostic")
    document = {at.strip("/"): parameters, "description": description, "name": name}
    for d in errors:
        if d.provider != profile.name or not d.code.isupper() or not d.message:
            problems.append(f"bad diagnostic {d}")
        try:
            jp.resolve(document, d.pointer)
        except (KeyError, ValueError):
            if not d.pointer.startswith("/parameters/") or d.code != "REQUIRED_WITHOUT_PROPERTY":
                problems.append(f"pointer {d.pointer!r} of {d.code} does not exist")
    return "rejected", problems, codes


def _unlisted_rejections(
    target: str, rejected: dict[str, tuple[str, ...]], seen: set[str]
) -> list[str]:
    """The differences between the rejections of ``target`` and :data:`CORPUS_REJECTIONS`, over
    the labels the test projected (``seen``)."""
    expected = {
        label: by_target[target]
        for label, (by_target, _) in CORPUS_REJECTIONS.items()
        if target in by_target
    }
    found = [
        f"{label} rejected with {codes}, listed as {expected.get(label)}"
        for label, codes in rejected.items()
        if expected.get(label) != codes
    ]
    found += [
        f"{label} is listed as rejected ({codes}) but projects"
        for label, codes in expected.items()
        if label in seen and label not in rejected
    ]
    return found


def test_corpus_tools_project_to_strict_schemas_or_are_rejected(corpus_dir):
    tools = corpus_tools(corpus_dir)
    assert len(tools) > 3_800
    outcomes: Counter[str] = Counter()
    failures = []
    rejected: dict[str, tuple[str, ...]] = {}
    for label, record in tools:
        outcome, problems, codes = check(
            record["name"],
            record.get("description") or "",
            record["parameters"],
            kind=_kind(label),
        )
        outcomes[outcome] += 1
        if outcome == "rejected":
            rejected[label] = codes
        if problems:
            failures.append(f"{label} {record['name']}: " + "; ".join(problems[:3]))
    assert not failures, f"{len(failures)} tools:\n" + "\n".join(failures[:40])
    unlisted = _unlisted_rejections("openai", rejected, {label for label, _ in tools})
    assert not unlisted, "\n".join(unlisted)
    # The corpus is mostly plain tools: most of them must come through.
    assert outcomes["projected"] > 3_000, outcomes


@pytest.mark.parametrize("target", [t for t in TARGETS if t != "openai"])
def test_corpus_tools_project_to_other_providers_schemas_or_are_rejected(corpus_dir, target):
    """The same for Gemini's dialects, against the Gemini checker, for Bedrock (strict), against
    the Anthropic strict checker (no sampling either), and for the OpenAI-compatible profiles
    (every ``COMPATIBLE_STRIDES``-th tool)."""
    outcomes: Counter[str] = Counter()
    failures = []
    stride = COMPATIBLE_STRIDES.get(target, 1)
    rejected: dict[str, tuple[str, ...]] = {}
    tools = corpus_tools(corpus_dir)[::stride]
    for label, record in tools:
        outcome, problems, codes = check(
            record["name"],
            record.get("description") or "",
            record["parameters"],
            target,
            kind=_kind(label),
        )
        outcomes[outcome] += 1
        if outcome == "rejected":
            rejected[label] = codes
        if problems:
            failures.append(f"{label} {record['name']}: " + "; ".join(problems[:3]))
    assert not failures, f"{len(failures)} tools:\n" + "\n".join(failures[:40])
    unlisted = _unlisted_rejections(target, rejected, {label for label, _ in tools})
    assert not unlisted, "\n".join(unlisted)
    assert outcomes["projected"] > 3_000 // stride, outcomes


def test_raw_bfcl_types_are_rejected_by_loading(corpus_dir, make_design):
    """What the test above calls "invalid" is a loading diagnostic (a sample, real path)."""
    lines = (
        (corpus_dir / "tools" / "bfcl_functions.jsonl").read_text(encoding="utf-8").splitlines()[:5]
    )
    files = {
        f"tools/t{i}.json": {
            **{
                k: v
                for k, v in json.loads(line).items()
                if k in ("name", "description", "parameters")
            },
            "name": f"t{i}",
        }
        for i, line in enumerate(lines)
    }
    result = analyze(make_design(files), ("openai",))
    assert {d.file for d in result.diagnostics if d.code == "INVALID_SCHEMA"} == set(files)


def test_a_sample_of_the_corpus_through_the_whole_build(corpus_dir, make_design):
    """The in-memory check above agrees with the real loading path (files, bundling, names)."""
    tools = [
        t
        for t in corpus_tools(corpus_dir)
        if not t[0].startswith("bfcl") or t[0].endswith("json-types")
    ]
    sample = tools[:: max(1, len(tools) // 60)]
    files = {}
    for index, (_, record) in enumerate(sample):
        files[f"tools/t{index}.json"] = {
            "name": f"t{index}.{record['name']}",
            "description": record.get("description") or "",
            "parameters": record["parameters"],
        }
    # strict asked for, as the in-memory check projects (else a rejected tool goes non-strict)
    files["toolgen.toml"] = "[providers.openai]\nstrict = true\n"
    result = analyze(make_design(files), ("openai",))
    projection = result.projections[0]
    by_file = {p.contract.file: p for p in projection.tools}
    for index, (label, record) in enumerate(sample):
        file = f"tools/t{index}.json"
        outcome, _, _ = check(
            f"t{index}.{record['name']}", record.get("description") or "", record["parameters"]
        )
        if outcome == "projected":
            assert by_file[file].schema is not None, label
            assert violations(by_file[file].schema) == []
        elif outcome == "rejected":
            assert by_file[file].schema is None, label
            assert any(d.file == file and d.provider == "openai" for d in result.diagnostics), label


def test_example_design_projects_to_strict_schemas(example_design):
    result = analyze(example_design, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    projection = result.projections[0]
    assert projection.tools
    for projected in (*projection.tools, *projection.outputs):
        assert projected.schema is not None, projected.contract.name
        found = violations(
            projected.schema,
            name=projected.provider_name,
            description=projected.contract.description,
        )
        assert found == [], (projected.contract.name, found)


def test_github_issue_write_keeps_a_title_only_update_apart_from_removing_the_type(corpus_dir):
    """The GitHub MCP server's ``issue_write``: ``type`` is optional and null means "remove the
    issue type". Through OpenAI strict mode a title-only update (the model writes null for the
    member it leaves out) comes back without ``type``; ``{"value": null}`` comes back as null."""
    from toolgen.compile.canonical.reference import reference_inverse

    lines = (corpus_dir / "tools" / "mcp_github_mcp_server.jsonl").read_text(encoding="utf-8")
    record = next(r for r in map(json.loads, lines.splitlines()) if r["name"] == "issue_write")
    contract = Contract(
        "tool", "issue_write", record["description"], record["parameters"], "tools/t.json", ""
    )
    projected, diagnostics = project_contract(contract, OPENAI, ProviderOptions(), "issue_write")
    assert projected.schema is not None, diagnostics
    assert [d.code for d in diagnostics if d.code == "OPTIONAL_NULLABLE"] == []
    payload = dict.fromkeys(projected.schema["properties"])
    payload |= {"method": "update", "owner": "o", "repo": "r", "issue_number": 1, "title": "T"}
    assert Draft202012Validator(projected.schema).is_valid(payload)
    update = reference_inverse(payload, projected)
    assert "type" not in update and update["title"] == "T"
    cleared = reference_inverse({**payload, "type": {"value": None}}, projected)
    assert cleared["type"] is None
