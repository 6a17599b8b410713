"""The provider table of the docs, written from the profiles (``toolgen providers``).

The README's table and docs/providers.md are this module's output, so they cannot drift from what
the projection does: ``make provider-docs`` rewrites them and a test compares.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path

from toolgen.providers import DIALECTS, PROFILES
from toolgen.providers.base import UNREPRESENTABLE, Profile

#: Structural keywords every profile keeps; the table lists the other kept ones.
_STRUCTURE = frozenset({
    "type", "properties", "required", "items", "additionalProperties", "anyOf", "enum", "$ref",
    "$defs", "definitions", "description", "title",
})  # fmt: skip
#: Annotations and identifiers no profile sends; the table lists the other dropped keywords.
_ANNOTATIONS = frozenset({
    "$schema", "$id", "$comment", "$anchor", "examples", "example", "deprecated", "readOnly",
    "writeOnly", "contentEncoding", "contentMediaType", "contentSchema",
})  # fmt: skip

README_BEGIN = "<!-- provider table: written by `make provider-docs`, do not edit -->"
README_END = "<!-- end of provider table -->"


def entries() -> list[tuple[str, str | None, Profile]]:
    """Every profile a build can use: (provider name, dialect or None, profile)."""
    found: list[tuple[str, str | None, Profile]] = []
    for name, profile in PROFILES.items():
        if name in DIALECTS:
            found += [(name, dialect, p) for dialect, p in DIALECTS[name].items()]
        else:
            found.append((name, None, profile))
    return found


def variants() -> list[tuple[str, Profile]]:
    """Every profile a build can use, labelled as toolgen.toml chooses it."""
    return [
        (f"`{name}`" if dialect is None else f'`{name}`, `dialect = "{dialect}"`', profile)
        for name, dialect, profile in entries()
    ]


def _code(names: Iterable[str]) -> str:
    return ", ".join(f"`{n}`" for n in sorted(names)) or "none"


def _optional(profile: Profile) -> str:
    if profile.optional_style == "omit":
        cap = profile.limits.optional_members
        if profile.optionals_over_cap and cap is not None:
            return (
                f"stay optional (no nulls added); over {cap} in a schema, the last ones are "
                "required and nullable (boxed where they accept null), and the inverse removes "
                "those nulls"
            )
        return "stay optional (no nulls added)"
    form = "a type list with null" if profile.type_arrays else "`anyOf` with a null branch"
    return (
        f"required and nullable ({form}); the inverse removes the nulls; one that accepts null "
        'is boxed: null or `{"value": ...}`'
    )


def _rewrites(profile: Profile) -> str:
    done = ["`oneOf` as `anyOf`", "one-branch `allOf` merged"]
    if profile.inline_refs:
        done.append("`$ref` inlined")
    if not profile.type_arrays:
        done.append("type lists split into `anyOf`")
    if profile.const_as_enum:
        done.append("`const` as a one-value `enum`")
    if profile.string_enums:
        done.append("non-string enums as string enums (read back exactly)")
    if not profile.recursion:
        done.append("a `$ref` that closes a cycle as JSON text (read back exactly)")
    if profile.tool_wire is not None:
        done.append(profile.tool_wire.rewrites)
    if profile.openapi is not None:
        done.append(
            "OpenAPI spelling (`nullable: true`, upper-case types, no `additionalProperties`)"
        )
    return "; ".join(done)


def _rejected(profile: Profile) -> str:
    extra = sorted(set(profile.reject) - set(UNREPRESENTABLE))
    parts = [_code(extra)] if extra else []
    if profile.tool_wire is not None and profile.tool_wire.rejects:
        parts.append(profile.tool_wire.rejects)
    if not profile.recursion:
        parts.append("recursion inside `anyOf`/`oneOf`")
    elif profile.recursion_through_optional:
        parts.append("recursion through required members")
    limits = profile.limits
    caps = [
        (limits.properties, "properties"),
        (limits.nesting, "levels"),
        (limits.enum_values, "enum values"),
        (limits.any_of_branches, "`anyOf` branches"),
        (limits.optional_members, "optional members"),
        (limits.union_members, "union members"),
        (limits.tools, "tools per request"),
        (limits.strict_tools, "strict tools per request"),
    ]
    stated = [f"{value:,} {what}" for value, what in caps if value is not None]
    if stated:
        parts.append("over " + ", ".join(stated))
    return "; ".join(parts) or "nothing"


def _strict_flag(profile: Profile) -> str:
    mode = profile.non_strict
    if not profile.strict_flag:
        return "none (no strict mode)"
    if mode is None:
        return "on"
    refused = _code(mode.refused_at_root)
    anywhere = f", and {_code(mode.refused)} anywhere" if mode.refused else ""
    return f"on, or off per tool: the canonical schema without a root {refused}{anywhere}"


def _sources(profile: Profile) -> str:
    dates = sorted({rule.checked for rule in profile.rules})
    return f"{len(profile.rules)} rules, checked {', '.join(dates)}" if dates else "none"


#: The summary's columns after the provider's label, in order.
COLUMNS = (
    "strict flag", "optional members", "rewrites", "kept beyond structure",
    "dropped (enforced after decoding)", "rejected beyond the common set", "rules",
)  # fmt: skip


def summary_cells(profile: Profile) -> tuple[str, ...]:
    """One profile's cells of the summary, in the order of ``COLUMNS`` (Markdown text)."""
    kept = sorted(profile.keep - _STRUCTURE)
    dropped = sorted(profile.drop - _ANNOTATIONS)
    return (
        _strict_flag(profile),
        _optional(profile),
        _rewrites(profile),
        f"{_code(kept)}; formats {_code(profile.formats)}",
        _code(dropped),
        _rejected(profile),
        _sources(profile),
    )


def summary_table() -> str:
    """The README's table: one row per profile variant."""
    rows = [
        "| provider | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
    ]
    for label, profile in variants():
        rows.append(f"| {label} | " + " | ".join(summary_cells(profile)) + " |")
    return "\n".join(rows) + "\n"


def rules_document() -> str:
    """docs/providers.md: the summary, then every rule of every profile with source and date."""
    parts = [
        "# Providers\n",
        "Written by `make provider-docs` from the profiles in `toolgen/providers/`; do not edit.\n",
        summary_table(),
    ]
    for label, profile in variants():
        parts.append(f"## {profile.title} ({label})\n")
        parts.append("| topic | fact and what the profile does | source | checked |")
        parts.append("|---|---|---|---|")
        for rule in profile.rules:
            fact = rule.fact.replace("|", "\\|")
            parts.append(f"| {rule.topic} | {fact} | {rule.source} | {rule.checked} |")
        parts.append("")
    return "\n".join(parts)


def readme_with_table(readme: str) -> str:
    """``readme`` with the text between the table markers replaced by the summary table."""
    head, found, rest = readme.partition(README_BEGIN)
    _, found_end, tail = rest.partition(README_END)
    if not found or not found_end:
        raise ValueError(f"README.md needs the markers {README_BEGIN!r} and {README_END!r}")
    return f"{head}{README_BEGIN}\n{summary_table()}{README_END}{tail}"


#: The JSON keys of ``COLUMNS``.
_JSON_KEYS = (
    "strict_flag",
    "optional_members",
    "rewrites",
    "kept",
    "dropped",
    "rejected",
    "sources",
)
#: Below this many columns for the values, a block puts each value under its name.
_NARROW = 30


def _plain(markdown: str) -> str:
    return markdown.replace("`", "").replace("\\|", "|")


def json_document() -> str:
    """Every profile with its summary cells and its rules (``toolgen providers --format json``)."""
    document = []
    for name, dialect, profile in entries():
        cells = dict(zip(_JSON_KEYS, map(_plain, summary_cells(profile)), strict=True))
        rules = [
            {"topic": r.topic, "fact": r.fact, "source": r.source, "checked": r.checked}
            for r in profile.rules
        ]
        entry = {"provider": name, "dialect": dialect, "title": profile.title}
        document.append({**entry, **cells, "rules": rules})
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _field(name: str, value: str, width: int) -> list[str]:
    """``name`` and its wrapped ``value``: side by side, or the value under it when narrow."""
    key_width = 2 + max(map(len, COLUMNS)) + 2
    if width - key_width >= _NARROW:
        lines = textwrap.wrap(value, width - key_width, break_on_hyphens=False) or [""]
        return [f"  {name:<{key_width - 4}}  {lines[0]}"] + [" " * key_width + x for x in lines[1:]]
    body = textwrap.wrap(
        value, max(width, 24), initial_indent="    ", subsequent_indent="    ",
        break_on_hyphens=False,
    )  # fmt: skip
    return [f"  {name}", *body]


def terminal_text(width: int, *, rules: bool = False) -> str:
    """The summary as one block per profile, wrapped to ``width`` columns (and each rule)."""
    blocks = []
    for name, dialect, profile in entries():
        label = name if dialect is None else f'{name}, dialect = "{dialect}"'
        lines = textwrap.wrap(f"{label}: {profile.title}", max(width, 24), subsequent_indent="  ")
        for column, cell in zip(COLUMNS, summary_cells(profile), strict=True):
            lines += _field(column, _plain(cell), width)
        if rules:
            for rule in profile.rules:
                text = f"{rule.topic}: {_plain(rule.fact)} ({rule.source}, checked {rule.checked})"
                lines += textwrap.wrap(
                    text, max(width, 24), initial_indent="  - ", subsequent_indent="    ",
                    break_on_hyphens=False,
                )  # fmt: skip
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def render(output_format: str, *, rules: bool, width: int) -> str:
    """What ``toolgen providers`` prints: ``text`` for a terminal, ``markdown`` or ``json``."""
    if output_format == "json":
        return json_document()
    if output_format == "markdown":
        return rules_document() if rules else summary_table()
    return terminal_text(width, rules=rules)


def main(argv: list[str]) -> int:
    """``python -m toolgen.providers.table README.md docs/providers.md``: rewrite both."""
    readme, document = (Path(arg) for arg in argv)
    readme.write_text(readme_with_table(readme.read_text(encoding="utf-8")), encoding="utf-8")
    document.write_text(rules_document(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
