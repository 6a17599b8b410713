"""Telling that a file did not change since a process last looked at it, without reading it.

A file's signature is its inode, size, modification time and change time. The change time (ctime)
is set by the kernel on every write, truncation, rename, link and ``utime`` (so also when an
editor or ``cp -p`` puts the times back), and no user can set it; a replaced file has another
inode, unless a deleted one's is reused, and then its ctime is the replacement's. So a file whose
signature is the one it had when it was looked at has not been written since, with one
exception: a write in the same tick of the file system's clock as the one before the look leaves
the ctime as it was. A signature whose ctime lies within :data:`RACY_NS` of the moment it was
taken ("racily clean", as git calls it) proves nothing: the file is read instead.
"""

from __future__ import annotations

import os

#: a signature whose ctime is this close to (or after) the moment it was taken proves nothing
RACY_NS = 50_000_000

#: (st_ino, st_size, st_mtime_ns, st_ctime_ns)
Signature = tuple[int, int, int, int]


def signature_of(status: os.stat_result) -> Signature:
    return (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def settled(signature: Signature, taken_at: int) -> bool:
    """Whether ``signature``, taken at ``taken_at`` (``time.time_ns()`` just before the stat),
    can tell later that the file did not change: its ctime lies before the racy window."""
    return signature[3] < taken_at - RACY_NS
