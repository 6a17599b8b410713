"""Names, derived in one place: provider-side tool names, Python identifiers, class and module names.

Canonical names are free text (``billing.refund``, ``get-weather``, ``mcp__github__list_issues``);
Python names must be identifiers that are not keywords, do not shadow builtins or the names the
generated modules import, and never clash with each other. :class:`Namespace` hands out names in a
caller-chosen (stable) order and resolves clashes with a numeric suffix, so the same design always
yields the same names.
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import keyword
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

_HASH_LENGTH = 8


@dataclass(frozen=True)
class NameRule:
    """What a tool or output name may look like on the wire."""

    allowed: str  # a regex character class of allowed characters
    max_length: int
    first: str | None = None  # a regex character class the first character must match ("_" must)

    def is_valid(self, name: str) -> bool:
        return (
            0 < len(name) <= self.max_length
            and re.fullmatch(f"{self.allowed}+", name) is not None
            and (self.first is None or re.match(self.first, name) is not None)
        )


def short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:_HASH_LENGTH]


@functools.lru_cache(maxsize=1 << 16)  # a build asks for each name of the design per provider
def provider_name(canonical: str, rule: NameRule) -> str:
    """The wire name of a canonical tool or output name: disallowed characters become ``_``,
    a name whose first character the rule refuses gains a leading ``_``, and a name too long is
    cut and suffixed with a hash of the canonical name (so it stays unique).
    """
    name = re.sub(f"(?!{rule.allowed}).", "_", canonical, flags=re.DOTALL)
    if rule.first is not None and re.match(rule.first, name) is None:
        name = "_" + name
    if len(name) > rule.max_length:
        keep = rule.max_length - _HASH_LENGTH - 1
        name = f"{name[:keep]}_{short_hash(canonical)}"
    return name


_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))


def python_identifier(text: str, *, reserved: AbstractSet[str] = frozenset()) -> str:
    """A snake_case identifier for ``text``: never empty, never a keyword or builtin, never in ``reserved``."""
    name = re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_").lower() or "_"
    if name[0].isdigit():
        name = "_" + name
    while name in _RESERVED or name in reserved:
        name += "_"
    return name


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")

#: Names a generated model module imports or defines besides its classes.
_GENERATED_MODULE_NAMES = frozenset(
    {
        "Annotated",
        "Any",
        "BaseModel",
        "CanonicalModel",
        "ConfigDict",
        "Field",
        "Literal",
        "MISSING",
        "Model",
        "RootModel",
        "annotations",
    }
)


#: Longest class or module name: file names have limits (255 bytes on most file systems), and a
#: 10,000-character tool name is legal.
MAX_PYTHON_NAME = 64


def _bounded(candidate: str, name: str) -> str:
    """``candidate``, cut and suffixed with a hash of ``name`` when longer than MAX_PYTHON_NAME."""
    if len(candidate) <= MAX_PYTHON_NAME:
        return candidate
    return f"{candidate[: MAX_PYTHON_NAME - _HASH_LENGTH - 1]}_{short_hash(name)}"


def words(name: str) -> list[str]:
    """The ASCII words of ``name``: ``getWeather`` and ``get_weather`` both give get, weather."""
    return [w.lower() for w in _WORD.findall(name.encode("ascii", "ignore").decode())]


def class_name(name: str, *, fallback: str = "Model") -> str:
    """CamelCase of ``name``, safe as a class name (``billing.refund`` -> ``BillingRefund``)."""
    candidate = "".join(w[:1].upper() + w[1:] for w in words(name)) or "Unnamed"
    candidate = _bounded(candidate, name)
    if candidate[0].isdigit():
        candidate = fallback + candidate
    if candidate in _RESERVED or candidate in _GENERATED_MODULE_NAMES:
        candidate += fallback
    return candidate


def module_name(name: str, *, fallback: str = "m") -> str:
    """snake_case of ``name``, safe as a module name (``billing.refund`` -> ``billing_refund``)."""
    candidate = _bounded("_".join(words(name)) or fallback, name)
    if candidate[0].isdigit():
        candidate = f"{fallback}_{candidate}"
    if candidate in _RESERVED or candidate.startswith("_"):
        candidate += "_"
    return candidate


@dataclass
class Namespace:
    """Hands out collision-free names, compared case-insensitively (macOS/Windows files)."""

    taken: set[str] = field(default_factory=set)

    def claim(self, wanted: str, *, alternative: str | None = None) -> str:
        """``wanted``, else ``alternative`` (a kind suffix), else ``wanted2``, ``wanted3`` ..."""
        for candidate in (wanted, alternative):
            if candidate is not None and candidate.lower() not in self.taken:
                self.taken.add(candidate.lower())
                return candidate
        index = 2
        while f"{wanted}{index}".lower() in self.taken:
            index += 1
        self.taken.add(f"{wanted}{index}".lower())
        return f"{wanted}{index}"
