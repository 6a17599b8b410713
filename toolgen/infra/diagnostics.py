"""Diagnostics are values: collected by every stage, sorted, then reported once by the CLI."""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass

#: The provider slot of a diagnostic that no provider raised (loading, meta-validation, examples).
DESIGN = "design"


class Level(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"  # a decision worth knowing about (toolgen import reports its choices so)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding about the design: where (file and JSON pointer), for whom, what and why.

    ``file`` is relative to the design folder, in POSIX form; ``pointer`` is a JSON pointer into that
    file's document ("" is the whole document).
    """

    file: str
    pointer: str
    provider: str
    code: str
    message: str
    level: Level = Level.ERROR

    def format(self) -> str:
        prefix = "" if self.level is Level.ERROR else f"{self.level}: "
        return f"{self.file}:{self.pointer}: {self.provider}: {self.code} {prefix}{self.message}"

    def to_dict(self) -> dict[str, str]:
        return {key: str(value) for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, value: dict[str, str]) -> Diagnostic:
        """The inverse of :meth:`to_dict`."""
        fields = {key: value[key] for key in ("file", "pointer", "provider", "code", "message")}
        return cls(**fields, level=Level(value["level"]))


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The stable report order: by file, then pointer, provider and code; duplicates dropped."""
    return sorted(set(diagnostics))


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.level is Level.ERROR for d in diagnostics)


def format_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "".join(d.format() + "\n" for d in sort_diagnostics(diagnostics))


def format_json(diagnostics: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in sort_diagnostics(diagnostics)], indent=2) + "\n"
