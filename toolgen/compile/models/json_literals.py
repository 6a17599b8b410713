"""``Literal`` types of booleans and numbers given JSON's equality in the generated models.

datamodel-code-generator writes ``const`` and ``enum`` as ``Literal[...]``, and Pydantic compares
a literal with Python's equality even in strict mode: ``Literal[True]`` accepts ``1`` and
``Literal[1]`` accepts ``True``. Each such literal is written ``Annotated[Literal[...],
JSON_VALUES]`` (models/_base.py), which refuses a value that is equal only in Python.
"""

from __future__ import annotations

import re

from toolgen.compile.models.prepare import PLACEHOLDER_PACKAGE

#: ``Literal[...]`` with its arguments (strings may hold brackets); linear, for enums of any size
_LITERAL = re.compile(r"""\bLiteral\[((?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[^\]"'])*)\]""")
_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_NOT_TEXT = re.compile(r"\b(?:True|False)\b|(?<![\w.])[-+]?\.?[0-9]")
_IMPORTS = (
    f"from typing import Annotated\nfrom {PLACEHOLDER_PACKAGE}.models._base import JSON_VALUES\n"
)


def _wrapped(found: re.Match[str]) -> str:
    if _NOT_TEXT.search(_STRING.sub("", found.group(1))) is None:
        return found.group(0)  # strings and None: Python's equality is JSON's
    return f"Annotated[{found.group(0)}, JSON_VALUES]"


def json_literals(source: str) -> str:
    """``source`` (a generated module) with every literal of booleans or numbers annotated."""
    written = _LITERAL.sub(_wrapped, source)
    return source if written == source else _IMPORTS + written
