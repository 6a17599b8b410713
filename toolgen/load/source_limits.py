"""The limits of one design file (README, "The design folder") and the errors that report them,
shared by the readers of JSON (toolgen.load.sources) and of YAML (toolgen.load.yaml_text)."""

from __future__ import annotations

from typing import Any

from toolgen.schema import pointer as jp

# Limits of one design file (README, "The design folder"), checked before any stage that recurses
# (parsers, meta-validation, the walker) sees the file, so that no input ends in a RecursionError,
# a hang or an exhausted memory.
#: Bytes of one file: generous for schemas (a provider accepts some 100 KB per tool) and keeps a
#: build of a runaway file to seconds.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Nested objects and arrays in one file (the file's own mapping is level 1). A tool schema that
#: a provider accepts needs a few dozen; every stage stays far from Python's recursion limit.
MAX_DEPTH = 64
#: Values YAML aliases may add to a document once expanded.
MAX_ALIAS_VALUES = 10_000


class DuplicateKeyError(ValueError):
    pass


class SourceError(ValueError):
    """A design file toolgen refuses to read further, with the stable code of its diagnostic."""

    def __init__(self, code: str, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.pointer = pointer


#: A pointer built only when needed: (parent path, token), None at the root.
NodePath = tuple[Any, str | int] | None


def pointer_of(path: NodePath) -> str:
    tokens: list[str | int] = []
    while path is not None:
        path, token = path
        tokens.append(token)
    return jp.join("", *reversed(tokens))


def too_deep(path: NodePath) -> SourceError:
    return SourceError(
        "TOO_DEEP",
        f"objects and arrays nest more than {MAX_DEPTH} levels deep here; toolgen reads at most "
        f"{MAX_DEPTH} (a schema that deep has no provider that accepts it)",
        pointer_of(path),
    )
