"""Runs of ``@overload`` stubs laid out as black lays them out, without black.

A function typed per canonical name (templates/_by_name.j2: ``tool_model``, ``parse_output`` ...)
is one ``@overload`` stub per name, written one after the other without blank lines: the stub of
types of a provider of 400 tools (``_types_<provider>.pyi``) has 400 of them, which black formats
one token at a time (a tenth of a second of CPU per 100 stubs), yet the layout of a stub of this
shape is certain:

* black keeps consecutive stubs written without a blank line together (a stub after a stub), the
  decorator on the line above its ``def``, and the ``: ...`` body on the ``def``'s line;
* a stub whose line fits the line length stays on one line, its name's string in double quotes
  (a plain string: no quote, backslash or line end in it, ASCII so its width is its length);
* a longer one is split at the parameters' bracket (``left_hand_split``, what black does to a
  ``def``): ``def f(``, the parameters one level deeper (with a comma after ``name`` when it is
  the only one), ``) -> type: ...``. Only when each of the three lines fits is it laid out
  here: black splits further otherwise.

The formatter (toolgen/render/formatting.py) gives each such run a part of its own, between two
cuts (a blank line before it, its last stub followed by blank lines), and checks that the part
parses alone before using :func:`laid_out`; anything else goes to black.
tests/test_overload_stubs.py compares the bytes with black's.
"""

from __future__ import annotations

import re

from toolgen.render.def_layout import def_lines

#: what black writes as is but for the quotes (see toolgen/render/formatting.py's _STRING)
_PLAIN = r"'[ !#-&(-\[\]-~]*'"
_NAME = r"[A-Za-z_]\w*"
_DOTTED = rf"{_NAME}(?:\.{_NAME})*"
_STUB = (
    rf"@overload\ndef ({_NAME})\((name: Literal\[{_PLAIN}\])((?:, {_NAME}: {_DOTTED})*)\)"
    rf"( -> {_DOTTED}(?:\[{_DOTTED}\])?: \.\.\.)\n"
)
_ONE = re.compile(_STUB, re.ASCII)
#: a part made of stubs only, then the blank lines before the next cut
RUN = re.compile(rf"(?:{_STUB})+\n*", re.ASCII)


def laid_out(part: str, line_length: int) -> str | None:
    """black's text of ``part`` when it is a run of overload stubs this module lays out (see the
    module docstring); None otherwise. ``part`` must parse alone (the caller checks)."""
    if not RUN.fullmatch(part):
        return None
    stubs = []
    for match in _ONE.finditer(part):
        function, name, more, returns = match.groups()
        name = name.replace("'", '"')
        lines = def_lines(
            "", f"def {function}", f"{name}{more}", returns, line_length, split_comma=not more
        )
        if lines is None:
            return None
        stubs.append("@overload\n" + "\n".join(lines) + "\n")
    return "".join(stubs)
