"""Per-contract tables of JSON values written as JSON text, with what the values hold in common
stored once (read back by toolgen/runtime/_json_tables.py's ``JsonTable``).

A provider's projected schemas (and the fakes' forward plans) are written one compact JSON text a
line: a table of schemas written out as Python literals, black-formatted, took thousands of lines
for a few dozen tools. Each entry of a value's ``holder`` member (a schema's ``$defs``, a plan's
``defs``) is stored once in the shared table, under its own name when every value that holds an
entry of that name holds the same text, else under the name and a digest of the text; the value
keeps the key in the entry's place. A definition 24 tools carry is then one line, not 24 copies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.infra.json_text import compact_json
from toolgen.infra.kept import Kept, each_by_identity


def compact(value: Any) -> str:
    """The JSON text of a stored value: no spaces, text as it is (what the package's
    ``_cost.json_text`` writes, which ``JsonTable`` reads)."""
    return compact_json(value)


@dataclass(frozen=True)
class Stored:
    """One value as stored: its text with each entry of its holder as the entry's name (the
    name is its key unless its text has variants), and each entry's (name, text)."""

    text: str
    held: tuple[tuple[str, str], ...]


def stored(value: Any, holder: str, text: str | None = None) -> Stored:
    """``text``: the compact text of ``value``, when the caller has it already."""
    held = value.get(holder) if isinstance(value, dict) else None
    if not isinstance(held, dict) or not held:
        return Stored(compact(value) if text is None else text, ())
    named = {key: ({n: n for n in held} if key == holder else v) for key, v in value.items()}
    return Stored(compact(named), tuple((name, compact(entry)) for name, entry in held.items()))


@dataclass(frozen=True)
class JsonTables:
    """The stored text of each value, in order, and the shared texts by key (sorted)."""

    texts: list[str]
    shared: dict[str, str]


def json_tables(
    values: Sequence[Any],
    holder: str,
    kept: Kept | None = None,
    tag: Hashable = "",
    texts: Sequence[str] | None = None,
) -> JsonTables:
    """``values`` as stored (module docstring); ``kept``: a process that builds again, where a
    value kept from the last build keeps its stored form (under ``tag``: one call a build each);
    ``texts``: each value's compact text, when the caller has them already (used where nothing
    is kept: a fresh process would compact every value again)."""
    if texts is not None and kept is None:
        each = [stored(v, holder, text) for v, text in zip(values, texts, strict=True)]
    else:
        each = each_by_identity(kept, ("json-table", tag), values, lambda v: stored(v, holder))
    return tables_of(each, holder)


def tables_of(each: Sequence[Stored], holder: str) -> JsonTables:
    """The table of values already stored one by one (:func:`stored`)."""
    variants: dict[str, set[str]] = {}
    for one in each:
        for name, text in one.held:
            variants.setdefault(name, set()).add(text)
    keys: dict[tuple[str, str], str] = {}
    for name, seen in variants.items():
        for text in seen:
            keys[(name, text)] = name if len(seen) == 1 else _variant_key(name, text, variants)
    shared: dict[str, str] = {}
    texts: list[str] = []
    for one in each:
        for name, text in one.held:
            shared[keys[(name, text)]] = text
        if all(keys[(name, text)] == name for name, text in one.held):
            texts.append(one.text)
        else:  # an entry whose text has variants: its key is not its name
            named = json.loads(one.text)
            named[holder] = {name: keys[(name, text)] for name, text in one.held}
            texts.append(compact(named))
    return JsonTables(texts, dict(sorted(shared.items())))


def _variant_key(name: str, text: str, names: dict[str, set[str]]) -> str:
    """The key of one of several texts of entries named ``name``: the name and a digest of the
    text, longer in the (unlikely) case that an entry has that key for its name."""
    full = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    key = f"{name}~{full[:12]}"
    return key if key not in names else f"{name}~{full}"
