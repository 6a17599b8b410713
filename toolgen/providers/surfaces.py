"""The envelope schemas toolgen ships for a provider: the JSON files of its folder under
``toolgen/providers/envelopes``, and the surfaces it inherits.

A surface one of the provider's APIs reads that its folder does not hold is taken from the folder
of the provider its profile derives from (``Profile.derives_from``, recursively), with the title
naming the heir: "OpenAI chat completion" becomes "xAI chat completion". A provider whose
responses match its base's has no folder at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from toolgen.apis.api import Api
from toolgen.providers import PROFILES
from toolgen.providers.base import Profile

BUILTIN_DIR = Path(__file__).resolve().parent / "envelopes"


def own_schemas(provider: str) -> dict[str, Any]:
    """Surface -> schema of the files in ``provider``'s folder (none without a folder)."""
    folder = BUILTIN_DIR / provider
    if not folder.is_dir():
        return {}
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("*.json"))
    }


def builtin_schemas(provider: str, apis: Iterable[Api]) -> dict[str, Any]:
    """Surface -> schema toolgen ships for ``provider`` speaking ``apis``: its own files, then
    what they lack of the surfaces ``apis`` read, inherited (sorted by surface)."""
    heir = PROFILES.get(provider)
    schemas = own_schemas(provider)
    missing = [s for api in apis for s in api.surfaces if s not in schemas]
    owner = heir
    while missing and owner is not None and owner.derives_from is not None:
        owner = PROFILES[owner.derives_from]
        found = own_schemas(owner.name)
        for surface in [s for s in missing if s in found]:
            schemas[surface] = _retitled(found[surface], owner, heir)
            missing.remove(surface)
    return dict(sorted(schemas.items()))


def _retitled(schema: Any, owner: Profile, heir: Profile | None) -> Any:
    """``schema`` of ``owner`` with its title naming ``heir`` where it names ``owner``."""
    title = schema.get("title") if isinstance(schema, dict) else None
    if heir is None or not isinstance(title, str) or not (owner.display_name and heir.display_name):
        return schema
    if not title.startswith(owner.display_name):
        return schema
    return {**schema, "title": heir.display_name + title[len(owner.display_name) :]}
