"""toolgen canary (issue 21, item 1): record against a loopback server that plays recorded bodies
of OpenAI Chat and Responses, Anthropic Messages and Gemini generateContent, then check offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.canary_loopback import SERVED, serving
from toolgen.build import build
from toolgen.cli import main
from toolgen.commands.canary import RecordOptions, check, exit_code, record
from toolgen.infra.canary_fixtures import ID_MEMBERS, read_fixture
from toolgen.package.writer import write_package
from toolgen.schema.undeclared import undeclared

DESIGN = Path(__file__).parent / "fixtures" / "canary" / "design"
KEY = "sk-canary-secret-0123456789"
ENVIRON = {"OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": KEY, "GEMINI_API_KEY": KEY}
PROVIDERS = {"openai": 6, "anthropic": 3, "gemini": 3}  # fixtures: 3 per API


@pytest.fixture(scope="module")
def gen(tmp_path_factory) -> Path:
    result = build(DESIGN, tuple(PROVIDERS), jobs=1)
    assert result.ok, result.diagnostics
    out = tmp_path_factory.mktemp("canary") / "gen"
    write_package(out, result.files)
    return out


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")


def record_all(out: Path, change: Any = None, providers=tuple(PROVIDERS)) -> list[Any]:
    findings = []
    with serving() as loopback:
        loopback.change = change
        for provider in providers:
            options = RecordOptions(provider, base_url=loopback.url, tool="get_weather")
            _, found = record(DESIGN, options, out, ENVIRON)
            findings += found
        requests = list(loopback.requests)
    assert findings == []
    return requests


def strings_under(value: Any, members: frozenset[str], member: str | None = None) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings_under(v, members, k)]
    if isinstance(value, list):
        return [s for item in value for s in strings_under(item, members, member)]
    return [value] if isinstance(value, str) and member in members else []


def test_record_writes_clean_fixtures_and_check_passes(tmp_path, gen):
    requests = record_all(tmp_path)
    files = sorted(tmp_path.rglob("*.json"))
    for provider, count in PROVIDERS.items():
        assert len([f for f in files if f.parts[-3] == provider]) == count
    assert len(requests) == 12
    # the key went out in each provider's header, and into no fixture
    assert all(KEY in " ".join(headers.values()) for _, headers, _ in requests)
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert KEY not in text
        fixture = read_fixture(path)
        answer = fixture.events if fixture.kind == "stream" else fixture.response
        assert all(s.startswith("<id:") for s in strings_under(answer, ID_MEMBERS)), path
        if fixture.kind != "output":
            texts = strings_under(answer, frozenset({"text", "content"}))
            assert set(texts) <= {"<text>", ""}, (path, texts)
        assert fixture.toolgen and fixture.recorded and fixture.request
    assert [p for p in requests if p[2].get("tool_choice")][0][2]["tool_choice"]["function"] == {
        "name": "get_weather"
    }
    findings = check(tmp_path, gen)
    assert [f for f in findings if f.level != "additive"] == []
    assert exit_code(findings) == 0


def _without_arguments(api: str, kind: str, text: str) -> str:
    if (api, kind) != ("chat", "tool_call"):
        return text
    body = json.loads(text)
    del body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    return json.dumps(body)


def test_a_member_removed_is_breaking_at_its_path(tmp_path, gen):
    record_all(tmp_path, _without_arguments, providers=("openai",))
    result = CliRunner().invoke(
        main, ["canary", "check", str(tmp_path), "-o", str(gen), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    breaking = [f for f in json.loads(result.stdout) if f["level"] == "breaking"]
    assert [(f["provider"], f["api"], f["fixture"], f["path"]) for f in breaking] == [
        (
            "openai",
            "chat",
            "openai/chat/tool_call.json",
            "choices[0].message.tool_calls[0].function.arguments",
        )
    ]


def _additions(api: str, kind: str, text: str) -> str:
    if api != "messages" or kind == "output":
        return text
    if kind == "stream":
        event = {"type": "brand_new_event"}
        return text + f"event: brand_new_event\ndata: {json.dumps(event)}\n\n"
    body = json.loads(text)
    body["brand_new_member"] = 1
    body["content"].append({"type": "brand_new_block"})
    return json.dumps(body)


def test_a_new_member_block_or_event_is_a_notice(tmp_path, gen):
    record_all(tmp_path, _additions, providers=("anthropic",))
    result = CliRunner().invoke(main, ["canary", "check", str(tmp_path), "-o", str(gen)])
    assert result.exit_code == 0, result.output
    blocks = len(
        json.loads(
            (Path(__file__).parent / "fixtures/canary/served/messages/tool_call.json").read_text()
        )["content"]
    )
    for expected in (
        "tool_call.json:brand_new_member: anthropic messages: ADDITIVE member 'brand_new_member'",
        f"tool_call.json:content[{blocks}].type: anthropic messages: ADDITIVE type 'brand_new_block'",
        "anthropic/messages/stream.json:",
    ):
        assert expected in result.stderr, result.stderr
    assert "type 'brand_new_event'" in result.stderr
    assert "BREAKING" not in result.stderr


def test_since_an_earlier_recording_only_the_new_additions_are_notices(tmp_path, gen):
    record_all(tmp_path / "before", providers=("anthropic",))
    record_all(tmp_path / "after", _additions, providers=("anthropic",))
    findings = check(tmp_path / "after", gen, since=tmp_path / "before")
    blocks = len(json.loads((SERVED / "messages" / "tool_call.json").read_text())["content"])
    assert [(f.fixture, f.path, f.level) for f in findings] == [
        ("anthropic/messages/stream.json", "[16].type", "additive"),
        ("anthropic/messages/tool_call.json", "brand_new_member", "additive"),
        ("anthropic/messages/tool_call.json", f"content[{blocks}].type", "additive"),
    ]


def test_record_without_a_key_or_endpoint_says_so(tmp_path):
    _, findings = record(DESIGN, RecordOptions("openai"), tmp_path, {})
    assert [f.message for f in findings] == ["OPENAI_API_KEY is not set"]
    _, findings = record(DESIGN, RecordOptions("bedrock"), tmp_path, {})
    assert "give --base-url" in findings[0].message


def test_undeclared_members_types_and_values():
    schema = {
        "type": "object",
        "properties": {
            "finish": {"anyOf": [{"const": "stop"}, {"const": "tool_calls"}, {"type": "string"}]},
            "blocks": {"type": "array", "items": {"$ref": "#/$defs/Block"}},
        },
        "$defs": {
            "Block": {
                "type": "object",
                "properties": {"type": {"type": "string"}},
                "allOf": [
                    {
                        "if": {"properties": {"type": {"const": "text"}}},
                        "then": {"properties": {"text": {"type": "string"}}},
                    }
                ],
            }
        },
    }
    value = {
        "finish": "paused",
        "extra": 1,
        "blocks": [{"type": "text", "text": "", "cached": True}, {"type": "audio", "data": ""}],
    }
    assert [(u.path, u.what, u.detail) for u in undeclared(value, schema)] == [
        ("blocks[0].cached", "member", "cached"),
        ("blocks[1].type", "type", "audio"),  # its members are not judged: a variant of its own
        ("extra", "member", "extra"),
        ("finish", "value", "paused"),
    ]


def test_cli_record_against_the_loopback(tmp_path, gen):
    with serving() as loopback:
        result = CliRunner().invoke(
            main,
            [
                "canary",
                "record",
                str(DESIGN),
                "--provider",
                "gemini",
                "--out",
                str(tmp_path),
                "--base-url",
                loopback.url,
            ],
            env={"GEMINI_API_KEY": KEY},
        )
    assert result.exit_code == 0, result.output
    assert "recorded 3 fixture(s)" in result.stderr
    check_result = CliRunner().invoke(main, ["canary", "check", str(tmp_path), "-o", str(gen)])
    assert check_result.exit_code == 0, check_result.output
