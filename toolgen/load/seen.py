"""What a process that loads a design again (``toolgen watch``) keeps of each design file it
read: its bytes and its stat signature when read, so that a file that did not change is not
read again (``toolgen.infra.file_state`` says why a kept file is never stale). Listing the folders
still happens every load (files added and deleted).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from toolgen.infra.diagnostics import Diagnostic
from toolgen.infra.file_state import Signature, settled, signature_of
from toolgen.load.bundle import Targets
from toolgen.load.contracts import Contract, SharedDef
from toolgen.load.sources import read_source_and_status


@dataclass(frozen=True)
class Seen:
    """A design file as it was read: its bytes, its signature just before, and when; once its
    bytes parsed cleanly, their value as marshal's bytes (a copy is made from them five times
    faster than parsed again)."""

    data: bytes
    signature: Signature
    read_at: int  # time.time_ns() before the signature was taken
    parsed: bytes | None = None

    def still(self, signature: Signature) -> bool:
        """Whether the file, with ``signature`` now, holds :attr:`data` still."""
        return signature == self.signature and settled(signature, self.read_at)


def read_seen(
    path: str, relative: str, before: Seen | None
) -> tuple[Seen | None, list[Diagnostic]]:
    """The file at ``path`` as :func:`read_source` reads it (None, with a diagnostic, when it
    cannot be read); ``before``, as it is, when the file did not change since that read, and
    its bytes (the same object) when it was written again with the same bytes."""
    started = time.time_ns()
    if before is not None:  # the signature alone says whether the file must be read again
        try:
            if before.still(signature_of(os.stat(path))):
                return before, []
        except OSError:
            pass  # read_source_and_status says why
    data, status, found = read_source_and_status(path, relative)
    if data is None or status is None:
        return None, found
    signature = signature_of(status)
    if before is not None and before.data == data:
        return Seen(before.data, signature, started, before.parsed), found
    return Seen(data, signature, started), found


@dataclass(frozen=True)
class Parts:
    """What a load that found no problem made of each file (toolgen.load.loader._load), for the
    next load to start from (toolgen.load.reload)."""

    values: dict[str, Any]  # each file's value, its embedded resources rebased
    fields: dict[str, dict[str, Any]]  # each contract file's checked fields
    without_refs: frozenset[str]
    digests: dict[str, str]  # each file's bytes' SHA-256
    targets: Targets
    contracts: dict[str, Contract]  # by file
    # stage -> file -> the keys of the cache entries loading read for it (loader.cache_keys)
    cache_keys: dict[str, dict[str, tuple[str, ...]]]
    # the definitions contracts hold in common, as the design lists them (load.common_defs)
    common: dict[str, SharedDef] = field(default_factory=dict)

    @property
    def target_files(self) -> frozenset[str]:
        return frozenset(file for file, _ in self.targets.names)


@dataclass(frozen=True)
class LastLoad:
    """What one load of a design hands the next in the same process (toolgen.load.reload):
    every file as it read it and, when the design loaded without a diagnostic, what it made of
    each file. Nothing here is changed once made."""

    root: str
    known: Any  # the providers the design could name (load_design's known_providers)
    scanned: dict[str, bool]  # design file -> whether a symbolic link is on its way
    seen: dict[str, Seen]
    # toolgen.toml's and the envelope files' bytes (None: absent), in the design's hash
    others: dict[str, bytes | None]
    design: Any  # Design | None
    diagnostics: tuple[Diagnostic, ...]
    parts: Parts | None  # when there was no diagnostic
