"""The record of one projection: for every projected node, the canonical node it came from and
the rules applied to it, in order; read by the inverses (toolgen.compile.canonical)."""

from __future__ import annotations

from dataclasses import dataclass, field

from toolgen.project.rewrites.rule import Counterpart, Rewrite


@dataclass(frozen=True)
class NodeRecord:
    """One projected node: the canonical node it came from (its pointer in the bundled schema,
    where a diagnostic about it points) and the rules applied to it, in order."""

    canonical: str
    rewrites: tuple[Rewrite, ...] = ()


@dataclass(frozen=True)
class RewriteRecord:
    """Every node of one projected schema: projected pointer -> :class:`NodeRecord`, in the
    projection's (deterministic) order. Empty for a contract the provider cannot take."""

    nodes: tuple[tuple[str, NodeRecord], ...] = ()
    _index: dict[str, NodeRecord] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", dict(self.nodes))

    def at(self, pointer: str) -> NodeRecord | None:
        return self._index.get(pointer)

    def rewrites(self, pointer: str) -> tuple[Rewrite, ...]:
        record = self._index.get(pointer)
        return record.rewrites if record is not None else ()

    def canonical_pointer(self, pointer: str) -> str:
        """The canonical node a projected node came from (for an added node, its parent's)."""
        while True:
            record = self._index.get(pointer)
            if record is not None or pointer == "":
                return record.canonical if record is not None else ""
            pointer = pointer[: pointer.rfind("/")]

    def made_nullable(self, pointer: str) -> bool:
        """Whether a null member at ``pointer`` is an absent one (its null goes): the projection
        made it accept null (MadeNullable), or boxed it (NullableOptionalBoxed)."""
        return any(r.null_means_absent for r in self.rewrites(pointer))

    def counterpart(self, pointer: str, *, root: bool = False) -> Counterpart:
        """The rules recorded at ``pointer`` undone, last first, stepping into wrappers."""
        at = Counterpart(pointer, root=root)
        while True:
            for rewrite in reversed(self.rewrites(at.pointer)):
                moved = rewrite.invert(at)
                if moved.pointer != at.pointer:
                    at = moved
                    break  # a wrapper's record holds nothing older than the wrapping
                at = moved
            else:
                return at
