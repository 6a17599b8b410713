"""Fake provider responses, for tests of code that reads them: ``response`` builds the body an API
answers with and ``stream`` the events of its streamed answer, carrying the given tool calls in
the API's wire form and the given assistant text.

The shapes are those the providers send (taken from recorded responses): each API's ids in its own
format, stop reasons that say tool use when there are calls, usage blocks, a model name and fixed
timestamps. Ids and token counts are derived from the input, so the same input gives the same
bytes. A call is ``(wire tool name, wire arguments)``: the arguments as the model wrote them, a
JSON value (an object for a tool); they are encoded as the API encodes them (JSON text for Chat
Completions and Responses, the value itself for Messages, Converse, generateContent and Workers
AI's native results). ``text`` is the assistant's text, which is also how a structured output
arrives (its JSON text).

APIs (``api``): ``chat`` (Chat Completions, also as the compatible APIs serve it), ``responses``
(the Responses API), ``messages`` (the Messages API), ``converse`` (Converse), ``generate_content``
(generateContent) and ``run`` (Workers AI ``ai/run``, whose result takes the ``shape`` its model
family answers with).

Model names are facts of the providers, which this module does not know: each API's fakes name a
plausible model (``MODELS``) unless ``model`` names the one to show. A Workers AI caller passes the
model of a family that answers with the ``shape`` asked for (the decoders check the family).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["APIS", "MODELS", "SHAPES", "response", "stream"]

Call = tuple[str, Any]

#: The ``created`` time of every fake (seconds since the epoch, 2025-12-02).
CREATED = 1764680000
#: The model each API's fakes name, unless ``model`` is given (a Converse body names none).
MODELS: dict[str, str] = {
    "chat": "gpt-4.1-2025-04-14",
    "responses": "gpt-4.1-2025-04-14",
    "messages": "claude-sonnet-4-5-20250929",
    "converse": "",
    "generate_content": "gemma-3-27b-it",
    "run": "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
}
#: The result shapes of Workers AI's ``ai/run``: ``native`` (``{response, tool_calls, usage}``),
#: ``chat`` (a chat completion), ``responses`` (a Responses-style result).
SHAPES: tuple[str, ...] = ("native", "chat", "responses")
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_PROMPT_TOKENS = 120
_PIECES = 3  # how many fragments a streamed text or argument string is cut into


class _Fake:
    """What one fake is built from: the calls, the text, the model, and an id source."""

    def __init__(
        self, api: str, calls: Sequence[Call], text: str | None, model: str, lenient: bool
    ) -> None:
        self.calls = [(name, arguments) for name, arguments in calls]
        self.text = text
        self.model = model
        self.lenient = lenient
        seed = [api, self.calls, text, model, lenient]
        self._seed = json.dumps(seed, sort_keys=True, default=repr)

    def token(self, label: str, length: int, alphabet: str = _ALPHABET) -> str:
        """``length`` characters of ``alphabet``, the same for the same input and ``label``."""
        number = int.from_bytes(hashlib.sha256(f"{self._seed}\0{label}".encode()).digest(), "big")
        chars = []
        for _ in range(length):
            number, digit = divmod(number, len(alphabet))
            chars.append(alphabet[digit])
        return "".join(chars)

    def hex(self, label: str, length: int) -> str:
        return self.token(label, length, "0123456789abcdef")

    def call_id(self, index: int, prefix: str, length: int) -> str:
        """The id of call ``index``: ``prefix`` then ``length`` characters."""
        return f"{prefix}{self.token(f'call{index}', length)}"

    def usage(self, prompt: str, output: str, total: str) -> dict[str, Any]:
        """The token counts under the API's names for the prompt, output and total."""
        return {
            prompt: _PROMPT_TOKENS,
            output: self.output_tokens,
            total: _PROMPT_TOKENS + self.output_tokens,
        }

    @property
    def output_tokens(self) -> int:
        written = len(self.text or "") + sum(len(_json_text(a)) for _, a in self.calls)
        return max(1, written // 4) + 10 * len(self.calls)


def _json_text(value: Any) -> str:
    """``value`` as compact JSON text, as the APIs write arguments."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _pieces(text: str, count: int = _PIECES) -> list[str]:
    """``text`` cut into at most ``count`` non-empty fragments (none for empty text)."""
    size = max(1, -(-len(text) // count))
    return [text[start : start + size] for start in range(0, len(text), size)]


def _words(text: str) -> list[str]:
    """``text`` in fragments at word boundaries, as models stream text (none for empty text)."""
    words = re.findall(r"\s*\S+\s*|\s+", text)
    size = max(1, -(-len(words) // _PIECES))
    return ["".join(words[start : start + size]) for start in range(0, len(words), size)]


# --- Chat Completions --------------------------------------------------------------------------
def _token_counts(fake: _Fake) -> dict[str, Any]:
    """The usage of Chat Completions and Workers AI's native results."""
    return fake.usage("prompt_tokens", "completion_tokens", "total_tokens")


def _chat_usage(fake: _Fake) -> dict[str, Any]:
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


def _chat_finish(fake: _Fake) -> str:
    return "tool_calls" if fake.calls else "stop"


def _chat_response(fake: _Fake) -> dict[str, Any]:
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
                "function": {"name": name, "arguments": _json_text(arguments)},
            }
            for index, (name, arguments) in enumerate(fake.calls)
        ]
    return {
        "id": f"chatcmpl-{fake.token('id', 29)}",
        "object": "chat.completion",
        "created": CREATED,
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


def _chat_stream(fake: _Fake) -> list[dict[str, Any]]:
    if fake.lenient:
        return _lenient_chat_stream(fake)
    completion_id = f"chatcmpl-{fake.token('id', 29)}"
    fingerprint = f"fp_{fake.hex('fingerprint', 10)}"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": fake.model,
            "service_tier": "default",
            "system_fingerprint": fingerprint,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": "" if fake.text else None, "refusal": None})]
    chunks += [chunk({"content": piece}) for piece in _words(fake.text or "")]
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
            for piece in _pieces(_json_text(arguments))
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
def _lenient_call(fake: _Fake, index: int, name: str, arguments: Any) -> dict[str, Any]:
    text = json.dumps(arguments, ensure_ascii=False)
    return {"function": {"name": name, "arguments": text}, "id": fake.call_id(index, "", 9)}


def _lenient_chat_response(fake: _Fake) -> dict[str, Any]:
    calls = [
        {**_lenient_call(fake, index, name, arguments), "index": index}
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    message = {"content": fake.text or "", "role": "assistant", "tool_calls": calls or None}
    return {
        "choices": [{"finish_reason": _chat_finish(fake), "index": 0, "message": message}],
        "created": CREATED,
        "id": fake.hex("id", 32),
        "model": fake.model,
        "object": "chat.completion",
        "usage": _token_counts(fake),
    }


def _lenient_chat_stream(fake: _Fake) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return {
            "id": fake.hex("id", 32),
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": fake.model,
            "choices": [choice],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": piece}) for piece in _words(fake.text or "")]
    calls = [
        _lenient_call(fake, index, name, arguments)
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    last = chunk(
        {"content": None, "tool_calls": calls} if calls else {"content": ""}, _chat_finish(fake)
    )
    last["usage"] = _token_counts(fake)
    return [*chunks, last]


# --- Responses ---------------------------------------------------------------------------------
def _responses_items(fake: _Fake) -> list[dict[str, Any]]:
    """The output items of a completed response: the message, then the function calls."""
    items: list[dict[str, Any]] = []
    if fake.text is not None:
        items.append(_message_item(fake, [_output_text(fake.text)], "completed"))
    for index, (name, arguments) in enumerate(fake.calls):
        items.append(_function_call_item(fake, index, name, _json_text(arguments), "completed"))
    return items


def _output_text(text: str) -> dict[str, Any]:
    return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}


def _message_item(fake: _Fake, content: list[Any], status: str) -> dict[str, Any]:
    return {
        "id": f"msg_{fake.hex('message', 50)}",
        "type": "message",
        "status": status,
        "content": content,
        "role": "assistant",
    }


def _function_call_item(
    fake: _Fake, index: int, name: str, arguments: str, status: str
) -> dict[str, Any]:
    return {
        "id": f"fc_{fake.hex(f'item{index}', 50)}",
        "type": "function_call",
        "status": status,
        "arguments": arguments,
        "call_id": fake.call_id(index, "call_", 24),
        "name": name,
    }


def _responses_response(fake: _Fake, *, completed: bool = True) -> dict[str, Any]:
    usage = {
        "input_tokens": _PROMPT_TOKENS,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": fake.output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": _PROMPT_TOKENS + fake.output_tokens,
    }
    return {
        "id": f"resp_{fake.hex('response', 50)}",
        "object": "response",
        "created_at": CREATED,
        "status": "completed" if completed else "in_progress",
        "background": False,
        "completed_at": CREATED + 1 if completed else None,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "max_tool_calls": None,
        "model": fake.model,
        "output": _responses_items(fake) if completed else [],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "prompt_cache_key": None,
        "reasoning": {"effort": None, "summary": None},
        "safety_identifier": None,
        "service_tier": "default",
        "store": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": [],
        "top_logprobs": 0,
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage if completed else None,
        "user": None,
        "metadata": {},
    }


def _responses_stream(fake: _Fake) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def emit(kind: str, **members: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **members})

    pending = _responses_response(fake, completed=False)
    emit("response.created", response=pending)
    emit("response.in_progress", response=pending)
    output_index = 0
    if fake.text is not None:
        item = _message_item(fake, [], "in_progress")
        place = {"item_id": item["id"], "output_index": output_index}
        emit("response.output_item.added", item=item, output_index=output_index)
        emit("response.content_part.added", content_index=0, **place, part=_output_text(""))
        for piece in _words(fake.text):
            emit("response.output_text.delta", content_index=0, delta=piece, logprobs=[], **place)
        emit("response.output_text.done", content_index=0, logprobs=[], text=fake.text, **place)
        part = _output_text(fake.text)
        emit("response.content_part.done", content_index=0, **place, part=part)
        done = _message_item(fake, [part], "completed")
        emit("response.output_item.done", item=done, output_index=output_index)
        output_index += 1
    for index, (name, arguments) in enumerate(fake.calls):
        text = _json_text(arguments)
        item = _function_call_item(fake, index, name, "", "in_progress")
        place = {"item_id": item["id"], "output_index": output_index}
        emit("response.output_item.added", item=item, output_index=output_index)
        for piece in _pieces(text):
            emit("response.function_call_arguments.delta", delta=piece, **place)
        emit("response.function_call_arguments.done", arguments=text, **place)
        done = _function_call_item(fake, index, name, text, "completed")
        emit("response.output_item.done", item=done, output_index=output_index)
        output_index += 1
    emit("response.completed", response=_responses_response(fake))
    return events


# --- Messages ----------------------------------------------------------------------------------
def _messages_stop(fake: _Fake) -> str:
    return "tool_use" if fake.calls else "end_turn"


def _messages_usage(output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": _PROMPT_TOKENS,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
        "output_tokens": output_tokens,
        "service_tier": "standard",
    }


def _messages_message(fake: _Fake, content: list[Any], done: bool) -> dict[str, Any]:
    return {
        "id": f"msg_01{fake.token('message', 22)}",
        "type": "message",
        "role": "assistant",
        "model": fake.model,
        "content": content,
        "stop_reason": _messages_stop(fake) if done else None,
        "stop_sequence": None,
        "usage": _messages_usage(fake.output_tokens if done else 1),
    }


def _messages_response(fake: _Fake) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if fake.text is not None:
        content.append({"type": "text", "text": fake.text})
    content += [
        {
            "type": "tool_use",
            "id": fake.call_id(index, "toolu_01", 22),
            "name": name,
            "input": arguments,
        }
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    return _messages_message(fake, content, done=True)


def _messages_stream(fake: _Fake) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": _messages_message(fake, [], done=False)}
    ]
    blocks: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    if fake.text is not None:
        deltas = [{"type": "text_delta", "text": piece} for piece in _words(fake.text)]
        blocks.append(({"type": "text", "text": ""}, deltas))
    for index, (name, arguments) in enumerate(fake.calls):
        start = {
            "type": "tool_use",
            "id": fake.call_id(index, "toolu_01", 22),
            "name": name,
            "input": {},
        }
        fragments = ["", *_pieces(_json_text(arguments))]
        blocks.append((start, [{"type": "input_json_delta", "partial_json": p} for p in fragments]))
    for index, (start, deltas) in enumerate(blocks):
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        if index == 0:
            events.append({"type": "ping"})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": _messages_stop(fake), "stop_sequence": None},
            "usage": {"output_tokens": fake.output_tokens},
        }
    )
    events.append({"type": "message_stop"})
    return events


# --- Converse ----------------------------------------------------------------------------------
def _converse_stop(fake: _Fake) -> str:
    return "tool_use" if fake.calls else "end_turn"


def _converse_response(fake: _Fake) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if fake.text is not None:
        content.append({"text": fake.text})
    content += [
        {
            "toolUse": {
                "toolUseId": fake.call_id(index, "tooluse_", 22),
                "name": name,
                "input": arguments,
            }
        }
        for index, (name, arguments) in enumerate(fake.calls)
    ]
    return {
        "metrics": {"latencyMs": 800 + fake.output_tokens},
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": _converse_stop(fake),
        "usage": fake.usage("inputTokens", "outputTokens", "totalTokens"),
    }


def _converse_stream(fake: _Fake) -> list[dict[str, Any]]:
    """The events as boto3's ``converse_stream`` yields them (``{"contentBlockDelta": ...}``);
    a text block has no ``contentBlockStart``."""
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    index = 0
    if fake.text is not None:
        for piece in _words(fake.text):
            delta = {"contentBlockIndex": index, "delta": {"text": piece}}
            events.append({"contentBlockDelta": delta})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
        index += 1
    for number, (name, arguments) in enumerate(fake.calls):
        tool_use = {"toolUseId": fake.call_id(number, "tooluse_", 22), "name": name}
        events.append(
            {"contentBlockStart": {"contentBlockIndex": index, "start": {"toolUse": tool_use}}}
        )
        for piece in _pieces(_json_text(arguments)):
            delta = {"contentBlockIndex": index, "delta": {"toolUse": {"input": piece}}}
            events.append({"contentBlockDelta": delta})
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
        index += 1
    events.append({"messageStop": {"stopReason": _converse_stop(fake)}})
    metrics = {"latencyMs": 800 + fake.output_tokens}
    events.append(
        {
            "metadata": {
                "usage": fake.usage("inputTokens", "outputTokens", "totalTokens"),
                "metrics": metrics,
            }
        }
    )
    return events


# --- generateContent ---------------------------------------------------------------------------
def _gemini_parts(fake: _Fake) -> list[dict[str, Any]]:
    return [{"functionCall": {"name": name, "args": arguments}} for name, arguments in fake.calls]


def _gemini_usage(fake: _Fake, done: bool) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "promptTokenCount": _PROMPT_TOKENS,
        "totalTokenCount": _PROMPT_TOKENS + (fake.output_tokens if done else 0),
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": _PROMPT_TOKENS}],
    }
    if done:
        usage["candidatesTokenCount"] = fake.output_tokens
    return usage


def _gemini_body(fake: _Fake, candidate: dict[str, Any], done: bool) -> dict[str, Any]:
    return {
        "candidates": [candidate],
        "usageMetadata": _gemini_usage(fake, done),
        "modelVersion": fake.model,
        "responseId": fake.token("response", 22),
    }


def _gemini_response(fake: _Fake) -> dict[str, Any]:
    parts = [{"text": fake.text}] if fake.text is not None else []
    candidate = {
        "content": {"parts": [*parts, *_gemini_parts(fake)], "role": "model"},
        "finishReason": "STOP",
        "index": 0,
    }
    return _gemini_body(fake, candidate, done=True)


def _gemini_stream(fake: _Fake) -> list[dict[str, Any]]:
    """The chunks of streamGenerateContent: the text in pieces, then the whole calls with the
    finish reason (arguments are not streamed unless the request asks for partial arguments)."""
    parts = [[{"text": piece}] for piece in _words(fake.text or "")]
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


# --- Workers AI --------------------------------------------------------------------------------
def _native_calls(fake: _Fake) -> list[dict[str, Any]]:
    return [{"name": name, "arguments": arguments} for name, arguments in fake.calls]


def _native_result(fake: _Fake) -> dict[str, Any]:
    return {
        "response": fake.text or "",
        "tool_calls": _native_calls(fake),
        "usage": _token_counts(fake),
    }


def _native_stream(fake: _Fake) -> list[dict[str, Any]]:
    """The events of a native SSE stream (the ``data:`` of each; ``[DONE]`` is not an event):
    the text in pieces, the whole calls in one event, then the usage."""
    events: list[dict[str, Any]] = [{"response": piece} for piece in _words(fake.text or "")]
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


def _workers_result(fake: _Fake, shape: str) -> dict[str, Any]:
    if shape == "native":
        return _native_result(fake)
    if shape == "chat":
        chat: dict[str, Any] = _pruned(_chat_response(fake), _NOT_IN_RESULTS["chat"])
        return chat
    return _lean_response(_pruned(_responses_response(fake), _NOT_IN_RESULTS["responses"]))


def _workers_stream(fake: _Fake, shape: str) -> list[dict[str, Any]]:
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


# --- the builders ------------------------------------------------------------------------------
_RESPONSES: dict[str, Callable[[_Fake], dict[str, Any]]] = {
    "chat": _chat_response,
    "responses": _responses_response,
    "messages": _messages_response,
    "converse": _converse_response,
    "generate_content": _gemini_response,
}
_STREAMS: dict[str, Callable[[_Fake], list[dict[str, Any]]]] = {
    "chat": _chat_stream,
    "responses": _responses_stream,
    "messages": _messages_stream,
    "converse": _converse_stream,
    "generate_content": _gemini_stream,
}
#: The APIs the builders know, by their ``api`` names.
APIS: tuple[str, ...] = (*_RESPONSES, "run")


def _fake(
    api: str,
    calls: Sequence[Call],
    text: str | None,
    model: str | None,
    shape: str,
    lenient: bool,
) -> _Fake:
    if api not in APIS:
        raise ValueError(f"unknown api {api!r}; expected one of {APIS}")
    if shape not in SHAPES:
        raise ValueError(f"unknown Workers AI result shape {shape!r}; expected one of {SHAPES}")
    if lenient and api != "chat":
        raise ValueError(f"lenient is a variant of api 'chat', not of {api!r}")
    return _Fake(api, calls, text, MODELS[api] if model is None else model, lenient)


def response(
    api: str,
    calls: Sequence[tuple[str, Any]],
    *,
    text: str | None = None,
    model: str | None = None,
    shape: str = "native",
    lenient: bool = False,
) -> dict[str, Any]:
    """The body ``api`` answers with: the assistant ``text`` (when given) then the ``calls``, in
    order, with a stop reason that says tool use when there are calls.

    ``chat``: a ``chat.completion`` (``tool_calls`` with ``call_...`` ids, arguments as JSON text,
    finish reason ``tool_calls`` or ``stop``); ``responses``: a completed ``response`` whose
    ``output`` is a ``message`` item then ``function_call`` items (``fc_...``, ``call_...``);
    ``messages``: a ``message`` with ``text`` and ``tool_use`` blocks (``toolu_...``), stop reason
    ``tool_use`` or ``end_turn``; ``converse``: a Converse response with ``text`` and ``toolUse``
    blocks (``tooluse_...``); ``generate_content``: one candidate with ``text`` and
    ``functionCall`` parts (which carry no id, as generateContent sends them); ``run``: the REST
    body ``{result, success, errors, messages}`` of Workers AI, whose result has ``shape``
    (``native``, ``chat`` or ``responses``; the last two with only the members Workers AI's types
    declare). ``model`` replaces the model named (``MODELS``);
    ``lenient`` gives Chat Completions as the lenient compatible APIs send it (bare hex ids,
    9-character call ids, calls without ``type``). ValueError for an unknown ``api`` or ``shape``.
    """
    fake = _fake(api, calls, text, model, shape, lenient)
    if api == "run":
        return _rest(_workers_result(fake, shape))
    return _RESPONSES[api](fake)


def stream(
    api: str,
    calls: Sequence[tuple[str, Any]],
    *,
    text: str | None = None,
    model: str | None = None,
    shape: str = "native",
    lenient: bool = False,
) -> list[dict[str, Any]]:
    """The events of the streamed answer of ``api`` (each the parsed ``data:`` of a server-sent
    event, or what the SDK yields), carrying what ``response`` does; text and argument strings
    are cut into several fragments.

    ``chat``: ``chat.completion.chunk`` objects: a role chunk, content deltas, for each call a
    delta with its index, id and name then argument fragments keyed by the same index, a chunk
    with the finish reason, and a last chunk with no choices and the usage; ``responses``:
    ``response.created``, ``response.in_progress``, per output item ``response.output_item.added``,
    its text or ``response.function_call_arguments.delta``/``.done`` events and
    ``response.output_item.done``, then ``response.completed`` with the whole response;
    ``messages``: ``message_start``, per block ``content_block_start``, ``content_block_delta``
    (``text_delta`` or ``input_json_delta``) and ``content_block_stop`` (a ``ping`` after the
    first start), ``message_delta`` with the stop reason, ``message_stop``; ``converse``: the event
    dicts of ConverseStream (``messageStart``, ``contentBlockStart``/``Delta``/``Stop``,
    ``messageStop``, ``metadata``); ``generate_content``: the response chunks, the text in pieces
    then the calls whole with the finish reason; ``run``: the SSE events of the result ``shape``
    (native events carry the text in pieces, then the whole calls, then the usage). ``lenient``
    chat chunks carry each call whole, without index, in the last chunk with the finish reason and
    the usage. ValueError for an unknown ``api`` or ``shape``.
    """
    fake = _fake(api, calls, text, model, shape, lenient)
    if api == "run":
        return _workers_stream(fake, shape)
    return _STREAMS[api](fake)
