"""Writing the package: all or nothing, only into a folder toolgen owns, removing what it no longer makes."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from toolgen.package import MANIFEST


class OutputError(Exception):
    """OUT cannot be written safely (not toolgen's, or a path that would leave it)."""


def check_paths(files: dict[str, str]) -> None:
    """Every path stays inside OUT and no two differ only by case."""
    folded: dict[str, str] = {}
    for path in files:
        pure = PurePosixPath(path)
        if (
            pure.is_absolute()
            or ".." in pure.parts
            or str(pure) != path
            or "\\" in path
            or not path
        ):
            raise OutputError(f"refusing to write {path!r}: it would leave the output folder")
        other = folded.setdefault(path.casefold(), path)
        if other != path:
            raise OutputError(
                f"refusing to write both {other!r} and {path!r}: they differ only by case"
            )


def _owned_files(out: Path) -> set[str] | None:
    """The files the last build wrote into ``out`` (None when ``out`` has no toolgen manifest)."""
    try:
        manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        return {*manifest["files"], MANIFEST}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _foreign_files(out: Path, owned: set[str]) -> list[str]:
    found = []
    for path in out.rglob("*"):
        relative = path.relative_to(out)
        if "__pycache__" in relative.parts or path.is_dir():
            continue
        if relative.as_posix() not in owned:
            found.append(relative.as_posix())
    return sorted(found)


def _ensure_ours(out: Path) -> set[str]:
    if not out.exists():
        return set()
    if not out.is_dir():
        raise OutputError(f"{out} exists and is not a folder")
    owned = _owned_files(out)
    if owned is None:
        if any(out.iterdir()):
            raise OutputError(
                f"{out} is not empty and has no {MANIFEST}: toolgen writes only into folders it owns"
            )
        return set()
    return owned


@dataclass(frozen=True)
class Difference:
    path: str
    change: str  # "missing", "changed" or "stale"


def compare(out: Path, files: dict[str, str]) -> list[Difference]:
    """What writing ``files`` would change in ``out`` (manifest included), in path order."""
    owned = _owned_files(out) if out.is_dir() else set()
    differences = []
    for path, text in sorted(files.items()):
        target = out / path
        if not target.is_file():
            differences.append(Difference(path, "missing"))
        elif target.read_bytes() != text.encode("utf-8"):
            differences.append(Difference(path, "changed"))
    for path in sorted((owned or set()) - set(files)):
        if (out / path).exists():
            differences.append(Difference(path, "stale"))
    return differences


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def _recover(out: Path) -> None:
    """Clean up after a build that was killed: its staging tree goes; if it died between moving
    the previous tree aside and moving the new one in, the previous tree comes back."""
    prefix = f".{out.name}.toolgen-"
    for leftover in sorted(out.parent.glob(prefix + "*")):
        kind, _, pid = leftover.name[len(prefix) :].partition("-")
        if kind not in ("new", "old") or not pid.isdigit() or _alive(int(pid)):
            continue
        if kind == "old" and not out.exists() and (leftover / MANIFEST).is_file():
            os.replace(leftover, out)
        else:
            shutil.rmtree(leftover, ignore_errors=True)


def write_package(out: Path, files: dict[str, str]) -> None:
    """Replace ``out`` with ``files`` atomically: the new tree is written beside it and renamed in;
    the previous tree stays whole until then, and files toolgen did not write are carried over."""
    check_paths(files)
    out = out.absolute()
    if out.parent.is_dir():
        _recover(out)
    owned = _ensure_ours(out)
    foreign = _foreign_files(out, owned) if out.exists() else []
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.parent / f".{out.name}.toolgen-new-{os.getpid()}"
    previous = out.parent / f".{out.name}.toolgen-old-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for path, text in files.items():
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
        for path in foreign:
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(out / path, target)
        if out.exists():
            os.replace(out, previous)
        try:
            os.replace(staging, out)
        except BaseException:
            if previous.exists() and not out.exists():
                os.replace(previous, out)
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(previous, ignore_errors=True)
