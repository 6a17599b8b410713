"""A value a ``format`` refuses is reported by the format's name (issue 37, item 6): the models
enforce a format as a regular expression of toolgen's (toolgen/runtime/_formats.py), which no
message shows; PayloadError's reason, the retry text sent to the model and the fakes' check name
the format, and the schema's own ``pattern`` beside it. What is enforced is unchanged."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.runtime._formats import FORMAT_PATTERNS, format_message, format_pattern

PACKAGE = "toolgen_format_messages_gen"
TOOLS = {
    "link_order": {"id": {"type": "string", "format": "uuid"}},
    "schedule": {"at": {"type": "string", "format": "date-time", "pattern": "^2026-"}},
}


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory, suite_cache: Path) -> Iterator[ModuleType]:
    root = tmp_path_factory.mktemp("format_messages")
    design = root / "design"
    (design / "tools").mkdir(parents=True)
    (design / "toolgen.toml").write_text('[toolgen]\nproviders = ["openai"]\n', encoding="utf-8")
    for name, properties in TOOLS.items():
        parameters = {"type": "object", "properties": properties, "required": [*properties]}
        tool = {"name": name, "description": f"The {name} tool.", "parameters": parameters}
        (design / "tools" / f"{name}.json").write_text(json.dumps(tool), encoding="utf-8")
    result = build(design, cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_package(root / "out" / PACKAGE, result.files)
    sys.path.insert(0, str(root / "out"))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root / "out"))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _refusal(gen: ModuleType, tool: str, arguments: dict[str, Any]) -> Any:
    """The PayloadError of one call of ``tool`` with ``arguments``, through parse_tool_calls."""
    fakes = importlib.import_module(f"{PACKAGE}.testing.openai")
    body = fakes.response([(tool, arguments)], check=False)
    with pytest.raises(gen.openai.PayloadError) as refused:
        gen.openai.parse_tool_calls(body)
    return refused.value


def _shown(error: Any) -> list[str]:
    """Every text the refusal shows: the exception, its reason, the retry text for the model."""
    return [str(error), error.reason, error.for_model()]


def test_a_uuid_refused_is_named_by_its_format(gen: ModuleType) -> None:
    error = _refusal(gen, "link_order", {"id": "order-12"})
    assert error.location == "id"
    for text in _shown(error):
        assert "should be a UUID (format: uuid)" in text, text
        assert "[0-9a-fA-F]" not in text and r"\A" not in text, text
    [outcome] = gen.openai.parse_tool_calls(
        importlib.import_module(f"{PACKAGE}.testing.openai").response(
            [("link_order", {"id": "order-12"})], check=False
        ),
        on_error="collect",
    )
    assert "(format: uuid)" in outcome.for_model()


def test_a_date_time_with_a_pattern_names_both(gen: ModuleType) -> None:
    for value in ("tomorrow", "2025-01-31T09:30:00Z"):  # breaks the format; breaks the pattern
        error = _refusal(gen, "schedule", {"at": value})
        for text in _shown(error):
            assert "(format: date-time) and match pattern '^2026-'" in text, text
            assert "(?:" not in text and "[0-9]{4}" not in text, text


def test_what_is_enforced_is_unchanged(gen: ModuleType) -> None:
    fakes = importlib.import_module(f"{PACKAGE}.testing.openai")
    calls = [
        ("link_order", {"id": "0f8fad5b-d9cb-469f-a165-70867728950e"}),
        ("schedule", {"at": "2026-01-31T09:30:00+01:00"}),
    ]
    decoded = gen.openai.parse_tool_calls(fakes.response(calls))
    assert [(c.name, c.arguments.model_dump(mode="json")) for c in decoded] == calls


def test_the_fakes_check_names_the_format(gen: ModuleType) -> None:
    fakes = importlib.import_module(f"{PACKAGE}.testing.openai")
    with pytest.raises(ValueError, match=r"id: String should be a UUID \(format: uuid\)") as info:
        fakes.arguments("link_order", {"id": "order-12"})
    assert "[0-9a-fA-F]" not in str(info.value)


@pytest.mark.parametrize("fmt", sorted(FORMAT_PATTERNS))
def test_every_format_pattern_is_read_back_as_its_format(fmt: str) -> None:
    assert format_message(format_pattern(fmt, None)) is not None
    assert f"(format: {fmt})" in (format_message(format_pattern(fmt, None)) or "")
    with_pattern = format_message(format_pattern(fmt, r"^a(b|c)\)$"))
    assert with_pattern is not None and with_pattern.endswith(r"and match pattern '^a(b|c)\)$'")
    assert format_message(FORMAT_PATTERNS[fmt]) is None  # unanchored: no pattern toolgen builds


def test_a_schema_pattern_alone_keeps_pydantics_message() -> None:
    assert format_message("^[A-Z]{2}$") is None
