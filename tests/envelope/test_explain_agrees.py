"""The compiled validators and the runtime's explainer decide alike: over recorded bodies and stream
events and their mutations, the compiled check passes exactly when the explainer finds nothing
(a failing check the explainer cannot explain would raise AssertionError instead of drift)."""

from __future__ import annotations

import copy
import importlib
import json
from types import ModuleType
from typing import Any

import pytest

from tests.envelope.support import BODIES, PACKAGE, STREAMS, bodies, format_path
from tests.envelope.test_mutations import mutations, samples

pytestmark = pytest.mark.corpus


def disagreements(
    modules: dict[str, ModuleType],
    schemas: dict[str, dict[str, Any]],
    cases: list[tuple[str, str, str, Any]],
) -> tuple[int, list[str]]:
    """(how many bodies were checked, where the two disagreed)."""
    explain = importlib.import_module(f"{PACKAGE}._explain")
    drift_error = modules["_runtime"].SchemaDriftError
    checked, wrong = 0, []
    for provider, surface, name, original in cases:
        module = modules[provider]
        document = json.loads(module._SCHEMAS)
        validate = getattr(module, f"validate_{surface}")
        body = copy.deepcopy(original)
        for kind, path, apply, undo in [("recorded", (), lambda: None, lambda: None)] + list(
            mutations(body, schemas[provider][surface])
        ):
            apply()
            try:
                try:
                    validate(body)
                    drift = None
                except drift_error as error:
                    drift = error
                found = explain.first_mismatch(document[surface], body, document)
                where = f"{provider} {surface} {name}: {kind} at {format_path(path)}"
                if (drift is None) != (found is None):
                    wrong.append(where)
                elif drift is not None and drift.path != format_path(found[0]):
                    wrong.append(f"{where}: {drift.path} != {found[0]}")
                checked += 1
            finally:
                undo()
    return checked, wrong


def test_recorded_and_mutated_bodies(
    modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]
) -> None:
    checked, wrong = disagreements(modules, schemas, samples(BODIES, 12))
    assert not wrong, wrong[:5]
    assert checked > 500


def test_recorded_and_mutated_stream_events(
    modules: dict[str, ModuleType], schemas: dict[str, dict[str, Any]]
) -> None:
    checked, wrong = disagreements(modules, schemas, samples(STREAMS, 15))
    assert not wrong, wrong[:5]
    assert checked > 500


def test_an_sdk_object_that_drifts_is_explained_in_its_json_form(
    modules: dict[str, ModuleType],
) -> None:
    """The validator converts an SDK object only after its check failed, then explains the
    converted JSON (the object itself is no JSON)."""
    body = copy.deepcopy(bodies("openai/chat-completions")[0][1])
    body["choices"][0]["message"]["content"] = 5

    class SdkObject:
        def model_dump(self, **_: Any) -> Any:
            return body

    with pytest.raises(modules["_runtime"].SchemaDriftError) as raised:
        modules["openai"].validate_chat_completion(SdkObject())
    error = raised.value
    assert (error.path, error.expected, error.actual) == (
        "choices[0].message.content",
        "string or null",
        "integer",
    )
    assert error.__cause__ is None and error.__suppress_context__
