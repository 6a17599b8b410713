"""Runs of overload stubs laid out without black (toolgen/render/overload_stubs.py) give black's
bytes: alone and inside a module large enough for the formatter's quick plan, with names of every
length around the line length, extra parameters, subscripted return types, and names black must
see (quotes, backslashes, wide characters: the run then goes to black)."""

from __future__ import annotations

import black
import pytest

from toolgen.infra.parallel import Runner
from toolgen.render import overload_stubs
from toolgen.render.formatting import LINE_LENGTH, MODE, SPLIT_THRESHOLD, format_python


def _stub(function: str, name: str, params: str, result: str) -> str:
    return f"@overload\ndef {function}(name: Literal[{name!r}]{params}) -> {result}: ...\n"


def _run(names: list[str], function: str, params: str, result: str) -> str:
    return "".join(
        _stub(function, n, params, result.replace("C", "C" + "".join(filter(str.isalnum, n))[:40]))
        for n in names
    )


#: names whose stub is shorter than, about as long as and longer than a line
NAMES = ["a" * length for length in range(1, 90, 3)] + ["get_weather", "City_2", "billing.refund"]
SHAPES = [
    ("tool_model", "", "type[_models.C]"),
    ("parse_output", ", data: OutputData", "_models.C"),
    ("output_model", "", "type[_models.C]"),
]


@pytest.mark.parametrize(("function", "params", "result"), SHAPES)
def test_a_run_is_laid_out_as_black_does(function: str, params: str, result: str) -> None:
    names = [n for n in NAMES if len(_stub(function, n, params, "x" * 50)) < 150]
    run = _run(names, function, params, result) + "\n\n"
    laid_out = overload_stubs.laid_out(run, LINE_LENGTH)
    assert laid_out is not None
    assert laid_out == black.format_str(run, mode=MODE)


def test_a_stub_black_splits_further_is_left_to_black() -> None:
    run = _run(["x" * 120], "tool_model", "", "type[_models.C]")
    assert overload_stubs.laid_out(run, LINE_LENGTH) is None


@pytest.mark.parametrize("name", ['say "hi"', "it's", "back\\slash", "naïve", "名前", "tab\there"])
def test_names_black_must_see_are_left_to_black(name: str) -> None:
    run = _run(["first", name, "last"], "tool_model", "", "type[_models.C]")
    assert overload_stubs.laid_out(run, LINE_LENGTH) is None


def _module(run: str) -> str:
    """A module with the run between two functions, large enough to be formatted in parts."""
    body = "".join(f"    x{i} = {{'k': [{i}, 'v']}}\n" for i in range(20))

    def filler(prefix: str) -> str:
        return "".join(f"\n\ndef {prefix}{i}(value):\n{body}    return value\n" for i in range(40))

    module = (
        "from typing import Literal, overload\n\nfrom . import models as _models\n"
        f"{filler('f')}\n\n{run}\n\ndef tool_model(name: str):\n    return name\n{filler('g')}"
    )
    assert len(module) > SPLIT_THRESHOLD
    return module


@pytest.mark.parametrize(
    "names", [NAMES[:20], ["first", 'say "hi"', "last"], ["a" * 120, "b"], ["only"]]
)
def test_the_formatter_gives_black_s_bytes_with_or_without_the_layout(names: list[str]) -> None:
    module = _module(_run(names, "tool_model", "", "type[_models.C]"))
    assert format_python(module, runner=Runner()) == black.format_str(module, mode=MODE)
