"""toolgen canary (issue 21, item 1): record against a loopback server that plays recorded bodies
of OpenAI Chat and Responses, Anthropic Messages, Gemini generateContent and Bedrock Converse
(and bodies built from Workers AI's types), then check offline."""

from __future__ import annotations

import importlib
import json
import shutil
import struct
import threading
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.canary_loopback import SERVED, api_of, kind_of, serving
from tests.sdk.stand_in import respond
from toolgen.build import build
from toolgen.cli import main
from toolgen.commands.canary import (
    Limits,
    RecordOptions,
    check,
    exit_code,
    load_package,
    record,
)
from toolgen.infra.canary_fixtures import ID_MEMBERS, read_fixture
from toolgen.package.request_builders import strict_tool_limits
from toolgen.package.writer import write_package
from toolgen.providers import ENDPOINTS, PROFILES
from toolgen.schema.undeclared import undeclared

DESIGN = Path(__file__).parent / "fixtures" / "canary" / "design"
TOOLS = ("get_weather", "get_capital", "get_user_country", "get_temperature")
OUTPUT = "city_location"
KEY = "sk-canary-secret-0123456789"
ENVIRON = {
    "OPENAI_API_KEY": KEY,
    "ANTHROPIC_API_KEY": KEY,
    "GEMINI_API_KEY": KEY,
    "AWS_BEARER_TOKEN_BEDROCK": KEY,
}
PROVIDERS = {"openai": 6, "anthropic": 3, "gemini": 3, "bedrock": 3}  # fixtures: 3 per API


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


def record_all(
    out: Path,
    change: Any = None,
    providers=tuple(PROVIDERS),
    design: Path = DESIGN,
    tool: str = "get_weather",
) -> list[Any]:
    findings = []
    with serving() as loopback:
        loopback.change = change
        for provider in providers:
            options = RecordOptions(provider, base_url=loopback.url, tool=tool)
            _, found = record(design, options, out, ENVIRON)
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
    assert len(requests) == 15
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
    _, findings = record(DESIGN, RecordOptions("azure_openai"), tmp_path, {})
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


# -- the definitions in the canary's requests are the generated package's ----------------------


def _sent(requests: list[Any]) -> dict[tuple[str, str], Any]:
    """(api, kind) -> the body the canary sent."""
    return {(api_of(path), kind_of(path, body)): body for path, _, body in requests}


def _tools_and_format(body_of: dict[tuple[str, str], Any], api: str) -> tuple[Any, Any]:
    """The ``tools`` of the forced call (the same in the streamed one) and the output format."""

    def tools_of(body: Any) -> Any:
        return body["toolConfig"]["tools"] if api == "converse" else body["tools"]

    tools = tools_of(body_of[(api, "tool_call")])
    assert tools_of(body_of[(api, "stream")]) == tools
    output = body_of[(api, "output")]
    formats = {
        "chat": lambda: output["response_format"],
        "responses": lambda: output["text"]["format"],
        "messages": lambda: output["output_config"]["format"],
        "generate_content": lambda: output["generationConfig"],
        "converse": lambda: output["outputConfig"]["textFormat"],
    }
    return tools, formats[api]()


@pytest.mark.parametrize("tool", TOOLS)
def test_each_apis_definitions_are_the_generated_packages(tmp_path, gen, tool):
    """Per wire API, the canary's tools and output format are what the generated module's request
    functions give for the same contracts (strict and not, with and without optional members)."""
    package = load_package(gen)
    openai, anthropic, gemini, bedrock = (
        importlib.import_module(f"{package.__name__}.{name}") for name in PROVIDERS
    )
    body_of = _sent(record_all(tmp_path, tool=tool))
    expected = {
        "chat": (
            openai.tool_definitions([tool], api="chat"),
            openai.response_format(OUTPUT, "chat"),
        ),
        "responses": (
            openai.tool_definitions([tool], api="responses"),
            openai.response_format(OUTPUT, "responses"),
        ),
        "messages": (anthropic.tool_definitions([tool]), anthropic.output_format(OUTPUT)),
        "generate_content": (gemini.tool_definitions([tool]), gemini.response_format(OUTPUT)),
        "converse": (bedrock.tool_definitions([tool]), bedrock.output_format(OUTPUT)),
    }
    for api, (tools, output_format) in expected.items():
        assert _tools_and_format(body_of, api) == (tools, output_format), api
    # one tool: each API's entry is the module's tool_definition of it
    assert body_of[("chat", "tool_call")]["tools"] == [openai.tool_definition(tool, "chat")]
    assert body_of[("messages", "tool_call")]["tools"] == [anthropic.tool_definition(tool)]
    declarations = body_of[("generate_content", "tool_call")]["tools"][0]["functionDeclarations"]
    assert declarations == [gemini.tool_definition(tool)]
    assert body_of[("converse", "tool_call")]["toolConfig"]["tools"] == [
        bedrock.tool_definition(tool)
    ]


def test_the_gemini_openapi_dialect_is_recorded_with_its_openapi_definitions(tmp_path):
    """A design that chooses Gemini's openapi dialect is recorded with the OpenAPI Schema objects
    its generated module sends (``parameters``, ``responseSchema``), not with JSON Schema."""
    design = tmp_path / "design"
    shutil.copytree(DESIGN, design)
    (design / "toolgen.toml").write_text(
        '[toolgen]\nproviders = ["gemini"]\n\n[providers.gemini]\ndialect = "openapi"\n',
        encoding="utf-8",
    )
    result = build(design, ("gemini",), jobs=1)
    assert result.ok, result.diagnostics
    write_package(tmp_path / "gen", result.files)
    gemini = importlib.import_module(f"{load_package(tmp_path / 'gen').__name__}.gemini")
    body_of = _sent(record_all(tmp_path / "fixtures", providers=("gemini",), design=design))
    tools, generation_config = _tools_and_format(body_of, "generate_content")
    assert tools == gemini.tool_definitions(["get_weather"])
    assert generation_config == gemini.response_format(OUTPUT)
    (declaration,) = tools[0]["functionDeclarations"]
    assert "parameters" in declaration and "parametersJsonSchema" not in declaration
    assert declaration["parameters"]["type"] == "OBJECT"  # an OpenAPI Schema object
    assert "responseSchema" in generation_config
    assert "responseJsonSchema" not in generation_config


def test_a_chat_api_served_by_another_apis_builders_is_sent_in_their_spelling(tmp_path):
    """Cloudflare's module binds the Workers AI builders, which serve its Chat Completions API too
    (no strict flag: its schemas are hints): the canary's chat request is in that spelling."""
    with serving() as loopback:
        options = RecordOptions("cloudflare", ("chat",), base_url=loopback.url, tool="get_capital")
        written, findings = record(DESIGN, options, tmp_path, WORKERS)
        body_of = _sent(loopback.requests)
    assert findings == [] and len(written) == 3
    tools, response_format = _tools_and_format(body_of, "chat")
    assert tools == [
        {
            "type": "function",
            "function": {
                "name": "get_capital",
                "description": "The capital of a country.",
                "parameters": tools[0]["function"]["parameters"],
            },
        }
    ]
    assert response_format["json_schema"]["description"] == "A city and its country."
    assert "strict" not in response_format["json_schema"]


def test_the_builders_limits_are_the_generated_modules(gen):
    """The strict-tool limits the canary's builders get are the generated module's (which
    ``tool_definitions`` applies under ``strict="auto"``)."""
    package = load_package(gen)
    for name in PROVIDERS:
        module = importlib.import_module(f"{package.__name__}.{name}")
        limits = strict_tool_limits(PROFILES[name].limits)
        assert (limits.tools, limits.optional_members, limits.union_members) == (
            module.MAX_STRICT_TOOLS,
            module.MAX_OPTIONAL_MEMBERS,
            module.MAX_UNION_MEMBERS,
        )


# -- Bedrock: requests with an API key, streams as binary event stream messages -----------------


def test_bedrock_is_recorded_with_its_api_key_and_the_model_in_the_path(tmp_path):
    requests = record_all(tmp_path, providers=("bedrock",))
    model = "us.anthropic.claude-haiku-4-5-20251001-v1%3A0"  # the ID as one path segment
    assert [path for path, _, _ in requests] == [
        f"/model/{model}/converse",
        f"/model/{model}/converse-stream",
        f"/model/{model}/converse",
    ]
    assert all(headers["Authorization"] == f"Bearer {KEY}" for _, headers, _ in requests)
    forced = requests[0][2]["toolConfig"]["toolChoice"]
    assert forced == {"tool": {"name": "get_weather"}}
    # the stream's events as boto3 yields them: {event type: payload}, without the padding "p"
    events = read_fixture(tmp_path / "bedrock" / "converse" / "stream.json").events or []
    assert len(events) == 26
    assert all(len(event) == 1 for event in events)
    assert [next(iter(event)) for event in events][-3:] == [
        "contentBlockStop",
        "messageStop",
        "metadata",
    ]
    assert not [event for event in events if "p" in next(iter(event.values()))]
    start = next(e["contentBlockStart"] for e in events if "contentBlockStart" in e)
    assert start["start"]["toolUse"]["toolUseId"].startswith("<id:")


def _event_stream_message(headers: dict[str, str], payload: dict[str, Any]) -> bytes:
    encoded = b"".join(
        bytes([len(name)])
        + name.encode()
        + b"\x07"
        + struct.pack(">H", len(value))
        + value.encode()
        for name, value in headers.items()
    )
    body = json.dumps(payload).encode()
    prelude = struct.pack(">II", 16 + len(encoded) + len(body), len(encoded))
    start = prelude + struct.pack(">I", zlib.crc32(prelude)) + encoded + body
    return start + struct.pack(">I", zlib.crc32(start))


def test_a_bedrock_stream_that_reports_an_exception_is_an_error_not_a_fixture(tmp_path):
    """An exception message in the stream (throttling, a validation error after the first
    event) records nothing for that request, and says which exception and why."""
    served = (SERVED / "converse" / "stream.bin").read_bytes()
    first = served[: struct.unpack_from(">I", served)[0]]  # the messageStart event
    throttled = _event_stream_message(
        {":message-type": "exception", ":exception-type": "throttlingException"},
        {"message": "Too many requests, please wait before trying again."},
    )
    with serving() as loopback:
        loopback.answer = lambda path, headers, request: (  # type: ignore[method-assign]
            ("application/vnd.amazon.eventstream", first + throttled)
            if path.endswith("/converse-stream")
            else ("application/json", (SERVED / "converse" / "tool_call.json").read_text())
        )
        options = RecordOptions("bedrock", base_url=loopback.url)
        written, findings = record(DESIGN, options, tmp_path, ENVIRON)
    assert [p.name for p in written] == ["tool_call.json", "output.json"]
    (finding,) = findings
    assert (finding.api, finding.fixture, finding.level) == ("converse", "stream", "error")
    assert "throttlingException: Too many requests" in finding.message


# -- Workers AI: an account in the URL, ai/run and the OpenAI-compatible chat ------------------

WORKERS = {"CLOUDFLARE_API_TOKEN": KEY, "CLOUDFLARE_ACCOUNT_ID": "account-0123"}


@pytest.fixture(scope="module")
def workers_gen(tmp_path_factory) -> Path:
    result = build(DESIGN, ("cloudflare",), jobs=1)
    assert result.ok, result.diagnostics
    out = tmp_path_factory.mktemp("canary-workers") / "gen"
    write_package(out, result.files)
    return out


def _record_workers(out: Path, change: Any = None) -> list[Any]:
    with serving() as loopback:
        loopback.change = change
        options = RecordOptions("cloudflare", base_url=loopback.url, tool="get_weather")
        written, findings = record(DESIGN, options, out, WORKERS)
        requests = list(loopback.requests)
    assert findings == [] and len(written) == 6
    return requests


def test_workers_ai_is_recorded_through_ai_run_and_chat_and_checks_clean(tmp_path, workers_gen):
    """Both APIs the module binds, each decoded by the module's own functions, which take the
    model (its family chooses the shapes): no finding but the chat's additive ones, which the
    recorded OpenAI bodies carry (the run bodies are read under their family's shapes)."""
    requests = _record_workers(tmp_path)
    model = "@cf/meta/llama-3.3-70b-instruct-fp8-fast"
    run, chat = (_api_path("cloudflare", api) for api in ("run", "chat"))
    assert [path for path, _, _ in requests] == [f"{run}/run/{model}"] * 3 + [
        f"{chat}/chat/completions"
    ] * 3
    assert all(headers["Authorization"] == f"Bearer {KEY}" for _, headers, _ in requests)
    assert requests[1][2]["stream"] is True and "tool_choice" not in requests[0][2]
    findings = check(tmp_path, workers_gen)
    assert [f for f in findings if f.level != "additive"] == []
    assert [f for f in findings if f.api == "run"] == []


def _new_member_in_run(api: str, kind: str, text: str) -> str:
    if (api, kind) == ("run", "tool_call"):
        body = json.loads(text)
        body["result"]["tool_calls"][0]["call_reason"] = "asked"
        body["cf_ray"] = "ray"
        return json.dumps(body)
    if (api, kind) == ("run", "stream"):
        return text.replace('{"response":"","usage"', '{"response":"","latency_ms":3,"usage"')
    return text


def test_workers_ai_additions_are_found_in_the_wrapper_its_result_and_its_events(
    tmp_path, workers_gen
):
    _record_workers(tmp_path, _new_member_in_run)
    found = {(f.fixture, f.path) for f in check(tmp_path, workers_gen) if f.api == "run"}
    assert found == {
        ("cloudflare/run/tool_call.json", "cf_ray"),
        ("cloudflare/run/tool_call.json", "result.tool_calls[0].call_reason"),
        ("cloudflare/run/stream.json", "[2].latency_ms"),
    }


def test_the_account_in_the_endpoint_comes_from_the_environment(tmp_path):
    endpoint = ENDPOINTS["cloudflare"]
    root = endpoint.root("run", WORKERS)
    assert root.url == "https://api.cloudflare.com/client/v4/accounts/account-0123/ai"
    assert not root.unset
    assert endpoint.root("run", {}).unset == ["CLOUDFLARE_ACCOUNT_ID"]
    only_token = {"CLOUDFLARE_API_TOKEN": KEY}
    _, findings = record(DESIGN, RecordOptions("cloudflare"), tmp_path, only_token)
    assert [f.message for f in findings] == ["CLOUDFLARE_ACCOUNT_ID is not set"]
    assert not list(tmp_path.iterdir())


# -- what record refuses, and what it keeps to itself (issue 37, item 6) ------------------------

OPENAI_CHAT = RecordOptions("openai", ("chat",), tool="get_weather")


def _record_against(loopback: Any, out: Path, options: RecordOptions = OPENAI_CHAT) -> Any:
    return record(DESIGN, replace(options, base_url=loopback.url), out, ENVIRON)


def _fixtures(out: Path) -> list[Path]:
    return sorted(out.rglob("*.json")) if out.exists() else []


@pytest.mark.parametrize("code", [302, 307])
def test_a_redirect_to_another_origin_is_refused_and_the_key_goes_nowhere(tmp_path, code):
    """The first server sends every request elsewhere (another port is another origin): nothing
    reaches the other one, the key least of all, and no fixture is written (before: urllib
    followed a 302 as a GET carrying the Authorization header, and recorded the `{}` answer)."""
    with serving() as elsewhere, serving() as loopback:

        def redirect(handler: Any, path: str) -> None:
            handler.send_response(code)
            handler.send_header("Location", f"{elsewhere.url}{path}")
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        loopback.respond = redirect
        written, findings = _record_against(loopback, tmp_path)
        assert elsewhere.requests == []
    assert written == [] and _fixtures(tmp_path) == []
    assert [f.fixture for f in findings] == ["tool_call", "stream", "output"]
    for finding in findings:
        assert finding.level == "error"
        assert f"HTTP {code}: redirected to another origin, http://127.0.0.1:" in finding.message
        assert "refused" in finding.message
    assert exit_code(findings) == 1


def test_a_redirect_within_the_origin_is_refused_too(tmp_path):
    with serving() as loopback:

        def redirect(handler: Any, path: str) -> None:
            if path.startswith("/moved"):
                respond(handler, "application/json", "{}")
                return
            handler.send_response(308)
            handler.send_header("Location", f"/moved{path}")
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        loopback.respond = redirect
        written, findings = _record_against(loopback, tmp_path)
        paths = [path for path, _, _ in loopback.requests]
    assert written == [] and paths == ["/chat/completions"] * 3
    assert (
        "redirected to /moved/chat/completions on the same origin; refused" in findings[0].message
    )


def _endless(declared: bool) -> Any:
    """An answer of 100 MB (declared or not), sent until the client stops reading."""
    sent = [0]

    def answer(handler: Any, path: str) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        if declared:
            handler.send_header("Content-Length", str(100 * 1000 * 1000))
        handler.end_headers()
        chunk = b"[" + b"0," * 32767 + b"0"
        try:
            while sent[0] < 100 * 1000 * 1000:
                handler.wfile.write(chunk)
                sent[0] += len(chunk)
        except OSError:
            pass

    answer.sent = sent  # type: ignore[attr-defined]
    return answer


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "until-closed"])
def test_a_100_mb_body_is_refused_within_the_cap(tmp_path, declared):
    """The default cap (8 MiB): a declared length above it is refused unread; a body without one
    is read no further than the cap (before: all of it, in memory, then not JSON)."""
    endless = _endless(declared)
    with serving() as loopback:
        loopback.respond = endless
        written, findings = _record_against(loopback, tmp_path)
    assert written == [] and len(findings) == 3
    expected = "over the cap of 8388608 bytes (--max-body-mib)" + ("; not read" if declared else "")
    assert all(expected in f.message for f in findings), findings
    # what the server could send before the client hung up: the cap and the sockets' buffers
    assert endless.sent[0] < 3 * 40 * 1000 * 1000


def _trickle(where: str, stop: Any) -> Any:
    """A valid answer sent one byte every 50 ms, in its headers or its body: about 4 s in all."""

    def answer(handler: Any, path: str) -> None:
        body = json.dumps({"id": "x", "choices": [], "object": "chat.completion", "pad": "-" * 30})
        head = (
            f"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        slow, fast = (head, body) if where == "headers" else (body, head)
        try:
            if where == "body":
                handler.wfile.write(fast.encode())
            for byte in slow.encode():
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                if stop.wait(0.05):
                    return
            if where == "headers":
                handler.wfile.write(fast.encode())
        except OSError:
            pass

    return answer


@pytest.mark.parametrize("where", ["headers", "body"])
def test_the_deadline_holds_across_the_whole_answer(tmp_path, where):
    """A server sending a byte every 50 ms (each one resets a socket timeout) is given up at the
    request's deadline, not when it is done (before: after all of it, written as a fixture)."""
    stop = threading.Event()
    options = replace(OPENAI_CHAT, limits=Limits(deadline=0.25))
    with serving() as loopback:
        loopback.respond = _trickle(where, stop)
        try:
            written, findings = _record_against(loopback, tmp_path, options)
        finally:
            stop.set()
    assert written == [] and len(findings) == 3
    assert all("no complete answer within 0.25 s (--deadline)" in f.message for f in findings)


HTML = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body></body></html>\n"


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        ("text/html", HTML, ("not JSON", "not a server-sent event: '<!DOCTYPE html>'")),
        (
            "application/json",
            '{"error": {"message": "overloaded"}}',
            ("the body reports an error", 'not a server-sent event: \'{"error"'),
        ),
        ("text/event-stream", 'data: {"choices": [\n\n', ("not JSON", "data is not JSON")),
        (
            "text/event-stream",
            'data: {"error": {"message": "overloaded"}}\n\n',
            ("not JSON", 'the stream reports an error: {"error"'),
        ),
    ],
    ids=["html", "json-for-a-stream", "broken-event", "error-event"],
)
def test_a_body_that_is_not_the_apis_is_an_error_not_a_fixture(
    tmp_path, content_type, body, expected
):
    """Before: an HTML page answering the streamed request was written with `events: []`, which
    the next check reported as breaking drift."""
    with serving() as loopback:
        loopback.respond = lambda handler, path: respond(handler, content_type, body)
        written, findings = _record_against(loopback, tmp_path)
    by_kind = {f.fixture: f.message for f in findings}
    assert written == [] and _fixtures(tmp_path) == []
    assert expected[0] in by_kind["tool_call"] and expected[0] in by_kind["output"], by_kind
    assert expected[1] in by_kind["stream"], by_kind
    assert content_type in by_kind["stream"]


def _echoing(api: str, kind: str, text: str) -> str:
    """Each answer holds the key, as a value, a member name and inside a text."""
    if kind == "stream":
        event = {"id": "e", "object": "chat.completion.chunk", "choices": [], KEY: f"Bearer {KEY}"}
        return f"data: {json.dumps(event)}\n\n" + text
    body = json.loads(text)
    body["echo"] = {"authorization": f"Bearer {KEY}", KEY: [KEY]}
    return json.dumps(body)


def test_the_key_is_scrubbed_wherever_an_answer_echoes_it(tmp_path):
    """Before: scrubbed from the headers sent, but written as the server echoed it."""
    written = []
    with serving() as loopback:
        loopback.change = _echoing
        written, findings = _record_against(loopback, tmp_path)
    assert len(written) == 3 and findings == []
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert KEY not in text and "<key>" in text, path


def test_the_key_is_in_no_error_text_nor_url(tmp_path):
    """An error body that quotes the key, and a base URL that holds it (a gateway's path)."""
    with serving() as loopback:

        def unauthorized(handler: Any, path: str) -> None:
            error = {"message": f"Incorrect API key provided: {KEY}", "pad": "-" * 10000}
            body = json.dumps({"error": error})  # its start is shown, however long it is
            handler.send_response(401)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body.encode())

        loopback.respond = unauthorized
        options = replace(OPENAI_CHAT, base_url=f"{loopback.url}/gateway/{KEY}")
        written, findings = record(DESIGN, options, tmp_path, ENVIRON)
    assert written == [] and len(findings) == 3
    for finding in findings:
        assert KEY not in finding.message
        assert "/gateway/<key>/chat/completions: HTTP 401" in finding.message
        assert "Incorrect API key provided: <key>" in finding.message


def test_cli_record_takes_the_cap_and_the_deadline(tmp_path):
    endless = _endless(declared=False)
    with serving() as loopback:
        loopback.respond = endless
        result = CliRunner().invoke(
            main,
            [
                "canary",
                "record",
                str(DESIGN),
                "--provider",
                "openai",
                "--api",
                "chat",
                "--out",
                str(tmp_path),
                "--base-url",
                loopback.url,
                "--max-body-mib",
                "0.5",
                "--deadline",
                "30",
            ],
            env={"OPENAI_API_KEY": KEY},
        )
    assert result.exit_code == 1, result.output
    assert result.stderr.count("over the cap of 524288 bytes (--max-body-mib)") == 3
    assert "recorded 0 fixture(s)" in result.stderr


# -- --base-url is what the provider's SDK takes as its base URL (issue 37, item 6) -------------

#: provider: (its SDK's base URL, the path the SDK puts before an API's own path, per API)
SDK_BASE_URLS: dict[str, tuple[str, dict[str, str]]] = {
    # openai-python: base_url "https://api.openai.com/v1", posts "/chat/completions", "/responses"
    "openai": ("https://api.openai.com/v1", {}),
    # anthropic-sdk-python: base_url "https://api.anthropic.com", posts "/v1/messages"
    "anthropic": ("https://api.anthropic.com", {"messages": "/v1"}),
    # google-genai: http_options.base_url "https://generativelanguage.googleapis.com/", then the
    # api_version ("v1beta") and "models/MODEL:generateContent" (_api_client.py)
    "gemini": ("https://generativelanguage.googleapis.com", {"generate_content": "/v1beta"}),
    # boto3 bedrock-runtime: endpoint_url "https://bedrock-runtime.REGION.amazonaws.com"
    "bedrock": ("https://bedrock-runtime.us-east-1.amazonaws.com", {}),
    # groq-python: base_url "https://api.groq.com", posts "/openai/v1/chat/completions"
    "groq": ("https://api.groq.com", {"chat": "/openai/v1"}),
    # cerebras-cloud-sdk-python: base_url "https://api.cerebras.ai", posts "/v1/chat/completions"
    "cerebras": ("https://api.cerebras.ai", {"chat": "/v1"}),
    # mistralai client-python: server_url "https://api.mistral.ai", path "/v1/chat/completions"
    "mistral": ("https://api.mistral.ai", {"chat": "/v1"}),
    # no REST SDK of their own: their docs give the OpenAI SDK these base URLs
    "xai": ("https://api.x.ai/v1", {}),
    "deepseek": ("https://api.deepseek.com", {}),
    "openrouter": ("https://openrouter.ai/api/v1", {}),
    # cloudflare-python: base_url "https://api.cloudflare.com/client/v4", posts
    # "/accounts/{account_id}/ai/run/{model_name}"; its docs give the OpenAI SDK .../ai/v1 for chat
    "cloudflare": (
        "https://api.cloudflare.com/client/v4",
        {
            "run": "/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai",
            "chat": "/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1",
        },
    ),
}


@pytest.mark.parametrize("provider", sorted(ENDPOINTS))
def test_each_endpoint_is_its_sdks_base_url(provider):
    assert set(ENDPOINTS) == set(SDK_BASE_URLS)
    base_url, paths = SDK_BASE_URLS[provider]
    endpoint = ENDPOINTS[provider]
    assert endpoint.base_url == base_url
    assert dict(endpoint.api_paths) == paths


def test_an_api_root_is_the_sdks_base_url_and_the_path_the_sdk_puts_before_the_apis_own():
    endpoint = replace(
        ENDPOINTS["cloudflare"],
        base_url="https://api.cloudflare.com/client/v4",
        api_paths=(("run", "/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai"),),
    )
    root = endpoint.root("run", WORKERS)
    assert root.url == "https://api.cloudflare.com/client/v4/accounts/account-0123/ai"
    assert (root.unset, root.old_form) == ([], "")
    assert endpoint.root("run", {}).unset == ["CLOUDFLARE_ACCOUNT_ID"]
    # a given base URL takes the place of the SDK's, and keeps the path the SDK puts after it
    root = endpoint.root("run", WORKERS, "https://gateway.example/cf/")
    assert root.url == "https://gateway.example/cf/accounts/account-0123/ai"
    # ... unless it ends with that path already: the old form, taken without it
    root = endpoint.root("run", WORKERS, "https://gateway.example/cf/accounts/account-0123/ai")
    assert root.url == "https://gateway.example/cf/accounts/account-0123/ai"
    assert root.old_form == "/accounts/account-0123/ai"


def test_a_base_url_in_the_sdks_form_is_taken_and_the_old_form_with_a_notice(tmp_path, monkeypatch):
    """Anthropic as its SDK has it (what toolgen/providers/anthropic.py is to give): the SDK's
    base URL without /v1 is taken as it is; the form the canary wanted before (.../v1) is taken
    without /v1, with a notice, and the requests go to the same paths."""
    anthropic = replace(
        ENDPOINTS["anthropic"],
        base_url="https://api.anthropic.com",
        api_paths=(("messages", "/v1"),),
    )
    monkeypatch.setitem(ENDPOINTS, "anthropic", anthropic)
    options = RecordOptions("anthropic", tool="get_weather")
    with serving() as loopback:
        written, findings = record(
            DESIGN, replace(options, base_url=loopback.url), tmp_path, ENVIRON
        )
        assert len(written) == 3 and findings == []
        old = replace(options, base_url=f"{loopback.url}/v1/")
        written, findings = record(DESIGN, old, tmp_path / "old", ENVIRON)
        paths = [path for path, _, _ in loopback.requests]
    assert paths == ["/v1/messages"] * 6
    assert len(written) == 3 and exit_code(findings) == 0
    (notice,) = findings
    assert (notice.api, notice.level) == ("messages", "notice")
    assert notice.format() == (
        "anthropic messages: NOTICE --base-url ends with /v1, which anthropic's SDK puts after its "
        "base URL itself; taken without it (give the URL the SDK takes as its base URL)"
    )


def _api_path(provider: str, api: str) -> str:
    """The path the provider's SDK puts before the API's own, its account filled in."""
    return ENDPOINTS[provider].root(api, WORKERS, "").url


def test_workers_ai_chat_given_the_openai_sdks_base_url_is_taken_with_a_notice(tmp_path):
    """Workers AI's chat through the OpenAI SDK: its docs give the SDK a base URL ending with the
    path the canary puts before the chat API's own (.../ai/v1); given that, the canary takes it
    without that path, with a notice (not sent to .../v1/v1/...)."""
    chat = _api_path("cloudflare", "chat")
    assert chat.endswith("/v1")
    with serving() as loopback:
        options = RecordOptions("cloudflare", ("chat",), base_url=f"{loopback.url}{chat}")
        written, findings = record(DESIGN, options, tmp_path, WORKERS)
        paths = [path for path, _, _ in loopback.requests]
    assert len(written) == 3 and paths == [f"{chat}/chat/completions"] * 3
    assert [(f.api, f.level) for f in findings] == [("chat", "notice")]
