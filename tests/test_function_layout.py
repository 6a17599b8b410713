"""Top-level functions laid out without black (toolgen/render/function_layout.py) give black's
bytes: the inverse canonicalizers of the example design and of corpus tools for providers of
both optional styles, alone and in groups as the formatter cuts them; and statements black
changes (parentheses it drops, commas it splits at, spacing, quotes, long lines, docstrings,
comments) are either left to black or laid out as black lays them out."""

from __future__ import annotations

import ast
from pathlib import Path

import black
import pytest

from bench.corpus import clean_tools, write_design
from toolgen.build import analyze
from toolgen.compile.canonical.compiler import compile_contracts
from toolgen.infra.parallel import Runner
from toolgen.providers import PROVIDER_NAMES
from toolgen.render.formatting import LINE_LENGTH, MODE, _checked_black, _functions_apart
from toolgen.render.function_layout import laid_out


def _canonical_functions(design: Path, providers: tuple[str, ...]) -> list[str]:
    analysis = analyze(design, providers, Runner())
    functions: list[str] = []
    for projection in analysis.projections:
        projected = [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]
        functions += compile_contracts(projected, Runner()).parts.get("functions", [])
    return functions


def _assert_black(functions: list[str]) -> int:
    """Each function alone and in groups of four (as the template writes them) laid out as
    black lays it out, or left to black; how many were laid out here."""
    done = 0
    for function in functions:
        text = laid_out(function, LINE_LENGTH)
        if text is not None:
            assert text == black.format_str(function, mode=MODE), function
            done += 1
    for start in range(0, len(functions), 4):
        part = "\n\n".join(functions[start : start + 4]) + "\n\n"
        text = laid_out(part, LINE_LENGTH)
        if text is not None:
            assert text == black.format_str(part, mode=MODE)
    return done


def test_example_design_canonicalizers_are_laid_out_as_black_does(example_design: Path) -> None:
    functions = _canonical_functions(example_design, PROVIDER_NAMES)
    assert len(functions) > 20
    assert _assert_black(functions) > len(functions) * 0.7


@pytest.mark.corpus
def test_corpus_canonicalizers_are_laid_out_as_black_does(corpus_dir: Path, tmp_path: Path) -> None:
    """Every 4th tool that OpenAI and Gemini project cleanly (black is the slow side): the
    nullable style (members boxed and dropped) and the omitting one."""
    del corpus_dir  # bench.corpus reads it
    providers = ("openai", "gemini")
    design = write_design(tmp_path, clean_tools(providers)[::4], providers)
    functions = _canonical_functions(design, providers)
    assert len(functions) > 1000
    assert _assert_black(functions) > len(functions) * 0.95


def _function(*body: str) -> str:
    return "def _f(value: Any) -> Any:\n" + "".join(f"    {line}\n" for line in body)


#: statements the compiler writes (and the like): laid out here, as black writes them
CERTAIN = [
    "x = value.get('a', ABSENT)",
    "if x is not ABSENT and (not (isinstance(x, bool) or x is None)):",
    "return not (x is not ABSENT and (not (isinstance(x, str) or x is None)))",
    "del new_value['page']",
    "new_value['a'] = value['b']",
    "for index, item in enumerate(value):",
    "x = f(a, b=-1, c='d')",
    "return x[-1] == -1 and value - 1 >= 0.5",
    "x = {'a': 1, 'b': [1, 2], 'c': ('e', None)}",
    'x = "it\'s"',
    "return value.get('naïve') == 'wide 名前'",
    "x = f(g(h))(k)[1]",
    "return x in (1, 2) or not x",
    "x = -y + ~z",
    "if (found := value.get('a')) is not None and type(found) is not str:",
    "x = type(value)",
    "except (KeyError, TypeError):",
    "return (a, b)",
    "x = a | b",
    "name: Annotated[str | None, Field(description='x')] = None",
]


def _body(statement: str) -> list[str]:
    if statement.startswith("except"):
        return ["try:", "    pass", statement, "    pass"]
    return [statement, "    pass"] if statement.endswith(":") else [statement]


@pytest.mark.parametrize("statement", CERTAIN)
def test_statements_of_certain_layout_are_laid_out_as_black_does(statement: str) -> None:
    body = _body(statement)
    source = _function(*body, "return value")
    text = laid_out(source, LINE_LENGTH)
    assert text is not None
    assert text == black.format_str(source, mode=MODE)


#: what black changes or has rules of its own for: left to black
LEFT_TO_BLACK = [
    "x = (value)",
    "return (value)",
    "if (x):",
    "while (x and y):",
    "for (a) in b:",
    "for a in (b):",
    "del (a)",
    "assert (x), 'y'",
    "x = [(a)]",
    "x = {(a)}",
    "x = f(a, b,)",
    "x = [1,]",
    "return x,",
    "x = frozenset(('a',))",  # a one-tuple's comma is not magic: black's rule
    "x = f(a , b)",
    "x = f( a)",
    "x=1",
    "x = f(a = 1)",
    "x = a[1:2]",
    "x = a ** 2",
    "x = f(*a)",
    "x = lambda y: y",
    "x = 'say \"hi\"'",
    "x = 'back\\\\slash'",
    "x = 'tab\\t'",
    "x = r'raw'",
    "x = 1E5",
    "x = 0XFF",
    "x = 1_000",
    "x = .5",
    "x = 1  # comment",
    "'a docstring'",
    "x = 1; y = 2",
    "x = None(1)",
    "x = {'a' : 1}",
    "x = 'long' + '" + "y" * 90 + "'",
    "if x: return y",
    "x = 1 .real",
    "if (found := value.get('a')):",
    "except (KeyError):",
    "except KeyError as error:",
    "type X = int",
    "name: (int) = 1",
    "else: x = 1",
]


@pytest.mark.parametrize("statement", LEFT_TO_BLACK)
def test_statements_black_changes_are_left_to_black(statement: str) -> None:
    body = _body(statement)
    assert laid_out(_function(*body, "return value"), LINE_LENGTH) is None


@pytest.mark.parametrize(
    "source",
    [
        "def f(value: Any) -> Any:\n\n    return value\n",  # a blank line inside
        "def f(value: Any) -> Any:\n  return value\n",  # two spaces an indentation level
        "def f(value: Any) -> Any:\n    if x:\n    return value\n",  # no block (cannot parse)
        "@overload\ndef f(value: Any) -> Any:\n    return value\n",
        "def f(value=1) -> Any:\n    return value\n",
        "def f(value: Any):\n    return value\n",
        "X = 1\n\n\ndef f(value: Any) -> Any:\n    return value\n",
        "class A:\n    x = 1\n",
        f"def f_{'x' * 90}(value: Any) -> Any:\n    return value\n",
    ],
)
def test_parts_of_another_shape_are_left_to_black(source: str) -> None:
    assert laid_out(source, LINE_LENGTH) is None


def test_functions_are_joined_with_blacks_blank_lines() -> None:
    source = (
        "\ndef f(value: Any) -> Any:\n    return value\n"
        "def g(value: Any) -> bool:\n    return value == 'a'\n\n\n\n"
        "def h(value: Any, other: dict[str, Any]) -> list[str]:\n    return [value]\n\n"
    )
    assert laid_out(source, LINE_LENGTH) == black.format_str(source, mode=MODE)


#: docstrings black leaves as they are
DOCSTRINGS = [
    '"""One line."""',
    '"""One line of ``code``, \'quoted\' and #hashed; ' + "long " * 30 + '."""',
    '"""First line.\n\n    More, at the body\'s indentation.\n      Deeper.\n    """',
    '"""First line.\n    Last line."""',
]
#: docstrings black changes (or may): left to black
CHANGED_DOCSTRINGS = [
    '""" One line."""',
    '"""One line. """',
    '"""Say "hi"."""',
    '"""Back\\slash."""',
    '"""First line.\n      Deeper only.\n    """',
    '"""First line.\n  Shallower.\n    """',
    '"""First line. \n    Last."""',
    '"""First.\n    ' + "long " * 20 + '."""',
    '"""Wide 名前."""',
    "'''Single quotes.'''",
]


@pytest.mark.parametrize("docstring", DOCSTRINGS)
def test_docstrings_black_keeps_are_laid_out(docstring: str) -> None:
    source = _function(docstring, "return value")
    text = laid_out(source, LINE_LENGTH)
    assert text == source
    assert text == black.format_str(source, mode=MODE)


@pytest.mark.parametrize("docstring", CHANGED_DOCSTRINGS)
def test_docstrings_black_may_change_are_left_to_black(docstring: str) -> None:
    assert laid_out(_function(docstring, "return value"), LINE_LENGTH) is None


def test_a_part_with_a_function_left_to_black_formats_only_that_one() -> None:
    """The formatter's parts: each function laid out or formatted by black alone; a comment
    between two functions leaves the part to black."""
    long = "x = f(" + ", ".join(f"'argument_{n}'" for n in range(12)) + ")"
    source = (
        _function("x = value.get('a')", "return x")
        + "\n"
        + _function(long, "return x").replace("_f", "_g")
        + "\n\n"
        + _function("return 'b'").replace("_f", "_h")
        + "\n\n"
    )
    assert laid_out(source, LINE_LENGTH) is None
    tree = ast.parse(source)
    assert _functions_apart(source, tree) == black.format_str(source, mode=MODE)
    commented = source.replace("\ndef _h", "\n# a comment\ndef _h")
    assert _functions_apart(commented, ast.parse(commented)) is None
    text, _ = _checked_black(commented, False)
    assert text == black.format_str(commented, mode=MODE)


def test_stubs_and_docstring_only_functions_are_left_to_black() -> None:
    """black keeps stubs written together together, and a function of a docstring alone is
    not laid out here (the full corpus's models/__init__.pyi has both)."""
    source = (
        'def model_for(kind: str) -> Any:\n    """The model class."""\n\n\n'
        "def __getattr__(name: str) -> Any: ...\ndef __dir__() -> list[str]: ...\n"
    )
    assert laid_out(source, LINE_LENGTH) is None
    assert _functions_apart(source, ast.parse(source)) is None
    text, _ = _checked_black(source, True)
    assert text == black.format_str(source, mode=MODE)
    alone = 'def f(value: Any) -> Any:\n    """Docstring only."""\n'
    assert laid_out(alone + "\n\n" + alone.replace("f(", "g("), LINE_LENGTH) is None
