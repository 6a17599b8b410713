"""A design folder as it was at a git revision, exported into a temporary folder (for ``toolgen diff --git``)."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path


class GitError(Exception):
    """git is missing, DESIGN is not in a repository, or REV does not name a commit."""


def _git(cwd: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, check=False)
    except OSError as error:
        raise GitError(f"cannot run git: {error}") from error
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip() or f"git {args[0]} failed"
        raise GitError(message)
    return done.stdout


def export_design(design: Path, rev: str, into: Path) -> Path | None:
    """Write the files of ``design`` as committed at ``rev`` under ``into``; returns the exported
    design folder, or None when the folder did not exist at ``rev``."""
    design = design.resolve()
    top = Path(_git(design, "rev-parse", "--show-toplevel").decode().strip()).resolve()
    prefix = design.relative_to(top).as_posix()
    commit = (
        _git(top, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}").decode().strip()
    )
    if prefix != "." and not _git(top, "ls-tree", "-d", commit, "--", prefix).strip():
        return None
    archive = _git(
        top, "archive", "--format=tar", commit, *(["--", prefix] if prefix != "." else [])
    )
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    exported = into / prefix
    exported.mkdir(parents=True, exist_ok=True)
    return exported
