"""Chat Completions: request builders and their params, and the tool-call decoders.

``ChatCompletionsRequests`` writes ``tools`` entries, ``response_format`` and whole requests
(``request``: ``tools``, ``response_format`` and ``tool_choice``, planned together) from a provider
module's tables, typed with TypedDicts shaped like the SDK's param types
(``types/chat/chat_completion_function_tool_param.py``, ``shared_params/function_definition.py``,
``shared_params/response_format_json_schema.py``, ``response_format_json_object.py``,
``chat_completion_named_tool_choice_param.py``), so passing them to
``chat.completions.create(tools=..., response_format=...)`` or ``create(..., **request)``
type-checks without a cast: a TypedDict is compatible with another when it declares the same keys
with the same types, so these declare every key of the SDK's type, including those never set
here. ``JsonObjectChatCompletionsRequests`` writes a structured output as JSON mode
(``response_format: {"type": "json_object"}``) with its schema in instructions for the request's
messages, for an API that takes no ``json_schema`` format: the canonical validation after
decoding is then the check.

The decoders take the provider name and the generated validators of the two surfaces
(``chat_completion``, ``chat_completion_chunk``) as constructor arguments. ``READS`` lists what they
read from validated data (surface, read path, JSON type); the build checks every entry against the
provider's envelope schemas, so a field read here is one the schema guarantees.

The lenient decoders (``LENIENT_READS``) take Chat Completions as some compatible APIs send it: a
call may leave out ``type`` (then it is a function call) or ``arguments`` (then it has none:
``{}``), ``arguments`` may be the JSON object itself rather than its text, and a streamed call may
arrive whole in one chunk without ``index`` (then it is a call of its own).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from ._attributes import members_of
from ._contracts import (
    NO_LIMITS,
    Contracts,
    RequestPlan,
    Strict,
    StrictToolLimits,
    only_api,
)
from ._json import JsonRefused, checked, dumps
from ._runtime import (
    MISSING,
    CallReader,
    Decoded,
    FragmentJoiner,
    ToolCallFragments,
    ValidatingDecoder,
    Validator,
    json_value,
    schema_drift,
    wire_form,
)
from ._tool_results import Answer, _checked_ids, _marked_text

if TYPE_CHECKING:
    from ._fakes import Fake

__all__ = [
    "FAKE_MODEL",
    "LENIENT_READS",
    "READS",
    "STREAM_CONTENT_TYPE",
    "ChatCompletionAssistantMessageParam",
    "ChatCompletionFunctionToolParam",
    "ChatCompletionNamedToolChoiceParam",
    "ChatCompletionToolCallStream",
    "ChatCompletionToolMessageParam",
    "ChatCompletionsDecoder",
    "ChatCompletionsRequests",
    "ChatLoop",
    "ChatRequest",
    "FunctionDefinition",
    "JSONSchema",
    "JsonObjectChatCompletionsRequests",
    "LenientChatCompletionToolCallStream",
    "LenientChatCompletionsDecoder",
    "NamedFunction",
    "ResponseFormatJSONObject",
    "ResponseFormatJSONSchema",
    "ResponseFormatText",
    "fake_response",
    "fake_stream",
    "stream_body",
]


class FunctionDefinition(TypedDict):
    """``tools[].function``."""

    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, object]]
    strict: NotRequired[bool | None]


class ChatCompletionFunctionToolParam(TypedDict):
    """One entry of ``tools``."""

    type: Literal["function"]
    function: FunctionDefinition


class JSONSchema(TypedDict):
    """``response_format.json_schema``."""

    name: str
    description: NotRequired[str]
    schema: NotRequired[dict[str, object]]
    strict: NotRequired[bool | None]


class ResponseFormatJSONSchema(TypedDict):
    """``response_format``."""

    type: Literal["json_schema"]
    json_schema: JSONSchema


class ResponseFormatJSONObject(TypedDict):
    """``response_format`` of JSON mode: a JSON object, its shape told in the messages."""

    type: Literal["json_object"]


class ResponseFormatText(TypedDict):
    """The plain-text format (the shared param the Responses API's ``text.format`` names too)."""

    type: Literal["text"]


class NamedFunction(TypedDict):
    """``tool_choice.function``."""

    name: str


class ChatCompletionNamedToolChoiceParam(TypedDict):
    """``tool_choice`` naming the one function the model must call."""

    function: NamedFunction
    type: Literal["function"]


class ChatRequest(TypedDict, total=False):
    """The tools-and-output members of one ``chat.completions.create`` request."""

    tools: list[ChatCompletionFunctionToolParam]
    response_format: ResponseFormatJSONSchema | ResponseFormatJSONObject
    tool_choice: ChatCompletionNamedToolChoiceParam


class _ChatRequests:
    """What the two ways of writing a structured output share: tools, plans, requests."""

    def __init__(
        self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits = NO_LIMITS
    ) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def function(self, name: str, strict: Strict = "auto") -> FunctionDefinition:
        """``tools[].function`` of the canonical tool ``name``, strict unless ``strict`` is
        False, when the tool may go strict."""
        return {
            "name": self._tools.provider_name(name),
            "description": self._tools.descriptions[name],
            "parameters": self._tools.schema(name),
            "strict": strict is not False and self._tools.is_strict(name),
        }

    def tool_definition(
        self, name: str, api: Literal["chat"] = "chat", *, strict: Strict = "auto"
    ) -> ChatCompletionFunctionToolParam:
        """The function-tool definition of canonical tool ``name``: an entry of ``tools``
        (``strict=False``: the strict flag off, the same schema)."""
        only_api(api, "chat")
        return {"type": "function", "function": self.function(name, strict)}

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["chat"] = "chat",
        strict: Strict = "auto",
    ) -> list[ChatCompletionFunctionToolParam]:
        """Definitions of the tools ``names`` (all tools when None), for the ``tools`` request
        field (``MAX_TOOLS`` of the provider module: how many one request takes, when known);
        ``strict=False`` sends them with the strict flag off."""
        only_api(api, "chat")
        chosen = self._tools.chosen(names, ("chat", "responses"))
        marked = self._limits.marked(self._tools, chosen, strict)
        return [self.tool_definition(name, strict=name in marked) for name in chosen]

    def _format(self, name: str) -> ResponseFormatJSONSchema | ResponseFormatJSONObject:
        raise NotImplementedError

    def output_instructions(self, name: str, api: Literal["chat"] = "chat") -> str:
        """What the request's messages must say for the structured output ``name`` (empty: its
        ``response_format`` says it all)."""
        only_api(api, "chat")
        self._outputs.known(name)
        return ""

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["chat"] = "chat",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[ChatRequest]:
        """The plan of one request of the tools ``names`` (all tools when None) and the
        structured output ``output``: ValueError when it holds more tools than one request takes
        (``MAX_TOOLS``); ``strict`` as ``tool_definitions`` has it; ``tool_choice``: a canonical
        tool of the request the model must call. Its ``members`` are what ``request`` returns,
        its ``instructions`` what the messages must carry besides (JSON mode)."""
        only_api(api, "chat")

        def members(
            chosen: list[str], strict_tools: frozenset[str], nullable: Mapping[str, tuple[str, ...]]
        ) -> ChatRequest:
            request: ChatRequest = {}
            if chosen:
                request["tools"] = [
                    self.tool_definition(n, strict=n in strict_tools) for n in chosen
                ]
            if output is not None:
                request["response_format"] = self._format(output)
            if tool_choice is not None:
                forced = self._tools.forced(tool_choice, chosen)
                request["tool_choice"] = {"type": "function", "function": {"name": forced}}
            return request

        instructions = "" if output is None else self.output_instructions(output)
        return self._limits.plan(
            api, self._tools, names, strict, self._outputs, output, members, instructions
        )

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["chat"] = "chat",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> ChatRequest:
        """The tools-and-output members of one request (``plan_request(...).members``):
        ``client.chat.completions.create(model=..., messages=..., **request(...))``."""
        return self.plan_request(
            names, output=output, api=api, strict=strict, tool_choice=tool_choice
        ).members


class ChatCompletionsRequests(_ChatRequests):
    """The request side of Chat Completions for one provider module's tools and outputs."""

    def json_schema(self, name: str) -> JSONSchema:
        """``response_format.json_schema`` of the canonical structured output ``name``."""
        return {
            "name": self._outputs.provider_name(name),
            "description": self._outputs.descriptions[name],
            "schema": self._outputs.schema(name),
            "strict": True,
        }

    def response_format(self, name: str, api: Literal["chat"] = "chat") -> ResponseFormatJSONSchema:
        """``response_format`` for the canonical structured output ``name``."""
        only_api(api, "chat")
        return {"type": "json_schema", "json_schema": self.json_schema(name)}

    def _format(self, name: str) -> ResponseFormatJSONSchema:
        return self.response_format(name)


class JsonObjectChatCompletionsRequests(_ChatRequests):
    """The request side of Chat Completions for an API whose structured output is JSON mode only:
    ``response_format`` is ``{"type": "json_object"}``, and the output's projected schema goes in
    ``output_instructions`` (``plan_request(...).instructions``), for the request's system
    message; the decoded payload is checked against the canonical schema (``parse_output``)."""

    def response_format(self, name: str, api: Literal["chat"] = "chat") -> ResponseFormatJSONObject:
        """``response_format`` for the canonical structured output ``name``: JSON mode (put
        ``output_instructions(name)`` in the request's system message)."""
        only_api(api, "chat")
        self._outputs.known(name)
        return {"type": "json_object"}

    def _format(self, name: str) -> ResponseFormatJSONObject:
        return self.response_format(name)

    def output_instructions(self, name: str, api: Literal["chat"] = "chat") -> str:
        """The system message's text for the structured output ``name``: answer with one JSON
        object matching its projected schema (JSON mode asks for the word "json" in the
        messages, and for the shape to be told there)."""
        only_api(api, "chat")
        described = self._outputs.descriptions[self._outputs.known(name)]
        return (
            f"Answer with one JSON object and nothing else: {self._outputs.provider_name(name)}"
            + (f" ({described})" if described else "")
            + ", valid against this JSON Schema:\n"
            + json.dumps(self._outputs.schema(name), ensure_ascii=False, separators=(",", ":"))
        )


_CALL = "choices[0].message.tool_calls?.[]"
_CHUNK_CALL = "choices.[].delta.tool_calls?.[]"
READS: tuple[tuple[str, str, str], ...] = (
    ("chat_completion", "choices[0].message", "object"),
    ("chat_completion", f"{_CALL}.type", "string"),
    ("chat_completion", f"{_CALL}.{{type=function}}.id", "string"),
    ("chat_completion", f"{_CALL}.{{type=function}}.function.name", "string"),
    ("chat_completion", f"{_CALL}.{{type=function}}.function.arguments", "string"),
    ("chat_completion_chunk", "choices.[].index", "integer"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.index", "integer"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.type?", "string"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.id?", "string"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.function?.name?", "string"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.function?.arguments?", "string"),
)
LENIENT_READS: tuple[tuple[str, str, str], ...] = (
    ("chat_completion", "choices[0].message", "object"),
    ("chat_completion", f"{_CALL}.type?", "string"),
    ("chat_completion", f"{_CALL}.id", "string"),
    ("chat_completion", f"{_CALL}.function.name", "string"),
    ("chat_completion", f"{_CALL}.function.arguments?", "string or object"),
    ("chat_completion_chunk", "choices.[].index", "integer"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.index?", "integer"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.type?", "string"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.id?", "string"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.function?.name?", "string"),
    ("chat_completion_chunk", f"{_CHUNK_CALL}.function?.arguments?", "string or object"),
)


class ChatCompletionsDecoder(ValidatingDecoder):
    """The function calls of chat completions (first choice) and of their streams."""

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded]) -> list[Decoded]:
        """The function calls of the first choice, decoded; validates ``data`` first.

        Calls of other types are skipped; malformed arguments raise PayloadError.
        """
        valid = self._validate(data)
        from_text = calls.from_text
        seen: set[str] = set()  # the ids of the calls so far: each is answered once
        if type(valid) is not dict:  # an SDK object its reader checked through its attributes
            completion: Any = valid
            return [
                from_text(call.id, call.function.name, call.function.arguments, seen)
                for call in getattr(completion.choices[0].message, "tool_calls", None) or ()
                if call.type == "function"
            ]
        message = valid["choices"][0]["message"]
        return [
            from_text(call["id"], call["function"]["name"], call["function"]["arguments"], seen)
            for call in message.get("tool_calls") or ()
            if call["type"] == "function"
        ]

    def stream(self) -> ChatCompletionToolCallStream:
        return ChatCompletionToolCallStream(self.provider, self._validate_event)


class ChatCompletionToolCallStream(FragmentJoiner):
    """Joins the tool-call deltas of a streamed chat completion (first choice) into whole calls.

    Give every chunk to ``add`` (it validates the chunk and returns it), then call ``tool_calls``.
    """

    def __init__(self, provider: str, validate_event: Validator) -> None:
        super().__init__(provider, validate_event)
        self._skipped: set[int] = set()

    def add(self, chunk: object) -> None:
        # raw JSON, or an SDK object its reader checked, read as ``members_of`` reads it (written
        # out: this runs for each level of every chunk)
        valid = self._validate(chunk)
        for choice in (valid if type(valid) is dict else valid.__dict__)["choices"]:
            choice = choice if type(choice) is dict else choice.__dict__
            if choice["index"] != 0:
                continue
            delta = choice["delta"]
            # optional members may be absent or null (SDK objects dump absent members as None)
            for call in (delta if type(delta) is dict else delta.__dict__).get("tool_calls") or ():
                call = call if type(call) is dict else call.__dict__
                self._add_delta(self._index_of(call), call)

    def _index_of(self, delta: Any) -> int:
        index: int = delta["index"]
        return index

    def _add_delta(self, index: int, delta: Any) -> None:
        if delta.get("type") not in (None, "function"):
            self._skipped.add(index)
        call = self._call_at(index)
        if call.id is None:
            call.id = delta.get("id")
        function = delta.get("function")
        function = {} if function is None else members_of(function)
        if call.name is None:
            call.name = function.get("name")
        arguments = function.get("arguments")
        if arguments is not None:
            self._add_arguments(index, call, arguments)

    def _add_arguments(self, index: int, call: ToolCallFragments, arguments: Any) -> None:
        call.parts.append(arguments)

    def tool_calls(self, calls: CallReader[Decoded]) -> list[Decoded]:
        """The joined calls in index order; a call never given an id or a name is drift."""
        joined = []
        seen: set[str] = set()
        for index, call in sorted(self._calls.items()):
            if index in self._skipped:
                continue
            where = ("choices", 0, "delta", "tool_calls", index)
            if call.id is None:
                raise schema_drift(
                    self.provider, "chat_completion_chunk", (*where, "id"), "string", MISSING
                )
            if call.name is None:
                raise schema_drift(
                    self.provider,
                    "chat_completion_chunk",
                    (*where, "function", "name"),
                    "string",
                    MISSING,
                )
            joined.append(self._decoded(index, call.id, call.name, call, calls, seen))
        return joined

    def _decoded(
        self,
        index: int,
        call_id: str,
        name: str,
        call: ToolCallFragments,
        calls: CallReader[Decoded],
        seen: set[str],
    ) -> Decoded:
        return calls.from_text(call_id, name, call.arguments(), seen)


class LenientChatCompletionsDecoder(ChatCompletionsDecoder):
    """Chat completions whose calls may leave out ``type`` or ``arguments``, or carry the
    arguments as an object (see the module docstring)."""

    def __init__(self, provider: str, read_response: Validator, read_event: Validator) -> None:
        super().__init__(
            provider,
            _arguments_as_dumped(read_response, "message"),
            _arguments_as_dumped(read_event, "delta"),
        )

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded]) -> list[Decoded]:
        """The function calls of the first choice, decoded; validates ``data`` first.

        A call without ``type`` is a function call, one without ``arguments`` has none (``{}``),
        and ``arguments`` may be JSON text or the object itself. Calls of other types are skipped;
        malformed arguments raise PayloadError.
        """
        # raw JSON, or an SDK object its reader checked, read through ``members_of``
        choice = members_of(members_of(self._validate(data))["choices"][0])
        message = members_of(choice["message"])
        decoded = []
        seen: set[str] = set()
        for call in message.get("tool_calls") or ():
            call = members_of(call)
            if call.get("type") not in (None, "function"):
                continue
            function = members_of(call["function"])
            arguments = function.get("arguments")
            if type(arguments) is str:
                decoded.append(calls.from_text(call["id"], function["name"], arguments, seen))
            else:
                parsed = {} if arguments is None else arguments
                decoded.append(calls.from_object(call["id"], function["name"], parsed, seen))
        return decoded

    def stream(self) -> LenientChatCompletionToolCallStream:
        return LenientChatCompletionToolCallStream(self.provider, self._validate_event)


def _arguments_as_dumped(read: Validator, holder: str) -> Validator:
    """``read`` (a ``read_<surface>``), then, for an SDK object whose calls carry ``arguments``
    that are no text and no JSON within the runtime's limits (NaN, which its dump writes as
    null), its dump read instead; ``holder`` is the member of a choice holding the calls."""

    def read_as_dumped(data: object) -> Any:
        valid = read(data)
        if type(valid) is not dict and not _arguments_are_json(valid, holder):
            return read(json_value(data))
        return valid

    return read_as_dumped


def _arguments_are_json(valid: Any, holder: str) -> bool:
    try:
        for choice in members_of(valid)["choices"]:
            for call in members_of(members_of(choice)[holder]).get("tool_calls") or ():
                function = members_of(call).get("function")
                arguments = None if function is None else members_of(function).get("arguments")
                if type(arguments) is not str:
                    checked(arguments)
    except JsonRefused:
        return False
    return True


class LenientChatCompletionToolCallStream(ChatCompletionToolCallStream):
    """Joins streamed deltas as the base class does; a delta without ``index`` is a whole call of
    its own, and arguments that arrive as an object are the call's whole arguments."""

    def __init__(self, provider: str, validate_event: Validator) -> None:
        super().__init__(provider, validate_event)
        self._objects: dict[int, dict[str, Any]] = {}

    def _index_of(self, delta: Any) -> int:
        index = delta.get("index")
        return max(self._calls, default=-1) + 1 if index is None else int(index)

    def _add_arguments(self, index: int, call: ToolCallFragments, arguments: Any) -> None:
        if type(arguments) is dict:
            self._objects[index] = arguments
        else:
            call.parts.append(arguments)

    def _decoded(
        self,
        index: int,
        call_id: str,
        name: str,
        call: ToolCallFragments,
        calls: CallReader[Decoded],
        seen: set[str],
    ) -> Decoded:
        if index in self._objects:
            return calls.from_object(call_id, name, self._objects[index], seen)
        return super()._decoded(index, call_id, name, call, calls, seen)


# -- the tool loop: the turn to replay and the results that answer its calls --------------------


class ChatCompletionAssistantMessageParam(TypedDict):
    """The SDK's ``ChatCompletionAssistantMessageParam``."""

    role: Literal["assistant"]
    audio: NotRequired[Any]
    content: NotRequired[str | Iterable[Any] | None]
    function_call: NotRequired[Any]
    name: NotRequired[str]
    refusal: NotRequired[str | None]
    tool_calls: NotRequired[Iterable[Any]]
    #: not in the SDK type: the chain of thought a provider wants back with the calls it made
    #: (``replay_reasoning``)
    reasoning_content: NotRequired[str]


class ChatCompletionToolMessageParam(TypedDict):
    """The SDK's ``ChatCompletionToolMessageParam`` (``name``: for providers whose tool messages
    carry it)."""

    content: str | Iterable[Any]
    role: Literal["tool"]
    tool_call_id: str
    name: NotRequired[str]


class ChatLoop:
    """Chat Completions: the first choice's message replayed with its calls as received; one
    ``role: "tool"`` message per call (a failure's text as its content, the API having no error
    marker); ``name`` on each when ``tool_message_name``, and the message's ``reasoning_content``
    replayed with its calls when ``replay_reasoning`` (the provider's profile says so)."""

    def __init__(
        self,
        provider: str,
        validate: Validator,
        *,
        tool_message_name: bool = False,
        replay_reasoning: bool = False,
    ) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON
        self._name = tool_message_name
        self._reasoning = replay_reasoning

    def assistant_turn(self, data: object) -> ChatCompletionAssistantMessageParam:
        message = self._validate(data)["choices"][0]["message"]
        turn: ChatCompletionAssistantMessageParam = {
            "role": "assistant",
            "content": message.get("content"),
        }
        calls = message.get("tool_calls")
        if calls:
            turn["tool_calls"] = [_chat_call(call) for call in calls]
        if message.get("refusal") is not None:
            turn["refusal"] = message["refusal"]
        reasoning = message.get("reasoning_content")
        if self._reasoning and calls and isinstance(reasoning, str):
            turn["reasoning_content"] = reasoning
        return turn

    def result(self, answer: Answer) -> ChatCompletionToolMessageParam:
        message: ChatCompletionToolMessageParam = {
            "role": "tool",
            "tool_call_id": answer.call_id,
            "content": _marked_text(answer),
        }
        if self._name:
            message["name"] = answer.wire_name
        return message

    def results(self, answers: Sequence[Answer]) -> list[ChatCompletionToolMessageParam]:
        return [self.result(answer) for answer in _checked_ids(answers)]


def _chat_call(call: dict[str, Any]) -> dict[str, Any]:
    """A call of the response as the request takes it: the members the API defines, unchanged
    (a lenient API's call without ``type`` is a function call; arguments sent as an object go
    back as their text)."""
    function = call.get("function")
    if function is None:
        return dict(call)
    return {
        "id": call["id"],
        "type": call.get("type") or "function",
        "function": {
            "name": function["name"],
            "arguments": _arguments_text(function.get("arguments")),
        },
    }


def _arguments_text(arguments: Any) -> str:
    """A call's arguments as the text a replayed call carries: text as received, an object (as
    lenient APIs send it) written as JSON, none as ``{}``."""
    return (
        arguments if isinstance(arguments, str) else dumps({} if arguments is None else arguments)
    )


# -- fakes: the bodies and streams it answers with, for tests ------------------------------

#: The model its fakes name unless ``model`` is given.
FAKE_MODEL = "gpt-4.1-2025-04-14"


def fake_response(
    calls: Sequence[tuple[str, Any]],
    *,
    text: str | None = None,
    model: str | None = None,
    lenient: bool = False,
) -> dict[str, Any]:
    """A ``chat.completion`` with the assistant ``text`` (when given) then the ``calls``, in
    order: ``tool_calls`` with ``call_...`` ids, arguments as JSON text, finish reason
    ``tool_calls`` or ``stop``. ``lenient``: as the lenient compatible APIs send it (bare hex ids,
    9-character call ids, calls without ``type``)."""
    return _chat_response(_fake(calls, text, model, lenient))


def fake_stream(
    calls: Sequence[tuple[str, Any]],
    *,
    text: str | None = None,
    model: str | None = None,
    lenient: bool = False,
) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects of the streamed answer: a role chunk, content
    deltas, for each call a delta with its index, id and name then argument fragments keyed by
    the same index, a chunk with the finish reason, and a last chunk with no choices and the
    usage. ``lenient`` chunks carry each call whole, without index, in the last chunk with the
    finish reason and the usage."""
    return _chat_stream(_fake(calls, text, model, lenient))


#: The ``Content-Type`` of a streamed answer.
STREAM_CONTENT_TYPE = "text/event-stream"


def stream_body(events: Iterable[Mapping[str, Any]]) -> bytes:
    """The HTTP body of a streamed answer made of ``events`` (``fake_stream``'s, or any):
    a ``data:`` line of JSON per chunk, each followed by an empty line, then ``data: [DONE]``
    (the API reference's ``stream`` parameter: data-only server-sent events ended by
    ``data: [DONE]``; the SDK's ``_streaming.py`` stops there), as recorded streams end
    (toolgen's tests/sdk/test_sse.py compares them)."""
    from ._fakes import server_sent_events

    return server_sent_events(events, done=True)


def _fake(
    calls: Sequence[tuple[str, Any]], text: str | None, model: str | None, lenient: bool
) -> Fake:
    from ._fakes import Fake

    return Fake("chat", calls, text, FAKE_MODEL if model is None else model, lenient)


def _token_counts(fake: Fake) -> dict[str, Any]:
    """The usage of Chat Completions and Workers AI's native results."""
    return fake.usage("prompt_tokens", "completion_tokens", "total_tokens")


def _chat_usage(fake: Fake) -> dict[str, Any]:
    return {
        **_token_counts(fake),
        "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _chat_finish(fake: Fake) -> str:
    return "tool_calls" if fake.calls else "stop"


def _chat_response(fake: Fake) -> dict[str, Any]:
    if fake.lenient:
        return _lenient_chat_response(fake)
    message: dict[str, Any] = {
        "role": "assistant",
        "content": fake.text,
        "refusal": None,
        "annotations": [],
    }
    if fake.calls:
        message["tool_calls"] = [
            {
                "id": fake.call_id(index, "call_", 24),
                "type": "function",
                "function": {"name": name, "arguments": fake.json_text(arguments)},
            }
            for index, (name, arguments) in enumerate(fake.calls)
        ]
    return {
        "id": f"chatcmpl-{fake.token('id', 29)}",
        "object": "chat.completion",
        "created": fake.CREATED,
        "model": fake.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": _chat_finish(fake),
            }
        ],
        "usage": _chat_usage(fake),
        "service_tier": "default",
        "system_fingerprint": f"fp_{fake.hex('fingerprint', 10)}",
    }


def _chat_stream(fake: Fake) -> list[dict[str, Any]]:
    if fake.lenient:
        return _lenient_chat_stream(fake)
    completion_id = f"chatcmpl-{fake.token('id', 29)}"
    fingerprint = f"fp_{fake.hex('fingerprint', 10)}"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": fake.CREATED,
            "model": fake.model,
            "service_tier": "default",
            "system_fingerprint": fingerprint,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": "" if fake.text else None, "refusal": None})]
    chunks += [chunk({"content": piece}) for piece in fake.words(fake.text or "")]
    for index, (name, arguments) in enumerate(fake.calls):
        start = {
            "index": index,
            "id": fake.call_id(index, "call_", 24),
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        chunks.append(chunk({"tool_calls": [start]}))
        chunks += [
            chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            for piece in fake.pieces(fake.json_text(arguments))
        ]
    chunks.append(chunk({}, _chat_finish(fake)))
    usage = chunk({})
    usage["choices"] = []
    usage["usage"] = _chat_usage(fake)
    chunks.append(usage)
    return chunks


# The lenient compatible APIs (as recorded): bare 32-digit hex ids, 9-character call ids, calls
# without ``type``, arguments written with spaces; a stream sends each call whole (no ``index``)
# in its last chunk, with the finish reason and the usage.
def _lenient_call(fake: Fake, index: int, name: str, arguments: Any) -> dict[str, Any]:
    text = json.dumps(arguments, ensure_ascii=False)
    return {"function": {"name": name, "arguments": text}, "id": fake.call_id(index, "", 9)}


def _lenient_chat_response(fake: Fake) -> dict[str, Any]:
    calls = [
        {**_lenient_call(fake, index, name, arguments), "index": index}
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    message = {"content": fake.text or "", "role": "assistant", "tool_calls": calls or None}
    return {
        "choices": [{"finish_reason": _chat_finish(fake), "index": 0, "message": message}],
        "created": fake.CREATED,
        "id": fake.hex("id", 32),
        "model": fake.model,
        "object": "chat.completion",
        "usage": _token_counts(fake),
    }


def _lenient_chat_stream(fake: Fake) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return {
            "id": fake.hex("id", 32),
            "object": "chat.completion.chunk",
            "created": fake.CREATED,
            "model": fake.model,
            "choices": [choice],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": piece}) for piece in fake.words(fake.text or "")]
    calls = [
        _lenient_call(fake, index, name, arguments)
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    last = chunk(
        {"content": None, "tool_calls": calls} if calls else {"content": ""}, _chat_finish(fake)
    )
    last["usage"] = _token_counts(fake)
    return [*chunks, last]
