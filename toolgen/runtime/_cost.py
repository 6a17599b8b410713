"""What a part of a request costs before it is sent: the bytes of its JSON text and an estimate
of its tokens, for ``toolgen show --cost`` and ``toolgen build --max-request-tokens`` (and for a
request planner of the runtime that reports the same figures).

The estimate is a token per ``BYTES_PER_TOKEN`` bytes of the part's compact JSON text. Measured
with the o200k_base encoding over 873 tool definitions (the corpus of tools/list results, SDK
recordings and BFCL functions beside the repository, and an imported MCP server's list), a token
holds 4.67 bytes at the median and 4.22 at the tenth percentile (3.33 at the least): the
estimate is high by about a sixth for most definitions and low for 3% of them. Where a
provider's tokenizer is not public, its counts are this estimate too.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["BYTES_PER_TOKEN", "METHOD", "estimated_tokens", "json_size", "json_text"]

BYTES_PER_TOKEN = 4
METHOD = f"estimate: a token per {BYTES_PER_TOKEN} bytes of compact JSON"


def json_text(value: Any) -> str:
    """The compact JSON text of ``value`` (no spaces, text as it is)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_size(value: Any) -> int:
    """The bytes of ``value``'s compact JSON text, in UTF-8."""
    return len(json_text(value).encode("utf-8", "surrogatepass"))


def estimated_tokens(size: int) -> int:
    """The estimated tokens of a JSON text of ``size`` bytes (rounded up)."""
    return -(-size // BYTES_PER_TOKEN)
