"""sha256 of every envelope schema toolgen ships, by provider and surface: the proof that
inheriting surfaces (Profile.derives_from) resolves each one to the same JSON value as the file it
replaced.

``tests/envelope/surface_hashes.json`` was written by this module from the tree before the copies
were deleted (commit "Snapshot of every shipped envelope schema"), with

    .venv/bin/python -m tests.envelope.surface_hashes > tests/envelope/surface_hashes.json

and test_surface_inheritance.py compares today's resolution with it. The hash covers the whole
value in its key order (title and $comment included), as json.dumps writes it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from toolgen.compile.validators import load_envelope_schemas
from toolgen.providers import PROFILES, envelope_providers


def digest(schema: Any) -> str:
    text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def surface_hashes() -> dict[str, dict[str, str]]:
    """provider -> surface -> sha256 of the schema toolgen ships (no design overrides)."""
    return {
        provider: {
            surface: digest(schema)
            for surface, schema in load_envelope_schemas(
                provider, {}, PROFILES[provider].apis
            ).items()
        }
        for provider in envelope_providers()
    }


if __name__ == "__main__":
    json.dump(surface_hashes(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
