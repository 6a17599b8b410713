"""What every rewrite rule is: a :class:`Rewrite` with a forward half (``apply``, the rewriting of
a node, returning the rule to record) and an ``invert`` (what the inverse reads at a node it
rewrote, a :class:`Counterpart`). A rule that encodes a node names its codec (``codec``: one of
toolgen/runtime/_codecs.py's ``CODECS``, the decoder and writer of the encoding), checked when the
rule is declared."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from toolgen.runtime._codecs import CODECS, Codec

NULL_SCHEMA: dict[str, Any] = {"type": "null"}

#: Keywords that only describe; when a ``$ref`` target and the referencing site both carry one,
#: the site wins, and a site that adds nothing else has the target's inverse.
ANNOTATIONS = frozenset(
    {"title", "description", "$comment", "default", "examples", "example", "deprecated"}
)
STRUCTURAL = frozenset({"$defs", "definitions"})


def types_of(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


@dataclass(frozen=True)
class Counterpart:
    """Where the inverse stands for one canonical node, in the projected schema.

    ``pointer`` is the node the projection made of it, below any wrapper the projection put around
    it; ``null_branch`` says that node's last ``anyOf`` branch was added by the projection (it is
    not a branch of the canonical union); ``call`` is the pointer of a ``$ref`` target whose
    inverse is this node's. At the root (``root``) a ``$ref`` is always inlined and never a call.
    """

    pointer: str
    root: bool = False
    null_branch: bool = False
    call: str | None = None
    values: tuple[tuple[str, Any], ...] | None = None  # text -> canonical value (EnumStringified)
    # (decoder, argument) applied after the node's own facets (toolgen.project.rewrites.encodings)
    decode: tuple[str, str] | None = None


class Rewrite(ABC):
    """One rule, applied at one projected node. Subclasses are frozen dataclasses, each with a
    static ``apply`` (the forward half: its arguments and result are the rule's own)."""

    #: every rule kind, in declaration order (filled by ``__init_subclass__``)
    KINDS: ClassVar[list[type[Rewrite]]] = []
    #: the name of the codec of an encoding rule (its decoder is the rule's inverse)
    codec: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.codec is not None and cls.codec not in CODECS:
            raise LookupError(
                f"the rewrite rule {cls.__name__} encodes with the codec {cls.codec!r}, which "
                f"toolgen/runtime/_codecs.py does not define (it has {sorted(CODECS)})"
            )
        Rewrite.KINDS.append(cls)

    @abstractmethod
    def invert(self, at: Counterpart) -> Counterpart:
        """What the inverse reads at a node this rule rewrote."""

    @property
    def moves(self) -> bool:
        """Whether the rule wrapped the node (its counterpart is a child of the recorded node)."""
        return False

    @property
    def wrapped_at(self) -> str:
        """Where a wrapping rule put the node, relative to the wrapper (its records go there)."""
        return "/anyOf/0"

    @property
    def null_means_absent(self) -> bool:
        """Whether a null member where the rule stands means an absent one (the inverse removes
        it): the projection made the member accept null, or boxed it."""
        return False

    @property
    def changes_payloads(self) -> bool:
        """Whether the inverse changes a payload where the rule stands (a codec decodes it, its
        null goes, a text is read back): a package whose record holds such a rule needs an
        inverse canonicalizer."""
        return self.codec is not None or self.null_means_absent

    @property
    def inverse_note(self) -> str | None:
        """What the inverse does where the rule stands, for the generated modules' docstrings
        (None: nothing)."""
        if self.codec is not None:
            return CODECS[self.codec].note
        return None

    def decoded(self, at: Counterpart, argument: str = "") -> Counterpart:
        """``at`` read back by the rule's codec (after the node's own facets), ``argument`` its
        member where the encoding has one."""
        codec: Codec = CODECS[self.codec or ""]
        return replace(at, decode=(codec.name, argument))


def rule_kinds() -> tuple[type[Rewrite], ...]:
    """Every rule kind declared so far."""
    return tuple(Rewrite.KINDS)
