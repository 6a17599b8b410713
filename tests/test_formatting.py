"""Large literals given to the formatter as data (toolgen/render/formatting.py ``Literal``): the bytes of
black on the module with the literals written out, whether they are cut, laid out without black,
or put back whole; and a rebuild that formats, measures and dumps only the changed contract's part.
"""

from __future__ import annotations

import black
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgen.build import build
from toolgen.infra import parallel
from toolgen.infra.cache import Cache
from toolgen.infra.kept import Kept
from toolgen.infra.parallel import Runner
from toolgen.package import schema_texts
from toolgen.render import formatting
from toolgen.render.formatting import MODE, Literal, black_format, format_python, written_out

_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from(["'", '"', "\\", "\u2028", "界", " ", "é"]),
    max_size=40,
) | st.sampled_from(["", "x" * 95, "y" * 120, "界" * 48, "it's", 'say "hi"'])
_SCALAR = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | _TEXT
_VALUE = _SCALAR | st.tuples(_SCALAR, _SCALAR) | st.tuples(_SCALAR, _SCALAR, _SCALAR)


def _black_lines(elements: list[str], opening: str) -> str:
    """What black writes for ``elements`` in an exploded literal (the lines between brackets)."""
    closing = {"{": "}", "[": "]"}[opening]
    fragment = f"_ = {opening}\n" + "".join(f"    {e},\n" for e in elements) + f"{closing}\n"
    return black.format_str(fragment, mode=MODE)[len("_ = {\n") : -len("}\n")]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_VALUE, _VALUE), min_size=1, max_size=6))
def test_elements_laid_out_without_black_are_blacks_lines(pairs) -> None:
    """An element the formatter lays out itself (scalars; tuples of them that fit) gets the
    lines black writes; the scan of a whole table agrees with the element-by-element one."""
    elements = [f"{key!r}: {value!r}" for key, value in pairs]
    lines = [formatting._element_line(e) for e in elements]
    for element, line in zip(elements, lines, strict=True):
        if line is not None:
            assert line == _black_lines([element], "{"), element
    whole = formatting._all_laid_out(elements)
    if whole is not None:
        assert whole == "".join(line or "" for line in lines)
        assert None not in lines
    values = [repr(value) for value, _ in pairs]
    if all(formatting._element_line(v) is not None for v in values):
        assert "".join(formatting._element_line(v) or "" for v in values) == _black_lines(
            values, "["
        )


@pytest.mark.parametrize(
    ("element", "laid_out"),
    [
        ("'name': 'a_tool'", True),
        ("'name': " + repr("x" * 150), True),  # too long, but black has no bracket to split at
        ("'name': (3, 4)", True),
        ("'name': " + repr(tuple(range(40))), False),  # a tuple too long: black splits it
        ("'it\\'s': 1", False),  # quotes and backslashes: black decides
        ("'a': 1.5", False),  # numbers other than integers: black normalizes some
        ("'a': ('x',)", False),  # a magic trailing comma
        ("'a': {'b': 1}", False),
        ("'schema': " + repr('{"type":"object","x":' + '"y",' * 40 + '"z":1}'), True),  # JSON text
        ("'schema': " + repr('{"d":"it\'s"}'), False),  # both quotes: black decides
        ("'schema': " + repr('{"d":"a\\nb"}'), False),  # a backslash: black decides
        (repr('{"a":1}'), False),  # a text alone (no key)
    ],
)
def test_which_elements_are_laid_out_without_black(element, laid_out) -> None:
    assert (formatting._element_line(element) is not None) is laid_out
    if laid_out:
        assert formatting._element_line(element) == _black_lines([element], "{")


def _module(*literals: Literal, tail: str = "") -> str:
    lines = [f"{literal.name}: dict = {literal}\n" for literal in literals]
    return "".join(lines) + "\n\ndef f() -> int:\n    return 1\n" + tail


def _schemas(count: int, start: int = 0) -> Literal:
    elements = tuple(
        f"'tool_{i}': " + repr({"type": "object", "properties": {"q": {"type": "string"}}, "n": i})
        for i in range(start, start + count)
    )
    return Literal("SCHEMAS", "{", elements)


@pytest.fixture
def cut_small(monkeypatch):
    """Cut every module and form small groups: the machinery of a large design on a few items."""
    monkeypatch.setattr(formatting, "SPLIT_THRESHOLD", 0)
    monkeypatch.setattr(formatting, "GROUP_PARTS", 2)
    monkeypatch.setattr(formatting, "GROUP_MIN_CHARS", 0)


@pytest.mark.usefixtures("cut_small")
@pytest.mark.parametrize("trailing_comma", [False, True])
def test_given_literals_format_to_black_on_the_written_out_module(trailing_comma) -> None:
    names = Literal("NAMES", "(", tuple(repr(f"tool_number_{i}") for i in range(30)))
    flags = Literal("FLAGS", "{", tuple(f"'t{i}': {i % 2 == 0}" for i in range(30)))
    mixed = Literal(
        "MIXED",
        "[",
        tuple(
            repr(v) for v in ["plain", 'with "quote"', "back\\slash", 1.5, (1, 2), {"a": [1]}] * 6
        ),
        trailing_comma,
    )
    small = Literal("SMALL", "{", ("'a': 1",), trailing_comma)  # written out, not cut
    absent = Literal("ABSENT", "{", ("'x': 1", "'y': 2"))  # not in the text: ignored
    schemas = _schemas(20)
    source = _module(names, flags, mixed, small, schemas)
    literals = (names, flags, mixed, small, schemas, absent)
    assert format_python(source, literals, runner=Runner()) == black_format(
        written_out(source, literals)
    )


def test_a_table_of_one_large_json_text_never_reaches_black(monkeypatch) -> None:
    """A provider's table of schemas as JSON texts, with one tool whose schema is large (an enum
    of thousands of values): with a trailing comma it is cut, and its line is laid out here."""
    seen: list[int] = []
    real = formatting._black
    monkeypatch.setattr(
        formatting, "_black", lambda source: seen.append(len(source)) or real(source)
    )
    text = '{"type":"string","enum":[' + ",".join(f'"sku-{i:05d}"' for i in range(5_000)) + "]}"
    table = Literal("TEXTS", "{", (f"'pick': {text!r}",), trailing_comma=True)
    source = f"from x import y\n\nTEXTS: dict[str, str] = {table}\nTABLE = y(TEXTS)\n"
    formatted = format_python(source, (table,), runner=Runner())
    assert formatted == real(written_out(source, (table,)))
    assert max(seen, default=0) < 1_000


@pytest.mark.usefixtures("cut_small")
@pytest.mark.parametrize(
    "place",
    [
        "def g() -> dict:\n    return {}\n",  # inside a function: not a top-level value
        "X = [{}]\n",  # inside another literal
        'X = """{}"""\n',  # inside a string
    ],
)
def test_a_placeholder_out_of_place_falls_back_to_black_on_the_whole(place) -> None:
    schemas = _schemas(12)
    source = "Y = 1\n\n\n" + place.format(schemas) + "\n\ndef f() -> int:\n    return 1\n"
    expected = black_format(written_out(source, (schemas,)))
    assert format_python(source, (schemas,), runner=Runner()) == expected


@pytest.mark.usefixtures("cut_small")
def test_given_literals_are_not_scanned_for_in_the_text(monkeypatch) -> None:
    """The elements of a given literal are not found again in text: only the literals written
    in the template's text are scanned (here none)."""
    scanned: list[str] = []
    real = formatting._elements
    monkeypatch.setattr(formatting, "_elements", lambda body: scanned.append(body) or real(body))
    source = _module(_schemas(40))
    assert format_python(source, (_schemas(40),), runner=Runner()) == black_format(
        written_out(source, (_schemas(40),))
    )
    assert scanned == []


@pytest.mark.usefixtures("cut_small")
def test_a_module_of_tables_alone_keeps_its_literals_as_data(monkeypatch) -> None:
    """A module without definitions to cut between (a provider's tables module, the testing
    fakes' plans): its given literals are neither written out nor scanned for in the text."""
    scanned: list[str] = []
    real = formatting._elements
    monkeypatch.setattr(formatting, "_elements", lambda body: scanned.append(body) or real(body))
    names = Literal("NAMES", "(", tuple(repr(f"tool_number_{i}") for i in range(30)))
    schemas = _schemas(40)
    source = (
        "from typing import Any\n\n"
        f"NAMES: tuple[str, ...] = {names}\n"
        f"SCHEMAS: dict[str, dict[str, Any]] = {schemas}\n"
        "LIMIT = 3\n"
    )
    expected = black_format(written_out(source, (names, schemas)))
    assert format_python(source, (names, schemas), runner=Runner()) == expected
    assert scanned == []


@pytest.mark.usefixtures("cut_small")
def test_a_changed_element_reformats_its_own_group_only(tmp_path, monkeypatch) -> None:
    """A table of names never reaches black; in a table of schemas, a changed element sends its
    group to black (and the next one, when it moved the end of the group), the rest comes from
    the cache."""
    formatted: list[str] = []
    real = formatting.black_format
    monkeypatch.setattr(formatting, "black_format", lambda s: formatted.append(s) or real(s))
    names = Literal("NAMES", "(", tuple(repr(f"tool_number_{i}") for i in range(200)))
    schemas = _schemas(200)
    changed = Literal(
        "SCHEMAS", "{", (*schemas.elements[:100], "'x': [1]", *schemas.elements[101:])
    )
    with parallel.Runner(1, Cache(tmp_path)) as runner:
        format_python(_module(names, schemas), (names, schemas), runner=runner)
        assert not any("tool_number_" in text for text in formatted)
        formatted.clear()
        format_python(_module(names, changed), (names, changed), runner=runner)
    fragments = [text for text in formatted if text.startswith("_ = {")]
    # the changed group, and the next one when the changed element was the end of a group
    assert 1 <= len(fragments) <= 2 and "'x': [1]" in fragments[0]
    assert sum(map(len, fragments)) < 0.1 * sum(map(len, schemas.elements))


def test_a_one_tool_rebuild_measures_and_dumps_one_group_of_schemas(
    make_design, tool, tmp_path, monkeypatch
) -> None:
    """The sizes and JSON files of the projected schemas come from the cache but for the group
    of the changed tool's schema."""
    monkeypatch.setattr(formatting, "GROUP_MIN_CHARS", 0)
    measured: list[object] = []
    real = schema_texts._measured
    monkeypatch.setattr(schema_texts, "_measured", lambda s: measured.append(s) or real(s))
    files: dict[str, object] = {}
    for index in range(40):
        parameters = {"type": "object", "properties": {"q": {"type": "string"}}}
        parameters["properties"]["q"]["description"] = f"query {index}"
        files[f"tools/t{index}.yaml"] = tool(f"t{index}", parameters)
    design = make_design(files)
    first = build(design, ("openai",), cache_dir=tmp_path / "cache")
    assert len(measured) == 40
    measured.clear()
    changed = design / "tools" / "t7.yaml"
    changed.write_text(changed.read_text().replace("query 7", "the seventh query"))
    second = build(design, ("openai",), cache_dir=tmp_path / "cache")
    assert 1 <= len(measured) <= 10
    assert {"type": "object"}.items() <= dict(measured[0]).items()  # type: ignore[arg-type]
    changed_files = {p for p, text in second.files.items() if first.files.get(p) != text}
    assert "schemas/openai/tools/t7.json" in changed_files
    assert "schemas/openai/tools/t8.json" not in changed_files


@pytest.mark.usefixtures("cut_small")
def test_a_group_of_laid_out_and_black_elements_is_blacks() -> None:
    """A group whose elements are partly laid out here (short tuples) and partly black's (too
    long for a line): only the latter go to black, in fragments of their own."""
    pairs = tuple(
        f"('tool', {name!r}): ('.tools.{name}', {name.title()!r})"
        for name in (f"t{i}" * (1 if i % 7 else 12) for i in range(60))
    )
    table = Literal("CLASSES", "{", pairs, trailing_comma=True)
    source = _module(table)
    plan = formatting._quick_plan(source, (table,))
    assert plan is not None
    assert None in plan.literals[0].laid_out and any(plan.literals[0].laid_out)
    assert format_python(source, (table,), runner=Runner()) == black_format(
        written_out(source, (table,))
    )


@pytest.mark.usefixtures("cut_small")
def test_a_rebuild_finds_the_unchanged_groups_kept_by_their_text(tmp_path, monkeypatch) -> None:
    """In a process that builds again (a runner with ``kept``), the groups of a table the last
    build formatted are found by their text, not in the cache: only the changed group is
    formatted or read, and the module is black's, as a build without anything kept makes it."""
    read: list[str] = []
    real = Cache.get
    monkeypatch.setattr(
        Cache, "get", lambda self, stage, key: read.append(stage) or real(self, stage, key)
    )
    schemas = _schemas(120)
    changed = Literal(
        "SCHEMAS", "{", (*schemas.elements[:60], "'x': [1, {'y': 2}]", *schemas.elements[61:])
    )
    table = f"SCHEMAS: dict[str, Any] = {schemas.placeholder}\n"
    source = "from typing import Any\n\n" + table + "LIMIT = 3\n"
    kept = Kept()
    with parallel.Runner(1, Cache(tmp_path), kept=kept) as runner:
        assert format_python(source, (schemas,), runner=runner) == black_format(
            written_out(source, (schemas,))
        )
        kept.begin()
        read.clear()
        again = format_python(source, (changed,), runner=runner)
    assert again == black_format(written_out(source, (changed,)))
    assert 1 <= read.count("black") <= 2  # the changed group (and the next, if it moved its end)
