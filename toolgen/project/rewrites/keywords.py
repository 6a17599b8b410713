"""Keywords a provider cannot take, left out of the projection."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from toolgen.project.rewrites.rule import Counterpart, Rewrite


@dataclass(frozen=True)
class KeywordsDropped(Rewrite):
    """Keywords the provider cannot take and the canonical validation enforces after the inverse
    (``minLength``, an unsupported ``format``, ...): the projection is looser, never tighter."""

    keywords: tuple[str, ...]

    @staticmethod
    def apply(
        node: dict[str, Any], dropped: Container[str]
    ) -> tuple[dict[str, Any], KeywordsDropped | None]:
        """``node`` without the keywords of ``dropped`` (and the rule naming them in the node's
        order; None when the node has none of them)."""
        keywords = tuple(keyword for keyword in node if keyword in dropped)
        if not keywords:
            return node, None
        kept = {keyword: value for keyword, value in node.items() if keyword not in dropped}
        return kept, KeywordsDropped(keywords)

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing to undo: a dropped keyword only constrained values."""
        return at
