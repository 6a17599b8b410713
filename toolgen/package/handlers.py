"""``OUT/handlers.py``: the typed dispatch base classes, one abstract method per tool of the design.

Two classes of one method per tool make the module one large part for black (about 1 s of a
400-tool build), yet black's layout of those methods is certain, so they are laid out here and
black formats the rest (the module with the methods left out):

* between two methods of a class, and between its docstring and its first method, black puts one
  blank line whatever was written (``EmptyLineTracker``: a ``def`` or decorator at depth 1), and
  it formats each method alone;
* a method whose ``def`` line fits the line length stays as the template wrote it (names and
  annotations of ASCII identifiers, spaced as black spaces them);
* a longer one is split by black at the parameters' bracket (``left_hand_split``, what black does
  to a ``def``): ``def name(``, the parameters one level deeper, ``) -> type:``. Only when each of
  the three lines fits is it laid out here: black splits the parameters further otherwise;
* the docstring is one ASCII line of the template's words and the tool's name without quotes or
  backslashes, which black leaves as it is.

A module with a method of another shape is formatted whole by black. tests/test_handlers_layout.py
compares the bytes with black's.
"""

from __future__ import annotations

import re
from functools import partial

from toolgen.infra.parallel import Later, Runner, stored_later, text_of
from toolgen.load.contracts import Design
from toolgen.render.def_layout import def_lines
from toolgen.render.formatting import LINE_LENGTH
from toolgen.render.templating import format_later, header, render
from toolgen.schema.names import python_identifier

#: one method as the template writes it: a blank line, the decorator, the def, the docstring
_METHOD = re.compile(
    r"\n    @abstractmethod\n    ((?:async )?def [A-Za-z_]\w*)\((self, arguments: _models\.[A-Za-z_]\w*)\)"
    r'( -> [\w.]+(?: \| [\w.]+)*:)\n        """([^\n]*)"""\n',
    re.ASCII,
)
#: a docstring black leaves as it is: no quote, backslash or space at either end
_PLAIN_DOC = re.compile(
    r"[\w.,:;`'()\[\]{}<>|/+=@#$%&*!?~^-][\w .,:;`'()\[\]{}<>|/+=@#$%&*!?~^-]*", re.ASCII
)
#: a class line and its one-line docstring, right before its first method
_CLASS_HEAD = re.compile(r'\nclass \w+(?:\(\w+\))?:\n    """[^\n]*"""\n\Z')


def handlers_module(
    design: Design, classes: dict[tuple[str, str], tuple[str, str]], runner: Runner
) -> Later[str]:
    """The module's text, formatted by ``runner`` (the methods laid out here: see the module
    docstring). Its source is a function of each tool's name, class and output type (a process
    that builds again keeps it by those)."""
    rows = tuple(
        (
            contract.name,
            classes[("tool", contract.name)][1],
            _handler_output(contract.name, classes),
        )
        for contract in design.tools
    )
    kept = runner.kept
    if kept is not None:
        source = kept.computed(("handlers-source", rows, header()), partial(_source, rows, runner))
        return format_methods_apart(source, runner)
    if runner.cache is None:
        return format_methods_apart(_source(rows, runner), runner)
    # a process that builds once: the module from the cache, by the rows it is a function of
    # (rendering and cutting the template's thousands of methods cost a one-tool rebuild more
    # than the one read)
    return stored_later(
        runner.cache,
        _STAGE,
        [header(), rows],
        lambda: format_methods_apart(_source(rows, runner), runner),
        lambda text: text,
        text_of,
    )


#: the cache's stage of whole handlers modules
_STAGE = "handlers"


def _source(rows: tuple[tuple[str, str, str], ...], runner: Runner) -> str:
    """The rendered template for (tool, its class, its handler's return type) rows."""
    names: dict[str, str] = {}
    taken: set[str] = set()  # the names given so far (a new set per tool was n² for n tools)
    for tool, _, _ in rows:
        name = names[tool] = python_identifier(tool, reserved=taken)
        taken.add(name)
    return render(
        "handlers.py.j2",
        runner,
        header=header(),
        tools=tuple(tool for tool, _, _ in rows),
        handler_names=names,
        tool_classes={tool: cls for tool, cls, _ in rows},
        output_types={tool: output for tool, _, output in rows},
    )


def _handler_output(tool: str, classes: dict[tuple[str, str], tuple[str, str]]) -> str:
    """The return type of the handler of ``tool``: its output model or JSON when it declares
    ``output:`` (another model is a type error), else any JSON value or model."""
    found = classes.get(("tool_output", tool))
    return f"_models.{found[1]} | JSONOutput" if found else "HandlerOutput"


def format_methods_apart(source: str, runner: Runner) -> Later[str]:
    """black's bytes of ``source`` (the rendered handlers template): its methods laid out here,
    the rest formatted by ``runner``; the whole by black when a method is of another shape.
    In a process that builds again, the text of the last build when ``source`` is the same."""
    return runner.keeping(("handlers", source), lambda: _format_methods_apart(source, runner))


def _format_methods_apart(source: str, runner: Runner) -> Later[str]:
    cut = _cut(source)
    if cut is None:
        return format_later(source, runner=runner)
    skeleton, runs = cut
    formatted = format_later(skeleton, runner=runner)

    def placed() -> str:
        text = formatted.result()
        for anchor, methods in runs:
            if text.count(anchor) != 1:
                return format_later(source, runner=runner).result()
            end = text.index(anchor) + len(anchor)
            text = text[:end] + methods + text[end:]
        return text

    return Later(placed)


def _cut(source: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The module without its methods, and for each run of methods the text it followed (a class
    line and its docstring, kept by black as they are) and the run laid out; None when a method
    is not one this module lays out."""
    kept: list[str] = []
    runs: list[tuple[str, str]] = []
    position = 0
    for match in _METHOD.finditer(source):
        if match.start() != position:  # a new run: it must follow a class and its docstring
            before = source[position : match.start()]
            head = _CLASS_HEAD.search(before)
            if head is None:
                return None
            kept.append(before)
            runs.append((head.group()[1:], ""))
        method = _method(*match.groups())
        if method is None:
            return None
        runs[-1] = (runs[-1][0], runs[-1][1] + method)
        position = match.end()
    if (
        not runs
        or "@abstractmethod\n" in source[position:]
        or any("@abstractmethod\n" in text for text in kept)
    ):
        return None
    kept.append(source[position:])
    return "".join(kept), runs


def _method(definition: str, parameters: str, returns: str, doc: str) -> str | None:
    """One method's lines as black writes them after a blank line; None when black has to say."""
    lines = def_lines("    ", definition, parameters, returns, LINE_LENGTH, split_comma=False)
    if lines is None:
        return None
    docstring = f'        """{doc}"""'
    if len(docstring) > LINE_LENGTH or not _PLAIN_DOC.fullmatch(doc):
        return None
    return "\n".join(["", "    @abstractmethod", *lines, docstring, ""])
