"""Names: provider-side tool names and Python identifiers, derived in one place."""

from __future__ import annotations

import builtins
import hashlib
import keyword
import re

from toolgen.providers.base import NameRule

_HASH_LENGTH = 8


def short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:_HASH_LENGTH]


def provider_name(canonical: str, rule: NameRule) -> str:
    """The wire name of a canonical tool or output name: disallowed characters become ``_``,
    and a name too long is cut and suffixed with a hash of the canonical name (so it stays unique).
    """
    name = re.sub(f"(?!{rule.allowed}).", "_", canonical, flags=re.DOTALL)
    if len(name) > rule.max_length:
        keep = rule.max_length - _HASH_LENGTH - 1
        name = f"{name[:keep]}_{short_hash(canonical)}"
    return name


_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))


def python_identifier(text: str, *, reserved: frozenset[str] = frozenset()) -> str:
    """A snake_case identifier for ``text``: never empty, never a keyword or builtin, never in ``reserved``."""
    name = re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_").lower() or "_"
    if name[0].isdigit():
        name = "_" + name
    while name in _RESERVED or name in reserved:
        name += "_"
    return name
