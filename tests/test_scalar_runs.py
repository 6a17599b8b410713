"""toolgen/render/scalar_runs.py: black on a skeleton with the long runs of scalars left out gives black's
bytes on the whole text, or declines; and a large enum design builds without black seeing it.

Compared with ``black.format_str`` on generated modules of the shapes the build formats (an enum's
``Literal[...]`` in a model class, a schema's ``'enum': [...]`` in a table) and others (tuples,
sets, trailing commas, deep nesting, a narrow line length), with elements of every kind: strings
with quotes, backslashes, unicode, wide and combining characters, long ones; numbers; names.
"""

from __future__ import annotations

import black
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toolgen.build import build
from toolgen.render import formatting, scalar_runs
from toolgen.render.formatting import MODE

NARROW = black.Mode(target_versions=MODE.target_versions, line_length=40)

_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from(["'", '"', "\\", "\x1b", "界", "\u0301", " ", "é", "\u2028"]),
    max_size=12,
) | st.sampled_from(["", "x" * 70, "y" * 130, "界" * 40, "it's", 'say "hi"', "a\\nb"])
_SCALAR = (
    _TEXT.map(repr)
    | _TEXT.filter(lambda t: not set(t) & set('"\\\n\r\0')).map(lambda t: f'"{t}"')
    | st.integers(-(10**12), 10**12).map(str)
    | st.floats(allow_nan=False, allow_infinity=False).map(repr)
    | st.sampled_from(["True", "False", "None", "1E5", "-0"])
)
_PLAIN = st.from_regex(r"[a-z][a-z0-9_-]{0,14}", fullmatch=True).map(repr)
#: mostly plain short strings (an enum), any other scalar now and then
_ELEMENT = st.one_of(*[_PLAIN] * 3, _SCALAR)

#: where a run goes: RUN is replaced by the run's text
_PLACES = [
    "class Model(Base):\n    value: Annotated[Literal[RUN], Field(description='The value.')]\n",
    "class Model(Base):\n    value: Literal[RUN] | None = None\n",
    "TABLE: dict[str, Any] = {'tool': {'type': 'object', 'properties': {'sku': {'type': "
    "'string', 'enum': [RUN], 'description': 'The SKU.'}}, 'required': ['sku']}}\n",
    "_ = {\n    'a_tool': {'enum': [RUN]},\n    'b_tool': {'enum': [RUN,]},\n}\n",
    "X = (RUN)\nY = {RUN}\n",
    "def f(x):\n    return g([RUN], key=1)\n",
    "X = [[RUN], 'tail', [[[[[[[[[[RUN]]]]]]]]]]]\n",
]


def _assert_black(source: str, mode: black.Mode = MODE) -> bool:
    """The skeleton's result is black's output; whether anything was left out of black."""
    expected = black.format_str(source, mode=mode)
    skeleton, tree = scalar_runs.parsed(source, mode)
    assert tree is not None
    seen: list[str] = []

    def formatter(text: str) -> str:
        seen.append(text)
        return black.format_str(text, mode=mode)

    assert scalar_runs.format_skeleton(skeleton, formatter) == expected
    return all(len(text) < len(source) for text in seen) and bool(skeleton.elided)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(_PLACES),
    st.lists(_ELEMENT, min_size=scalar_runs.MIN_ELEMENTS - 4, max_size=150),
    st.sampled_from([", ", ","]),
    st.booleans(),
    st.sampled_from([None] * 10 + ["0XFF", "1_000", "x", "(1, 2)", "-x"]),
)
def test_generated_runs_format_as_black_does(
    place: str, elements: list[str], separator: str, narrow: bool, other: str | None
) -> None:
    """``other``: a token the text scan does not take (then black formats the run whole)."""
    if other is not None:
        elements.insert(len(elements) // 3, other)
    left_out = _assert_black(
        place.replace("RUN", separator.join(elements)), NARROW if narrow else MODE
    )
    event(f"left out of black: {left_out}")


def test_an_enum_literal_is_left_out_of_black() -> None:
    values = [repr(f"sku-{i:05d}") for i in range(300)]
    for place in _PLACES:
        assert _assert_black(place.replace("RUN", ", ".join(values))), place
        # 11 levels deep, the elements' lines would not fit in 40 columns: black formats it all
        deep = place.startswith("X = [[RUN]")
        assert _assert_black(place.replace("RUN", ", ".join(values)), NARROW) is not deep, place


def test_long_and_odd_elements_stay_in_the_skeleton() -> None:
    """Elements too wide to be certain of (or with a line end for str.splitlines) are given to
    black in their place; the short ones around them are still left out."""
    values = [repr(f"v{i}") for i in range(200)]
    values[100] = repr("w" * 150)
    values[120] = "'a\u2028b'"  # a raw line separator in the string
    values[140] = repr("界" * 35)
    source = "X = [" + ", ".join(values) + "]\n"
    assert _assert_black(source)
    skeleton = scalar_runs.Skeleton(source, MODE)
    assert "w" * 150 in skeleton.text and "界" * 35 in skeleton.text
    assert len(skeleton.elided) == 4


@pytest.mark.parametrize(
    "source",
    [
        # the run is text in a string, or the arguments of a call: black formats the whole
        'X = """[' + ", ".join(repr(f"v{i}") for i in range(100)) + ']"""\n',
        "X = f(" + ", ".join(repr(f"v{i}") for i in range(100)) + ")\n",
        "# [" + ", ".join(repr(f"v{i}") for i in range(100)) + "]\n",
        "X = ['__toolgen_elided_0__', " + ", ".join(repr(f"v{i}") for i in range(100)) + "]\n",
    ],
)
def test_runs_out_of_place_are_formatted_whole(source: str) -> None:
    assert not _assert_black(source)


def test_a_call_with_many_arguments_leaves_the_other_runs_out_of_black() -> None:
    values = ", ".join(repr(f"v{i}") for i in range(100))
    source = f"X = f({values})\nY = [{values}]\n"
    assert _assert_black(source)
    assert len(scalar_runs.Skeleton(source, MODE).elided) == 1


def test_short_runs_are_not_touched() -> None:
    source = "X = [" + ", ".join(repr(f"v{i}") for i in range(scalar_runs.MIN_ELEMENTS - 1)) + "]\n"
    assert scalar_runs.Skeleton(source, MODE).text == source


def test_a_large_enum_design_builds_without_black_on_the_enum(
    make_design, tool, monkeypatch
) -> None:
    """20,000 values (300 KB of design): black never sees more than a few KB of it, and the
    build's files are those of a build with black on every whole text (on 2,000 values)."""
    seen: list[int] = []
    real = formatting._black
    monkeypatch.setattr(
        formatting, "_black", lambda source: seen.append(len(source)) or real(source)
    )

    def design(count: int, name: str):
        values = [f"sku-{i:06d}" for i in range(count)]
        parameters = {
            "type": "object",
            "properties": {"sku": {"type": "string", "enum": values, "description": "The SKU."}},
            "required": ["sku"],
        }
        # More values than OpenAI's strict mode takes: the tool goes out non-strict.
        fallback = '[toolgen]\nstrict_fallback = "non-strict"\n'
        files = {"toolgen.toml": fallback, "tools/pick.yaml": tool("pick_sku", parameters)}
        return make_design(files, name)

    result = build(design(20_000, "large"), ("openai",))
    assert result.ok and "sku-019999" in result.files["models/tools/pick_sku.py"]
    assert seen and max(seen) < 40_000

    small = design(2_000, "small")
    elided = build(small, ("openai",)).files
    monkeypatch.setattr(scalar_runs, "MIN_ELEMENTS", 10**9)  # nothing left out: black on all
    assert build(small, ("openai",)).files == elided
