"""``toolgen canary``: catch a provider's envelope drift before production does.

``record`` sends, per wire API the provider module binds, the smallest real requests (a forced
call of a design tool, a structured output of a design output, the tool call streamed) and writes
what came back as golden fixtures (toolgen.infra.canary_fixtures). The requests carry the tool
definitions and output formats of the generated package's request builders, in the dialect the
design chooses (toolgen.package.request_builders), around each API's envelope
(each API's unit: ``Api.canary`` of toolgen.apis), and go to the endpoint of the provider's module
(``ENDPOINTS``: its SDK's base URL) unless ``--base-url`` says otherwise. Each is sent by
toolgen.commands.canary_http (no redirect followed, a size cap, a deadline); an answer that is not
the API's is an error, not a fixture, and the key is redacted from everything written. ``check``
runs the generated package's own validators and decoders over the fixtures, offline: what they
reject is breaking drift; what the envelope schema leaves undeclared (toolgen.schema.undeclared)
is additive drift, a notice. HTTP is the standard library's (urllib): no new run-time dependency.
"""

from __future__ import annotations

import datetime
import importlib
import importlib.util
import inspect
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from toolgen import __version__
from toolgen.apis.api import Api, Canary
from toolgen.apis.canary_requests import reports_error
from toolgen.build import analyze
from toolgen.commands.canary_http import Answer, Limits, PostError, post
from toolgen.infra.canary_fixtures import (
    Fixture,
    fixture_files,
    read_fixture,
    redact,
    redact_text,
    scrub,
    write_fixture,
)
from toolgen.package.request_builders import request_builders
from toolgen.project.projection import ProjectedContract
from toolgen.providers import ENDPOINTS, PROFILES
from toolgen.providers.endpoints import Endpoint
from toolgen.schema.undeclared import undeclared


@dataclass(frozen=True, order=True)
class Finding:
    """One result of a canary: ``level`` is "breaking", "additive", "error" (nothing could be
    recorded or checked) or "notice" (recorded, with something to know)."""

    provider: str
    api: str
    fixture: str
    path: str
    level: str
    message: str

    def format(self) -> str:
        where = f"{self.fixture}:{self.path}" if self.path else self.fixture
        who = " ".join(part for part in (self.provider, self.api) if part)
        line = f"{self.level.upper()} {self.message}"
        line = f"{who}: {line}" if who else line
        return f"{where}: {line}" if where else line

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


# -- record -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordOptions:
    provider: str
    apis: tuple[str, ...] = ()  # empty: every API the provider binds
    base_url: str | None = None  # the SDK's form (toolgen.providers.endpoints)
    model: str | None = None
    tool: str | None = None  # canonical name; default: the design's first tool
    output: str | None = None  # canonical name; default: the design's first output
    limits: Limits = Limits()  # per request: the body's size cap and the deadline


@dataclass(frozen=True)
class _Request:
    api: str
    kind: str  # tool_call, stream, output
    contract: str
    url: str
    body: dict[str, Any]


def record(
    design: Path, options: RecordOptions, out: Path, environ: Mapping[str, str]
) -> tuple[list[Path], list[Finding]]:
    """Send the canary's requests and write their fixtures under ``out``. The key is in no
    fixture and no finding, whatever the server echoes."""
    provider = options.provider
    endpoint = ENDPOINTS.get(provider)
    problem = _record_problem(provider, options, endpoint is not None)
    if problem:
        return [], [Finding(provider, "", "", "", "error", problem)]
    key = environ.get(endpoint.env, "") if endpoint else ""
    if endpoint is not None and not key and options.base_url is None:
        return [], [Finding(provider, "", "", "", "error", f"{endpoint.env} is not set")]
    apis = [a.name for a in PROFILES[provider].apis if not options.apis or a.name in options.apis]
    roots, findings = _roots(provider, endpoint, apis, options.base_url, environ)
    if roots is None:
        return [], findings
    result = analyze(design, (provider,))
    if not result.ok or not result.projections:
        return [], [Finding(provider, "", "", "", "error", "the design does not build")]
    # the profile of the dialect the design's toolgen.toml chooses (profile_for, in analyze)
    projection = result.projections[0]
    model = options.model or (endpoint.model if endpoint else "model")
    headers = {"Content-Type": "application/json", **(endpoint.auth(key) if endpoint else {})}
    written: list[Path] = []
    bound = {api.name: api for api in PROFILES[provider].apis}
    for api in apis:
        wire = bound[api].canary
        if wire is None:
            findings.append(Finding(provider, api, "", "", "error", "no canary requests"))
            continue
        for request in _requests(projection, options, wire, api, roots[api], model):
            stream = request.kind == "stream"
            try:
                sent = post(request.url, json.dumps(request.body).encode(), headers, options.limits)
                answer = _answer(wire, stream, sent)
            except PostError as error:
                message = f"{_shown_url(request.url)}: {error}"
                findings.append(Finding(provider, api, request.kind, "", "error", message))
                continue
            fixture = Fixture(
                provider,
                api,
                request.kind,
                request.contract,
                model,
                datetime.date.today().isoformat(),
                __version__,
                redact(request.body, key),
                response=None
                if stream
                else redact(scrub(answer, keep_text=request.kind == "output"), key),
                events=redact(scrub(answer), key) if stream else None,
            )
            written.append(write_fixture(out, fixture))
    return written, [replace(f, message=redact_text(f.message, key)) for f in findings]


def _roots(
    provider: str,
    endpoint: Endpoint | None,
    apis: Sequence[str],
    base_url: str | None,
    environ: Mapping[str, str],
) -> tuple[dict[str, str] | None, list[Finding]]:
    """Where each API's paths go (None, with an error, when an account of the URL is not set),
    and a notice per API whose ``--base-url`` was given in the old form."""
    if endpoint is None:  # --base-url is the API's root
        return {api: (base_url or "").rstrip("/") for api in apis}, []
    roots, notices = {}, []
    for api in apis:
        root = endpoint.root(api, environ, base_url)
        if root.unset:
            return None, [Finding(provider, "", "", "", "error", f"{root.unset[0]} is not set")]
        roots[api] = root.url
        if root.old_form:
            message = (
                f"--base-url ends with {root.old_form}, which {provider}'s SDK puts after its base "
                "URL itself; taken without it (give the URL the SDK takes as its base URL)"
            )
            notices.append(Finding(provider, api, "", "", "notice", message))
    return roots, notices


def _requests(
    projection: Any, options: RecordOptions, wire: Canary, api: str, root: str, model: str
) -> list[_Request]:
    """The canary's requests of one API: a forced call of the tool, streamed too, and the
    structured output, with the definitions of the generated module's request functions."""
    tool = _chosen(projection.tools, options.tool)
    output = _chosen(projection.outputs, options.output)
    builders = request_builders(
        projection.profile, [tool] if tool else [], [output] if output else []
    )
    requests = []
    if tool is not None:
        name, tools = tool.provider_name, wire.tools(builders, api, tool.contract.name)
        for kind, stream in (("tool_call", False), ("stream", True)):
            body = wire.tool_request(model, tools, name, stream)
            url = root + wire.path(model, stream)
            requests.append(_Request(api, kind, tool.contract.name, url, body))
    if output is not None:
        output_format = wire.output_format(builders, api, output.contract.name)
        body = wire.output_request(model, output_format)
        url = root + wire.path(model, False)
        requests.append(_Request(api, "output", output.contract.name, url, body))
    return requests


def _answer(wire: Canary, stream: bool, sent: Answer) -> Any:
    """The body as JSON, or a stream's event payloads; PostError when it is not what the API
    sends (an HTML page of a proxy, a stream without events), so no fixture is made of it."""
    if stream:
        try:
            events = wire.events(sent.body)
        except (ValueError, UnicodeDecodeError) as error:
            raise PostError(f"{_not_the_apis('stream', sent)}: {error}") from None
        if not events:
            raise PostError(f"{_not_the_apis('stream', sent)}: no event in it")
        return events
    try:
        body = json.loads(sent.body)
    except ValueError:
        raise PostError(f"{_not_the_apis('body', sent)}: not JSON") from None
    if not isinstance(body, dict):
        raise PostError(f"{_not_the_apis('body', sent)}: JSON, but not an object")
    if reports_error(body):
        raise PostError(f"the body reports an error: {json.dumps(body)[:300]}")
    return body


def _not_the_apis(what: str, sent: Answer) -> str:
    start = " ".join(sent.body[:120].decode("utf-8", "replace").split())
    return f"the {what} is not the API's ({sent.content_type}, {len(sent.body)} bytes: {start!r})"


def _shown_url(url: str) -> str:
    """``url`` without user information (a password of a gateway)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _record_problem(provider: str, options: RecordOptions, known: bool) -> str:
    if provider not in PROFILES:
        return f"unknown provider {provider!r}"
    bound = [api.name for api in PROFILES[provider].apis]
    unknown = [api for api in options.apis if api not in bound]
    if unknown:
        return f"{provider} binds no API {unknown[0]!r} (it binds {', '.join(bound) or 'none'})"
    if not known and options.base_url is None:
        return f"toolgen knows no endpoint of {provider}; give --base-url"
    return ""


def _chosen(contracts: Sequence[ProjectedContract], name: str | None) -> ProjectedContract | None:
    """The projected contract ``name``, or the first one the provider can take; None when there
    is none."""
    usable = [
        c for c in contracts if c.schema is not None and (name is None or c.contract.name == name)
    ]
    return usable[0] if usable else None


# -- check --------------------------------------------------------------------------------------


def load_package(gen: Path) -> ModuleType:
    """The generated package in ``gen``, imported under a name of its own (it imports itself only
    relatively, so any name works)."""
    name = "toolgen_canary_" + re.sub(r"\W", "_", str(gen.resolve()))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, gen / "__init__.py", submodule_search_locations=[str(gen)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"{gen} is no generated package")
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    return package


def check(folder: Path, gen: Path, since: Path | None = None) -> list[Finding]:
    """Every fixture under ``folder`` read by the package ``gen``: breaking and additive drift.
    With ``since`` (the fixtures of an earlier recording), additive drift already in those is not
    reported again."""
    try:
        package = load_package(gen)
    except (ImportError, OSError, SyntaxError) as error:
        return [Finding("", "", "", "", "error", f"cannot import {gen}: {error}")]
    fixtures, findings = _read_all(folder)
    if not fixtures and not findings:
        return [Finding("", "", str(folder), "", "error", "no fixtures")]
    known: set[tuple[str, ...]] = set()
    for _, earlier in _read_all(since)[0] if since is not None else []:
        known |= {key for key, _ in _undeclared(package, earlier)}
    for label, fixture in fixtures:
        findings += _check_fixture(package, fixture, label, known)
    return sorted(findings)


def _read_all(folder: Path) -> tuple[list[tuple[str, Fixture]], list[Finding]]:
    fixtures, findings = [], []
    for path in fixture_files(folder):
        label = path.relative_to(folder).as_posix()
        try:
            fixtures.append((label, read_fixture(path)))
        except (OSError, ValueError, TypeError) as error:
            findings.append(Finding("", "", label, "", "error", str(error)))
    return fixtures, findings


def _check_fixture(
    package: ModuleType, fixture: Fixture, label: str, known: set[tuple[str, ...]]
) -> list[Finding]:
    def finding(path: str, level: str, message: str) -> Finding:
        return Finding(fixture.provider, fixture.api, label, path, level, message)

    try:
        module = importlib.import_module(f"{package.__name__}.{fixture.provider}")
    except ImportError:
        return [finding("", "error", f"{fixture.provider} is not built into the package")]
    if _api(fixture) is None:
        return [finding("", "error", f"{fixture.provider} binds no API {fixture.api!r}")]
    runtime = importlib.import_module(f"{package.__name__}._runtime")
    findings = []
    try:
        findings += _decode(module, fixture, finding)
    except runtime.SchemaDriftError as error:
        findings.append(
            finding(error.path, "breaking", f"expected {error.expected}, got {error.actual}")
        )
    except runtime.PayloadError as error:
        findings.append(finding(error.location, "breaking", f"{error.code}: {error.reason}"))
    except (TypeError, ValueError, KeyError) as error:
        findings.append(finding("", "breaking", f"{type(error).__name__}: {error}"))
    for key, (where, message) in _undeclared(package, fixture):
        if key not in known:
            findings.append(finding(where, "additive", message))
    return findings


def _api(fixture: Fixture) -> Any:
    profile = PROFILES.get(fixture.provider)
    return next((a for a in profile.apis if a.name == fixture.api), None) if profile else None


def _undeclared(
    package: ModuleType, fixture: Fixture
) -> list[tuple[tuple[str, ...], tuple[str, str]]]:
    """(key, (path, message)) of what the fixture's answer holds that its envelope schema does
    not declare, once per key: provider, API, kind and the path with any index."""
    api = _api(fixture)
    try:
        envelopes = importlib.import_module(f"{package.__name__}._envelopes_{fixture.provider}")
    except ImportError:
        return []
    if api is None:
        return []
    schemas = json.loads(envelopes._SCHEMAS)
    stream = fixture.kind == "stream"
    answers = (fixture.events or []) if stream else [fixture.response]
    found: dict[tuple[str, ...], tuple[str, str]] = {}
    for index, answer in enumerate(answers):
        for prefix, surface, value in _parts(api, fixture, answer):
            schema = schemas.get(surface) if surface is not None else None
            if not isinstance(schema, dict):
                continue
            for item in undeclared(value, schema, schemas):
                path = f"{prefix}.{item.path}" if prefix else item.path
                where = f"[{index}].{path}" if stream else path
                any_index = re.sub(r"\[\d+\]", "[*]", path)
                key = (
                    fixture.provider,
                    fixture.api,
                    fixture.kind,
                    any_index,
                    item.what,
                    item.detail,
                )
                found.setdefault(key, (where, _additive_message(item.what, item.detail)))
    return list(found.items())


def _parts(api: Api, fixture: Fixture, answer: Any) -> list[tuple[str, str | None, Any]]:
    """(path, envelope surface, value) of the parts of a body or event that an envelope schema
    declares: the whole, under the API's response or (a stream) event surface, unless the wire
    API says otherwise (``Canary.parts``)."""
    stream = fixture.kind == "stream"
    wire = api.canary
    if wire is not None and wire.parts is not None:
        module_data = PROFILES[fixture.provider].module_data
        return wire.parts(fixture.model, stream, answer, module_data)
    return [("", api.surfaces[-1] if stream else api.surfaces[0], answer)]


def _additive_message(what: str, detail: str) -> str:
    if what == "member":
        return f"member {detail!r} is not in the envelope schema"
    if what == "type":
        return f"type {detail!r} is not in the envelope schema (a new block, item or event)"
    return f"value {detail!r} is not among the envelope schema's values"


def _decode(module: ModuleType, fixture: Fixture, finding: Any) -> list[Finding]:
    """Decode the fixture as an application would; a finding when a call or output is missing."""
    if fixture.kind == "stream":
        stream = module.ToolCallStream(**_context(module.ToolCallStream, fixture))
        for event in fixture.events or []:
            stream.add(event)
        calls = stream.tool_calls()
    else:
        calls = module.parse_tool_calls(
            fixture.response, **_context(module.parse_tool_calls, fixture)
        )
    if fixture.kind == "output":
        wire = _api(fixture).canary
        answer = wire.output_text(fixture.response) if wire is not None else None
        if answer is None:
            return [finding("", "breaking", "no structured output where the API puts it")]
        module.parse_output(fixture.contract, answer)
        return []
    if not calls:  # the request forced a call: the decoder no longer finds it
        return [finding("", "breaking", "no tool call decoded")]
    return []


def _context(decoder: Any, fixture: Fixture) -> dict[str, str]:
    """The arguments of a generated decoder that the fixture decides, by name: ``api``, and
    ``model`` where the decoder takes one (Workers AI: the model's family chooses the shapes)."""
    parameters = inspect.signature(decoder).parameters
    given = {"api": fixture.api, "model": fixture.model}
    return {name: value for name, value in given.items() if name in parameters}


def exit_code(findings: Sequence[Finding]) -> int:
    return 1 if any(f.level in ("breaking", "error") for f in findings) else 0
