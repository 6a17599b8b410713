"""The incremental build cache: results of per-contract work, stored by a hash of their inputs.

An entry's key is the SHA-256 of everything its result depends on (toolgen's own code and
templates, the versions of the libraries that write code, and the work's explicit inputs), so a
stale entry is never found rather than ever invalidated. Entries are written to a temporary file
and renamed into place: a build killed at any moment leaves whole entries or none, and an entry
that does not read back (truncated, edited, foreign) counts as a miss and is recomputed.

The cache lives in ``.toolgen-cache/`` beside the design folder (or ``--cache-dir``), never in
the output folder; deleting it at any time is safe. Like pytest's, mypy's and ruff's, it holds a
``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``, so git and backup tools pass it by. A cache that
cannot be written is skipped (:attr:`Cache.problem` says why) and a read-only one writes nothing:
either way the build's output is the same.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import marshal
import mmap
import os
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

from toolgen.infra.diagnostics import DESIGN, Diagnostic, Level
from toolgen.infra.file_state import Signature, settled, signature_of
from toolgen.infra.json_text import compact_encoder
from toolgen.infra.kept import Kept, plain_key
from toolgen.infra.resources import PACKAGE_DIR, templates_dir

R = TypeVar("R")

CACHE_FOLDER = ".toolgen-cache"
#: the size a cache may reach before a build prunes it (entries that build used are always kept)
MAX_BYTES = 512 * 1024 * 1024
#: a prune removes entries until the cache holds this share of its bound: the next walk then
#: waits for a fifth of the bound of new entries, not for the next build (ccache trims alike)
PRUNED_SHARE = 0.8
#: a temporary file this old is left over from a killed build
STALE_TEMPORARY_SECONDS = 3600
#: the cache's size in bytes as the last prune found it, plus what builds wrote since
SIZE_FILE = "size"
#: an indexed stage's entries of the last build, in one file (``Cache.index``), at
#: ``<stage>/index/index.marshal``: where an entry would be, so pruning treats it as one. The
#: entries' JSON texts as marshal's bytes: written and read as JSON, the texts' quotes were
#: escaped and unescaped, 37 ms of a fresh one-tool rebuild of the corpus design
INDEX_FILE = os.path.join("index", "index.marshal")
#: what an index's record says it is; another is not one (or of another format)
_INDEX_FORMAT = "toolgen-cache-index-1"
#: the entries of the other stages that the last build of a process that builds once used, in one
#: file (``Cache.get``): where a rebuild would open thousands of entry files, it reads one
MANIFEST_FILE = "manifest"
#: the entries builds used since the manifest was written whole, when they are few: a rebuild
#: after one edit writes these (kilobytes), not the whole manifest again (megabytes)
MANIFEST_DELTA_FILE = "manifest-delta"
#: the delta is written while it holds at most this share of the manifest's bytes
MANIFEST_DELTA_SHARE = 0.125
#: what a manifest's record says it is; another is not one (or of another format)
_MANIFEST_FORMAT = "toolgen-cache-manifest-1"
#: what toolgen puts in a cache folder it owns, so that git and backup tools leave it alone
MARKERS = {
    ".gitignore": "# Created by toolgen automatically: the build cache is never committed.\n*\n",
    # https://bford.info/cachedir/
    "CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by toolgen (its build cache).\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n",
}
_LIBRARIES = ("black", "datamodel-code-generator", "pydantic", "jinja2", "jsonschema")


#: authored order matters (property order is output order): keys are not sorted. One encoder
#: for every call (keys are made by the thousand); a value that is not JSON as its ``repr``
_json = compact_encoder(repr)


def digest(*parts: Any) -> str:
    """The SHA-256 of JSON values, in order. In a process that builds again (:func:`remember`),
    a digest of parts made of plain data is found by marshal's bytes of them, not encoded and
    hashed again (a rebuild makes tens of thousands, most of them the last build's)."""
    if _remembered is not None:
        key = plain_key(parts)
        if key is not None:
            return _remembered.computed(key, lambda: _sha256(parts))
    return _sha256(parts)


def _sha256(parts: tuple[Any, ...]) -> str:
    return hashlib.sha256(_json(parts).encode("utf-8", "surrogatepass")).hexdigest()


#: digests by marshal's bytes of their parts, while a process builds again (:func:`remember`)
_remembered: Kept | None = None


def remember(keep: bool) -> None:
    """Before a build: whether :func:`digest` remembers what it computed (a process that builds
    again), or not (a single build: nothing would be found again). Equal bytes are equal parts,
    of the same types, so a remembered digest is the digest of the parts; what builds no longer
    use is let go (:class:`Kept`)."""
    global _remembered
    if not keep:
        _remembered = None
    elif _remembered is None:
        _remembered = Kept()
    else:
        _remembered.begin()


def name_groups(names: Sequence[str], size: int) -> list[range]:
    """The positions of ``names`` in consecutive groups of about ``size`` (at most four times
    that), for the entries of a stage kept a group an entry: a group ends after a name that
    hashes to 0 modulo ``size``, so adding or removing a name changes one group."""
    groups: list[range] = []
    start = 0
    for index, name in enumerate(names):
        ends = zlib.crc32(name.encode("utf-8", "surrogatepass")) % size == 0
        if ends or index + 1 - start >= 4 * size or index + 1 == len(names):
            groups.append(range(start, index + 1))
            start = index + 1
    return groups


def grouped_results(
    cache: Cache,
    stage: str,
    names: Sequence[str],
    made_from: Sequence[str],
    make: Callable[[list[int]], list[R]],
    encode: Callable[[R], Any],
    decode: Callable[[Any], R],
    salt: Any = None,
) -> list[R]:
    """The result of each item through ``cache``, ``make(positions)`` those of the items at
    ``positions`` that it does not hold (all at once: a cold build hands them to its workers).
    Each result is found by ``made_from[i]`` (a key of everything it is a function of, such as
    the cache key of the projection it comes from), in entries of a few dozen consecutive items
    (:func:`name_groups` of their ``names``, each entry holding each result with what it was
    made from), so that a rebuild reads a handful of entries and makes only the results whose
    ``made_from`` changed: one entry an item cost a digest and a read each, thousands a
    rebuild. ``salt``: what else tells the entries of one call apart (a provider). The entries
    are the stage ``<stage>-group``'s; the items are counted as hits and misses of ``stage``."""
    fingerprint = code_fingerprint()
    entries = f"{stage}-group"
    results: list[Any] = [_ABSENT] * len(names)
    groups = name_groups(names, GROUP_SIZE)
    keys: list[str] = []
    for group in groups:
        key = digest(fingerprint, entries, salt, [names[index] for index in group])
        keys.append(key)
        stored = _stored_group(cache.get(entries, key))
        for index in group:
            found = stored.get(made_from[index], _ABSENT)
            if found is not _ABSENT:
                # (not contextlib.suppress: a context manager a result, thousands a rebuild)
                try:  # noqa: SIM105
                    results[index] = decode(found)
                except (TypeError, ValueError, KeyError, IndexError):
                    pass  # a result of another shape: made again
    missing = [index for index, result in enumerate(results) if result is _ABSENT]
    cache.misses[stage] += len(missing)
    cache.hits[stage] += len(results) - len(missing)
    if missing:
        for index, made in zip(missing, make(missing), strict=True):
            results[index] = made
        changed = set(missing)
        for key, group in zip(keys, groups, strict=True):
            if not changed.isdisjoint(group):
                entry = [[made_from[index], encode(results[index])] for index in group]
                cache.put(entries, key, entry)
    return results


#: about this many items an entry of :func:`grouped_results`
GROUP_SIZE = 64
#: not found (a stored result may be None)
_ABSENT: Any = object()


def _changed(held: dict[str, Any], recorded: dict[str, bytes]) -> dict[str, bytes]:
    """The entries of ``recorded`` that ``held`` has not, or holds with other bytes (most are
    the very objects read from it)."""
    changed = {}
    for key, value in recorded.items():
        old = held.get(key)
        if old is not value and old != value:
            changed[key] = value
    return changed


def _stored_group(found: Any) -> dict[str, Any]:
    """made from -> encoded result of an entry of :func:`grouped_results`; empty for no entry,
    or another's."""
    try:
        return {made_from: result for made_from, result in found if isinstance(made_from, str)}
    except (TypeError, ValueError):
        return {}


def plain(value: Any) -> Any:
    """``value`` with its dataclasses as tuples of their fields (for a cache key; faster than
    :func:`dataclasses.asdict`, which deep-copies every schema)."""
    if is_dataclass(value) and not isinstance(value, type):
        return [plain(getattr(value, f.name)) for f in fields(value)]
    if isinstance(value, dict):
        return (
            {k: plain(v) for k, v in value.items()}
            if any(is_dataclass(v) for v in value.values())
            else value
        )
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


@functools.cache
def code_fingerprint() -> str:
    """A hash of toolgen's source, its templates and the versions of the libraries whose output
    ends up in generated files: any change to the generator is a different key. With a cache
    opened (:meth:`Cache.open`), taken from its record when nothing it was computed from
    changed since (:func:`_recorded_fingerprint`)."""
    record = _fingerprint_record
    if record is not None:
        found = _recorded_fingerprint(record[0])
        if found is not None:
            return found
    # taken before the files are read: were one changed meanwhile, the record is not written
    evidence = _evidence() if record is not None and record[1] else ()
    fingerprint = _computed_fingerprint()
    if record is not None and evidence and _still(evidence[2]):
        _record_fingerprint(record[0], evidence, fingerprint)
    return fingerprint


def _computed_fingerprint() -> str:
    sources = sorted(PACKAGE_DIR.rglob("*.py")) + sorted(
        p for p in templates_dir().rglob("*") if p.is_file()
    )
    from importlib import metadata  # here: its import costs the CLI's start 20 ms

    hasher = hashlib.sha256()
    for path in sources:
        hasher.update(path.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for library in _LIBRARIES:
        try:
            hasher.update(f"{library}={metadata.version(library)}\0".encode())
        except metadata.PackageNotFoundError:
            hasher.update(f"{library}=?\0".encode())
    return hasher.hexdigest()


#: the record of the fingerprint in the opened cache's folder, and whether it may be written
_fingerprint_record: tuple[str, bool] | None = None
#: what a fingerprint's record starts with; another is not one (or of another format)
_FINGERPRINT_FORMAT = "toolgen-fingerprint-1"
FINGERPRINT_FILE = "fingerprint"


def _evidence() -> tuple[Any, ...]:
    """What the fingerprint is a function of, as the file system shows it without reading a
    file: the signature (toolgen/infra/file_state.py) of every folder and file of toolgen's
    package and templates (a file added, removed, written or replaced changes one), and of
    every folder on ``sys.path`` (a library installed or upgraded there adds its metadata
    folder), with the interpreter's version. None when one of them could have changed within
    the racy window of now."""
    taken_at = time.time_ns()
    signatures: list[tuple[str, Signature]] = []
    try:
        for root in (str(PACKAGE_DIR), str(templates_dir())):
            for folder, folders, names in os.walk(root):
                folders.sort()
                for name in (folder, *(os.path.join(folder, name) for name in sorted(names))):
                    signatures.append((name, signature_of(os.lstat(name))))
    except OSError:
        return ()
    for entry in sys.path:
        with contextlib.suppress(OSError):
            signatures.append((entry, signature_of(os.stat(entry))))
    if not all(settled(signature, taken_at) for _, signature in signatures):
        return ()
    return (sys.version, tuple(sys.path), tuple(signatures))


def _still(signatures: tuple[tuple[str, Signature], ...]) -> bool:
    """Whether each recorded path still has its signature (``sys.path``'s entries followed)."""
    try:
        return all(
            signature_of(os.stat(path) if path in sys.path else os.lstat(path)) == signature
            for path, signature in signatures
        )
    except OSError:
        return False


def _recorded_fingerprint(folder: str) -> str | None:
    """The fingerprint the cache in ``folder`` recorded, when nothing it was computed from
    changed since (:func:`_evidence`); None otherwise."""
    try:
        with open(os.path.join(folder, FINGERPRINT_FILE), "rb") as file:
            record = marshal.loads(file.read())
        version, path, signatures = record["evidence"]
        if (
            record["format"] != _FINGERPRINT_FORMAT
            or version != sys.version
            or path != tuple(sys.path)
            or not _still(signatures)
        ):
            return None
        fingerprint = record["fingerprint"]
    except (OSError, ValueError, EOFError, TypeError, KeyError):
        return None
    return fingerprint if type(fingerprint) is str else None


def _record_fingerprint(folder: str, evidence: tuple[Any, ...], fingerprint: str) -> None:
    data = {"format": _FINGERPRINT_FORMAT, "evidence": evidence, "fingerprint": fingerprint}
    with contextlib.suppress(OSError):
        write_atomically(folder, FINGERPRINT_FILE, marshal.dumps(data))


class Cache:
    """JSON values by key, under ``root/<stage>/<key[:2]>/<key>.json``; counts hits and misses per stage.

    ``read_only``: entries are read, nothing is written (``toolgen build --check`` changes no
    file). Otherwise the first write that fails (a folder that cannot be created, a read-only
    file system) sets :attr:`problem` and ends the writes of this build."""

    def __init__(
        self, root: Path, max_bytes: int = MAX_BYTES, *, read_only: bool = False, keep: bool = False
    ) -> None:
        """``keep``: the process builds again with this cache (:meth:`begin`)."""
        self.root = Path(root)
        self.keep = keep
        self._root = str(self.root)
        self.max_bytes = max_bytes
        self.read_only = read_only
        self.problem: str | None = None  # why this build's writes stopped
        self.hits: Counter[str] = Counter()
        self.misses: Counter[str] = Counter()
        self.used: set[str] = set()  # the paths of the entries this build read or wrote
        self.written = 0
        self.written_bytes = 0
        # indexed stage -> key -> the value's JSON text: as the last build saved them, and as
        # this build used them (text: a value handed out is a fresh copy, whatever is done to it)
        self._index: dict[str, dict[str, str]] = {}
        self._indexed: dict[str, dict[str, str]] = {}
        self._index_changed: set[str] = set()  # stages read from an entry's file or written
        # stage -> key -> the value's JSON text and, once read from memory, the value as
        # marshal's bytes (a copy of it made five times faster than from the text), of the
        # entries the last builds of this process used (kept: read from memory by the next
        # build, :meth:`begin`) and of this build's
        self._kept: dict[str, dict[str, KeptEntry]] = {}
        self._using: dict[str, dict[str, KeptEntry]] = {}
        # a process that builds once: the entries of the stages without an index of their own
        # that the last such build used (read from the manifest on the first get), and those
        # this build used, by stage and key: each value as marshal's bytes of it (a copy made
        # five times faster than from JSON text), or, put by a build, its JSON text
        # (:meth:`save_manifest`)
        self._manifest: dict[str, dict[str, Any]] | None = None
        # the manifest as read: what tells its delta apart, its size, and the delta's entries
        self._manifest_token = ""
        self._manifest_bytes = 0
        self._delta: dict[str, dict[str, bytes]] = {}
        self._recorded: dict[str, dict[str, bytes | str]] = {}
        self._manifest_changed = False

    def begin(self) -> None:
        """Start another build with this cache, in a process that builds again (``toolgen
        watch``): the counts start at zero, and the entries the last build used are read from
        memory. A key is a hash of everything its value depends on, so a kept value is as
        good as the file it came from; values are kept as JSON text, so each get hands out a
        fresh copy, as from a file."""
        self.problem = None
        self.hits.clear()
        self.misses.clear()
        self.used = set()
        self.written = self.written_bytes = 0
        # an entry the last build did not read may be needed by the next: the work that reads
        # it was spared by a kept result (toolgen/infra/kept.py), and will not be when its
        # inputs change. So entries stay, until they weigh twice what the last build used.
        for stage, entries in self._using.items():
            self._kept.setdefault(stage, {}).update(entries)
        if _weight(self._kept) > 2 * _weight(self._using):
            self._kept = self._using
        self._using = {}
        self._indexed = {stage: {} for stage in self._indexed}

    @property
    def writable(self) -> bool:
        return not self.read_only and self.problem is None

    def _failed(self, error: OSError) -> None:
        if self.problem is None:
            self.problem = error.strerror or str(error)

    def open(self) -> None:
        """Before a build writes: create the folder with its markers (a folder that lacks them
        gets them, when it is toolgen's: created here, empty, or holding the ``size`` file; a
        ``--cache-dir`` of other files is left as it is). A failure sets :attr:`problem`."""
        global _fingerprint_record
        if _fingerprint_record is None:  # the first cache this process opens
            _fingerprint_record = (self._root, self.writable)
        if not self.writable:
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            missing = [name for name in MARKERS if not (self.root / name).exists()]
            if missing and ((self.root / SIZE_FILE).exists() or not any(self.root.iterdir())):
                for name in missing:
                    write_atomically(self._root, name, MARKERS[name].encode("utf-8"))
        except OSError as error:
            self._failed(error)

    def notices(self) -> list[Diagnostic]:
        """What a build reports of its cache: one notice when it could not be written."""
        if self.problem is None:
            return []
        message = (
            f"the build cache {self.root} is skipped: {self.problem} "
            "(the output is the same; rebuilds are slower)"
        )
        return [Diagnostic("", "", DESIGN, "CACHE_SKIPPED", message, Level.INFO)]

    def is_empty(self) -> bool:
        """No entry of any stage yet (a first build, or a deleted cache)."""
        return not any(self.root.glob("*/*/*.json"))

    def _path(self, stage: str, key: str) -> str:
        # string paths: a rebuild reads tens of thousands of entries, and pathlib costs seconds
        return f"{self._root}{os.sep}{stage}{os.sep}{key[:2]}{os.sep}{key}.json"

    def index(self, stage: str) -> None:
        """Also keep the entries of ``stage`` that this build gets or puts in one index file
        (:meth:`save_indexes`), read whole by the next build's first :meth:`get` of the stage:
        for stages of many small values, where opening a file per entry costs more than the
        value (a rebuild reads thousands). The index is only a faster way to the same entries:
        each is found by its key, so an index that is old, lost or foreign only costs reads."""
        if stage not in self._index:
            self._index[stage] = self._read_index(stage)
        self._indexed.setdefault(stage, {})

    def get(self, stage: str, key: str) -> Any | None:
        path = self._path(stage, key)
        indexed = self._indexed.get(stage)
        kept = self._kept.get(stage, {}).get(key)
        source, blob = kept if kept is not None else _HELD
        if source is not None:  # else not kept, or its value held decoded by the last build
            try:
                if blob is None:  # the JSON value, as a file's text gives it, as marshal's bytes
                    value = json.loads(source)
                    blob = marshal.dumps(value)
                else:
                    value = marshal.loads(blob)
            except ValueError:  # cut out of a foreign entry: read the file again
                value = None
            if value is not None:
                self.hits[stage] += 1
                self.used.add(path)
                self._using.setdefault(stage, {})[key] = (source, blob)
                if indexed is not None:
                    indexed[key] = source
                    if key not in self._index[stage]:
                        self._index_changed.add(stage)
                return value
        if indexed is not None:
            text = self._index[stage].get(key)
            if text is not None:
                try:
                    value = json.loads(text)
                except ValueError:
                    value = None
                if value is not None:
                    self.hits[stage] += 1
                    self.used.add(path)
                    indexed[key] = text
                    if self.keep:
                        self._using.setdefault(stage, {})[key] = (text, None)
                    return value
        recording = indexed is None and not self.keep
        if recording:
            found: bytes | str | None = self._manifest_entries(stage).get(key)
            try:
                if type(found) is bytes:
                    value = marshal.loads(found)
                elif type(found) is str:  # a value's JSON text: from now on as bytes
                    value = json.loads(found)
                    found = marshal.dumps(value)
                    self._manifest_changed = True
                else:
                    value = None
            except (ValueError, EOFError, TypeError):
                value = None
            if value is not None and found is not None:
                self.hits[stage] += 1
                self.used.add(path)
                self._recorded.setdefault(stage, {})[key] = found
                return value
        try:
            with open(path, encoding="utf-8") as file:
                whole = file.read()
            entry = json.loads(whole)
            if isinstance(entry, dict) and entry.get("key") == key and "value" in entry:
                self.hits[stage] += 1
                self.used.add(path)
                text = _value_text(whole, key, entry["value"])
                if indexed is not None:
                    indexed[key] = text
                    self._index_changed.add(stage)
                if self.keep:
                    self._using.setdefault(stage, {})[key] = (text, None)
                if recording:  # before the caller may change it
                    self._recorded.setdefault(stage, {})[key] = marshal.dumps(entry["value"])
                    self._manifest_changed = True
                return entry["value"]
        except (OSError, ValueError):
            pass
        self.misses[stage] += 1
        return None

    def touch(self, stage: str, key: str) -> bool:
        """Count an entry in memory as read by this build (kept, indexed, and spared by pruning,
        as :meth:`get` does), without copying its value: the caller holds it already, so the
        entry's text is let go (an indexed stage's stays: the index is written from it; a
        :meth:`get` of an entry without its text reads its file). False when the entry is not
        in memory (then the caller gets it)."""
        entry = self._using.get(stage, {}).get(key) or self._kept.get(stage, {}).get(key)
        if entry is None:
            return False
        indexed = self._indexed.get(stage)
        if indexed is not None:
            text = entry[0]
            if text is None:
                return False
            indexed[key] = text
            if key not in self._index[stage]:
                self._index_changed.add(stage)
        else:
            entry = _HELD
        self.hits[stage] += 1
        self.used.add(self._path(stage, key))
        self._using.setdefault(stage, {})[key] = entry
        return True

    def touch_all(self, stage: str, keys: Iterable[str]) -> list[str]:
        """:meth:`touch` of each key (a stage that hands on thousands of values it kept, as
        they were), without the per-call lookups; returns the keys that were not in memory, in
        their order (the caller gets those)."""
        using = self._using.setdefault(stage, {})
        kept = self._kept.get(stage, {})
        indexed = self._indexed.get(stage)
        index = self._index.get(stage, {})
        folder = f"{self._root}{os.sep}{stage}{os.sep}"
        used = self.used
        missing: list[str] = []
        touched = 0
        for key in keys:
            entry = using.get(key) or kept.get(key)
            if entry is None:
                missing.append(key)
                continue
            if indexed is not None:
                if entry[0] is None:
                    missing.append(key)
                    continue
                indexed[key] = entry[0]
                if key not in index:
                    self._index_changed.add(stage)
            else:
                entry = _HELD
            using[key] = entry
            used.add(f"{folder}{key[:2]}{os.sep}{key}.json")  # as _path
            touched += 1
        self.hits[stage] += touched
        return missing

    def use_all(self, stage: str, keys: Iterable[str]) -> None:
        """Each key's entry counted as used (pruning, the index) without being handed out: a
        stage that hands on what it kept. :meth:`touch_all`, and the entries not in memory
        read."""
        for missing in self.touch_all(stage, keys):
            self.get(stage, missing)

    def put(self, stage: str, key: str, value: Any) -> None:
        """Store ``value``; a cache that cannot be written only makes the next build slower."""
        text = _json(value)
        if self.keep:  # the next build of this process reads it, written or not
            self._using.setdefault(stage, {})[key] = (text, None)
        if not self.writable:
            return
        path = self._path(stage, key)
        # the bytes of _json({"key": key, "value": value})
        data = _utf8(_entry_prefix(key) + text + "}")
        if data is None:
            return
        try:
            folder = os.path.dirname(path)
            os.makedirs(folder, exist_ok=True)
            size = write_atomically(folder, key + ".json", data)
        except OSError as error:
            self._failed(error)
            return
        self.used.add(path)
        self.written += 1
        self.written_bytes += size
        if stage in self._indexed:
            self._indexed[stage][key] = text
            self._index_changed.add(stage)
        elif not self.keep:
            self._recorded.setdefault(stage, {})[key] = text
            self._manifest_changed = True

    def _manifest_entries(self, stage: str) -> dict[str, Any]:
        """The entries of ``stage`` in the manifest of the last build (read on the first call):
        key -> marshal's bytes of the value, or its JSON text. Like an index, only a faster
        way to entries found by their keys: a manifest that is old, lost or foreign costs
        reads, never a wrong value."""
        if self._manifest is None:
            self._manifest = self._read_manifest()
        entries = self._manifest.get(stage)
        return entries if isinstance(entries, dict) else {}

    def _read_manifest(self) -> dict[str, Any]:
        """The manifest's entries, with those of its delta (:data:`MANIFEST_DELTA_FILE`) when
        the delta was written for this very manifest (its token)."""
        try:
            # mapped, not read: marshal copies out each value anyway, and reading tens of
            # megabytes into one more buffer first cost a rebuild 10 ms
            with (
                open(os.path.join(self._root, MANIFEST_FILE), "rb") as file,
                mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data,
            ):
                manifest = marshal.loads(data)
                size = len(data)
            entries = manifest["entries"]
            if manifest["format"] != _MANIFEST_FORMAT or not isinstance(entries, dict):
                return {}
        except (OSError, ValueError, EOFError, TypeError, KeyError):
            return {}
        self._manifest_token = str(manifest.get("token", ""))
        self._manifest_bytes = size
        try:
            with open(os.path.join(self._root, MANIFEST_DELTA_FILE), "rb") as file:
                delta = marshal.loads(file.read())
            if (
                delta["format"] == _MANIFEST_FORMAT
                and self._manifest_token
                and delta["token"] == self._manifest_token
                and isinstance(delta["entries"], dict)
            ):
                self._delta = delta["entries"]
        except (OSError, ValueError, EOFError, TypeError, KeyError):
            pass
        for stage, added in self._delta.items():
            if isinstance(added, dict) and isinstance(entries.get(stage, {}), dict):
                entries[stage] = {**entries.get(stage, {}), **added}
        return entries

    def save_manifest(self) -> None:
        """Write the manifest: the entries of the stages without an index that this build used
        (so it stays one build's size), when they are not the ones the last manifest held.
        Whole or not at all; it is not counted in the cache's size (one build's entries, beside
        the bound), and pruning never removes it. A process that builds again (``keep``) keeps
        its entries in memory instead, and writes none."""
        if not self.writable or self.keep:
            return
        held = self._manifest or {}
        if (
            not self._manifest_changed
            and all(
                len(held.get(stage) or {}) == len(entries)
                for stage, entries in self._recorded.items()
            )
            and set(held) <= set(self._recorded)
        ):
            return
        # a value put by this build as its text read back: the value as a get from its file
        # gives it (a tuple as a list); done here, in the build that computed it, so that the
        # next one (the rebuild a user waits for) only copies bytes
        entries = {
            stage: {
                key: value if type(value) is bytes else marshal.dumps(json.loads(value))
                for key, value in recorded.items()
            }
            for stage, recorded in self._recorded.items()
        }
        # the entries new or changed since the manifest (a group of results is kept under the
        # names of its contracts, its value changing with them) go to the delta while they are
        # few; the manifest keeps the entries no build uses any more until written whole again
        added = {
            stage: new
            for stage, recorded in entries.items()
            if (new := _changed(held.get(stage) or {}, recorded))
        }
        if not added and self._manifest_token:
            return  # the manifest and its delta on disk hold every entry this build used
        delta = {stage: {**self._delta.get(stage, {}), **new} for stage, new in added.items()}
        delta |= {stage: old for stage, old in self._delta.items() if stage not in delta}
        size = sum(len(value) for recorded in delta.values() for value in recorded.values())
        try:
            if self._manifest_token and size <= MANIFEST_DELTA_SHARE * self._manifest_bytes:
                record = {"format": _MANIFEST_FORMAT, "token": self._manifest_token}
                data = marshal.dumps({**record, "entries": delta})
                write_atomically(self._root, MANIFEST_DELTA_FILE, data)
                return
            token = os.urandom(16).hex()
            data = marshal.dumps({"format": _MANIFEST_FORMAT, "token": token, "entries": entries})
            write_atomically(self._root, MANIFEST_FILE, data)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(self._root, MANIFEST_DELTA_FILE))
        except OSError as error:
            self._failed(error)

    def _read_index(self, stage: str) -> dict[str, Any]:
        path = os.path.join(self._root, stage, INDEX_FILE)
        try:
            with open(path, "rb") as file:
                index = marshal.loads(file.read())
        except (OSError, ValueError, EOFError, TypeError):
            return {}
        self.used.add(path)
        if (
            not isinstance(index, dict)
            or index.get("format") != _INDEX_FORMAT
            or index.get("stage") != stage
        ):
            return {}
        entries = index.get("entries")
        if not isinstance(entries, dict):
            return {}
        return {key: text for key, text in entries.items() if isinstance(text, str)}

    def save_indexes(self) -> None:
        """Write the index of each indexed stage: the entries this build used (so it stays the
        size of one build's), when they are not the ones it read. Whole or not at all, like an
        entry; a build beside this one may replace it with its own (then the next build reads
        the other entries from their files)."""
        if not self.writable:
            return
        for stage, used in self._indexed.items():
            # what it used came from the index unless a file was read or written
            if stage not in self._index_changed and len(used) == len(self._index[stage]):
                continue
            path = os.path.join(self._root, stage, INDEX_FILE)
            folder, name = os.path.split(path)
            if _utf8("".join(used.values())) is None:
                # an entry that no file holds (a put kept in memory): left out
                used = {key: text for key, text in used.items() if _utf8(text) is not None}
            data = marshal.dumps({"format": _INDEX_FORMAT, "stage": stage, "entries": used})
            try:
                os.makedirs(folder, exist_ok=True)
                size = write_atomically(folder, name, data)
            except OSError as error:
                self._failed(error)
                return
            self._index[stage] = dict(used)
            self._index_changed.discard(stage)
            self.used.add(path)
            self.written += 1
            self.written_bytes += size

    def prune(self) -> int:
        """Remove entries this build did not use, least recently written first, until the cache
        holds :data:`PRUNED_SHARE` of ``max_bytes``; and temporary files of builds killed an hour
        ago or more. Only after a build that wrote entries (else the cache did not grow), and only
        when the size the last prune found plus what builds wrote since (the ``size`` file)
        passes ``max_bytes``: walking tens of thousands of entries costs seconds, more than a
        one-tool rebuild's work, so a cache pruned only to its bound would be walked again by
        nearly every rebuild after. That estimate only grows between walks (a replaced entry
        counts twice), but two builds finishing at once may lose one's count: the bound is kept
        to a build's writes. Safe beside other builds: an entry removed under one is a miss
        there, recomputed. Returns the count."""
        if not self.written or not self.writable:
            return 0
        estimate = self._size()
        if estimate is not None and estimate + self.written_bytes <= self.max_bytes:
            self._save_size(estimate + self.written_bytes)
            return 0
        now = time.time()
        entries: list[tuple[float, int, Path]] = []
        total, removed = 0, 0
        for path in self.root.glob("*/*/*"):
            try:
                status = path.stat()
            except OSError:
                continue
            if path.name.startswith(".tmp-"):
                if now - status.st_mtime > STALE_TEMPORARY_SECONDS:
                    path.unlink(missing_ok=True)
                    removed += 1
                continue
            total += status.st_size
            if str(path) not in self.used:
                entries.append((status.st_mtime, status.st_size, path))
        target = int(self.max_bytes * PRUNED_SHARE)
        for _, size, path in sorted(entries, key=lambda entry: entry[:2]):
            if total <= target:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        self._save_size(total)
        return removed

    def _size(self) -> int | None:
        try:
            size = json.loads((self.root / SIZE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return size if isinstance(size, int) and size >= 0 else None

    def _save_size(self, size: int) -> None:
        try:
            write_atomically(self._root, SIZE_FILE, str(size).encode("utf-8"))
        except OSError as error:
            self._failed(error)


#: an entry kept in memory: its value's JSON text, and the value as marshal's bytes once read;
#: (None, None): the entry exists, its value held decoded by the build (:meth:`Cache.touch`)
KeptEntry = tuple[str | None, bytes | None]
_HELD: KeptEntry = (None, None)
#: what an entry without its text weighs (its key)
_HELD_WEIGHT = 64


def _weight(entries: dict[str, dict[str, KeptEntry]]) -> int:
    """The characters of the values of ``entries``."""
    return sum(
        _HELD_WEIGHT if text is None else len(text)
        for stage in entries.values()
        for text, _ in stage.values()
    )


def _utf8(text: str) -> bytes | None:
    """``text`` as UTF-8, or None when it holds a lone surrogate, which no UTF-8 file can (the
    design loader refuses them; a value holding one is computed again, never written, so a build
    does not end over it)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _entry_prefix(key: str) -> str:
    return '{"key":' + _json(key) + ',"value":'


def _value_text(entry: str, key: str, value: Any) -> str:
    """The JSON text of ``value``, read from an entry's text ``entry``: cut out of it when it is
    as :meth:`Cache.put` writes it (no second encoding), else encoded again."""
    prefix = _entry_prefix(key)
    if entry.startswith(prefix) and entry.endswith("}"):
        return entry[len(prefix) : -1]
    return _json(value)


def write_atomically(folder: str, name: str, data: bytes) -> int:
    """Write ``folder/name`` whole or not at all (a temporary file renamed into place); returns
    the size. Raises OSError."""
    handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as file:
            size = file.write(data)
        os.replace(temporary, os.path.join(folder, name))
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return size


def default_cache_dir(design_root: Path) -> Path:
    """``.toolgen-cache/`` beside the design folder."""
    return Path(design_root).absolute().parent / CACHE_FOLDER
