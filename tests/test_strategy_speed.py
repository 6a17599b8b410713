"""tests/strategy_speed.py keeps hypothesis-jsonschema's member strategies: the same seed draws
the same values with and without it."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, seed, settings

SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "minLength": 1},
        "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 3},
        "nested": {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0}, "x": {"type": "null"}},
            "required": ["n"],
        },
    },
    "patternProperties": {"^p_": {"type": "boolean"}},
    "required": ["id"],
}


def _drawn() -> list[Any]:
    from hypothesis_jsonschema import from_schema

    values: list[Any] = []

    @seed(20261208)
    @settings(max_examples=40, database=None, suppress_health_check=list(HealthCheck))
    @given(from_schema(SCHEMA))
    def draw(value: Any) -> None:
        values.append(value)

    draw()
    return values


def test_the_kept_strategies_draw_what_fresh_ones_draw() -> None:
    # (imported here: importing it loads hypothesis's character tables, not to be done while
    # pytest collects)
    from hypothesis_jsonschema import _from_schema

    kept = getattr(_from_schema, "__from_schema")
    assert getattr(kept, "kept_by_text", False), "tests/strategy_speed.py is not installed"
    with_kept = _drawn()
    original = kept.__wrapped_build__
    setattr(_from_schema, "__from_schema", original)
    try:
        fresh = _drawn()
    finally:
        setattr(_from_schema, "__from_schema", kept)
    assert with_kept == fresh
    assert any("nested" in value for value in fresh)  # the members were drawn
