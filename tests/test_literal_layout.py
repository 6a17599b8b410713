"""toolgen/render/literal_layout.py writes what black writes, byte for byte, or declines (None).

Compared with ``black.format_str`` on fragments of the shape the formatter cuts large tables into
(``_ = {\\n    'key': value,\\n}\\n``): generated JSON values (nesting, long and empty keys and
strings, quotes, backslashes, control and wide characters, numbers of every shape), the corpus
tool schemas, and a few texts the layout must decline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import black
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgen.render.formatting import MODE
from toolgen.render.literal_layout import layout

NARROW = black.Mode(target_versions=MODE.target_versions, line_length=40)

_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from(["'", '"', "\\", "\n", "\x1b", "\u2028", "界", "\u0301", " "]),
    max_size=30,
) | st.sampled_from(["", "x" * 120, "'" * 3, 'say "hi"', "it's", "\\N{BULLET}", "界" * 60])
_NUMBER = st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False)
_JSON = st.recursive(
    st.none() | st.booleans() | _NUMBER | _TEXT,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(_TEXT, children, max_size=6),
    max_leaves=40,
)


def _fragment(elements: list[str], opening: str = "{") -> str:
    closing = "}" if opening == "{" else "]"
    return f"_ = {opening}\n" + "".join(f"    {e},\n" for e in elements) + f"{closing}\n"


def _assert_black(source: str, mode: black.Mode = MODE) -> bool:
    """The layout equals black's output, or declines; whether it laid the source out."""
    found = layout(source, mode)
    if found is not None:
        assert found == black.format_str(source, mode=mode), source
    return found is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_TEXT, _JSON), min_size=1, max_size=4), st.booleans())
def test_generated_dict_fragments_are_laid_out_as_black_does(
    pairs: list[tuple[str, Any]], narrow: bool
) -> None:
    _assert_black(_fragment([f"{k!r}: {v!r}" for k, v in pairs]), NARROW if narrow else MODE)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_JSON, min_size=1, max_size=4))
def test_generated_list_fragments_are_laid_out_as_black_does(values: list[Any]) -> None:
    _assert_black(_fragment([repr(v) for v in values], "["), NARROW)


def test_most_fragments_are_laid_out_without_black() -> None:
    """The layout takes the usual tables (else it would save nothing)."""
    schema = {
        "type": "object",
        "description": "A search over the catalogue. " * 5,
        "properties": {
            "query": {"type": "string", "description": "What to look for."},
            "filters": {"type": "array", "items": {"enum": ["new", "used", "refurbished"]}},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 1e3},
        },
        "required": ["query"],
        "additionalProperties": False,
    }
    assert _assert_black(_fragment([f"{'search'!r}: {schema!r}", f"{'empty'!r}: {{}}"]))
    assert _assert_black(_fragment(["'a'", "-1.5e+300", "True", "None"], "["))


@pytest.mark.parametrize(
    "element",
    [
        "'a': (1, 2)",  # a tuple
        "'a': [1, 2,]",  # a magic trailing comma
        "'a': 1 + 2",
        "'a' 'b': 1",  # implicit concatenation
        "'a': {}, 'b': 2",  # two elements on one line
        "1: 2",  # a key that is no string
        "'k" + "x" * 120 + "': {'a': 1}",  # the line before the split is too long
        "'k" + "x" * 100 + "': {}",  # ... or an empty bracket pair to split
    ],
)
def test_other_texts_are_left_to_black(element: str) -> None:
    assert layout(_fragment([element]), MODE) is None


def test_long_scalars_and_unsplit_heads_are_laid_out_as_black_does() -> None:
    assert _assert_black(_fragment(["'a': [" + "'x', " * 30 + "{}]"]))
    assert _assert_black(_fragment(["'k" + "x" * 120 + "': 'long'", "'b': " + "1" * 120]))


def test_fragments_of_another_shape_are_declined() -> None:
    assert layout("x = {'a': 1}\n", MODE) is None
    assert layout("_ = {\n    'a': 1\n}\n", MODE) is None  # no comma after the element
    assert layout("_ = {\n}\n", MODE) is None


@pytest.mark.corpus
def test_corpus_schemas_are_laid_out_as_black_does(corpus_dir: Path) -> None:
    """A sample of the corpus's tools (every 25th: black is the slow side), as the provider
    module's schema and description tables hold them."""
    records = []
    for path in sorted((corpus_dir / "tools").glob("*.jsonl")):
        if not path.name.endswith(".sources.jsonl"):
            records += [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    laid_out = 0
    sample = records[::25]
    for start in range(0, len(sample), 8):
        group = sample[start : start + 8]
        elements = [f"{str(r.get('name'))!r}: {r.get('parameters')!r}" for r in group]
        elements += [f"{str(r.get('name'))!r}: {str(r.get('description'))!r}" for r in group]
        laid_out += _assert_black(_fragment(elements))
    assert laid_out > len(sample) // 8 * 0.9
