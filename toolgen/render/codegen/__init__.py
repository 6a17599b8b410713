"""The code-generation library both compilers write with (envelope validators, canonicalizers).

- ``LineEmitter``: lines of Python, indented by ``with emitter.block(...)``;
- ``Identifiers``: Python identifiers from free text, unique within their scope;
- ``Constants``: module-level constants, hoisted and shared (one name per distinct expression);
- ``python_literal``, ``tuple_expression``, ``docstring``, ``json_rows_literal``: values and text
  written as source.
"""

from toolgen.render.codegen.constants import Constants
from toolgen.render.codegen.emitter import LineEmitter
from toolgen.render.codegen.literals import (
    docstring,
    docstring_text,
    json_rows_literal,
    python_literal,
    tuple_expression,
)
from toolgen.render.codegen.scope import Identifiers

__all__ = [
    "Constants",
    "LineEmitter",
    "Identifiers",
    "docstring",
    "docstring_text",
    "json_rows_literal",
    "python_literal",
    "tuple_expression",
]
