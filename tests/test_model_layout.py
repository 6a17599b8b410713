"""Model modules laid out with black only on their uncertain statements
(toolgen/render/model_layout.py) give black's bytes: every model module a build of the example
design and of a tenth of the corpus's tools formats, and modules of shapes it leaves to black."""

from __future__ import annotations

from pathlib import Path

import black
import pytest

from bench.corpus import clean_tools, write_design
from toolgen.build import build
from toolgen.render import model_layout
from toolgen.render.formatting import LINE_LENGTH, MODE, black_format

#: the function under test (the builds below record what it is given)
LAID_OUT = model_layout.laid_out


def _model_sources(design: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The model modules a one-job build of ``design`` gives model_layout (before black)."""
    recorded: list[str] = []

    def recording(source: str, line_length: int, black: object) -> str | None:
        recorded.append(source)
        return LAID_OUT(source, line_length, black_format)

    monkeypatch.setattr(model_layout, "laid_out", recording)
    build(design, jobs=1)
    return recorded


def _assert_black(sources: list[str]) -> int:
    done = 0
    for source in sources:
        text = LAID_OUT(source, LINE_LENGTH, black_format)
        if text is not None:
            assert text == black.format_str(source, mode=MODE), source
            done += 1
    return done


def test_example_design_models_are_laid_out_as_black_does(
    example_design: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = _model_sources(example_design, monkeypatch)
    assert len(sources) > 5
    assert _assert_black(sources) >= 3


@pytest.mark.corpus
def test_corpus_models_are_laid_out_as_black_does(
    corpus_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    del corpus_dir  # bench.corpus reads it
    design = write_design(tmp_path, clean_tools(("openai",))[::10], ("openai",))
    sources = _model_sources(design, monkeypatch)
    assert len(sources) > 300
    assert _assert_black(sources) > len(sources) * 0.8


HEAD = "# toolgen-models-header\n\nfrom __future__ import annotations\n\nfrom .._base import M\n"


@pytest.mark.parametrize(
    "body",
    [
        "class A(M):\n    x: int\n",
        'class A(M):\n    """\n    Doc.\n    """\n    x: int\n',
        'class A(M):\n    """Doc."""\n    x: int = 1\n\n\nclass B(A):\n    y: str | None\n',
        "class A(M):\n    model_config = ConfigDict(\n        extra='forbid',\n    )\n    x: int\n",
        "class A(M):\n    x: Annotated[str, Field(description='" + "long " * 30 + "')]\n",
        "class A(M):\n    x: Literal['a', 'b'] = 'a'\n",
        # docstrings black changes (trailing spaces, deeper lines), formatted by black alone
        'class A(M):\n    """\n    Doc.   \n        Args:\n            x: y\n        \n    """\n    x: int\n',
        'class A(M):\n    """Doc.\n\n    """\n    x: int\n',
        # strings with escapes and quotes: the statement goes to black alone
        "class A(M):\n    x: Annotated[str, Field(description='say \"hi\"\\n(\\'[x\\')')]\n",
    ],
)
def test_models_of_this_shape_are_laid_out_as_black_does(body: str) -> None:
    source = HEAD + "\n\n" + body
    text = model_layout.laid_out(source, LINE_LENGTH, black_format)
    assert text is not None
    assert text == black.format_str(source, mode=MODE)


@pytest.mark.parametrize(
    "body",
    [
        "class A(M):\n    x: int  # a comment\n",
        "class A(M):\n    x: int\n\n    y: int\n",  # a blank line inside the class
        'class A(M):\n    """Only a docstring."""\n',
        "class A(M):\n    class B(M):\n        x: int\n",
        "@decorated\nclass A(M):\n    x: int\n",
        "class A(M):\n    x: int\n\n\nA.model_rebuild()\n",
        "class A(M):\n    x: int\nclass B(M):\n    y: int\n",
        "class A(M):\n    x: str = '''multi\nline'''\n",
    ],
)
def test_models_of_another_shape_are_left_to_black(body: str) -> None:
    assert model_layout.laid_out(HEAD + "\n\n" + body, LINE_LENGTH, black_format) is None


def test_a_comment_before_the_first_class_leaves_the_module_to_black() -> None:
    source = HEAD + "\n# a comment\n\nclass A(M):\n    x: int\n"
    assert model_layout.laid_out(source, LINE_LENGTH, black_format) is None
