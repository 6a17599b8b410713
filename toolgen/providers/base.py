"""What a provider profile is: a table of rules that the shared projection applies."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toolgen.apis.api import Api
from toolgen.schema.names import NameRule

#: Keywords no strict mode toolgen targets can represent: a looser projection would let the model
#: write what the contract forbids in ways the inverse cannot undo, or would close what the
#: contract leaves open. Every profile rejects them (and may reject more).
UNREPRESENTABLE: dict[str, str] = {
    "not": "UNSUPPORTED_NOT",
    "if": "UNSUPPORTED_CONDITIONAL",
    "then": "UNSUPPORTED_CONDITIONAL",
    "else": "UNSUPPORTED_CONDITIONAL",
    "patternProperties": "UNSUPPORTED_PATTERN_PROPERTIES",
    "propertyNames": "UNSUPPORTED_PROPERTY_NAMES",
    "dependentSchemas": "UNSUPPORTED_DEPENDENT",
    "dependentRequired": "UNSUPPORTED_DEPENDENT",
    "unevaluatedProperties": "UNSUPPORTED_UNEVALUATED",
    "unevaluatedItems": "UNSUPPORTED_UNEVALUATED",
    "prefixItems": "UNSUPPORTED_TUPLE",
    "additionalItems": "UNSUPPORTED_TUPLE",
    "$dynamicRef": "UNSUPPORTED_REF",
    "$dynamicAnchor": "UNSUPPORTED_REF",
}


#: the escapes that are a word boundary or a backreference outside a character class
_REFUSED_ESCAPES = frozenset("bB123456789")


def _tokens(pattern: str) -> Iterator[tuple[int, str, bool]]:
    """Each token of ``pattern`` (an ECMA-262 regular expression, as JSON Schema reads it) with
    its index and whether it stands inside a character class: an escape is one token of two
    characters (``\\(`` is a literal paren), every other character one."""
    index, in_class = 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            yield index, pattern[index : index + 2], in_class
            index += 2
            continue
        yield index, char, in_class
        in_class = char != "]" if in_class else char == "["
        index += 1


def _refused_feature(pattern: str) -> bool:
    """Whether ``pattern`` uses a backreference (``\\1``, ``\\k<name>``), a lookaround (``(?=``,
    ``(?!``, ``(?<=``, ``(?<!``; a named group ``(?<name>`` too, on the safe side) or a word
    boundary (``\\b``, ``\\B``): regex features the constrained decoders of OpenAI and Anthropic
    refuse (OpenAI answers 400 "regex lookaround is not supported"). Read token by token: an
    escaped character is a literal (``\\(?=`` is a paren, then ``?=``), and inside a character
    class nothing is a group, a backreference or a boundary (``[(?=]`` is three characters,
    ``[\\b]`` a backspace)."""
    for index, token, in_class in _tokens(pattern):
        if in_class:
            continue
        if token[0] == "\\":
            if token[1:] in _REFUSED_ESCAPES or pattern.startswith("k<", index + 1):
                return True
        elif token == "(" and pattern[index + 1 : index + 3] in ("?=", "?!", "?<"):
            return True
    return False


def largest_quantifier(pattern: str) -> int:
    """The largest bound of a ``{n}``, ``{n,}`` or ``{n,m}`` quantifier of ``pattern`` (0 where
    it has none), read token by token (an escaped brace and a brace inside a character class
    are literals)."""
    largest = 0
    for index, token, in_class in _tokens(pattern):
        if token != "{" or in_class:
            continue
        end = pattern.find("}", index)
        bounds = pattern[index + 1 : end].split(",") if end > index else []
        if (
            1 <= len(bounds) <= 2
            and bounds[0].isdigit()
            and all(b.isdigit() or not b for b in bounds)
        ):
            largest = max([largest, *(int(b) for b in bounds if b)])
    return largest


def simple_pattern(pattern: Any) -> bool:
    """Whether a ``pattern`` uses none of the regex features strict decoders refuse; a profile
    keeps only such patterns (``keep_if``) and drops the others (the canonical validation
    enforces them)."""
    return isinstance(pattern, str) and not _refused_feature(pattern)


@dataclass(frozen=True)
class Limits:
    """Documented size limits of a provider's schema grammar; None where the provider states none."""

    properties: int | None = None  # object properties across the whole schema
    nesting: int | None = None  # levels of nested data (the root object is level 1)
    enum_values: int | None = None  # enum values across the whole schema
    total_chars: int | None = None  # property names, definition names, enum and const values
    large_string_enum: tuple[int, int] | None = (
        None  # (values, chars): more values must stay under chars
    )
    description: int | None = None  # a tool's or output's description
    any_of_branches: int | None = None  # branches of one anyOf
    optional_members: int | None = None  # members left out of required, across the schema
    union_members: int | None = None  # schemas with anyOf or a type list, across the schema
    tools: int | None = None  # tools of one request
    # Per request: strict tools of one request, whose optional and union-typed members also add
    # up against optional_members and union_members. None: no cap on strict tools.
    strict_tools: int | None = None


@dataclass(frozen=True)
class OpenApiDialect:
    """A provider that reads an OpenAPI 3.0 Schema Object instead of JSON Schema. The projection
    still builds JSON Schema (what the inverse reads); toolgen.project.openapi spells it this way: null as
    ``nullable: true``, type names from ``type_names``, and closed objects left unwritten (no
    ``additionalProperties``: the canonical validation enforces them)."""

    type_names: Mapping[str, str]


@dataclass(frozen=True)
class Rule:
    """One documented fact a profile acts on, what the profile does about it, and where the fact is
    stated. ``[unconfirmed]`` in ``fact`` marks what no primary source settled (the profile then
    takes the safe side and says which)."""

    topic: str  # what it governs: "keywords", "optional members", "names", "limits", ...
    fact: str
    source: str  # the document and section, or the SDK file
    checked: str  # the ISO date the source was last read


@dataclass(frozen=True)
class NonStrictMode:
    """A provider's tool definitions with its strict flag off: the canonical schema minus what
    the provider refuses in every mode (toolgen.project.nonstrict), each removal recorded; the inverse is
    the identity. ``rules`` state the facts (they are part of the profile's rules too)."""

    refused_at_root: frozenset[str]  # keywords refused at the root of a tool's parameters
    rules: tuple[Rule, ...]
    refused: frozenset[str] = frozenset()  # keywords refused at any depth


def root_unions_refused(fact: str, source: str, checked: str) -> NonStrictMode:
    """The non-strict mode of a provider that refuses only a union at the root of a tool."""
    rule = Rule("non-strict", f"root anyOf/oneOf/allOf dropped: {fact}", source, checked)
    return NonStrictMode(frozenset({"anyOf", "oneOf", "allOf"}), (rule,))


@dataclass(frozen=True)
class ToolWire:
    """A provider's spelling of a tool's projected parameters, equivalent to the projection (it
    adds annotations, or types every value already has): ``apply(schema)`` returns the schema and
    the problems, as (pointer, code, message), that reject the tool. ``rewrites`` and ``rejects``
    say it in the provider table."""

    apply: Callable[[Any], tuple[Any, list[tuple[str, str, str]]]]
    rewrites: str
    rejects: str
    #: whether the tool form takes a top-level member as projected (the member, the projected
    #: parameters); the projection writes one it does not take as JSON text (MemberAsJsonText)
    carries: Callable[[Any, Any], bool] | None = None


@dataclass(frozen=True)
class Profile:
    """One provider's subset of JSON Schema.

    A keyword of the canonical schema is kept, dropped (the canonical validation keeps enforcing it,
    so the projection is only looser), or rejected with a stable code. Keywords the table does not
    name are annotations in 2020-12 and are dropped.
    """

    name: str
    title: str
    keep: frozenset[str]
    drop: frozenset[str]
    reject: dict[str, str]
    formats: frozenset[str]
    limits: Limits
    names: NameRule
    # A kept keyword whose value fails its test here is dropped instead (the projection gets looser).
    keep_if: dict[str, Callable[[Any], bool]] = field(default_factory=dict)
    # "nullable": optional members are required and accept null; "omit": they stay optional.
    optional_style: Literal["nullable", "omit"] = "nullable"
    # With "omit" and ``limits.optional_members``: a schema over that cap keeps its first optional
    # members optional (objects in depth-first order, members as authored; those that accept
    # null always) and writes the rest required and nullable (OptionalsOverCap; the inverse
    # removes their null), where that fits the other limits; else the cap stays an error.
    optionals_over_cap: bool = False
    type_arrays: bool = (
        True  # accepts "type": ["string", "null"]; else nullable is written with anyOf
    )
    recursion: bool = True  # accepts a $ref that leads back to itself
    # ... but only where the cycle passes through a member outside ``required`` (else rejected)
    recursion_through_optional: bool = False
    inline_refs: bool = False  # the dialect has no $ref: every reference is inlined
    const_as_enum: bool = False  # const is written as a one-value enum (the same values)
    # enums hold strings only: other values are written as JSON text, and the inverse reads the
    # text back into the canonical value (EnumStringified)
    string_enums: bool = False
    # the property keys it takes (None: any): a member whose name it refuses goes out under a name
    # it takes, and the inverse names it back (MembersRenamed)
    member_names: NameRule | None = None
    # the letter case of the strings of an enum or const it writes is not guaranteed: the inverse
    # reads a string that differs from a declared one only in case as that one (EnumCaseRestored)
    enum_case_may_differ: bool = False
    openapi: OpenApiDialect | None = None  # the wire spelling, when it is not JSON Schema
    tool_wire: ToolWire | None = None  # a provider's own spelling of a tool's parameters
    # A template of its own instead of provider.py.j2 (for APIs whose bindings take more than the
    # shared template writes, such as a model name); it gets the same variables.
    template: str | None = None
    # Provider tables the generated module writes out (template variables by name);
    # ``loop_options``: API name -> keyword arguments of that API's loop class (its runtime
    # module's ``*Loop``), e.g. Mistral's tool messages carrying ``name``; ``fake_options``: API
    # name -> keyword arguments of its fakes' builders (``fake_response``, ``fake_stream``), e.g.
    # Mistral's lenient Chat Completions; ``stream_framing``: API name -> keyword arguments of
    # that API's ``stream_body`` in its fakes' ``sse``, e.g. OpenRouter's Responses streams.
    module_data: Mapping[str, Any] = field(default_factory=dict)
    # The wire APIs the provider speaks (toolgen.apis); the first is the default ``api`` of the
    # generated functions. Their fixed modules are copied into OUT and bound by the generated
    # module. None (empty): projection only (validate, show, schema files).
    apis: tuple[Api, ...] = ()
    # Keyword arguments of the API's request class beyond what toolgen.apis.api.Requests.arguments
    # provides (a dialect, a wire spelling), written as literals into the generated module.
    request_options: Mapping[str, Any] = field(default_factory=dict)
    # The provider's non-strict tool definitions; None: every tool goes strict (and
    # ``strict = false`` in toolgen.toml or a tool file is refused).
    non_strict: NonStrictMode | None = None
    # Whether the provider's tool definitions have a strict flag at all (Gemini's and Workers
    # AI's have none: their schemas are honoured or hints, with no mode to choose).
    strict_flag: bool = True
    # The tiktoken encoding of its models' tokenizer, where it is public: ``toolgen show --cost``
    # counts tokens exactly with it where a tokenizer library is installed
    # (toolgen.infra.tokenizers); None: the estimate (toolgen/runtime/_cost.py).
    tokenizer: str | None = None
    # The rules table: every fact above with its source and date (``toolgen providers`` prints it).
    rules: tuple[Rule, ...] = ()
    # The provider this one derives from (set by ``derive``): an envelope surface its APIs read
    # that its folder under toolgen/providers/envelopes does not hold is that provider's
    # (recursively), retitled (toolgen.providers.surfaces).
    derives_from: str | None = None
    # How the titles of its envelope schemas name the provider ("OpenAI chat completion").
    display_name: str = ""

    @property
    def api_names(self) -> tuple[str, ...]:
        return tuple(api.name for api in self.apis)

    def verdict(self, keyword: str) -> Literal["keep", "drop", "reject"]:
        if keyword in self.reject:
            return "reject"
        if keyword in self.keep:
            return "keep"
        return "drop"

    def keeps(self, keyword: str, value: Any) -> bool:
        """Whether the provider is sent ``keyword`` with ``value``: kept, and its value passes
        the keyword's test where ``keep_if`` has one."""
        test = self.keep_if.get(keyword)
        return self.verdict(keyword) == "keep" and (test is None or bool(test(value)))


def derive(base: Profile, **changes: Any) -> Profile:
    """A profile with ``base``'s rules but for ``changes``, deriving from ``base``: it inherits
    the envelope surfaces its own folder does not hold. Not its tokenizer: that is a fact of
    the models a provider serves, which the derived one names itself where it knows it."""
    return replace(base, derives_from=base.name, **{"tokenizer": None, **changes})
