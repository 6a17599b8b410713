"""The handlers module's methods laid out without black (toolgen/package/handlers.py) give black's
bytes: short and long names (one line, split at the parameters, split further: black), output
models in the return type, names black must see (quotes, backslashes, wide characters)."""

from __future__ import annotations

import black
import pytest

from toolgen.infra.parallel import Runner
from toolgen.package.handlers import _cut, format_methods_apart
from toolgen.render.codegen import docstring_text
from toolgen.render.formatting import MODE
from toolgen.render.templating import header, render
from toolgen.schema.names import class_name, python_identifier


def _source(tools: list[str], outputs: frozenset[str] = frozenset()) -> str:
    names: dict[str, str] = {}
    for tool in tools:
        names[tool] = python_identifier(tool, reserved=set(names.values()))
    classes = {tool: class_name(tool) for tool in tools}
    returns = {
        tool: f"_models.{classes[tool]}Output | JSONOutput" if tool in outputs else "HandlerOutput"
        for tool in tools
    }
    return render(
        "handlers.py.j2",
        Runner(),
        header=header(),
        tools=tuple(tools),
        handler_names=names,
        tool_classes=classes,
        output_types=returns,
    )


def _check(source: str) -> None:
    assert format_methods_apart(source, Runner()).result() == black.format_str(source, mode=MODE)


#: names whose def line is shorter, about as long as and longer than the line (100), up to the
#: longest whose parameters fit a line of their own (a class name of 67 characters)
LENGTHS = [1, 20, 40, 41, 42, 43, 44, 45, 46, 47, 60, 61, 62, 63, 64, 65, 66, 67]


@pytest.mark.parametrize("outputs", [False, True])
def test_methods_of_every_length_are_laid_out_as_black_does(outputs: bool) -> None:
    # with an output model the return type is 27 characters longer: its names up to 63
    longest = 63 if outputs else 67
    tools = ["t" * length for length in LENGTHS if length <= longest] + [
        "get_weather",
        "CityLocation_2",
        "billing.refund",
        "a" * 30 + "_" + "b" * 30,
    ]
    source = _source(tools, frozenset(tools[::2]) if outputs else frozenset())
    assert _cut(source) is not None
    _check(source)


@pytest.mark.parametrize("length", [64, 80, 95])
def test_a_method_black_splits_further_leaves_the_module_to_black(length: int) -> None:
    """Its return type does not fit a line of its own (class names are cut at 64 characters,
    so the parameters always do)."""
    name = "x" * length
    source = _source(["short", name], outputs=frozenset([name]))
    assert _cut(source) is None
    _check(source)


@pytest.mark.parametrize(
    "name", ['say "hi"', "back\\slash", "naïve", "wide_名前", "tab\there", "end "]
)
def test_names_black_must_see_leave_the_module_to_black(name: str) -> None:
    source = _source(["first", name, "last"])
    if docstring_text(name) != name or not name.isascii():
        assert _cut(source) is None
    _check(source)


def test_no_tools_is_black_s() -> None:
    source = _source([])
    assert _cut(source) is None
    _check(source)
