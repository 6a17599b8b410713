"""Exact token counts, where a tokenizer library is installed locally: toolgen depends on none.

A provider profile names the tiktoken encoding of its models (``Profile.tokenizer``); this finds
a library that has it: tiktoken, else the module ``bpe_openai`` (tiktoken's API, with the tables
in its package). tiktoken downloads an encoding's table on its first use and keeps it in its cache:
offline and without that cache, loading fails, and the count is the estimate
(toolgen/runtime/_cost.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

#: Libraries with tiktoken's ``get_encoding(name).encode(text)``, in the order they are tried.
LIBRARIES = ("tiktoken", "bpe_openai")


@dataclass(frozen=True)
class TokenCounter:
    """Counts the tokens of a text with one encoding of one library."""

    count: Callable[[str], int]
    method: str  # "exact: tiktoken o200k_base"


@cache
def token_counter(encoding: str | None) -> TokenCounter | None:
    """The counter of ``encoding`` from the first library of ``LIBRARIES`` that is installed and
    loads it; None for none (or no encoding)."""
    if encoding is None:
        return None
    for library in LIBRARIES:
        try:
            module = importlib.import_module(library)
            encoder = module.get_encoding(encoding)
            encoder.encode("")
        except Exception:  # not installed, no such encoding, its table cannot be fetched
            continue
        return TokenCounter(_count_with(encoder), f"exact: {library} {encoding}")
    return None


def _count_with(encoder: Any) -> Callable[[str], int]:
    """Tokens of a text, special tokens' spellings (``<|endoftext|>``) counted as text."""
    return lambda text: len(encoder.encode(text, disallowed_special=()))
