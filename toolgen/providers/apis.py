"""The wire APIs toolgen binds, provider-neutral: what a profile lists in ``Profile.apis``. An API
that only one provider speaks is defined in that provider's module, beside its profile.

Each names its fixed module in toolgen/runtime (copied into OUT when a provider speaks it) and, in
it: the decoder class, which the generated provider module builds as
``Decoder(PROVIDER, validate_<surface>, ...)`` in ``surfaces`` order; the fields that decoder
reads (``READS``), checked against the provider's envelope schemas at build time; the request
builder class, whose methods the generated module exposes as its request functions; and the
TypedDicts those return, which the generated module re-exports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from toolgen.runtime import (
    _chat_completions,
    _converse,
    _generate_content,
    _messages,
    _responses,
)

#: What every generated provider module uses, whatever its APIs.
BASE_MODULES: tuple[str, ...] = (
    *("_attributes", "_contracts", "_decode", "_dispatch", "_explain", "_json", "_outcomes"),
    *("_runtime", "_tool_results"),
)


@dataclass(frozen=True)
class Loop:
    """The second half of an API's tool loop: a class of toolgen/runtime/_tool_results.py, built
    as ``Class(PROVIDER, <source>)`` (``source``: what reads a response, the generated validator
    of its surface, then any keyword arguments), and the types its ``assistant_turn``,
    ``result`` and ``results`` return (names of that module, or builtins)."""

    name: str
    source: str
    turn: str
    result: str
    results: str

    @property
    def types(self) -> tuple[str, ...]:
        """The types of _tool_results the provider module imports and re-exports."""
        found: set[str] = set()
        for text in (self.turn, self.result, self.results):
            found.update(part for part in text.replace("[", " ").replace("]", " ").split())
        return tuple(sorted(name for name in found if name not in ("list", "Any")))


@dataclass(frozen=True)
class Requests:
    """A request-builder class of toolgen/runtime, built as ``Class(tools, outputs, ...)``."""

    module: str
    name: str
    functions: tuple[str, ...]  # its methods, exposed under the same names
    # keyword arguments beyond the contracts: "limits" (the strict-tool caps); each tool's
    # strict flag is in the contracts (``Contracts.strict``, the module's STRICT)
    arguments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Api:
    name: str  # the value of the generated functions' ``api`` argument
    title: str  # how docstrings name it
    module: str  # the fixed module (toolgen/runtime/<module>.py, OUT/<module>.py)
    decoder: str  # its ToolCallDecoder class
    reads: tuple[tuple[str, str, str], ...]  # (surface, read path, JSON type)
    requests: Requests  # its request builders when it is the provider's only API
    types: tuple[
        str, ...
    ]  # the TypedDicts (and helpers) of its module the generated module re-exports
    # whether the SDK's parse helpers take pydantic models (the module then offers tool_model and
    # output_model, subclasses that send toolgen's projection)
    sdk_models: bool = False
    # other fixed modules its module imports (copied with it)
    requires: tuple[str, ...] = ()
    # the other APIs its request builders serve too: a provider speaking it first and then
    # those needs no combined module (COMBINED)
    combines: tuple[str, ...] = ()
    # its tool loop (assistant_turn, tool_result, tool_results, run_tool_calls)
    loop: Loop | None = None
    # the surfaces whose decoder takes ``read_<surface>`` (an SDK object read as it is, through
    # its attributes) rather than ``validate_<surface>``
    readers: tuple[str, ...] = ()
    # how its SDK's objects hold the wire's members, which the object checks of ``read_<surface>``
    # follow (toolgen/runtime/_attributes.py): "wire" (the OpenAI and Anthropic SDKs: under their
    # wire names, as JSON values) or "genai" (google-genai: snake_case attributes for camelCase
    # members, str enum members, datetimes and bytes for strings, models for free-form objects)
    sdk_objects: str = "wire"

    @property
    def surfaces(self) -> tuple[str, ...]:
        """The envelope surfaces the decoder validates, in its constructor's order."""
        return tuple(dict.fromkeys(surface for surface, _, _ in self.reads))


_CHAT_FUNCTIONS = ("tool_definition", "tool_definitions", "response_format")
_OUTPUT_FORMAT_FUNCTIONS = ("tool_definition", "tool_definitions", "output_format")

CHAT = Api(
    "chat",
    "Chat Completions",
    "_chat_completions",
    "ChatCompletionsDecoder",
    _chat_completions.READS,
    Requests("_chat_completions", "ChatCompletionsRequests", _CHAT_FUNCTIONS),
    (
        "ChatCompletionFunctionToolParam",
        "FunctionDefinition",
        "JSONSchema",
        "ResponseFormatJSONSchema",
    ),
    sdk_models=True,
    loop=Loop(
        "ChatLoop",
        "validate_chat_completion",
        "ChatCompletionAssistantMessageParam",
        "ChatCompletionToolMessageParam",
        "list[ChatCompletionToolMessageParam]",
    ),
    readers=("chat_completion", "chat_completion_chunk"),
)
#: Chat Completions read leniently (untyped calls, arguments as text, object or absent, whole
#: streamed calls without index): for compatible APIs whose recordings show those shapes.
LENIENT_CHAT = replace(
    CHAT,
    decoder="LenientChatCompletionsDecoder",
    reads=_chat_completions.LENIENT_READS,
)
RESPONSES = Api(
    "responses",
    "Responses API",
    "_responses",
    "ResponsesDecoder",
    _responses.READS,
    Requests("_responses", "ResponsesRequests", ("tool_definition", "tool_definitions")),
    ("FunctionToolParam", "ResponseFormatTextJSONSchemaConfigParam"),
    sdk_models=True,
    loop=Loop(
        "ResponsesLoop",
        "validate_response",
        "list[Any]",
        "FunctionCallOutput",
        "list[FunctionCallOutput]",
    ),
    readers=("response", "response_stream_event"),
)
MESSAGES = Api(
    "messages",
    "Messages API",
    "_messages",
    "MessagesDecoder",
    _messages.READS,
    Requests("_messages", "MessagesRequests", _OUTPUT_FORMAT_FUNCTIONS, ("limits",)),
    ("CacheControlEphemeralParam", "InputSchemaTyped", "JSONOutputFormatParam", "ToolParam"),
    loop=Loop(
        "MessagesLoop",
        "validate_message",
        "AssistantMessageParam",
        "ToolResultBlockParam",
        "UserMessageParam",
    ),
    readers=("message", "message_stream_event"),
)
CONVERSE = Api(
    "converse",
    "Converse API",
    "_converse",
    "ConverseDecoder",
    _converse.READS,
    Requests("_converse", "ConverseRequests", _OUTPUT_FORMAT_FUNCTIONS, ("limits",)),
    (
        "JsonSchemaDefinition",
        "OutputFormat",
        "OutputFormatStructure",
        "ToolInputSchema",
        "ToolSpecification",
        "ToolTypeDef",
    ),
    loop=Loop(
        "ConverseLoop",
        "validate_converse, validate_event=validate_converse_stream_event",
        "ConverseMessage",
        "ConverseToolResultBlock",
        "ConverseMessage",
    ),
)

_GENERATE_CONTENT_FUNCTIONS = ("tool_definition", "tool_definitions", "response_format")
GENERATE_CONTENT = Api(
    "generate_content",
    "generateContent",
    "_generate_content",
    "GenerateContentDecoder",
    _generate_content.READS,
    Requests("_generate_content", "GenerateContentRequests", _GENERATE_CONTENT_FUNCTIONS, ()),
    ("FunctionDeclaration", "ResponseFormat", "Tool"),
    loop=Loop(
        "GenerateContentLoop",
        "validate_generate_content, validate_chunk=validate_generate_content_chunk",
        "Content",
        "FunctionResponsePart",
        "Content",
    ),
    readers=("generate_content", "generate_content_chunk"),
    sdk_objects="genai",
)
#: The same API with its OpenAPI Schema objects (``parameters``, ``responseSchema``) for schemas.
GENERATE_CONTENT_OPENAPI = replace(
    GENERATE_CONTENT,
    requests=Requests(
        "_generate_content", "GenerateContentOpenApiRequests", _GENERATE_CONTENT_FUNCTIONS, ()
    ),
)

#: The request builders of a provider that speaks several APIs, by their names in order.
COMBINED: dict[tuple[str, ...], Requests] = {
    ("chat", "responses"): Requests(
        "_chat_and_responses", "ChatAndResponsesRequests", _CHAT_FUNCTIONS
    ),
}


def requests_for(apis: Sequence[Api]) -> Requests:
    """The request builders of a provider that speaks ``apis`` (KeyError for a combination no
    runtime module serves)."""
    if len(apis) == 1 or {api.name for api in apis[1:]} <= set(apis[0].combines):
        return apis[0].requests
    return COMBINED[tuple(api.name for api in apis)]


def modules_for(apis: Sequence[Api]) -> tuple[str, ...]:
    """The fixed modules a provider module that speaks ``apis`` imports, directly or not."""
    modules = {
        *BASE_MODULES,
        *(api.module for api in apis),
        *(module for api in apis for module in api.requires),
        requests_for(apis).module,
    }
    return tuple(sorted(modules))


def sdk_objects(apis: Sequence[Api]) -> str:
    """How the SDK objects of a provider that speaks ``apis`` hold their members (``Api``'s
    ``sdk_objects``; one way per provider, whose envelope module has one set of object checks)."""
    ways = {api.sdk_objects for api in apis}
    if len(ways) > 1:
        raise ValueError(f"APIs whose SDK objects differ in one provider: {sorted(ways)}")
    return ways.pop() if ways else "wire"
