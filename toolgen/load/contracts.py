"""The intermediate model between loading and the provider stages: a typed, bundled, validated design."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toolgen.infra.cache import plain
from toolgen.schema import pointer as jp

#: "tool_output": a tool's ``output:`` schema (what its handler returns); never sent to a provider
ContractKind = Literal["tool", "output", "tool_output"]


@dataclass(frozen=True)
class SharedDef:
    """A schema from ``defs/`` (or another file) that contracts reference across files, or one
    that contracts hold in common.

    ``name`` is its key under ``$defs`` in every bundled contract that uses it, unique in the design.
    ``schema`` is bundled too: its own references point at ``#/$defs/<name>`` of other shared defs.
    """

    name: str
    file: str
    pointer: str
    schema: Any
    #: a definition of the contract's own, the same in every contract that holds it
    #: (toolgen.load.common_defs): ``file`` and ``pointer`` are this contract's copy
    common: bool = False


@dataclass(frozen=True)
class Contract:
    """A tool (its parameters) or a structured output (its schema), canonical and bundled.

    ``schema`` is self-contained: every reference is local (``#...``); shared definitions used by
    the contract are copied under ``$defs`` with their design-wide name (listed in ``shared``).
    """

    kind: ContractKind
    name: str
    description: str
    schema: Any
    file: str
    pointer: str
    examples: tuple[Any, ...] = ()
    providers: tuple[str, ...] | None = None
    # Tools only: where a provider caps strict tools per request, higher priorities are marked
    # strict first (ties keep the design's order).
    priority: int = 0
    shared: dict[str, SharedDef] = field(default_factory=dict)
    # Tools only: provider -> the tool file's ``providers: {NAME: {strict: ...}}``, where given.
    strict: dict[str, bool] = field(default_factory=dict)
    # Tools only: the tool file's top-level ``strict``, for every provider (the mapping above wins).
    strict_all: bool | None = None
    # Tools only: the tool file's ``output:`` (kind "tool_output", the tool's name), ``title`` and
    # ``annotations`` (MCP's Tool.title and Tool.annotations, kept as written).
    output: Contract | None = None
    title: str | None = None
    annotations: dict[str, Any] | None = None
    # Tools only: the names the tool had before a rename (the MCP server answers under them too).
    aliases: tuple[str, ...] = ()
    # A digest of the design text this contract was loaded from (toolgen.load.loader._fingerprint);
    # "" when it was made otherwise. Not an argument: ``dataclasses.replace`` drops it, so a
    # changed copy is never keyed as the original.
    fingerprint: str = field(default="", init=False, compare=False, repr=False)

    def set_fingerprint(self, fingerprint: str) -> None:
        """Set once by loading, which knows what the contract was made from."""
        object.__setattr__(self, "fingerprint", fingerprint)

    def identity(self) -> Any:
        """What the contract is, for a cache key: its fingerprint, else all of its fields (a
        contract that was not loaded from a design, as in tests)."""
        if self.fingerprint:
            return ["fingerprint", self.fingerprint]
        return plain(self)

    def locate(self, schema_pointer: str) -> tuple[str, str]:
        """The design file and the pointer inside it where a node of ``schema`` was authored."""
        tokens = jp.split(schema_pointer)
        if len(tokens) >= 2 and tokens[0] == "$defs" and tokens[1] in self.shared:
            origin = self.shared[tokens[1]]
            return origin.file, jp.join(origin.pointer, *tokens[2:])
        return self.file, self.pointer + schema_pointer

    def requested_strict(self, provider: str, configured: bool | None) -> bool | None:
        """The strict flag asked for ``provider``: the tool file's ``providers: {NAME: {strict}}``,
        else its top-level ``strict``, else ``configured`` (toolgen.toml's ``[providers.NAME]``)."""
        if provider in self.strict:
            return self.strict[provider]
        return self.strict_all if self.strict_all is not None else configured

    def emitted_for(self, provider: str) -> bool:
        return self.providers is None or provider in self.providers


@dataclass(frozen=True)
class ProviderSettings:
    """What ``toolgen.toml`` and tool files may say of one provider, all the loader knows of it
    (the build hands these in, from the profiles)."""

    #: the names of its dialects (``[providers.NAME] dialect``), the default first; () for none
    dialects: tuple[str, ...] = ()
    #: whether it has a non-strict mode, so that ``strict = false`` is a choice
    has_non_strict: bool = False


@dataclass(frozen=True)
class ProviderOptions:
    """Per-provider settings from ``toolgen.toml`` (``[providers.NAME]``)."""

    # An optional member that accepts null, where strict mode writes it required: "encode" boxes
    # it (null is absent, {"value": v} is v: NullableOptionalBoxed); "keep" writes it as it is
    # (absent reads as null; an OPTIONAL_NULLABLE warning); "error" makes that an error.
    optional_nullable: Literal["encode", "keep", "error"] = "encode"
    # Tools' strict flag; None: strict, with the non-strict fallback (toolgen.project.strictness.project_tool).
    # Only for profiles with a non-strict mode (Profile.non_strict).
    strict: bool | None = None
    dialect: str | None = None  # for a provider with several (toolgen.providers.DIALECTS)
    # where the provider refuses recursion: a $ref closing a cycle unrolled this many levels
    # (None: written as JSON text, RecursionAsJsonText)
    recursion_depth: int | None = None
    # ``[toolgen] strict_fallback``: "error" (a tool strict mode cannot carry fails the build) or
    # "non-strict" (it goes out non-strict, with a STRICT_FALLBACK warning per reason)
    strict_fallback: Literal["error", "non-strict"] = "error"


@dataclass(frozen=True)
class Config:
    providers: tuple[str, ...] | None = None
    options: dict[str, ProviderOptions] = field(default_factory=dict)
    strict_fallback: Literal["error", "non-strict"] = "error"
    # ``[toolgen] targets``: where the design's tools run besides the providers' loops (an MCP
    # server, agent frameworks' tools), each a module of the package; the build names them
    # (toolgen.package.targets), in its order, each once.
    targets: tuple[str, ...] = ()
    # ``[toolgen] max_request_tokens``: a build fails when a provider's full request (every tool
    # and the largest output) costs more tokens (toolgen.package.request_cost); None: no budget
    max_request_tokens: int | None = None

    def options_for(self, provider: str) -> ProviderOptions:
        options = self.options.get(provider, ProviderOptions())
        if options.strict_fallback != self.strict_fallback:
            options = replace(options, strict_fallback=self.strict_fallback)
        return options


@dataclass(frozen=True)
class Design:
    """Everything a build needs from ``design/``; tools and outputs sorted by canonical name."""

    root: str
    tools: tuple[Contract, ...]
    outputs: tuple[Contract, ...]
    shared: dict[str, SharedDef]
    config: Config
    hash: str
    envelopes: dict[str, Any] = field(default_factory=dict)

    @property
    def contracts(self) -> tuple[Contract, ...]:
        return self.tools + self.outputs

    @property
    def tool_outputs(self) -> tuple[Contract, ...]:
        """The ``output:`` schemas of the tools that declare one, in the tools' order."""
        return tuple(tool.output for tool in self.tools if tool.output is not None)
