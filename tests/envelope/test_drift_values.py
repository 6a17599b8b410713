"""The drift path copes with every value the envelope accepts (issue 23, item 2): every recorded
body, chunk and event, with its values replaced by integral floats, bools, huge integers and NaN
(all at once, and one position at a time over a sample), goes through the compiled check and the
explainer, which agree on where it drifts, and through the decoders, from which only the
documented errors escape."""

from __future__ import annotations

import contextlib
import copy
import importlib
import json
import math
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import (
    BODIES,
    NAMES,
    PACKAGE,
    STREAMS,
    Path_,
    bodies,
    decoder,
    format_path,
    raw_reader,
    stream_events,
)
from tests.envelope.test_mutations import samples

pytestmark = [pytest.mark.corpus, pytest.mark.slow, pytest.mark.usefixtures("modules")]

HUGE = 10**5000  # beyond the digits Python converts to text


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


#: kind -> what a number (or, for bools, any scalar) becomes
REPLACEMENTS: dict[str, Callable[[Any], Any]] = {
    "integral floats": lambda v: float(v) if type(v) is int and abs(v) < 2**53 else v,
    "bools": lambda v: True if _is_number(v) else v,
    "huge ints": lambda v: HUGE if _is_number(v) else v,
    "NaN": lambda v: math.nan if _is_number(v) else v,
}


def replaced(value: Any, replace: Callable[[Any], Any]) -> Any:
    """A copy of ``value`` with every scalar passed through ``replace``."""
    if type(value) is dict:
        return {key: replaced(member, replace) for key, member in value.items()}
    if type(value) is list:
        return [replaced(item, replace) for item in value]
    return replace(value)


def scalar_paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    if type(value) is dict:
        for key, member in value.items():
            yield from scalar_paths(member, (*path, key))
    elif type(value) is list:
        for index, item in enumerate(value):
            yield from scalar_paths(item, (*path, index))
    elif _is_number(value):
        yield path


def one_replaced(document: Any) -> Iterator[tuple[str, Any]]:
    """``document`` with one number replaced, for every number and every kind."""
    for path in scalar_paths(document):
        for kind, replace in REPLACEMENTS.items():
            changed = copy.deepcopy(document)
            parent = changed
            for part in path[:-1]:
                parent = parent[part]
            new = replace(parent[path[-1]])
            if new is not parent[path[-1]]:
                parent[path[-1]] = new
                yield f"{kind} at {format_path(path)}", changed


class Checker:
    """The compiled check and the explainer on one document; where they disagree."""

    def __init__(self, modules: dict[str, ModuleType]) -> None:
        self.explain = importlib.import_module(f"{PACKAGE}._explain")
        self.drift = modules["_runtime"].SchemaDriftError
        self.modules = modules
        self.documents = {p: json.loads(m._SCHEMAS) for p, m in modules.items() if p != "_runtime"}
        self.checked = 0
        self.wrong: list[str] = []

    def check(self, provider: str, surface: str, where: str, document: Any) -> None:
        validate = getattr(self.modules[provider], f"validate_{surface}")
        schemas = self.documents[provider]
        try:
            validate(document)
            drift = None
        except self.drift as error:
            drift = error
        found = self.explain.first_mismatch(schemas[surface], document, schemas)
        self.checked += 1
        if (drift is None) != (found is None):
            self.wrong.append(f"{where}: check {drift!r}, explainer {found!r}")
        elif found is not None and drift.path != self.modules["_runtime"].format_path(found[0]):
            self.wrong.append(f"{where}: {drift.path} != {found[0]}")


def decode_body(provider: str, surface: str, body: Any, allowed: tuple[type, ...]) -> None:
    with contextlib.suppress(allowed):
        decoder(provider, surface).parse_tool_calls(body, raw_reader(provider, NAMES))


def decode_stream(
    provider: str, surface: str, events: list[Any], allowed: tuple[type, ...]
) -> None:
    stream = decoder(provider, surface).stream()
    for event in events:
        with contextlib.suppress(allowed):
            stream.add(event)
    with contextlib.suppress(allowed):
        stream.tool_calls(raw_reader(stream, NAMES))


def allowed_errors(modules: dict[str, ModuleType]) -> tuple[type, ...]:
    runtime = modules["_runtime"]
    return (runtime.SchemaDriftError, runtime.PayloadError)


def test_every_recorded_body_with_replaced_values(modules: dict[str, ModuleType]) -> None:
    checker, allowed = Checker(modules), allowed_errors(modules)
    for folder, (provider, surface) in BODIES.items():
        for name, body in bodies(folder):
            for kind, replace in REPLACEMENTS.items():
                changed = replaced(body, replace)
                checker.check(provider, surface, f"{folder}/{name}: {kind}", changed)
                decode_body(provider, surface, changed, allowed)
    assert not checker.wrong, checker.wrong[:5]
    assert checker.checked > 4 * 1000


def test_every_recorded_stream_with_replaced_values(modules: dict[str, ModuleType]) -> None:
    checker, allowed = Checker(modules), allowed_errors(modules)
    for folder, (provider, surface) in STREAMS.items():
        for name, events in stream_events(folder):
            for kind, replace in REPLACEMENTS.items():
                changed = [replaced(event, replace) for event in events]
                for index, event in enumerate(changed):
                    checker.check(provider, surface, f"{folder}/{name}#{index}: {kind}", event)
                decode_stream(provider, surface, changed, allowed)
    assert not checker.wrong, checker.wrong[:5]
    assert checker.checked > 4 * 10_000


@pytest.mark.parametrize("surfaces", [BODIES, STREAMS], ids=["bodies", "events"])
def test_one_value_replaced_at_a_time(
    modules: dict[str, ModuleType], surfaces: dict[str, tuple[str, str]]
) -> None:
    """Each number of a sample of documents, replaced alone (the first mismatch is that one)."""
    checker, allowed = Checker(modules), allowed_errors(modules)
    for provider, surface, name, document in samples(surfaces, 12 if surfaces is BODIES else 60):
        for where, changed in one_replaced(document):
            checker.check(provider, surface, f"{name}: {where}", changed)
            if surfaces is BODIES:
                decode_body(provider, surface, changed, allowed)
            else:
                decode_stream(provider, surface, [changed], allowed)
    assert not checker.wrong, checker.wrong[:5]
    assert checker.checked > 1000
