"""What a wire API unit declares (``Api``), and what the build derives from it: the names the
generated provider module imports and binds, the fixed modules it needs, its request builders.

Every name here is read from the unit's objects (the classes and functions of its runtime module,
``toolgen/runtime/_<api>.py``), never written as a string: renaming a class breaks the import of
its unit, not the generated package.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

#: What every generated provider module uses, whatever its APIs (the fixed modules they import
#: come with them: toolgen.render.runtime_files.with_imports).
BASE_MODULES: tuple[str, ...] = (
    *("_attributes", "_contracts", "_decode", "_dispatch", "_explain", "_json", "_outcomes"),
    *("_runtime", "_tool_results"),
)

#: (surface, read path, JSON type): what a decoder reads (its runtime module's ``READS``)
Reads = tuple[tuple[str, str, str], ...]


def module_of(thing: Any) -> str:
    """The name in OUT of the fixed module that defines ``thing`` (``_messages``)."""
    return str(thing.__module__).rsplit(".", 1)[-1]


def name_of(thing: Any) -> str:
    return str(thing.__name__)


def _returns(method: Callable[..., Any]) -> str:
    """The return annotation of ``method`` as its source writes it (the modules use postponed
    annotations, so it is the text)."""
    return str(method.__annotations__["return"])


_BUILTINS = frozenset({"list", "dict", "tuple", "Any", "None"})


def _names_in(annotation: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", annotation)) - _BUILTINS


@dataclass(frozen=True)
class Loop:
    """The second half of an API's tool loop: its module's ``*Loop`` class, built by the
    generated provider module as ``Class(PROVIDER, <source>)`` (``source``: what reads a
    response, the generated validator of its surface, then any keyword arguments). The types of
    its ``assistant_turn``, ``result`` and ``results`` are their return annotations."""

    cls: type
    source: str

    @property
    def name(self) -> str:
        return name_of(self.cls)

    @property
    def module(self) -> str:
        return module_of(self.cls)

    @property
    def turn(self) -> str:
        return _returns(self.cls.assistant_turn)  # type: ignore[attr-defined]

    @property
    def result(self) -> str:
        return _returns(self.cls.result)  # type: ignore[attr-defined]

    @property
    def results(self) -> str:
        return _returns(self.cls.results)  # type: ignore[attr-defined]

    def __getitem__(self, kind: str) -> str:
        """``turn``, ``result`` or ``results`` by name (the template's ``api.loop[kind]``)."""
        return str(getattr(self, kind))

    @property
    def types(self) -> tuple[str, ...]:
        """The types the provider module imports from the loop's module and re-exports."""
        found: set[str] = set()
        for text in (self.turn, self.result, self.results):
            found |= _names_in(text)
        return tuple(sorted(found))


@dataclass(frozen=True)
class Requests:
    """A request-builder class of a runtime module, built by the generated provider module as
    ``Class(tools, outputs, ...)``, and its methods the module exposes under their own names."""

    cls: type
    methods: tuple[Callable[..., Any], ...]

    @property
    def name(self) -> str:
        return name_of(self.cls)

    @property
    def module(self) -> str:
        return module_of(self.cls)

    @property
    def functions(self) -> tuple[str, ...]:
        return tuple(name_of(method) for method in self.methods)

    @property
    def arguments(self) -> tuple[str, ...]:
        """Its constructor's keyword-only arguments the build fills in beyond the contracts and
        the profile's ``request_options``: ``limits`` (the strict-tool caps)."""
        parameters = inspect.signature(self.cls).parameters
        return tuple(name for name in ("limits",) if name in parameters)


@dataclass(frozen=True)
class Fakes:
    """The fake responses of an API for tests (its module's ``fake_response``, ``fake_stream``
    and ``FAKE_MODEL``, the model they name unless told), and its stream framing: ``body``, the
    HTTP body of a stream's events, sent with the ``Content-Type`` ``content_type`` (its module's
    ``stream_body`` and ``STREAM_CONTENT_TYPE``)."""

    response: Callable[..., dict[str, Any]]
    stream: Callable[..., list[dict[str, Any]]]
    model: str
    body: Callable[[Iterable[Mapping[str, Any]]], bytes]
    content_type: str

    @staticmethod
    def of(module: ModuleType) -> Fakes:
        return Fakes(
            module.fake_response,
            module.fake_stream,
            module.FAKE_MODEL,
            module.stream_body,
            module.STREAM_CONTENT_TYPE,
        )

    @property
    def module(self) -> str:
        return module_of(self.response)


@dataclass(frozen=True)
class Canary:
    """What ``toolgen canary record`` sends to an API and reads back.

    ``path(model, stream)``; ``tool_request(model, tools, name, stream)``: the body forcing a call
    of the tool whose wire name is ``name``, ``tools`` the request's tools; ``output_request(model,
    format)``: the body asking for a structured output in ``format``; ``formats``: the request
    builders' methods that give this API's format, the first the builders have; ``output_text``:
    the structured output in a response (its text, or the JSON value an API puts there), or None;
    ``events``: the stream framing, a stream's body as the event payloads the SDKs yield
    (ValueError when it is unreadable or reports an error); ``parts(model, stream, answer,
    module_data)``: (path, envelope surface, value) of the parts of a body or event that envelope
    schemas declare, where the whole is not one surface's (else the API's first surface, or its
    last for a stream's events); ``module_data``: the provider profile's."""

    path: Callable[[str, bool], str]
    tool_request: Callable[[str, Any, str, bool], dict[str, Any]]
    output_request: Callable[[str, Any], dict[str, Any]]
    formats: tuple[str, ...]
    output_text: Callable[[Any], Any]
    events: Callable[[bytes], list[Any]]
    parts: (
        Callable[[str, bool, Any, Mapping[str, Any]], list[tuple[str, str | None, Any]]] | None
    ) = None

    def tools(self, builders: Any, api: str, tool: str) -> Any:
        """The request's tools: the builders' ``tool_definitions`` of the canonical tool ``tool``
        alone (what an application sends for it)."""
        return _for_api(builders.tool_definitions, api, names=[tool])

    def output_format(self, builders: Any, api: str, output: str) -> Any:
        """The builders' format of the canonical structured output ``output``."""
        method = next(getattr(builders, name) for name in self.formats if hasattr(builders, name))
        return _for_api(method, api, output)


def _for_api(method: Callable[..., Any], api: str, *args: Any, **keywords: Any) -> Any:
    """``method(*args, **keywords)`` of a request builder, for ``api`` when the builder serves
    several APIs and asks which (an ``api`` argument)."""
    if "api" in inspect.signature(method).parameters:
        keywords["api"] = api
    return method(*args, **keywords)


@dataclass(frozen=True)
class Api:
    """One wire API, as its unit (toolgen/apis/<api>.py) declares it from its runtime module."""

    name: str  # the value of the generated functions' ``api`` argument
    title: str  # how docstrings name it
    decoder_class: type  # its ToolCallDecoder class
    reads: Reads  # (surface, read path, JSON type)
    requests: Requests  # its request builders when it is the provider's only API
    # the TypedDicts (and helpers) of its module the generated module re-exports
    exports: tuple[Any, ...]
    fakes: Fakes
    canary: Canary | None = None
    # whether the SDK's parse helpers take pydantic models (the module then offers tool_model and
    # output_model, subclasses that send toolgen's projection)
    sdk_models: bool = False
    # the other APIs its request builders serve too: a provider speaking it first and then
    # those needs no combined builders (toolgen.apis.requests_for)
    combines: tuple[str, ...] = ()
    # its tool loop (assistant_turn, tool_result, tool_results, run_tool_calls)
    loop: Loop | None = None
    # the surfaces whose decoder takes ``read_<surface>`` (an SDK object read as it is, through
    # its attributes) rather than ``validate_<surface>``
    readers: tuple[str, ...] = ()
    # how its SDK's objects hold the wire's members, which the object checks of ``read_<surface>``
    # follow (toolgen/runtime/_attributes.py): "wire" (the SDKs of Chat Completions and the Messages API: under their
    # wire names, as JSON values) or "genai" (google-genai: snake_case attributes for camelCase
    # members, str enum members, datetimes and bytes for strings, models for free-form objects)
    sdk_objects: str = "wire"
    # a note of its loop's ``assistant_turn`` docstring (how a streamed turn is given)
    turn_note: str = ""

    @property
    def module(self) -> str:
        """Its fixed module (toolgen/runtime/<module>.py, OUT/<module>.py)."""
        return module_of(self.decoder_class)

    @property
    def decoder(self) -> str:
        return name_of(self.decoder_class)

    @property
    def types(self) -> tuple[str, ...]:
        """The names of ``exports``."""
        return tuple(name_of(thing) for thing in self.exports)

    @property
    def surfaces(self) -> tuple[str, ...]:
        """The envelope surfaces the decoder validates, in its constructor's order."""
        return tuple(dict.fromkeys(surface for surface, _, _ in self.reads))

    def imports(self) -> dict[str, set[str]]:
        """What a provider module speaking this API imports of the fixed modules, by module:
        its decoder, its exports and its loop's class and types."""
        by_module: dict[str, set[str]] = {self.module: {self.decoder, *self.types}}
        if self.loop is not None:
            by_module.setdefault(self.loop.module, set()).update({self.loop.name, *self.loop.types})
        return by_module


def requests_for(apis: Sequence[Api], combined: Mapping[tuple[str, ...], Requests]) -> Requests:
    """The request builders of a provider that speaks ``apis`` (KeyError for a combination no
    runtime module serves)."""
    if len(apis) == 1 or {api.name for api in apis[1:]} <= set(apis[0].combines):
        return apis[0].requests
    return combined[tuple(api.name for api in apis)]


def sdk_objects(apis: Sequence[Api]) -> str:
    """How the SDK objects of a provider that speaks ``apis`` hold their members (``Api``'s
    ``sdk_objects``; one way per provider, whose envelope module has one set of object checks)."""
    ways = {api.sdk_objects for api in apis}
    if len(ways) > 1:
        raise ValueError(f"APIs whose SDK objects differ in one provider: {sorted(ways)}")
    return ways.pop() if ways else "wire"
