"""The generateContent API: request builders, their TypedDicts, and the tool-call decoders of
responses and of streamGenerateContent chunks.

Requests: a function declaration carries its schema in ``parametersJsonSchema`` (JSON Schema,
``GenerateContentRequests``) or ``parameters`` (the API's OpenAPI 3.0 Schema object,
``GenerateContentOpenApiRequests``), and a structured output goes in ``generationConfig`` as
``responseJsonSchema`` or ``responseSchema``. A whole request (``request``) is the members of
google-genai's ``GenerateContentConfig`` (by their wire names, which its models take as aliases):
``tools``, ``toolConfig`` (function calling ``mode``: ``VALIDATED`` with ``strict=True``, ``ANY``
with the one allowed function of ``tool_choice``) and the output's members. ``VALIDATED``
(google-genai ``FunctionCallingConfigMode``) applies to the whole request: the model answers in
text or with calls constrained to the declared schemas.

Responses: the calls are the ``functionCall`` parts of the first candidate. The API gives a call
an ``id`` only sometimes (some models do): a call without one has the id ``""``; toolgen invents
none, because the API matches a ``functionResponse`` by name and order, and an id it did not send
would not be its own. Each stream chunk is a whole GenerateContentResponse holding what is new; a
call arrives whole in one chunk, except with ``streamFunctionCallArguments`` (a function-calling
option), where it spans chunks: a part with ``name`` and ``willContinue``, parts with
``partialArgs`` (a value at a JSON path each), and a part without ``willContinue`` that ends it.

The decoders take the provider name and the generated validators of the two surfaces
(``generate_content``, ``generate_content_chunk``) as constructor arguments; ``READS`` lists what
they read (see _chat_completions). Those are the readers (``read_<surface>``): a google-genai
object (``GenerateContentResponse``) comes back as it is when its attributes hold, and is read
through them (``members_of``) under their snake_case names (``_ATTRIBUTES``), with no dump; raw
JSON, or an object read as its wire form, under the wire's names (``_WIRE``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, NotRequired, TypedDict

from ._attributes import members_of
from ._contracts import (
    NO_LIMITS,
    Contracts,
    RequestPlan,
    Strict,
    StrictToolLimits,
    only_api,
)
from ._json import JsonRefused, checked, dumps, loads
from ._runtime import (
    MISSING,
    CallReader,
    Decoded,
    PayloadError,
    ValidatingDecoder,
    Validator,
    json_value,
    schema_drift,
    wire_form,
)
from ._tool_results import Answer, _checked_ids

if TYPE_CHECKING:
    from ._fakes import Fake

__all__ = [
    "FAKE_MODEL",
    "READS",
    "STREAM_CONTENT_TYPE",
    "Content",
    "FunctionCallingConfig",
    "FunctionDeclaration",
    "FunctionResponsePart",
    "GenerateContentDecoder",
    "GenerateContentLoop",
    "GenerateContentOpenApiRequests",
    "GenerateContentRequest",
    "GenerateContentRequests",
    "GenerateContentToolCallStream",
    "ResponseFormat",
    "Tool",
    "ToolConfig",
    "fake_response",
    "fake_stream",
    "stream_body",
]

_PARTS = "candidates?.[].content?.parts?.[]"
_CALL = f"{_PARTS}.functionCall?"
_PARTIAL = f"{_CALL}.partialArgs?.[]"
READS: tuple[tuple[str, str, str], ...] = (
    ("generate_content", f"{_CALL}.name", "string"),
    ("generate_content", f"{_CALL}.args?", "object"),
    ("generate_content", f"{_CALL}.id?", "string"),
    ("generate_content_chunk", "candidates?.[].index?", "integer"),
    ("generate_content_chunk", f"{_CALL}.name?", "string"),
    ("generate_content_chunk", f"{_CALL}.args?", "object"),
    ("generate_content_chunk", f"{_CALL}.id?", "string"),
    ("generate_content_chunk", f"{_CALL}.willContinue?", "boolean"),
    ("generate_content_chunk", f"{_PARTIAL}.jsonPath", "string"),
    ("generate_content_chunk", f"{_PARTIAL}.stringValue?", "string"),
    ("generate_content_chunk", f"{_PARTIAL}.numberValue?", "number"),
    ("generate_content_chunk", f"{_PARTIAL}.boolValue?", "boolean"),
    ("generate_content_chunk", f"{_PARTIAL}.nullValue?", '"NULL_VALUE"'),
    ("generate_content_chunk", f"{_PARTIAL}.willContinue?", "boolean"),
)

# -- requests --------------------------------------------------------------------------------


class FunctionDeclaration(TypedDict):
    """One entry of ``functionDeclarations``; the schema is in one of the two schema members."""

    name: str
    description: NotRequired[str]
    parametersJsonSchema: NotRequired[dict[str, Any]]
    parameters: NotRequired[dict[str, Any]]


class Tool(TypedDict):
    """One entry of the request's ``tools``."""

    functionDeclarations: list[FunctionDeclaration]


class ResponseFormat(TypedDict):
    """The ``generationConfig`` members of a structured output (merge them into yours)."""

    responseMimeType: Literal["application/json"]
    responseJsonSchema: NotRequired[dict[str, Any]]
    responseSchema: NotRequired[dict[str, Any]]


class FunctionCallingConfig(TypedDict):
    """``toolConfig.functionCallingConfig``."""

    mode: Literal["AUTO", "ANY", "NONE", "VALIDATED"]
    allowedFunctionNames: NotRequired[list[str]]


class ToolConfig(TypedDict):
    """``toolConfig``."""

    functionCallingConfig: FunctionCallingConfig


class GenerateContentRequest(TypedDict, total=False):
    """The tools-and-output members of one request: members of google-genai's
    ``GenerateContentConfig`` by their wire names (``tools`` and ``toolConfig`` are members of
    the REST body, the others of its ``generationConfig``)."""

    tools: list[Tool]
    toolConfig: ToolConfig
    responseMimeType: Literal["application/json"]
    responseJsonSchema: dict[str, Any]
    responseSchema: dict[str, Any]


class GenerateContentRequests:
    """The request side of generateContent for one provider module's tools and outputs, with
    JSON Schema in ``parametersJsonSchema`` and ``responseJsonSchema``."""

    def __init__(
        self, tools: Contracts, outputs: Contracts, *, limits: StrictToolLimits = NO_LIMITS
    ) -> None:
        self._tools = tools
        self._outputs = outputs
        self._limits = limits

    def tool_definition(
        self, name: str, api: Literal["generate_content"] = "generate_content"
    ) -> FunctionDeclaration:
        """The ``functionDeclarations`` entry of canonical tool ``name`` (an empty description is
        left out)."""
        only_api(api, "generate_content")
        declaration: FunctionDeclaration = {"name": self._tools.provider_name(name)}
        if self._tools.descriptions[name]:
            declaration["description"] = self._tools.descriptions[name]
        declaration["parametersJsonSchema"] = self._tools.schema(name)
        return declaration

    def tool_definitions(
        self,
        names: Iterable[str] | None = None,
        *,
        api: Literal["generate_content"] = "generate_content",
    ) -> list[Tool]:
        """The request's ``tools`` for the tools ``names`` (all tools when None): one Tool holding
        their declarations, or an empty list when there are none. Declarations have no strict
        flag: ``request(strict=True)`` constrains the whole request's calls (``VALIDATED``)."""
        only_api(api, "generate_content")
        declarations = [self.tool_definition(name) for name in self._tools.chosen(names)]
        return [{"functionDeclarations": declarations}] if declarations else []

    def response_format(
        self, name: str, api: Literal["generate_content"] = "generate_content"
    ) -> ResponseFormat:
        """The ``generationConfig`` members for the canonical structured output ``name``: JSON
        that matches its schema (merge them into your generation config)."""
        only_api(api, "generate_content")
        return {
            "responseMimeType": "application/json",
            "responseJsonSchema": self._outputs.schema(name),
        }

    def plan_request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["generate_content"] = "generate_content",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> RequestPlan[GenerateContentRequest]:
        """The plan of one request of the tools ``names`` (all tools when None) and the
        structured output ``output``. Declarations have no strict flag; ``strict=True`` sets
        function calling ``mode: VALIDATED``, which holds for the whole request (every call
        constrained to its declared schema; text answers stay possible), and the plan counts
        every tool strict; "auto" and False leave the API's default (``AUTO``: schemas guide
        the model, the canonical validation of each decoded call is the check). ``tool_choice``:
        a canonical tool of the request the model must call (``mode: ANY`` with it as the one
        allowed function)."""
        only_api(api, "generate_content")

        def members(
            chosen: list[str], strict_tools: frozenset[str], nullable: Mapping[str, tuple[str, ...]]
        ) -> GenerateContentRequest:
            request: GenerateContentRequest = {}
            if chosen:
                request["tools"] = self.tool_definitions(chosen)
            if tool_choice is not None:
                forced = self._tools.forced(tool_choice, chosen)
                calling: FunctionCallingConfig = {"mode": "ANY", "allowedFunctionNames": [forced]}
                request["toolConfig"] = {"functionCallingConfig": calling}
            elif strict is True and chosen:
                request["toolConfig"] = {"functionCallingConfig": {"mode": "VALIDATED"}}
            if output is not None:
                written = self.response_format(output)
                request["responseMimeType"] = written["responseMimeType"]
                if "responseJsonSchema" in written:
                    request["responseJsonSchema"] = written["responseJsonSchema"]
                if "responseSchema" in written:
                    request["responseSchema"] = written["responseSchema"]
            return request

        marks: Strict = strict if strict is True else False
        return self._limits.plan(api, self._tools, names, marks, self._outputs, output, members)

    def request(
        self,
        names: Iterable[str] | None = None,
        *,
        output: str | None = None,
        api: Literal["generate_content"] = "generate_content",
        strict: Strict = "auto",
        tool_choice: str | None = None,
    ) -> GenerateContentRequest:
        """The tools-and-output members of one request (``plan_request(...).members``):
        ``types.GenerateContentConfig.model_validate(request(...))`` with google-genai."""
        return self.plan_request(
            names, output=output, api=api, strict=strict, tool_choice=tool_choice
        ).members


class GenerateContentOpenApiRequests(GenerateContentRequests):
    """The same with the API's OpenAPI Schema objects, in ``parameters`` and ``responseSchema``."""

    def tool_definition(
        self, name: str, api: Literal["generate_content"] = "generate_content"
    ) -> FunctionDeclaration:
        declaration = super().tool_definition(name, api)
        declaration["parameters"] = declaration.pop("parametersJsonSchema")
        return declaration

    def response_format(
        self, name: str, api: Literal["generate_content"] = "generate_content"
    ) -> ResponseFormat:
        only_api(api, "generate_content")
        return {
            "responseMimeType": "application/json",
            "responseSchema": self._outputs.schema(name),
        }


# -- responses -------------------------------------------------------------------------------


class _Names(NamedTuple):
    """The names the decoders read, as the wire writes them or as google-genai's attributes."""

    function_call: str
    partial_args: str
    will_continue: str
    json_path: str
    string_value: str
    number_value: str
    bool_value: str
    null_value: str


_WIRE = _Names(
    *("functionCall", "partialArgs", "willContinue", "jsonPath"),
    *("stringValue", "numberValue", "boolValue", "nullValue"),
)
_ATTRIBUTES = _Names(
    *("function_call", "partial_args", "will_continue", "json_path"),
    *("string_value", "number_value", "bool_value", "null_value"),
)


def _names(valid: object) -> _Names:
    """The names of what a reader returned: raw JSON (or a wire form), or an SDK object."""
    return _WIRE if type(valid) is dict else _ATTRIBUTES


def _parts(candidate: Any) -> list[Any]:
    content = members_of(candidate).get("content")
    parts = members_of(content).get("parts") if content is not None else None
    return parts if parts is not None else []


def _function_calls(candidate: Any, names: _Names) -> list[dict[str, Any]]:
    """The members of the ``functionCall`` of each part of ``candidate`` that has one."""
    calls = []
    for part in _parts(candidate):
        call = members_of(part).get(names.function_call)
        if call is not None:
            calls.append(members_of(call))
    return calls


def _arguments_read_as_dumped(calls: list[dict[str, Any]]) -> bool:
    """Whether the ``args`` of calls of an SDK object are what its dump would give: JSON within
    the runtime's limits (a NaN, which the dump writes as null, is not)."""
    try:
        for call in calls:
            checked(call.get("args"))
    except JsonRefused:
        return False
    return True


class GenerateContentDecoder(ValidatingDecoder):
    """The ``functionCall`` parts of generateContent responses and of their streams."""

    def parse_tool_calls(self, data: object, calls: CallReader[Decoded]) -> list[Decoded]:
        """The calls of the first candidate, canonicalized; validates ``data`` first.

        No calls when the prompt was blocked (no candidates). ``raw_arguments`` is ``args`` written as
        compact JSON (``{}`` when the call has none).
        """
        valid = self._validate(data)
        names = _names(valid)
        candidates = members_of(valid).get("candidates") or []
        found = _function_calls(candidates[0], names) if candidates else []
        if names is _ATTRIBUTES and not _arguments_read_as_dumped(found):
            return self.parse_tool_calls(json_value(data), calls)
        seen: set[str] = set()  # the ids of the calls so far (when they have one): answered once
        return [
            calls.from_object(
                call.get("id") or "",
                call["name"],
                call.get("args") or {},  # an object: None (absent) or a dict
                seen,
                checked_already=names is _ATTRIBUTES,  # by _arguments_read_as_dumped
            )
            for call in found
        ]

    def stream(self) -> GenerateContentToolCallStream:
        return GenerateContentToolCallStream(self.provider, self._validate_event)


#: One step of a JSON path: ``.name``, ``['name']`` / ``["name"]`` or ``[0]``.
_STEP = re.compile(
    r"\.([A-Za-z_][A-Za-z0-9_]*)"  # .name
    r"|\['((?:[^'\\]|\\.)*)'\]"  # ['name']
    r'|\["((?:[^"\\]|\\.)*)"\]'  # ["name"]
    r"|\[(\d+)\]"  # [0]
)


def _path_steps(path: str) -> list[str | int] | None:
    """The members and indices of an RFC 9535 normalized-style path (``$.a[0].b``); None when
    ``path`` is not one (only child steps by name or index are streamed)."""
    if not path.startswith("$"):
        return None
    steps: list[str | int] = []
    position = 1
    while position < len(path):
        match = _STEP.match(path, position)
        if match is None:
            return None
        name, single, double, index = match.groups()
        if index is not None:
            steps.append(int(index))
        else:
            quoted = single if single is not None else double
            text = name if name is not None else re.sub(r"\\(.)", r"\1", quoted or "")
            steps.append(text)
        position = match.end()
    return steps


_NO_VALUE: Any = object()


def _partial_value(arg: Mapping[str, Any], names: _Names) -> Any:
    for key in (names.string_value, names.number_value, names.bool_value):
        if arg.get(key) is not None:
            return arg[key]
    if arg.get(names.null_value) is not None:
        return None
    return _NO_VALUE


@dataclass
class _StreamedCall:
    """One call while its pieces arrive: ``error`` says why its arguments cannot be built.

    ``arguments`` is the chunk's ``args`` (checked to be JSON within the runtime's limits) until
    a partial argument writes into it: then a copy of them (``owned``), checked again when the
    call is built. Most calls arrive whole in one chunk, and are neither copied nor checked twice.
    """

    id: str
    name: str
    arguments: dict[str, Any]
    continued: tuple[str | int, ...] | None = None  # the path whose string goes on
    error: str | None = None
    owned: bool = False

    def set(self, arg: Mapping[str, Any], names: _Names) -> None:
        """Write one PartialArg (its members, under ``names``) into the arguments."""
        steps = _path_steps(arg[names.json_path])
        if not steps:
            self.error = "a partial argument's jsonPath is not a path to a member or item"
            return
        value = _partial_value(arg, names)
        path = tuple(steps)
        if value is _NO_VALUE:
            return
        if not self.owned:
            self.arguments = loads(dumps(self.arguments))
            self.owned = True
        if self.continued == path and isinstance(value, str):
            parent, key = self._parent(steps)
            parent[key] += value
        elif not self._put(steps, value):
            self.error = "partial arguments write through a value that is no container"
            self.continued = None
            return
        self.continued = path if arg.get(names.will_continue) and isinstance(value, str) else None

    def _parent(self, steps: list[str | int]) -> tuple[Any, str | int]:
        node: Any = self.arguments
        for step in steps[:-1]:
            node = node[step]
        return node, steps[-1]

    def _put(self, steps: list[str | int], value: Any) -> bool:
        node: Any = self.arguments
        for step, after in zip(steps, [*steps[1:], None], strict=True):
            fresh: Any = value if after is None else ({} if isinstance(after, str) else [])
            if isinstance(step, str) and type(node) is dict:
                if after is None or step not in node:
                    node[step] = fresh
                node = node[step]
            elif isinstance(step, int) and type(node) is list and step <= len(node):
                if step == len(node):
                    node.append(fresh)
                elif after is None:
                    node[step] = fresh
                node = node[step]
            else:
                return False
        return True


class GenerateContentToolCallStream:
    """Gathers the calls of a streamGenerateContent response, chunk by chunk.

    Give every chunk (the parsed ``data:`` of each server-sent event, or the SDK's chunk objects)
    to ``add`` (it validates the chunk and returns it), then call ``tool_calls``. Only the first
    candidate (``index`` 0) is read.
    """

    def __init__(self, provider: str, validate_generate_content_chunk: Validator) -> None:
        self.provider = provider
        self._validate = validate_generate_content_chunk
        self._calls: list[_StreamedCall] = []
        self._open: _StreamedCall | None = None
        self._orphans = 0  # argument parts that came when no call was open

    def add(self, chunk: object) -> None:
        valid = self._validate(chunk)
        names = _names(valid)
        read = [
            _function_calls(candidate, names)
            for candidate in members_of(valid).get("candidates") or []
            if (members_of(candidate).get("index") or 0) == 0
        ]
        if names is _ATTRIBUTES and not all(_arguments_read_as_dumped(c) for c in read):
            self.add(json_value(chunk))
            return
        for calls in read:
            for call in calls:
                self._take(call, names)

    def _take(self, call: Mapping[str, Any], names: _Names) -> None:
        name = call.get("name")
        if name is not None:
            arguments = call.get("args")
            self._open = _StreamedCall(call.get("id") or "", name, {}, owned=True)
            try:  # JSON within the runtime's limits (an SDK object's were checked by ``add``)
                if arguments is not None:
                    self._open.arguments = arguments if names is _ATTRIBUTES else checked(arguments)
                    self._open.owned = False
            except JsonRefused as refused:
                self._open.error = refused.reason
            self._calls.append(self._open)
        elif self._open is None:
            self._orphans += 1
            return
        for arg in call.get(names.partial_args) or []:
            self._open.set(members_of(arg), names)
        if not call.get(names.will_continue):
            self._open = None

    def tool_calls(self, calls: CallReader[Decoded]) -> list[Decoded]:
        """The calls in the order they started; PayloadError when partial arguments could not be
        placed (a path that is no member or item of what came before, or a part of no call)."""
        if self._orphans:
            raise PayloadError(
                self.provider,
                "",
                "",
                "partialArgs",
                "argument parts came before any functionCall with a name",
                "INVALID_ARGUMENTS",
            )
        joined = []
        seen: set[str] = set()
        for call in self._calls:
            if call.error is not None:
                error = PayloadError(
                    self.provider,
                    calls.name_of(call.name),
                    call.id,
                    "partialArgs",
                    call.error,
                    "INVALID_ARGUMENTS",
                )
                joined.append(calls.failed(error, call.id, call.name, "", seen))
                continue
            joined.append(
                calls.from_object(
                    call.id, call.name, call.arguments, seen, checked_already=not call.owned
                )
            )
        return joined


# -- the tool loop: the turn to replay and the results that answer its calls --------------------


class FunctionResponse(TypedDict):
    """``FunctionResponse``: ``response`` is an object with ``output`` or ``error``."""

    name: str
    response: dict[str, Any]
    id: NotRequired[str]


class FunctionResponsePart(TypedDict):
    """A ``Part`` holding a ``functionResponse``."""

    functionResponse: FunctionResponse


class Content(TypedDict):
    """A ``Content``: ``role`` and its parts (google-genai ``ContentDict`` takes it)."""

    role: NotRequired[str | None]
    parts: NotRequired[list[Any] | None]


class GenerateContentLoop:
    """generateContent: the first candidate's ``content`` replayed as received
    (``thoughtSignature`` parts kept); one user content with one ``functionResponse`` part per
    ``functionCall`` part, same count and order, the call's ``id`` echoed when it had one.

    A streamed turn (streamGenerateContent) is replayed from the list of its chunks: one content
    holding every part of every chunk's first candidate, in order and unmerged (a signature may
    come on its own, in an empty text part of the last chunk, and signed parts must stay as they
    came); Vertex AI's streamed function-call arguments are parts like any other, replayed as
    received, as google-genai's chats replay them.
    """

    def __init__(self, provider: str, validate: Validator, *, validate_chunk: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON
        self._validate_chunk = wire_form(validate_chunk)

    def assistant_turn(self, data: object) -> Content:
        if type(data) is list:
            return self._streamed_turn(data)
        candidates = self._validate(data).get("candidates") or ()
        if not candidates or "content" not in candidates[0]:
            raise schema_drift(
                self.provider, "generate_content", ("candidates", 0, "content"), "object", MISSING
            )
        content = candidates[0]["content"]
        return {"role": content.get("role") or "model", "parts": list(content.get("parts") or ())}

    def _streamed_turn(self, chunks: list[Any]) -> Content:
        """The turn of a stream's chunks (each validated): what the first candidate (``index``
        0) of each holds, in one content; a chunk without it (usage only, or another candidate)
        adds nothing. A stream with no content at all is drift, as a response without one is."""
        role: str | None = None
        parts: list[Any] = []
        seen = False
        for chunk in chunks:
            for candidate in self._validate_chunk(chunk).get("candidates") or ():
                content = candidate.get("content")
                if (candidate.get("index") or 0) != 0 or content is None:
                    continue
                seen = True
                role = role or content.get("role")
                parts.extend(content.get("parts") or ())
        if not seen:
            raise schema_drift(
                self.provider,
                "generate_content_chunk",
                ("candidates", 0, "content"),
                "object",
                MISSING,
            )
        return {"role": role or "model", "parts": parts}

    def result(self, answer: Answer) -> FunctionResponsePart:
        key = "error" if answer.is_error else "output"
        response: FunctionResponse = {"name": answer.wire_name, "response": {key: answer.output}}
        if answer.call_id:
            response["id"] = answer.call_id
        return {"functionResponse": response}

    def results(self, answers: Sequence[Answer]) -> Content:
        # calls may have no id: order and count are the contract then, not ids
        if all(answer.call_id for answer in answers):
            answers = _checked_ids(answers)
        return {"role": "user", "parts": [self.result(answer) for answer in answers]}


# -- fakes: the bodies and streams it answers with, for tests ------------------------------

#: The model its fakes name unless ``model`` is given.
FAKE_MODEL = "gemma-3-27b-it"


def fake_response(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> dict[str, Any]:
    """One candidate with a ``text`` part (the assistant ``text``, when given) then
    ``functionCall`` parts (which carry no id, as generateContent sends them)."""
    return _gemini_response(_fake(calls, text, model))


def fake_stream(
    calls: Sequence[tuple[str, Any]], *, text: str | None = None, model: str | None = None
) -> list[dict[str, Any]]:
    """The response chunks of streamGenerateContent: the text in pieces, then the calls whole
    with the finish reason."""
    return _gemini_stream(_fake(calls, text, model))


#: The ``Content-Type`` of a streamed answer.
STREAM_CONTENT_TYPE = "text/event-stream"


def stream_body(events: Iterable[Mapping[str, Any]]) -> bytes:
    """The HTTP body of a streamed answer made of ``events`` (``fake_stream``'s, or any):
    a ``data:`` line of JSON per chunk (a whole GenerateContentResponse), every line
    ended by ``\\r\\n``, no end marker: what ``streamGenerateContent?alt=sse`` sends (as recorded
    streams show: toolgen's tests/sdk/test_sse.py; the SDK's ``_api_client.py`` reads its
    ``data:`` lines)."""
    from ._fakes import server_sent_events

    return server_sent_events(events, line_end="\r\n")


def _fake(calls: Sequence[tuple[str, Any]], text: str | None, model: str | None) -> Fake:
    from ._fakes import Fake

    return Fake("generate_content", calls, text, FAKE_MODEL if model is None else model)


def _gemini_parts(fake: Fake) -> list[dict[str, Any]]:
    return [{"functionCall": {"name": name, "args": arguments}} for name, arguments in fake.calls]


def _gemini_usage(fake: Fake, done: bool) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "promptTokenCount": fake.PROMPT_TOKENS,
        "totalTokenCount": fake.PROMPT_TOKENS + (fake.output_tokens if done else 0),
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": fake.PROMPT_TOKENS}],
    }
    if done:
        usage["candidatesTokenCount"] = fake.output_tokens
    return usage


def _gemini_body(fake: Fake, candidate: dict[str, Any], done: bool) -> dict[str, Any]:
    return {
        "candidates": [candidate],
        "usageMetadata": _gemini_usage(fake, done),
        "modelVersion": fake.model,
        "responseId": fake.token("response", 22),
    }


def _gemini_response(fake: Fake) -> dict[str, Any]:
    parts = [{"text": fake.text}] if fake.text is not None else []
    candidate = {
        "content": {"parts": [*parts, *_gemini_parts(fake)], "role": "model"},
        "finishReason": "STOP",
        "index": 0,
    }
    return _gemini_body(fake, candidate, done=True)


def _gemini_stream(fake: Fake) -> list[dict[str, Any]]:
    """The chunks of streamGenerateContent: the text in pieces, then the whole calls with the
    finish reason (arguments are not streamed unless the request asks for partial arguments)."""
    parts = [[{"text": piece}] for piece in fake.words(fake.text or "")]
    last = _gemini_parts(fake)
    if last or not parts:
        parts.append(last or [{"text": ""}])
    chunks = []
    for number, chunk_parts in enumerate(parts, 1):
        candidate: dict[str, Any] = {"content": {"parts": chunk_parts, "role": "model"}}
        done = number == len(parts)
        if done:
            candidate["finishReason"] = "STOP"
        chunks.append(_gemini_body(fake, candidate, done))
    return chunks
