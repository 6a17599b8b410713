"""The tool-definition formats ``toolgen import`` reads, one module per source (a provider's wire
format, MCP's ``tools/list``, BFCL's function docs): where its tools sit in a document and how
one entry reads; tool_format.py says what a format is, this package gathers each module's.

A module sets ``IMPORT_FORMATS`` (``ImportFormat``: a format at its rank in the detection order);
no format is listed here by hand.
"""

from __future__ import annotations

import importlib
import pkgutil

from toolgen.formats.tool_format import ImportFormat, ToolFormat

#: Modules of this package that declare no format (what a format is).
_SHARED = frozenset({"tool_format"})

_FOUND: list[ImportFormat] = [
    found
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda module: module.name)
    if module.name not in _SHARED
    for found in importlib.import_module(f"{__name__}.{module.name}").IMPORT_FORMATS
]

#: In detection order: a document is read by the first format whose layout it has (MCP's tools
#: first; the bare declaration list of Gemini after the OpenAI forms, whose entries carry a type,
#: and after BFCL's, whose roots are of type "dict").
IMPORT_FORMATS: tuple[ToolFormat, ...] = tuple(
    found.format for found in sorted(_FOUND, key=lambda found: (found.rank, found.format.name))
)
