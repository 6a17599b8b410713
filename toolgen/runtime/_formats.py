"""The JSON Schema formats the models enforce, and how a refusal of one names it.

The build turns a ``format`` of ``FORMAT_PATTERNS`` into a ``pattern`` of the model
(``format_pattern``; toolgen/compile/models/prepare.py), enforced with no extra run-time package
while the value stays the string it was. When pydantic refuses a value for such a pattern, its
message quotes toolgen's regular expression, which tells neither a person nor a model what was
wanted: ``format_message`` recognizes the patterns ``format_pattern`` builds and names the format
instead (and the schema's own ``pattern`` beside it, which is the design's), so a PayloadError, the
retry text sent to the model and a canary report say ``should be a UUID (format: uuid)``.
"""

from __future__ import annotations

__all__ = ["FORMAT_NOUNS", "FORMAT_PATTERNS", "format_message", "format_pattern"]


_IPV4 = r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_H16 = r"[0-9A-Fa-f]{1,4}"
_LS32 = rf"(?:{_H16}:{_H16}|{_IPV4})"


def _ipv6() -> str:
    """RFC 4291 section 2.2, in the nine forms of RFC 3986's IPv6address: eight groups, the last
    two of which may be an IPv4 address, with at most one ``::`` standing for one or more."""
    forms = [
        rf"(?:{_H16}:){{6}}{_LS32}",
        rf"::(?:{_H16}:){{5}}{_LS32}",
        rf"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
        rf"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
        rf"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
        rf"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",
        rf"(?:(?:{_H16}:){{0,6}}{_H16})?::",
    ]
    return "|".join(f"(?:{form})" for form in forms)


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
#: RFC 3339 appendix A: ``P`` then a date (years, months, days, each with all the smaller units
#: up to days or none), a time (``T`` with hours, minutes, seconds likewise) or weeks alone
_DURATION_TIME = r"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
_DURATION_DATE = r"(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)"

#: JSON Schema formats enforced by the models, as unanchored Python regular expressions (ASCII):
#: every format a provider's strict mode keeps (docs/generated-api.md lists them), by the
#: definitions JSON Schema 2020-12 cites. Formats not listed are annotations only (JSON Schema
#: 2020-12's format-annotation vocabulary).
FORMAT_PATTERNS: dict[str, str] = {
    "date-time": (
        r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt ]"
        r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?"
        r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
    ),
    "date": r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])",
    "time": (
        r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?"
        r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
    ),
    "email": r"[^@\s]+@[^@\s]+",
    "uuid": r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    "ipv4": _IPV4,
    "ipv6": _ipv6(),
    # RFC 1123 section 2.1: dot-separated labels of letters, digits and inner hyphens, each at
    # most 63 characters, at most 253 in all
    "hostname": rf"(?=[^\n]{{1,253}}\Z){_LABEL}(?:\.{_LABEL})*",
    "duration": rf"P(?:{_DURATION_DATE}(?:{_DURATION_TIME})?|{_DURATION_TIME}|[0-9]+W)",
    "uri": r"[A-Za-z][A-Za-z0-9+.\-]*:\S*",
}

#: How a message names a value of each format of ``FORMAT_PATTERNS``: what a person or a model
#: should write instead (the same definitions).
FORMAT_NOUNS: dict[str, str] = {
    "date-time": "an RFC 3339 date-time such as 2026-01-31T09:30:00Z",
    "date": "an RFC 3339 full-date such as 2026-01-31",
    "time": "an RFC 3339 full-time with an offset such as 09:30:00Z",
    "email": "an email address",
    "uuid": "a UUID",
    "ipv4": "an IPv4 address",
    "ipv6": "an IPv6 address",
    "hostname": "a hostname (RFC 1123)",
    "duration": "an RFC 3339 duration such as P1DT2H",
    "uri": "a URI with a scheme",
}

_START = r"\A"
_END = r"\Z"
#: what ``format_pattern`` puts before the schema's own pattern when there is one
_LOOKAHEAD = r"\A(?=[\s\S]*?(?:"


def format_pattern(fmt: str, pattern: str | None) -> str:
    """One regular expression for ``format`` and, when there is one, the schema's ``pattern``."""
    anchored = f"{_START}(?:{FORMAT_PATTERNS[fmt]}){_END}"
    if pattern is None:
        return anchored
    # The schema's pattern keeps its search semantics inside a lookahead at the start.
    return f"{_LOOKAHEAD}{pattern})){anchored[len(_START) :]}"


def format_message(pattern: str) -> str | None:
    """What a string refused by ``pattern`` should have been, when ``pattern`` is one that
    ``format_pattern`` builds: the format by its name, and the schema's own pattern if any (None
    for any other pattern, whose refusal pydantic's message states well)."""
    for fmt, expression in FORMAT_PATTERNS.items():
        tail = f"(?:{expression}){_END}"
        if not pattern.endswith(tail):
            continue
        head = pattern[: -len(tail)]
        named = f"String should be {FORMAT_NOUNS[fmt]} (format: {fmt})"
        if head == _START:
            return named
        if head.startswith(_LOOKAHEAD) and head.endswith("))"):
            return f"{named} and match pattern '{head[len(_LOOKAHEAD) : -2]}'"
    return None
