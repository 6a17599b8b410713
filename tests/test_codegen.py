"""The code-generation library both compilers write with (toolgen/render/codegen)."""

from __future__ import annotations

import ast
import json

import pytest

from tests.test_writer import HOSTILE
from toolgen.render.codegen import (
    Constants,
    Identifiers,
    LineEmitter,
    docstring,
    json_rows_literal,
    python_literal,
    tuple_expression,
)


def test_identifiers_are_unique_and_stable_per_key() -> None:
    names = Identifiers(prefix="_", reserved=frozenset({"drift"}))
    assert names.name("check Usage") == "_check_usage"
    assert names.name("check usage") == "_check_usage_"  # taken: a new name
    assert names.name("drift") == "_drift_"  # reserved
    assert names.name("list") == "_list_"  # a builtin, even behind the prefix
    assert names.name("x", key=("a",)) == names.name("y", key=("a",)) == "_x"
    names.release("_check_usage_")
    assert names.name("check usage") == "_check_usage_"


def test_the_shortest_free_hint_wins() -> None:
    names = Identifiers(reserved=frozenset({"data"}))
    assert names.shortest(["content", "data_content"], key=1) == "content"
    assert names.shortest(["content", "delta_content"], key=2) == "delta_content"
    assert names.shortest(["id", "data_id"], key=3) == "data_id"  # id is a builtin
    assert names.shortest(["content", "data_content"], key=1) == "content"


def test_constants_are_hoisted_once_per_expression() -> None:
    constants = Constants()
    first = constants.frozenset("finish reason values", ["'stop'"])
    assert first == "_FINISH_REASON_VALUES"
    assert constants.frozenset("other", ["'stop'"]) == first  # the same expression
    assert (
        constants.add("finish reason values", "frozenset(('a', 'b'))") == "_FINISH_REASON_VALUES_2"
    )
    assert constants.lines == [
        "_FINISH_REASON_VALUES = frozenset(('stop',))",
        "_FINISH_REASON_VALUES_2 = frozenset(('a', 'b'))",
    ]


def test_the_emitter_indents_fills_empty_blocks_and_merges_nested_ifs() -> None:
    out = LineEmitter(merge_nested_ifs=True)
    with out.block("def f(value: Any) -> bool"):
        with out.block("if a"), out.block("if b or c"):
            out.line("return False")
        with out.block("for item in value"):
            pass
        out.line("return True")
    assert out.source() == (
        "def f(value: Any) -> bool:\n"
        "    if a and (b or c):\n"
        "        return False\n"
        "    for item in value:\n"
        "        pass\n"
        "    return True\n"
    )


def test_literals_and_text() -> None:
    assert python_literal({"a": [1, 2.5, None, True, "x'\""]}) == repr(
        {"a": [1, 2.5, None, True, "x'\""]}
    )
    with pytest.raises(ValueError, match="not a JSON value"):
        python_literal(float("nan"))
    assert tuple_expression(["'a'"]) == "('a',)"
    assert tuple_expression(["*path"]) == "path"
    assert tuple_expression(["*path", "'id'"]) == "(*path, 'id')"
    assert docstring("One line.") == ['"""One line."""']
    with pytest.raises(ValueError):
        docstring('say """ this')


@pytest.mark.parametrize(
    "rows",
    [
        [],
        [["billing.refund", "billing_refund", True]],
        [[text, text + "\\", False] for text in HOSTILE],
        [["\ud800 lone surrogate", "\U0001f600 emoji", "é ü 漢字"], ["x", '"', '""']],
        [*HOSTILE, "\\"],  # names, one a line
    ],
)
def test_json_rows_are_one_string_that_reads_back_as_the_rows(rows: list[list[object]]) -> None:
    literal = json_rows_literal(rows)
    tree = ast.parse(literal, mode="eval")  # one string constant: nothing else reaches the code
    assert isinstance(tree.body, ast.Constant) and isinstance(tree.body.value, str)
    assert literal.isascii()
    assert json.loads(tree.body.value) == rows
    assert literal.splitlines()[1:-1] == [json.dumps(row) + "," for row in rows][:-1] + [
        json.dumps(row) for row in rows[-1:]
    ]  # one row a line
