"""The second half of the tool loop, per wire API: the assistant turn to replay and the results
that answer its calls (see "Returning tool results" in toolgen's PROVIDERS notes).

Each API has a ``*Loop`` class built by the generated provider module from its response
validator: ``assistant_turn(data)`` validates a response and returns the model's turn as received,
``result(answer)`` one call's answer, ``results(answers)`` the answers to every call of a turn.

The TypedDicts mirror the SDKs' param types of the same names (Chat Completions'
``ChatCompletionAssistantMessageParam`` and ``ChatCompletionToolMessageParam``, the Responses
API's ``response_input_item_param.FunctionCallOutput``, the Messages API's
``AssistantMessageParam``, ``UserMessageParam`` and ``ToolResultBlockParam``):
a TypedDict goes where another is expected when it declares the same keys, equally required, with
equivalent types, so these declare every key of the SDK's type; a nested SDK type that would take
pages to mirror is ``Any`` there (equivalent to anything), the rest is spelled out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from ._json import JsonRefused, dumps, loads
from ._runtime import MISSING, Validator, schema_drift, wire_form

__all__ = [
    "Answer",
    "AssistantMessageParam",
    "ChatCompletionAssistantMessageParam",
    "ChatCompletionToolMessageParam",
    "ChatLoop",
    "Content",
    "ConverseLoop",
    "ConverseMessage",
    "ConverseToolResultBlock",
    "FunctionCallOutput",
    "FunctionResponsePart",
    "GenerateContentLoop",
    "MessagesLoop",
    "ResponsesLoop",
    "ToolResultBlockParam",
    "UserMessageParam",
    "WorkersAssistantMessage",
    "WorkersRunLoop",
    "WorkersToolMessage",
    "answered_in_order",
]


@dataclass(frozen=True)
class Answer:
    """What answers one call: its id and wire name, the output (text, or a JSON value in its
    canonical form) and whether it reports a failure."""

    call_id: str
    wire_name: str
    output: Any
    is_error: bool = False

    def text(self) -> str:
        """The output as text: itself when it is text, else its compact JSON."""
        return self.output if isinstance(self.output, str) else dumps(self.output)


def _marked_text(answer: Answer) -> str:
    """The text of an answer for an API with no error marker: a failure's text says so."""
    return f"Error: {answer.text()}" if answer.is_error else answer.text()


def answered_in_order(call_ids: Sequence[str], answers: Sequence[Answer]) -> list[Answer]:
    """``answers`` checked against the calls they answer: one per id, none twice, none unknown
    (ValueError naming the id); returned in the calls' order."""
    by_id: dict[str, Answer] = {}
    known = set(call_ids)
    for answer in answers:
        if answer.call_id not in known:
            raise ValueError(f"a result answers call id {answer.call_id!r}, which is no call here")
        if answer.call_id in by_id:
            raise ValueError(f"call id {answer.call_id!r} is answered twice")
        by_id[answer.call_id] = answer
    missing = [call_id for call_id in call_ids if call_id not in by_id]
    if missing:
        raise ValueError(f"call id {missing[0]!r} has no result")
    return [by_id[call_id] for call_id in call_ids]


def _checked_ids(answers: Sequence[Answer]) -> list[Answer]:
    """Answers built from outcomes: an id answered twice is a ValueError naming it."""
    return answered_in_order(list(dict.fromkeys(answer.call_id for answer in answers)), answers)


# --- Chat Completions (and compatible chats) -------------------------------------------------


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


# --- Responses API ----------------------------------------------------------------------------


class FunctionCallOutput(TypedDict):
    """The SDK's ``response_input_item_param.FunctionCallOutput``."""

    output: str | list[Any]
    type: Literal["function_call_output"]
    id: NotRequired[str | None]
    call_id: NotRequired[str | None]
    caller: NotRequired[Any]
    name: NotRequired[str | None]
    namespace: NotRequired[str | None]
    status: NotRequired[Literal["in_progress", "completed", "incomplete"] | None]


class ResponsesLoop:
    """The Responses API: every ``output`` item replayed as received (reasoning items included,
    for when nothing is stored); one ``function_call_output`` item per call."""

    def __init__(self, provider: str, validate: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON

    def assistant_turn(self, data: object) -> list[Any]:
        return [dict(item) for item in self._validate(data)["output"]]

    def result(self, answer: Answer) -> FunctionCallOutput:
        return {
            "type": "function_call_output",
            "call_id": answer.call_id,
            "output": _marked_text(answer),
        }

    def results(self, answers: Sequence[Answer]) -> list[FunctionCallOutput]:
        return [self.result(answer) for answer in _checked_ids(answers)]


# --- Messages API -----------------------------------------------------------------------------


class ToolResultBlockParam(TypedDict):
    """The SDK's ``ToolResultBlockParam``."""

    tool_use_id: str
    type: Literal["tool_result"]
    cache_control: NotRequired[Any]
    content: NotRequired[str | Iterable[Any]]
    is_error: NotRequired[bool]
    toolset_name: NotRequired[str | None]


class AssistantMessageParam(TypedDict):
    """The SDK's ``AssistantMessageParam``: ``content`` holds the response's blocks."""

    content: str | Iterable[Any]
    role: Literal["assistant"]


class UserMessageParam(TypedDict):
    """The SDK's ``UserMessageParam``: ``content`` holds ``ToolResultBlockParam``
    blocks, one per ``tool_use`` block of the turn before, in its order."""

    content: str | Iterable[Any]
    role: Literal["user"]


class MessagesLoop:
    """Messages API: the response's blocks replayed as received (thinking blocks with their
    signatures); one user message beginning with one ``tool_result`` block per ``tool_use``
    (``is_error`` on a failure)."""

    def __init__(self, provider: str, validate: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON

    def assistant_turn(self, data: object) -> AssistantMessageParam:
        return {"role": "assistant", "content": list(self._validate(data)["content"])}

    def result(self, answer: Answer) -> ToolResultBlockParam:
        block: ToolResultBlockParam = {
            "type": "tool_result",
            "tool_use_id": answer.call_id,
            "content": answer.text(),
        }
        if answer.is_error:
            block["is_error"] = True
        return block

    def results(self, answers: Sequence[Answer]) -> UserMessageParam:
        return {"role": "user", "content": [self.result(a) for a in _checked_ids(answers)]}


# --- Converse API -----------------------------------------------------------------------------


class ConverseToolResult(TypedDict):
    """``ToolResultBlock`` of the Converse API reference."""

    toolUseId: str
    content: list[dict[str, Any]]
    status: NotRequired[Literal["success", "error"]]


class ConverseToolResultBlock(TypedDict):
    """A ``ContentBlock`` holding a ``toolResult``."""

    toolResult: ConverseToolResult


class ConverseMessage(TypedDict):
    """A ``Message`` of the Converse API: ``role`` and its ``ContentBlock`` list."""

    role: Literal["user", "assistant"]
    content: list[Any]


class ConverseLoop:
    """Converse API: ``output.message`` replayed as received; one user message with one
    ``toolResult`` block per ``toolUse`` (``json`` always an object: any other JSON value is
    wrapped as ``{"output": value}``; ``status: "error"`` on a failure).

    A streamed turn (ConverseStream) is replayed from the list of its events: the message they
    spell, its blocks in ``contentBlockIndex`` order (text joined, a ``toolUse`` with its input
    fragments parsed into the object Converse takes back, reasoning with its signature); a
    ``messageStart`` starts the message over, as in ``ToolCallStream``.
    """

    def __init__(self, provider: str, validate: Validator, *, validate_event: Validator) -> None:
        self.provider = provider
        self._validate = wire_form(validate)  # the response read as JSON
        self._validate_event = wire_form(validate_event)

    def assistant_turn(self, data: object) -> ConverseMessage:
        if type(data) is list:
            return self._streamed_turn(data)
        message = self._validate(data)["output"]["message"]
        return {"role": message["role"], "content": list(message["content"])}

    def _streamed_turn(self, events: list[Any]) -> ConverseMessage:
        blocks: dict[int, dict[str, Any]] = {}
        inputs: dict[int, list[str]] = {}
        for event in events:
            valid = self._validate_event(event)
            if "messageStart" in valid:  # the model's turn: its role is "assistant"
                blocks.clear()
                inputs.clear()
            start = valid.get("contentBlockStart")
            if start is not None and start["start"].get("toolUse") is not None:
                blocks[start["contentBlockIndex"]] = {"toolUse": dict(start["start"]["toolUse"])}
                inputs[start["contentBlockIndex"]] = []
            delta = valid.get("contentBlockDelta")
            if delta is not None:
                _add_delta(blocks, inputs, delta["contentBlockIndex"], delta["delta"])
        for index, parts in inputs.items():
            blocks[index]["toolUse"]["input"] = _streamed_input("".join(parts))
        return {"role": "assistant", "content": [blocks[index] for index in sorted(blocks)]}

    def result(self, answer: Answer) -> ConverseToolResultBlock:
        output = answer.output
        if isinstance(output, str):
            content: dict[str, Any] = {"text": output}
        else:
            content = {"json": output if isinstance(output, dict) else {"output": output}}
        result: ConverseToolResult = {"toolUseId": answer.call_id, "content": [content]}
        result["status"] = "error" if answer.is_error else "success"
        return {"toolResult": result}

    def results(self, answers: Sequence[Answer]) -> ConverseMessage:
        return {"role": "user", "content": [self.result(a) for a in _checked_ids(answers)]}


def _add_delta(
    blocks: dict[int, dict[str, Any]],
    inputs: dict[int, list[str]],
    index: int,
    delta: dict[str, Any],
) -> None:
    """One ``contentBlockDelta`` into the block it extends."""
    if "text" in delta:
        block = blocks.setdefault(index, {"text": ""})
        block["text"] += delta["text"]
    elif "toolUse" in delta:
        inputs.setdefault(index, []).append(delta["toolUse"].get("input", ""))
    elif "reasoningContent" in delta:
        reasoning = delta["reasoningContent"]
        block = blocks.setdefault(index, {"reasoningContent": {}})
        if "redactedContent" in reasoning:
            block["reasoningContent"] = {"redactedContent": reasoning["redactedContent"]}
            return
        text = block["reasoningContent"].setdefault("reasoningText", {"text": ""})
        text["text"] += reasoning.get("text", "")
        if "signature" in reasoning:
            text["signature"] = reasoning["signature"]


def _streamed_input(text: str) -> Any:
    """A streamed ``toolUse`` input as the object Converse takes back; ``{}`` when there was none
    or it is no JSON object (the call itself is then a FailedCall, answered as such)."""
    try:
        value = loads(text) if text else {}
    except JsonRefused:
        return {}
    return value if isinstance(value, dict) else {}


# --- generateContent --------------------------------------------------------------------------


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


# --- Workers AI ai/run ------------------------------------------------------------------------


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


def output_text(items: Iterable[Any]) -> str:
    """The text of Responses-style ``output`` items: their ``output_text`` parts, joined."""
    return "".join(
        part.get("text", "")
        for item in items
        if item.get("type") == "message"
        for part in item.get("content") or ()
        if part.get("type") == "output_text"
    )


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
