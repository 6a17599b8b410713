"""The compact JSON text that cache keys and the provider modules' schema tables are made of
(toolgen/infra/json_text.py): ``json.dumps``'s text, made without an encoder a call."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolgen.infra.json_text import compact_encoder, compact_json

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and the infinities too: json.dumps writes them (allow_nan)
    | st.text()  # lone surrogates included
)
JSON_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@given(JSON_VALUES)
def test_the_text_is_json_dumps_compact_text(value: Any) -> None:
    assert compact_json(value) == _dumps(value)


def test_keys_keep_their_order_and_text_stays_as_it_is() -> None:
    assert compact_json({"b": 1, "a": ["é", 1.5, None]}) == '{"b":1,"a":["é",1.5,null]}'


def test_a_value_that_is_not_json_is_refused_or_given_to_default() -> None:
    with pytest.raises(TypeError, match="set is not JSON serializable"):
        compact_json({"a": {1}})
    assert compact_encoder(repr)({"a": {1}}) == '{"a":"{1}"}'
