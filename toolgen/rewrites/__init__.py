"""The rewrites of the provider projection, each written beside its inverse.

The projection (toolgen.projection) writes some canonical forms another way for a provider: a
``$ref`` with siblings inlined, a one-element ``allOf`` merged, ``oneOf`` folded into ``anyOf``,
an optional member made nullable, a type list split into ``anyOf``. For every projected node it
records which rules it applied, in order (a :class:`NodeRecord`), keyed by the node's pointer in
the projected schema beside the pointer of the canonical node it came from (a :class:`RewriteRecord`).

The inverses (toolgen.canonical) read that record and never recognise shapes: each rule's
``invert`` says what the inverse sees at a node the rule rewrote (a :class:`Counterpart`). A rule
that moves the node it rewrites (a wrapper) is the first rule of the wrapper's record; the wrapped
node's own rules stay with it, under ``/anyOf/0``. A node the projection adds (the null branch of a
wrapper) has no record of its own.

A new rule is a new :class:`Rewrite` subclass: it cannot be declared without ``invert``, and
tests/test_rewrites.py fails until a case exercises it.
"""

from __future__ import annotations

import enum
import functools
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from toolgen import pointer as jp

NULL_SCHEMA: dict[str, Any] = {"type": "null"}

#: Keywords that only describe; when a ``$ref`` target and the referencing site both carry one,
#: the site wins, and a site that adds nothing else has the target's inverse.
ANNOTATIONS = frozenset(
    {"title", "description", "$comment", "default", "examples", "example", "deprecated"}
)
STRUCTURAL = frozenset({"$defs", "definitions"})


def _types(node: dict[str, Any]) -> list[Any]:
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


class Rewrite(ABC):
    """One rule, applied at one projected node. Subclasses are frozen dataclasses."""

    #: every rule kind, in declaration order (filled by ``__init_subclass__``)
    KINDS: ClassVar[list[type[Rewrite]]] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Rewrite.KINDS.append(cls)

    @abstractmethod
    def invert(self, at: Counterpart) -> Counterpart:
        """What the inverse reads at a node this rule rewrote."""

    @property
    def moves(self) -> bool:
        """Whether the rule wrapped the node (its counterpart is a child of the recorded node)."""
        return False


# -- keywords --------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeywordsDropped(Rewrite):
    """Keywords the provider cannot take and the canonical validation enforces after the inverse
    (``minLength``, an unsupported ``format``, ...): the projection is looser, never tighter."""

    keywords: tuple[str, ...]

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing to undo: a dropped keyword only constrained values."""
        return at


# -- $ref, allOf, oneOf ------------------------------------------------------------------------


@dataclass(frozen=True)
class RefInlined(Rewrite):
    """A ``$ref`` with sibling keywords (or at the root) became its target, merged with the
    siblings (the site's annotations win). ``target`` is the pointer of the target."""

    target: str
    annotations_only: bool  # the siblings only describe (or there are none)

    def invert(self, at: Counterpart) -> Counterpart:
        """Where the site only added annotations, the inverse is the target's: one function for
        every such site (and the same one where the reference recurses)."""
        if self.annotations_only and not at.root:
            return replace(at, call=self.target)
        return at


@dataclass(frozen=True)
class RecursiveRefKept(Rewrite):
    """A ``$ref`` with annotation siblings, met again inside its own inlining, stayed a bare
    ``$ref`` (inlining again would never end); the annotations went."""

    target: str

    def invert(self, at: Counterpart) -> Counterpart:
        """The target's inverse, as for any bare reference."""
        return replace(at, call=self.target)


@dataclass(frozen=True)
class AllOfMerged(Rewrite):
    """A one-element ``allOf`` was merged into its node; ``branch`` is the canonical pointer of
    the merged branch."""

    branch: str

    def invert(self, at: Counterpart) -> Counterpart:
        """Nothing to undo: the merged node holds every keyword of both."""
        return at


@dataclass(frozen=True)
class OneOfFolded(Rewrite):
    """``oneOf`` was written as ``anyOf`` (looser; the canonical validation keeps "exactly one")."""

    @staticmethod
    def apply(node: dict[str, Any]) -> dict[str, Any]:
        return {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}

    def invert(self, at: Counterpart) -> Counterpart:
        """The ``anyOf`` branches are the ``oneOf`` branches, in order: the first that admits a
        valid payload is its only one."""
        return at


# -- nullability -----------------------------------------------------------------------------


class NullForm(enum.Enum):
    """How a node was made to accept null."""

    TYPE = "type gained null"
    ENUM = "enum gained null"
    TYPE_AND_ENUM = "type and enum gained null"
    BRANCH = "anyOf gained a null branch"
    WRAP = "wrapped in anyOf with a null branch"


@dataclass(frozen=True)
class MadeNullable(Rewrite):
    """An optional member that does not accept null became a required one that does; the
    inverse removes its null (DESIGN.md §5)."""

    form: NullForm

    @staticmethod
    def apply(node: dict[str, Any], *, type_arrays: bool) -> tuple[dict[str, Any], MadeNullable]:
        """``node`` that also accepts null: type gains "null", enum gains null, anyOf gains a null
        branch, and a ``$ref`` or ``const`` is wrapped in ``anyOf: [node, {"type": "null"}]``.
        Without type lists (``type_arrays=False``) every node but an anyOf is wrapped."""
        # An anyOf beside type/enum/const/$ref is an intersection: a null branch alone would not
        # let null in.
        if "anyOf" in node and not any(k in node for k in ("type", "enum", "const", "$ref")):
            return {**node, "anyOf": [*node["anyOf"], dict(NULL_SCHEMA)]}, MadeNullable(
                NullForm.BRANCH
            )
        wrap = (
            "$ref" in node
            or "const" in node
            or "anyOf" in node
            or ("type" not in node and "enum" not in node)
        )
        if wrap or not type_arrays:
            return {"anyOf": [node, dict(NULL_SCHEMA)]}, MadeNullable(NullForm.WRAP)
        result = dict(node)
        gained: set[str] = set()
        if "type" in result:
            types = _types(result)
            if "null" not in types:
                result["type"] = [*types, "null"]
                gained.add("type")
        if "enum" in result and None not in result["enum"]:
            result["enum"] = [*result["enum"], None]
            gained.add("enum")
        if gained == {"type", "enum"}:
            return result, MadeNullable(NullForm.TYPE_AND_ENUM)
        return result, MadeNullable(NullForm.ENUM if gained == {"enum"} else NullForm.TYPE)

    @property
    def moves(self) -> bool:
        return self.form is NullForm.WRAP

    def invert(self, at: Counterpart) -> Counterpart:
        """A wrapper is stepped into; an added null branch is no branch of the canonical union; a
        null added to ``type`` or ``enum`` changes nothing for a value that is not null."""
        if self.form is NullForm.WRAP:
            return replace(at, pointer=jp.join(at.pointer, "anyOf", 0))
        if self.form is NullForm.BRANCH:
            return replace(at, null_branch=True)
        return at


@dataclass(frozen=True)
class OptionalKept(Rewrite):
    """An optional member that accepts null already became required as it is: absent and null
    cannot be told apart (OPTIONAL_NULLABLE), so the inverse keeps its null."""

    def invert(self, at: Counterpart) -> Counterpart:
        return at


# -- type lists ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypeListSplit(Rewrite):
    """For a provider without type lists: ``{"type": [X, "null"], ...}`` became
    ``{"anyOf": [{"type": X, ...}, {"type": "null"}]}`` (``null_branch``), or ``{"type": [X]}``
    became ``{"type": X}``."""

    null_branch: bool

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], TypeListSplit | None] | None:
        """The node without a type list (and the rule, None when there was no list); None when
        the list has more than one type besides null (the projection reports it)."""
        if not isinstance(node.get("type"), list):
            return node, None
        types = _types(node)
        others = [t for t in types if t != "null"]
        if len(others) > 1:
            return None
        if len(others) == len(types):
            return {**node, "type": others[0]}, TypeListSplit(null_branch=False)
        outer = {k: v for k, v in node.items() if k in ("title", "description")}
        inner = {k: v for k, v in node.items() if k not in outer}
        inner["type"] = others[0]
        if isinstance(inner.get("enum"), list):
            inner["enum"] = [v for v in inner["enum"] if v is not None]
        return {**outer, "anyOf": [inner, dict(NULL_SCHEMA)]}, TypeListSplit(null_branch=True)

    @property
    def moves(self) -> bool:
        return self.null_branch

    def invert(self, at: Counterpart) -> Counterpart:
        """The split node is the wrapper's first branch (null is the canonical node's own)."""
        if self.null_branch:
            return replace(at, pointer=jp.join(at.pointer, "anyOf", 0))
        return at


# -- enums ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConstAsEnum(Rewrite):
    """``const`` became a one-value ``enum``: the same values, so nothing to undo."""

    @staticmethod
    def apply(node: dict[str, Any]) -> dict[str, Any]:
        return {
            ("enum" if k == "const" else k): ([v] if k == "const" else v) for k, v in node.items()
        }

    def invert(self, at: Counterpart) -> Counterpart:
        return at


def enum_text(value: Any) -> str:
    """How a value that is no string is written in a string-only enum: its compact JSON text."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class EnumStringified(Rewrite):
    """For a provider whose enums hold strings only, on a string type: an enum became a string
    enum of type string, each value that is no string written as its JSON text (``1`` as
    ``"1"``), strings as they are and null as null. The node keeps only its annotations beside
    ``type`` and ``enum`` (the enum decides every value; a string the canonical type refuses is
    left to the canonical validation). ``values`` maps each text back to its canonical value
    (empty when every value was a string already: nothing to read back)."""

    values: tuple[tuple[str, Any], ...]

    @staticmethod
    def apply(node: dict[str, Any]) -> tuple[dict[str, Any], EnumStringified | None] | None:
        """The node with a string-only enum (and the rule, None when its enum already is); None
        when two values would be written as the same text (``1`` and ``"1"``), or a value is an
        object or array: no exact inverse."""
        values = node.get("enum")
        if not isinstance(values, list):
            return node, None
        string_type = ["string", "null"] if None in values else ["string"]
        if all(isinstance(v, str | None) for v in values) and _types(node) == string_type:
            return node, None
        written: list[str | None] = []
        back: dict[str, Any] = {}
        for value in values:
            if value is None:
                written.append(None)
                continue
            if isinstance(value, dict | list):
                return None  # a shared mutable canonical value: no text for it
            text = value if isinstance(value, str) else enum_text(value)
            if text in written:
                return None
            written.append(text)
            if not isinstance(value, str):
                back[text] = value
        result = {k: v for k, v in node.items() if k in ("title", "description")}
        result["type"] = ["string", "null"] if None in written else "string"
        result["enum"] = written
        return result, EnumStringified(tuple(back.items()))

    def invert(self, at: Counterpart) -> Counterpart:
        """A text of ``values`` becomes its canonical value; any other value stays (a canonical
        string is written as itself)."""
        return replace(at, values=self.values)


# -- the record ------------------------------------------------------------------------------


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
        """Whether the projection made the member at ``pointer`` accept null (its null goes)."""
        return any(isinstance(r, MadeNullable) for r in self.rewrites(pointer))

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


def rule_kinds() -> tuple[type[Rewrite], ...]:
    """Every rule kind declared so far."""
    return tuple(Rewrite.KINDS)


# -- the record as JSON (the build cache stores projections) --------------------------------


def _field_to_json(value: Any) -> Any:
    if isinstance(value, NullForm):
        return value.name
    if isinstance(value, tuple):
        return [_field_to_json(item) for item in value]
    return value


#: how a rule's field is read back from JSON (the others are JSON values already)
_FIELD_FROM_JSON: dict[str, Any] = {
    "form": lambda name: NullForm[name],
    "keywords": tuple,
    "values": lambda pairs: tuple((text, value) for text, value in pairs),
}


def _fields(rule: Any) -> tuple[Any, ...]:
    """The fields of a rule or rule kind (each kind is a dataclass; the base class is not)."""
    return _kind_fields(rule if isinstance(rule, type) else type(rule))


@functools.cache
def _kind_fields(kind: type) -> tuple[Any, ...]:
    # dataclasses.fields() builds its tuple on every call: a rebuild reads thousands of records
    return fields(kind)


def record_to_json(record: RewriteRecord) -> list[Any]:
    """``record`` as a JSON value: [pointer, canonical pointer, [[rule, field...]...]] a node."""
    return [
        [
            pointer,
            node.canonical,
            [
                [
                    type(rule).__name__,
                    *(_field_to_json(getattr(rule, f.name)) for f in _fields(rule)),
                ]
                for rule in node.rewrites
            ],
        ]
        for pointer, node in record.nodes
    ]


def record_from_json(value: list[Any]) -> RewriteRecord:
    """The record :func:`record_to_json` wrote."""
    nodes = []
    for pointer, canonical, rules in value:
        rewrites = []
        for name, *values in rules:
            kind, readers = _readers(name)
            arguments = {
                field_name: read(v) if read else v
                for (field_name, read), v in zip(readers, values, strict=True)
            }
            rewrites.append(kind(**arguments))
        node = NodeRecord(canonical, tuple(rewrites)) if rewrites else _unchanged_node(canonical)
        nodes.append((pointer, node))
    return RewriteRecord(tuple(nodes))


@functools.lru_cache(maxsize=1 << 16)
def _unchanged_node(canonical: str) -> NodeRecord:
    """A node no rule rewrote (most nodes): one instance per pointer, shared by the records read
    back (a NodeRecord is frozen; building thousands was a third of reading a record)."""
    return NodeRecord(canonical)


@functools.cache
def _readers(name: str) -> tuple[type[Rewrite], tuple[tuple[str, Any], ...]]:
    """The rule kind called ``name`` and, per field, its name and how it is read back (None:
    as it is). A KeyError for a name no kind has (an entry of another version: a miss)."""
    kind = {kind.__name__: kind for kind in rule_kinds()}[name]
    return kind, tuple((f.name, _FIELD_FROM_JSON.get(f.name)) for f in _fields(kind))
