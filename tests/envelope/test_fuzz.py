"""A hostile endpoint, per API (issue 23, item 6): recorded bodies and streams of Chat Completions,
the Responses API, Messages, Converse, generateContent and Workers AI, mutated (depth, size,
number forms, types, unicode, hostile arguments), through the decoders. Only the three documented
errors escape (SchemaDriftError, PayloadError, TypeError), each case takes under a second, and a
marker placed in every string of the mutated data appears in no message, ``repr``, ``to_dict()``,
args or log line of the package's errors.

Call ids are neither marked nor replaced: they are the one response value a PayloadError carries
(``call_id``, the id a tool result must quote; see the README). Tool names are marked: an unknown
one is named by length and hash.
"""

from __future__ import annotations

import copy
import importlib
import json
import logging
import math
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests import test_cloudflare_module
from tests.envelope.support import bodies, decoder, raw_reader, spread, stream_events

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

#: the Workers AI package test_cloudflare_module builds, its fixtures reused here
package = test_cloudflare_module.package
cf = test_cloudflare_module.cf

MARKER = "ZQXMARKERQZX"
SEED = 23
CASES = 60  # per API, bodies and streams each
#: members whose strings become call ids (not marked, see the module docstring)
IDS = frozenset({"id", "call_id", "toolUseId"})
#: members that carry a call's arguments, as text or as an object (``delta`` only as text: the
#: Responses API's fragments; elsewhere it is an object of the envelope)
ARGUMENTS = frozenset({"arguments", "partial_json", "input", "args", "delta"})


def carries_arguments(key: object, value: Any) -> bool:
    return key in ARGUMENTS and (key != "delta" or type(value) is str)


CALL_KEYS = ('"arguments"', '"input"', '"args"', '"functionCall"', '"toolUse"')
CLOUDFLARE = Path(__file__).resolve().parents[1] / "fixtures" / "cloudflare"


class AnyName(dict[str, str]):
    """Every provider name is the tool ``fuzz.tool`` (so arguments get decoded)."""

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return "fuzz.tool"

    def __getitem__(self, key: str) -> str:
        return "fuzz.tool"

    def __contains__(self, key: object) -> bool:
        return True


def nested_text(levels: int) -> str:
    return '{"a": ' + "[" * levels + f'"{MARKER}"' + "]" * levels + "}"


def nested(levels: int) -> Any:
    value: Any = MARKER
    for index in range(levels):
        value = [value] if index % 2 else {MARKER: value}
    return value


#: arguments a hostile endpoint sends, as text
BAD_ARGUMENT_TEXTS = [
    nested_text(200),
    nested_text(1_000),
    nested_text(100_000),
    '{"a": "' + MARKER + '", "a": "' + MARKER + '"}',
    '{"n": 1e999, "m": "' + MARKER + '"}',
    '{"n": -1e999}',
    '{"n": NaN, "m": "' + MARKER + '"}',
    '{"n": Infinity}',
    '{"n": ' + "9" * 5000 + "}",
    '{"s": "\\ud800' + MARKER + '"}',
    '{"s": "' + MARKER + '\\udfff"}',
    '{"' + MARKER + '\ud800": 1}',
    '["' + MARKER + '"]',
    '"' + MARKER + '"',
    '{"s": "' + MARKER,
    MARKER,
    "",
    '{"s": "' + "x" * 1_100_000 + MARKER + '"}',
    '{"s": "\\u0000\u202e\ufeff\U0001f40d' + MARKER + '"}',
]
#: values put anywhere in a body (numbers, types, unicode, depth, size)
HOSTILE_VALUES: list[Callable[[], Any]] = [
    lambda: 0.0,
    lambda: 1.0,
    lambda: -0.0,
    lambda: 1e300,
    lambda: math.nan,
    lambda: math.inf,
    lambda: -math.inf,
    lambda: 10**5000,
    lambda: -(2**64),
    lambda: True,
    lambda: None,
    lambda: {},
    lambda: [],
    lambda: {MARKER: MARKER},
    lambda: [MARKER],
    lambda: MARKER,
    lambda: "\ud800" + MARKER,
    lambda: MARKER + "\x00\u202e\U0001f40d",
    lambda: MARKER * 100_000,
    lambda: nested(300),
    lambda: nested(990),
    lambda: nested_text(2_000),
    lambda: {"nan": math.nan, "big": 10**5000, "deep": nested(200), "m": MARKER},
]


def marked(value: Any, key: str | None = None) -> Any:
    """A copy of ``value`` with MARKER added to every string but call ids; arguments given as
    JSON text get it in their strings too."""
    if type(value) is dict:
        return {k: marked(v, k) for k, v in value.items()}
    if type(value) is list:
        return [marked(item, key) for item in value]
    if type(value) is not str or key in IDS:
        return value
    if carries_arguments(key, value):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value + MARKER
        return json.dumps(marked(parsed), ensure_ascii=False)
    return value + MARKER


def paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if type(value) is dict:
        for key, member in value.items():
            yield from paths(member, (*path, key))
    elif type(value) is list:
        for index, item in enumerate(value):
            yield from paths(item, (*path, index))


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        document = document[part]
    return document


def put(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return document


def arguments_marked(value: Any, names: bool) -> Any:
    """A copy of ``value`` with MARKER in the strings of its arguments only (and in tool names
    when ``names``): the envelope stays valid, the calls are read."""
    if type(value) is dict:
        return {
            key: marked(member, key)
            if carries_arguments(key, member) or (names and key == "name")
            else arguments_marked(member, names)
            for key, member in value.items()
        }
    if type(value) is list:
        return [arguments_marked(item, names) for item in value]
    return value


def mutated(document: Any, rng: random.Random, drift: bool, names: bool = True) -> tuple[str, Any]:
    """(what was done, the mutated copy). ``drift``: every string marked (call ids aside), then a
    hostile value anywhere; else the arguments marked, then hostile arguments."""
    original = copy.deepcopy(document)
    changed = marked(original) if drift else arguments_marked(original, names)
    every = list(paths(changed))
    argument_paths = [p for p in every if p and carries_arguments(p[-1], _at(changed, p))]
    if argument_paths and not drift:
        path = rng.choice(argument_paths)
        text = rng.choice(BAD_ARGUMENT_TEXTS)
        new = text if type(_at(changed, path)) is str else _parsed_or_marker(text)
        return f"arguments #{BAD_ARGUMENT_TEXTS.index(text)} at {path}", put(changed, path, new)
    path = rng.choice([p for p in every[1:] if p[-1] not in IDS] or every)
    index = rng.randrange(len(HOSTILE_VALUES))
    return f"value #{index} at {path}", put(changed, path, HOSTILE_VALUES[index]())


def _parsed_or_marker(text: str) -> Any:
    """What a provider sending parsed arguments would send for ``text`` (json.loads accepts
    NaN and 1e999 and keeps the last duplicate), or the text itself."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


class Probe:
    """Runs cases, records what escaped, what took too long and what showed the marker."""

    def __init__(
        self, runtime: ModuleType, caplog: pytest.LogCaptureFixture, *more: type[Exception]
    ) -> None:
        self.allowed = (runtime.SchemaDriftError, runtime.PayloadError, TypeError, *more)
        self.caplog = caplog
        self.problems: list[str] = []
        self.errors: dict[str, int] = {}
        self.cases = 0

    def run(self, case: str, attempt: Callable[[], Any]) -> None:
        self.cases += 1
        self.caplog.clear()
        started = time.process_time()  # CPU time: other work on the machine does not count
        try:
            attempt()
        except self.allowed as error:
            self.errors[type(error).__name__] = self.errors.get(type(error).__name__, 0) + 1
            self.check_texts(case, error)
        except BaseException as error:  # noqa: BLE001 - what escapes is the finding
            self.problems.append(f"{case}: {type(error).__name__} escaped")
        took = time.process_time() - started
        if took > 1.0:
            self.problems.append(f"{case}: took {took:.2f}s of CPU")
        for record in self.caplog.records:
            if MARKER in record.getMessage():
                self.problems.append(f"{case}: the marker in a log line")

    def check_texts(self, case: str, error: BaseException) -> None:
        texts = [str(error), repr(error), repr(error.args)]
        to_dict = getattr(error, "to_dict", None)
        if callable(to_dict):
            texts.append(json.dumps(to_dict()))
        if any(MARKER in text for text in texts):
            self.problems.append(f"{case}: the marker in {type(error).__name__}")


@pytest.fixture()
def probe(modules: dict[str, ModuleType], caplog: pytest.LogCaptureFixture) -> Iterator[Probe]:
    caplog.set_level(logging.DEBUG)
    runtime = modules["_runtime"]

    def hook(error: Any) -> None:  # a hook that formats every drift, as a logging hook would
        logging.getLogger("fuzz.hook").warning("drift: %s %r %s", error, error, error.to_dict())

    runtime.on_schema_drift(hook)
    try:
        yield Probe(runtime, caplog)
    finally:
        runtime.remove_schema_drift_hook(hook)


#: API -> (provider, body surface, body folder, event surface, stream folders)
APIS = {
    "chat": (
        "openai",
        "chat_completion",
        "openai/chat-completions",
        "chat_completion_chunk",
        ["openai/chat-completions-stream-chunks", "mistral/chat-completions-stream"],
    ),
    "responses": (
        "openai",
        "response",
        "openai/responses",
        "response_stream_event",
        ["openai/responses-stream-chunks"],
    ),
    "messages": (
        "anthropic",
        "message",
        "anthropic/messages",
        "message_stream_event",
        ["anthropic/messages-stream-chunks"],
    ),
    "converse": (
        "bedrock",
        "converse",
        "bedrock/converse",
        "converse_stream_event",
        ["bedrock/converse-stream-chunks"],
    ),
    "generate_content": (
        "gemini",
        "generate_content",
        "google-vertex/generate-content",
        "generate_content_chunk",
        ["google-vertex/generate-content-stream-chunks", "google-gla/generate-content-stream"],
    ),
}


def _calling(document: Any) -> bool:
    """Whether ``document`` holds a call (its arguments can be reached)."""
    return any(key in json.dumps(document) for key in CALL_KEYS)


def _chosen(documents: list[tuple[str, Any]]) -> tuple[list[Any], list[Any]]:
    """(a spread of all documents, a spread of those that hold a call)."""
    return spread(documents, 12), spread([d for d in documents if _calling(d[1])], 12)


@pytest.mark.parametrize("api", list(APIS))
def test_hostile_bodies(api: str, probe: Probe) -> None:
    provider, surface, folder, _, _ = APIS[api]
    rng = random.Random(f"{SEED}-{api}-bodies")
    every, calling = _chosen(bodies(folder))
    for number in range(CASES):
        drift = number % 2 == 0 or not calling
        documents = every if drift else calling
        name, body = documents[number % len(documents)]
        what, changed = mutated(body, rng, drift)
        names: Any = AnyName() if number % 5 else {}
        probe.run(
            f"{api} {name}: {what}",
            lambda changed=changed, names=names: decoder(provider, surface).parse_tool_calls(
                changed, raw_reader(provider, names)
            ),
        )
    assert not probe.problems, probe.problems[:10]
    assert probe.cases == CASES and probe.errors, probe.errors


@pytest.mark.parametrize("api", list(APIS))
def test_hostile_streams(api: str, probe: Probe) -> None:
    provider, _, _, surface, folders = APIS[api]
    rng = random.Random(f"{SEED}-{api}-streams")
    streams = [
        (f"{folder}/{name}", events)
        for folder in folders
        for name, events in stream_events(folder)
        if events
    ]
    every, calling = _chosen(streams)
    for number in range(CASES):
        drift = number % 2 == 0 or not calling
        name, events = (every if drift else calling)[number % len(every if drift else calling)]
        targets = range(len(events)) if drift else [i for i, e in enumerate(events) if _calling(e)]
        target = rng.choice(targets)
        what, changed = mutated(events[target], rng, drift)
        mark: Callable[[Any], Any] = marked if drift else lambda e: arguments_marked(e, True)
        sent = [*map(mark, events[:target]), changed, *map(mark, events[target + 1 :])]
        names: Any = AnyName() if number % 5 else {}

        def attempt(sent: list[Any] = sent, names: Any = names) -> Any:
            stream = decoder(provider, surface).stream()
            for event in sent:
                stream.add(event)
            return stream.tool_calls(raw_reader(stream, names))

        probe.run(f"{api} {name}#{target}: {what}", attempt)
    assert not probe.problems, probe.problems[:10]
    assert probe.cases == CASES and probe.errors, probe.errors


# -- Workers AI: the generated cloudflare module, typed decoding included -----------------------
def test_hostile_workers_ai(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    package = request.getfixturevalue("package")
    cloudflare = request.getfixturevalue("cf")
    caplog.set_level(logging.DEBUG)
    runtime = importlib.import_module(f"{package}._runtime")
    # Workers AI documents a fourth error: a body with ``success: false`` (its str shows the
    # error codes only; the API's messages are an attribute)
    workers_ai_error = importlib.import_module(f"{package}._workers_ai").WorkersAiError
    probe = Probe(runtime, caplog, workers_ai_error)
    models: dict[str, str] = json.loads((CLOUDFLARE / "models.json").read_text(encoding="utf-8"))
    rng = random.Random(f"{SEED}-workers-ai")
    for number in range(2 * CASES):
        name = sorted(models)[number % len(models)]
        model = models[name]
        text = (CLOUDFLARE / name).read_text(encoding="utf-8")
        if name.startswith("bodies/"):
            api = "chat" if name.endswith("openai_compatible_chat_tool_calls.json") else "run"
            what, body = mutated(json.loads(text), rng, number % 4 == 0, names=False)
            probe.run(
                f"workers ai {name}: {what}",
                lambda body=body, model=model, api=api: cloudflare.parse_tool_calls(
                    body, model=model, api=api
                ),
            )
            continue
        events = list(cloudflare.sse_events(text.splitlines()))
        target = rng.randrange(len(events))
        what, changed = mutated(events[target], rng, number % 4 == 1, names=False)
        sent = [*events[:target], changed, *events[target + 1 :]]

        def attempt(sent: list[Any] = sent, model: str = model) -> Any:
            stream = cloudflare.ToolCallStream(model=model)
            for event in sent:
                stream.add(event)
            return stream.tool_calls()

        probe.run(f"workers ai {name}#{target}: {what}", attempt)
    lines = [f"data: {text}" for text in BAD_ARGUMENT_TEXTS]
    for index, line in enumerate(lines):
        probe.run(f"sse_events #{index}", lambda line=line: _sse_or_value_error(cloudflare, line))
    assert not probe.problems, probe.problems[:10]
    assert probe.errors, probe.errors


def _sse_or_value_error(cloudflare: ModuleType, line: str) -> None:
    """``sse_events`` documents ValueError for JSON it refuses; the fuzz wants it to be that."""
    try:
        list(cloudflare.sse_events([line]))
    except ValueError as error:
        if MARKER in str(error):
            raise AssertionError("the marker in sse_events' error") from None
        raise TypeError("refused as documented") from None
