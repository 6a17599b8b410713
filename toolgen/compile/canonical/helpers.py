"""The fixed helpers compiled canonicalizers call: names of toolgen/runtime/_canonical_support.py,
which the package holds as ``_canonical_support.py`` beside the canonical modules.

The compiler writes these names (``is_number(value)``, ``value.get("a", ABSENT)``, ``decode(...)``)
and no local variable of its functions takes one (``RESERVED``); the modules import only those
their functions name (:func:`helpers_in`), so ruff finds no unused import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: the module of the helpers in the generated package (a copy of toolgen/runtime's)
SUPPORT_MODULE = "_canonical_support"

#: the helpers compiled code calls (all in the support module's ``__all__``)
HELPERS = ("ABSENT", "decode", "in_enum", "is_integer", "is_number", "json_equal", "multiple_of")

#: the names no local variable of a compiled function may take: the helpers, and the argument
RESERVED = frozenset({*HELPERS, "value"})

#: a string literal of compiled code (a ``repr``, quotes perhaps changed by black; never
#: triple-quoted, never spanning lines)
_STRING = re.compile(r"'(?:[^'\\\n]|\\.)*'" + r'|"(?:[^"\\\n]|\\.)*"')
_HELPER = re.compile(r"\b(?:" + "|".join(HELPERS) + r")\b")


def helpers_in(code: str) -> set[str]:
    """The helpers that compiled functions (formatted or not) name outside their string literals
    (a member called ``decode`` is ``value.get("decode")``; its local variable is ``decode_``)."""
    return set(_HELPER.findall(_STRING.sub('""', code)))


def import_key(name: str) -> tuple[int, str]:
    """isort's order of the names of one import: constants, classes, then the rest."""
    if name.isupper():
        return 0, name.lower()
    return (1 if name[:1].isupper() else 2), name.lower()


def import_statement(module: str, names: Iterable[str]) -> str:
    """``from <module> import <names>`` (sorted as isort does) as black writes it: one line when
    it fits its 88 columns, else one name a line with a trailing comma; no newline at the end."""
    ordered = sorted(names, key=import_key)
    line = f"from {module} import {', '.join(ordered)}"
    if len(line) <= 88:
        return line
    return "\n".join([f"from {module} import (", *(f"    {name}," for name in ordered), ")"])


def support_import(code: str, dots: str, *also: str) -> str:
    """The import of the helpers ``code`` names (and of ``also``) from the support module, for a
    module ``dots`` below the package (``.``: a canonical module; ``..``: one of its parts);
    empty when there are none."""
    names = helpers_in(code) | set(also)
    return import_statement(f"{dots}{SUPPORT_MODULE}", names) if names else ""
