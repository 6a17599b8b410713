"""The Workers AI text-generation API (``ai/run/{model}``): request builders, the REST wrapper,
the model families whose results differ in shape, and their tool calls, whole and streamed.

A REST body is ``{result, success, errors, messages}``; ``result`` (and each event of an SSE
stream) takes one of three shapes, which the generated envelope validators check:

- ``native``: ``{response, tool_calls, usage}``; ``response`` is text, or an object or a number
  when JSON mode answers; a tool call is ``{name, arguments}`` or ``{id, type, function: {name,
  arguments}}`` with ``arguments`` an object (JSON text is read too);
- ``chat``: chat-completion ``choices`` (read by the Chat Completions decoders);
- ``responses``: Responses-style ``output`` items (read by the Responses decoders).

Which shapes a model answers with depends on its family, chosen from the model name by the
longest matching prefix of the table the provider module passes. A model of no known family is
read with every shape, and a warning-level drift event tells the drift hooks so; a family
answering with a shape it is not known for is drift. Drift paths of a shape start at ``result``
(the surface is named in ``api``); those of the wrapper start at the body.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from ._chat_completions import READS as CHAT_READS
from ._chat_completions import (
    ChatCompletionNamedToolChoiceParam,
    ChatCompletionsDecoder,
    _arguments_text,
    _chat_call,
    _chat_response,
    _chat_stream,
    _token_counts,
)
from ._contracts import (
    NO_LIMITS,
    Contracts,
    RequestPlan,
    Strict,
    StrictToolLimits,
    only_api,
)
from ._json import JsonRefused, dumps, loads
from ._responses import READS as RESPONSES_READS
from ._responses import (
    ResponsesDecoder,
    _responses_response,
    _responses_stream,
    output_text,
)
from ._runtime import (
    MISSING,
    CallReader,
    Decoded,
    Event,
    PayloadError,
    ToolCallAccumulator,
    ToolCallDecoder,
    Validator,
    drift_warning,
    json_value,
    schema_drift,
    wire_form,
)
from ._tool_results import Answer, _checked_ids, _marked_text

if TYPE_CHECKING:
    from ._fakes import Fake

__all__ = [
    "FAKE_MODEL",
    "READS",
    "SHAPES",
    "STREAM_CONTENT_TYPE",
    "ChatResponseFormat",
    "FunctionTool",
    "JsonSchemaFormat",
    "NativeResponseFormat",
    "ToolCallStream",
    "ToolFunction",
    "WorkersAiDecoder",
    "WorkersAiError",
    "WorkersAiRequest",
    "WorkersAiRequests",
    "WorkersAssistantMessage",
    "WorkersRunLoop",
    "WorkersToolMessage",
    "fake_response",
    "fake_stream",
    "sse_events",
    "stream_body",
]

#: model-name prefix -> (family name, the shapes its models answer with)
Families = Mapping[str, tuple[str, tuple[str, ...]]]
#: ``function``: ``{type: "function", function: {...}}`` (every model takes it); ``native``:
#: ``{name, description, parameters}``.
ToolForm = Literal["function", "native"]

SHAPES: tuple[str, ...] = ("native", "chat", "responses")
UNKNOWN_FAMILY = "unknown"
#: The Responses-style surfaces under their names here (``response`` would clash with the
#: provider module's own ``validate_response``).
_RESPONSES_SURFACES = {
    "response": "responses_result",
    "response_stream_event": "responses_stream_event",
}

#: (surface, read path, JSON type): what this module and the decoders it builds read with
#: subscripts or ``.get``; the build checks that the envelope schemas guarantee it. The surfaces
#: come in the order of WorkersAiDecoder's validators.
READS: tuple[tuple[str, str, str], ...] = (
    ("rest_response", "success", "boolean"),
    ("rest_response", "errors.[].message", "string"),
    ("rest_response", "errors.[].code?", "integer"),
    ("native_output", "tool_calls?.[].name?", "string"),
    ("native_output", "tool_calls?.[].id?", "string"),
    ("native_output", "tool_calls?.[].function?.name", "string"),
    ("chat_completion", "choices[0].message", "object"),
    ("responses_result", "output.[].type", "string"),
    *CHAT_READS,
    *((_RESPONSES_SURFACES[s], path, kind) for s, path, kind in RESPONSES_READS),
)


# -- requests -----------------------------------------------------------------------------------
class ToolFunction(TypedDict):
    """A tool in the native form, and the ``function`` of the function form."""

    name: str
    description: str
    parameters: dict[str, Any]


class FunctionTool(TypedDict):
    """A tool in the function form (``AiTextGenerationToolInput``, ``ChatCompletionFunctionTool``
    of the type definitions)."""

    type: Literal["function"]
    function: ToolFunction


class NativeResponseFormat(TypedDict):
    """JSON mode of ``ai/run``: ``json_schema`` is the schema itself."""

    type: Literal["json_schema"]
    json_schema: dict[str, Any]


class JsonSchemaFormat(TypedDict):
    name: str
    schema: dict[str, Any]
    description: NotRequired[str]


class ChatResponseFormat(TypedDict):
    """JSON mode of the chat-completions endpoint (``ResponseFormatJSONSchema``)."""

    type: Literal["json_schema"]
    json_schema: JsonSchemaFormat


class WorkersAiRequest(TypedDict, total=False):
    """The tools-and-output members of one request body (``ai/run`` or the chat-completions
    endpoint)."""

    tools: list[FunctionTool | ToolFunction]
    response_format: NativeResponseFormat | ChatResponseFormat
    tool_choice: ChatCompletionNamedToolChoiceParam


_APIS = ("run", "chat")


class WorkersAiRequests:
    """The request side of Workers AI for one provider module's tools and outputs. There is no
    strict mode: schemas are hints."""

    def __init__(
        self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits = NO_LIMITS
    ) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def function(self, name: str) -> ToolFunction:
        """The tool ``name`` in the native form; ``description`` is required by both forms (an
        empty one is sent as ``""``)."""
        return {
            "name": self._tools.provider_name(name),
            "description": self._tools.descriptions[name],
            "parameters": self._tools.schema(name),
        }

    def tool_definition(
        self, name: str, api: Literal["run", "chat"] = "run", *, form: ToolForm = "function"
    ) -> FunctionTool | ToolFunction:
        """The ``tools`` entry of the canonical tool ``name`` in ``form`` (the chat-completions
        endpoint takes the function form)."""
        only_api(api, *_APIS)
        if form == "native":
            return self.function(name)
        return {"type": "function", "function": self.function(name)}

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["run", "chat"] = "run",
        form: ToolForm = "function",
    ) -> list[FunctionTool | ToolFunction]:
        """``tools`` for the tools ``names`` (all tools when None)."""
        only_api(api, *_APIS)
        return [self.tool_definition(n, form=form) for n in self._tools.chosen(names, _APIS)]

    def response_format(self, name: str) -> NativeResponseFormat:
        """JSON mode of ``ai/run`` for the canonical structured output ``name``."""
        return {"type": "json_schema", "json_schema": self._outputs.schema(name)}

    def chat_response_format(self, name: str) -> ChatResponseFormat:
        """``response_format`` of the chat-completions endpoint for the output ``name``."""
        json_schema: JsonSchemaFormat = {
            "name": self._outputs.provider_name(name),
            "schema": self._outputs.schema(name),
        }
        if self._outputs.descriptions[name]:
            json_schema["description"] = self._outputs.descriptions[name]
        return {"type": "json_schema", "json_schema": json_schema}

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["run", "chat"] = "run",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[WorkersAiRequest]:
        """The plan of one request body of ``api`` of the tools ``names`` (all tools when None,
        in the function form) and the structured output ``output``. There is no strict mode:
        ``strict=True`` is a ValueError, "auto" and False send the schemas as hints (the
        canonical validation of each decoded payload is the check). ``tool_choice``: a
        canonical tool of the request the model must call (the chat-completions endpoint's
        ``tool_choice``; ``ai/run`` documents none: ValueError)."""
        only_api(api, *_APIS)
        if strict is True:
            raise ValueError(
                "strict=True: this API has no strict mode (its schemas are hints, and each "
                'decoded payload is validated); use strict="auto"'
            )
        if tool_choice is not None and api != "chat":
            raise ValueError(f"tool_choice is written for api='chat' only, not {api!r}")

        def members(
            chosen: list[str], _strict: frozenset[str], nullable: Mapping[str, tuple[str, ...]]
        ) -> WorkersAiRequest:
            request: WorkersAiRequest = {}
            if chosen:
                request["tools"] = [self.tool_definition(name) for name in chosen]
            if output is not None:
                request["response_format"] = (
                    self.chat_response_format(output)
                    if api == "chat"
                    else self.response_format(output)
                )
            if tool_choice is not None:
                forced = self._tools.forced(tool_choice, chosen)
                request["tool_choice"] = {"type": "function", "function": {"name": forced}}
            return request

        return self._limits.plan(api, self._tools, names, False, self._outputs, output, members)

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["run", "chat"] = "run",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> WorkersAiRequest:
        """The tools-and-output members of one request body (``plan_request(...).members``)."""
        return self.plan_request(
            names, output=output, api=api, strict=strict, tool_choice=tool_choice
        ).members


# -- responses ----------------------------------------------------------------------------------
class WorkersAiError(Exception):
    """A REST body with ``success: false``: the request failed, there is no result. Carries the
    error codes and messages the API sent (``str`` shows the codes only)."""

    def __init__(self, provider: str, codes: tuple[int | None, ...], messages: tuple[str, ...]):
        super().__init__(provider, codes)
        self.provider = provider
        self.codes = codes
        self.messages = messages

    def __str__(self) -> str:
        codes = ", ".join("?" if code is None else str(code) for code in self.codes)
        return f"{self.provider} request failed (error codes: {codes or 'none'})"


def sse_events(lines: Iterable[str | bytes]) -> Iterator[Any]:
    """The JSON events of an SSE stream given line by line (``data: {...}``); other fields,
    blank lines and the final ``data: [DONE]`` are skipped. Malformed JSON, or JSON beyond the
    runtime's limits (``_json``), raises ValueError (JsonRefused)."""
    for line in lines:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        text = text.rstrip("\r\n")
        if not text.startswith("data:"):
            continue
        payload = text[5:].strip()
        if payload and payload != "[DONE]":
            yield loads(payload)


class WorkersAiDecoder:
    """Reads the Workers AI responses of one provider module.

    Built from the provider name, the generated validators of the surfaces in ``READS`` order,
    and the family table; it reads chat-style and Responses-style results with the decoders of
    those APIs, built from the same validators.
    """

    def __init__(
        self,
        provider: str,
        validate_rest_response: Validator,
        validate_native_output: Validator,
        validate_chat_completion: Validator,
        validate_responses_result: Validator,
        validate_chat_completion_chunk: Validator,
        validate_responses_stream_event: Validator,
        *,
        families: Families,
    ) -> None:
        self.provider = provider
        self._prefixes = sorted(families.items(), key=lambda item: -len(item[0]))
        # every body, result and event read as JSON (an SDK object's dump)
        self._validate_wrapper = wire_form(validate_rest_response)
        self._validate_result = {
            "native": wire_form(validate_native_output),
            "chat": wire_form(validate_chat_completion),
            "responses": wire_form(validate_responses_result),
        }
        self._decoders: dict[str, ToolCallDecoder] = {
            "chat": ChatCompletionsDecoder(
                provider,
                wire_form(validate_chat_completion),
                wire_form(validate_chat_completion_chunk),
            ),
            "responses": ResponsesDecoder(
                provider,
                wire_form(validate_responses_result),
                wire_form(validate_responses_stream_event),
            ),
        }

    def family(self, model: str) -> tuple[str, tuple[str, ...]]:
        """(family, shapes) of ``model``; an unknown model gets every shape and a warning event."""
        for prefix, found in self._prefixes:
            if model.startswith(prefix):
                return found
        drift_warning(
            self.provider,
            "model_family",
            ("model",),
            "a model of a known family",
            "an unknown family: every result shape is accepted",
        )
        return UNKNOWN_FAMILY, SHAPES

    def result(self, data: object, model: str) -> Any:
        """The validated ``result`` of a REST body; WorkersAiError when ``success`` is false."""
        body = self._validate_wrapper(data)
        return self._checked_result(body, model, failed=not body["success"])

    def _checked_result(self, body: dict[str, Any], model: str, *, failed: bool) -> Any:
        if failed:
            errors = body["errors"]
            raise WorkersAiError(
                self.provider,
                tuple(e.get("code") for e in errors),
                tuple(e["message"] for e in errors),
            )
        if "result" not in body:
            raise schema_drift(self.provider, "rest_response", ("result",), "object", MISSING)
        result = body["result"]
        if type(result) is dict:
            shape = self.shape_for(result, model, ("result",))
            self._validate_result[shape](result)
        elif type(result) is not str:  # a model's output is an object, or text (raw mode)
            raise schema_drift(self.provider, "rest_response", ("result",), "object", result)
        return result

    def validate_response(self, data: Event, model: str) -> Event:
        """``data`` as given when the wrapper and its result have the envelope's shape (a failed
        request's body, ``success: false``, has no result to check)."""
        body = self._validate_wrapper(data)
        if body["success"]:
            self._checked_result(body, model, failed=False)
        return data

    def parse_tool_calls(
        self, data: object, model: str, calls: CallReader[Decoded]
    ) -> list[Decoded]:
        """The tool calls of a REST body, canonicalized (none when the result is text)."""
        result = self.result(json_value(data), model)
        if not isinstance(result, dict):
            return []
        shape = _shape_of(result)
        if shape == "native":
            return self.native_calls(result, calls, set())
        return self._decoders[shape].parse_tool_calls(result, calls)

    def answer(self, data: object, model: str) -> Any:
        """The JSON-mode answer of a REST body: an object or number as sent, else the text
        (native ``response``, the first choice's content, or the Responses output text)."""
        result = self.result(json_value(data), model)
        if not isinstance(result, dict):
            return result
        shape = _shape_of(result)
        if shape == "native":
            return result.get("response")
        if shape == "chat":
            return result["choices"][0]["message"].get("content")
        if isinstance(result.get("output_text"), str):
            return result["output_text"]
        return output_text(result["output"])

    def stream(self, model: str) -> ToolCallStream:
        return ToolCallStream(self, model)

    def shape_stream(self, shape: str) -> ToolCallAccumulator:
        return self._decoders[shape].stream()

    def validate_native(self, event: object) -> dict[str, Any]:
        native: dict[str, Any] = self._validate_result["native"](event)
        return native

    def shape_for(self, result: dict[str, Any], model: str, where: tuple[str, ...]) -> str:
        """The shape of ``result`` (a result or a stream's first event), when ``model``'s family
        answers with it; else drift at the member that told the shape."""
        family, shapes = self.family(model)
        shape = _shape_of(result)
        if shape not in shapes:
            key = {"chat": "choices", "responses": "output"}.get(shape, "response")
            raise schema_drift(
                self.provider,
                f"{family} family",
                (*where, key),
                f"a {' or '.join(shapes)} result",
                result.get(key, MISSING),
            )
        return shape

    def native_calls(
        self,
        valid: dict[str, Any],
        calls: CallReader[Decoded],
        seen: set[str],
        first_index: int = 0,
    ) -> list[Decoded]:
        """The calls of a native result (or stream event); ``seen``: the ids of the calls of
        the response so far (each is answered once)."""
        decoded = []
        for index, call in enumerate(valid.get("tool_calls") or (), first_index):
            function = call.get("function")
            source = function if function is not None else call
            name = source.get("name")
            if name is None:
                path = ("tool_calls", index - first_index, "name")
                raise schema_drift(self.provider, "native_output", path, "string", MISSING)
            call_id = call.get("id") or f"call_{index}"
            arguments = source.get("arguments", {})
            if isinstance(arguments, dict):
                decoded.append(calls.from_object(call_id, name, arguments, seen))
            else:  # JSON text, or a value that is no object (a PayloadError)
                try:
                    text = (
                        arguments
                        if isinstance(arguments, str)
                        else self._text(call_id, name, arguments, calls)
                    )
                except PayloadError as error:
                    decoded.append(calls.failed(error, call_id, name, "", seen))
                    continue
                decoded.append(calls.from_text(call_id, name, text, seen))
        return decoded

    def _text(self, call_id: str, name: str, arguments: object, calls: CallReader[Any]) -> str:
        """Arguments sent as a JSON value that is no object, as text (decoding then says what
        it is); PayloadError when the runtime refuses the value (``_json``)."""
        try:
            return dumps(arguments)
        except JsonRefused as refused:
            tool = calls.name_of(name)
            raise PayloadError(
                self.provider, tool, call_id, "arguments", refused.reason, "INVALID_ARGUMENTS"
            ) from None


class ToolCallStream:
    """The tool calls of one SSE stream of ``model``: give every event (``sse_events`` parses the
    lines) to ``add`` (it validates the event and returns it), then call ``tool_calls``.

    The first event decides the shape (chat chunks, Responses events or native events, each
    checked against the model's family); native events carry whole tool calls.
    """

    def __init__(self, reader: WorkersAiDecoder, model: str) -> None:
        self._reader = reader
        self._model = model
        self._shape: str | None = None
        self._inner: ToolCallAccumulator | None = None
        self._native: list[dict[str, Any]] = []

    def add(self, event: object) -> None:
        data = json_value(event)
        if self._shape is None:
            if type(data) is not dict:
                raise schema_drift(self._reader.provider, "native_output", (), "object", data)
            self._shape = self._reader.shape_for(data, self._model, ())
            if self._shape != "native":
                self._inner = self._reader.shape_stream(self._shape)
        if self._inner is not None:
            self._inner.add(data)
            return
        self._native.append(self._reader.validate_native(data))

    def tool_calls(self, calls: CallReader[Decoded]) -> list[Decoded]:
        if self._inner is not None:
            return self._inner.tool_calls(calls)
        joined: list[Decoded] = []
        seen: set[str] = set()
        for event in self._native:
            joined += self._reader.native_calls(event, calls, seen, len(joined))
        return joined


def _shape_of(result: Mapping[str, Any]) -> str:
    if "choices" in result:
        return "chat"
    if "output" in result or result.get("object") == "response" or "type" in result:
        return "responses"
    return "native"


# -- the tool loop: the turn to replay and the results that answer its calls --------------------


class WorkersToolMessage(TypedDict):
    """A ``role: "tool"`` message of ``ai/run`` (``RoleScopedChatInput`` of workers-types)."""

    role: Literal["tool"]
    content: str
    name: NotRequired[str]
    tool_call_id: NotRequired[str]


class WorkersAssistantMessage(TypedDict):
    """The assistant turn of ``ai/run``: its text and its calls in Chat Completions form."""

    role: Literal["assistant"]
    content: str
    tool_calls: NotRequired[list[Any]]


class WorkersRunLoop:
    """Workers AI ``ai/run``: the model's turn as an assistant message (a native result's or a
    Responses-style result's calls in Chat Completions form, with the ids the decoder gave
    them); one tool message per call with its ``name`` and ``tool_call_id`` (a failure's text as
    its content). ``result_of(data, model)`` is the validated ``result`` of a REST body."""

    def __init__(self, provider: str, result_of: Callable[[object, str], Any]) -> None:
        self.provider = provider
        self._result_of = result_of

    def assistant_turn(self, data: object, model: str) -> WorkersAssistantMessage:
        result = self._result_of(data, model)
        if not isinstance(result, dict):
            return {"role": "assistant", "content": result if isinstance(result, str) else ""}
        if "choices" in result:
            message = result["choices"][0]["message"]
            turn: WorkersAssistantMessage = {
                "role": "assistant",
                "content": message.get("content") or "",
            }
            calls = [_chat_call(call) for call in message.get("tool_calls") or ()]
        elif isinstance(result.get("output"), list):  # Responses-style items (gpt-oss)
            items = result["output"]
            turn = {"role": "assistant", "content": output_text(items)}
            calls = [_item_call(item) for item in items if item.get("type") == "function_call"]
        else:
            turn = {"role": "assistant", "content": _text(result.get("response"))}
            calls = [
                _native_call(index, call)
                for index, call in enumerate(result.get("tool_calls") or ())
            ]
        if calls:
            turn["tool_calls"] = calls
        return turn

    def result(self, answer: Answer) -> WorkersToolMessage:
        return {
            "role": "tool",
            "name": answer.wire_name,
            "tool_call_id": answer.call_id,
            "content": _marked_text(answer),
        }

    def results(self, answers: Sequence[Answer]) -> list[WorkersToolMessage]:
        return [self.result(answer) for answer in _checked_ids(answers)]


def _item_call(item: dict[str, Any]) -> dict[str, Any]:
    """A Responses ``function_call`` item in Chat Completions form, its ``call_id`` as the id (the
    decoder's id of the call, which its tool message answers)."""
    return {
        "id": item["call_id"],
        "type": "function",
        "function": {
            "name": item["name"],
            "arguments": _arguments_text(item.get("arguments")),
        },
    }


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else dumps(value)


def _native_call(index: int, call: dict[str, Any]) -> dict[str, Any]:
    """A native call in Chat Completions form, its id as the decoder gives it (``call_<n>``
    when it has none)."""
    function = call.get("function")
    source = function if function is not None else call
    return {
        "id": call.get("id") or f"call_{index}",
        "type": "function",
        "function": {
            "name": source["name"],
            "arguments": _arguments_text(source.get("arguments", {})),
        },
    }


# -- fakes: the bodies and streams it answers with, for tests ------------------------------

#: The model its fakes name unless ``model`` is given.
FAKE_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast"


def fake_response(
    calls: Sequence[tuple[str, Any]],
    *,
    text: str | None = None,
    model: str | None = None,
    shape: str = "native",
) -> dict[str, Any]:
    """The REST body ``{result, success, errors, messages}`` whose result has ``shape``
    (``native``, ``chat`` or ``responses``; the last two with only the members Workers AI's
    types declare), carrying the assistant ``text`` and the ``calls``. A caller passes the
    ``model`` of a family that answers with that shape (the decoders check the family).
    ValueError for an unknown ``shape``."""
    return _rest(_workers_result(_fake(calls, text, model, shape), shape))


def fake_stream(
    calls: Sequence[tuple[str, Any]],
    *,
    text: str | None = None,
    model: str | None = None,
    shape: str = "native",
) -> list[dict[str, Any]]:
    """The SSE events of the result ``shape`` (native events carry the text in pieces, then the
    whole calls, then the usage)."""
    return _workers_stream(_fake(calls, text, model, shape), shape)


#: The ``Content-Type`` of a streamed answer.
STREAM_CONTENT_TYPE = "text/event-stream"


def stream_body(events: Iterable[Mapping[str, Any]]) -> bytes:
    """The HTTP body of a streamed answer made of ``events`` (``fake_stream``'s, or any):
    a ``data:`` line of JSON per event (a native event, or a chat chunk or Responses
    event of those result shapes, unnamed), each followed by an empty line, then ``data: [DONE]``
    (the sources of toolgen's Workers AI fixtures, named in their PROVENANCE.md), what
    ``sse_events`` reads."""
    from ._fakes import server_sent_events

    return server_sent_events(events, done=True)


def _fake(
    calls: Sequence[tuple[str, Any]], text: str | None, model: str | None, shape: str
) -> Fake:
    from ._fakes import Fake

    if shape not in SHAPES:
        raise ValueError(f"unknown Workers AI result shape {shape!r}; expected one of {SHAPES}")
    return Fake("run", calls, text, FAKE_MODEL if model is None else model)


def _native_calls(fake: Fake) -> list[dict[str, Any]]:
    return [{"name": name, "arguments": arguments} for name, arguments in fake.calls]


def _native_result(fake: Fake) -> dict[str, Any]:
    return {
        "response": fake.text or "",
        "tool_calls": _native_calls(fake),
        "usage": _token_counts(fake),
    }


def _native_stream(fake: Fake) -> list[dict[str, Any]]:
    """The events of a native SSE stream (the ``data:`` of each; ``[DONE]`` is not an event):
    the text in pieces, the whole calls in one event, then the usage."""
    events: list[dict[str, Any]] = [{"response": piece} for piece in fake.words(fake.text or "")]
    if fake.calls:
        events.append({"response": "", "tool_calls": _native_calls(fake)})
    if not events:
        events.append({"response": ""})
    events.append({"response": "", "usage": _token_counts(fake)})
    return events


#: What Workers AI's chat-style and Responses-style results leave out of those APIs' answers (its
#: type definitions declare none of these members), and the members of a Responses-style result.
_NOT_IN_RESULTS = {
    "chat": frozenset(
        ("refusal", "annotations", "service_tier", "system_fingerprint")
        + ("prompt_tokens_details", "completion_tokens_details")
    ),
    "responses": frozenset(("annotations", "logprobs")),
}
_RESPONSE_MEMBERS = ("id", "created_at", "object", "status", "output", "usage")
_USAGE_MEMBERS = ("input_tokens", "output_tokens", "total_tokens")


def _pruned(value: Any, members: frozenset[str]) -> Any:
    """``value`` without the object members named ``members``, at any depth."""
    if isinstance(value, dict):
        return {k: _pruned(v, members) for k, v in value.items() if k not in members}
    if isinstance(value, list):
        return [_pruned(item, members) for item in value]
    return value


def _lean_response(response: dict[str, Any]) -> dict[str, Any]:
    """A Responses-style result as Workers AI's types declare it (with ``output_text``)."""
    lean = {key: response[key] for key in _RESPONSE_MEMBERS if response.get(key) is not None}
    if "usage" in lean:
        lean["usage"] = {key: lean["usage"][key] for key in _USAGE_MEMBERS}
    text = [part["text"] for item in lean["output"] for part in item.get("content", ())]
    if text:
        lean["output_text"] = "".join(text)
    return lean


def _workers_result(fake: Fake, shape: str) -> dict[str, Any]:
    if shape == "native":
        return _native_result(fake)
    if shape == "chat":
        chat: dict[str, Any] = _pruned(_chat_response(fake), _NOT_IN_RESULTS["chat"])
        return chat
    return _lean_response(_pruned(_responses_response(fake), _NOT_IN_RESULTS["responses"]))


def _workers_stream(fake: Fake, shape: str) -> list[dict[str, Any]]:
    if shape == "native":
        return _native_stream(fake)
    if shape == "chat":
        chunks: list[dict[str, Any]] = _pruned(_chat_stream(fake), _NOT_IN_RESULTS["chat"])
        return chunks
    events: list[dict[str, Any]] = _pruned(_responses_stream(fake), _NOT_IN_RESULTS["responses"])
    for event in events:
        if "response" in event:
            event["response"] = _lean_response(event["response"])
    return events


def _rest(result: dict[str, Any]) -> dict[str, Any]:
    return {"result": result, "success": True, "errors": [], "messages": []}
