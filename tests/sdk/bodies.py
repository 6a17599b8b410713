"""Synthetic provider responses calling the example design's tools, and the forms users hold.

The payloads are canonical (what the models give back); ``strict_arguments`` writes them as OpenAI
strict mode does (every member present, null for the absent optional ones).
"""

from __future__ import annotations

import json
from typing import Any

#: tool -> a canonical payload its model accepts
PAYLOADS: dict[str, dict[str, Any]] = {
    "billing.refund": {
        "charge_id": "ch_9Kx2LmQ7",
        "amount": {"amount_minor": 1999, "currency": "EUR"},
        "reason": "requested_by_customer",
    },
    "calendar.create_event": {
        "title": "Design review",
        "start": "2026-01-05T10:00:00Z",
        "end": "2026-01-05T11:00:00Z",
        "attendees": [{"email": "ana@example.com"}],
        "reminders": [{"minutes_before": 15, "method": "popup"}],
    },
    "weather.get_forecast": {"city": "Lyon", "days": 5, "units": "celsius"},
    "files.list_directory": {"path": "docs", "page": {"size": 50}},
    "search.documents": {
        "query": "refund policy",
        "filter": {"field": "team", "equals": "billing"},
        "limit": 5,
    },
    "send_email": {"to": ["ana@example.com"], "subject": "Hello", "body": "Hi Ana"},
    "crm.upsert_contact": {
        "name": "Ana",
        "email": "ana@example.com",
        "address": {"street": "1 Main St", "city": "Lyon", "country": "FR"},
        "tags": ["vip"],
    },
}
OUTPUT = "ticket_triage"
OUTPUT_PAYLOAD = {
    "category": "billing",
    "priority": "p2",
    "summary": "Charged twice",
    "entities": [{"kind": "order_id", "value": "A-1"}],
}

Call = tuple[str, str, str]  # (call id, provider tool name, arguments as JSON text)


def strict_arguments(payload: Any, schema: Any, root: Any) -> Any:
    """``payload`` as OpenAI strict mode writes it under the projected ``schema``."""
    while isinstance(schema, dict) and "$ref" in schema:
        node = root
        for token in schema["$ref"].removeprefix("#/").split("/"):
            node = node[token]
        schema = node
    if isinstance(payload, dict):
        for branch in schema.get("anyOf", ()):
            resolved = strict_arguments({}, branch, root) if isinstance(branch, dict) else None
            if isinstance(resolved, dict) and set(payload) <= set(resolved):
                return strict_arguments(payload, branch, root)
        properties = schema.get("properties", {})
        return {
            key: strict_arguments(payload[key], child, root) if key in payload else None
            for key, child in properties.items()
        }
    if isinstance(payload, list):
        items = schema.get("items", {})
        if not items:
            items = next(b for b in schema["anyOf"] if b.get("type") != "null")["items"]
        return [strict_arguments(item, items, root) for item in payload]
    return payload


def chat_completion(calls: list[Call], content: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-sdk-1",
        "object": "chat.completion",
        "created": 1764680000,
        "model": "gpt-test",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls" if calls else "stop",
                "logprobs": None,
                "message": {
                    "role": "assistant",
                    "content": content,
                    "refusal": None,
                    "annotations": [],
                    **(
                        {
                            "tool_calls": [
                                {
                                    "id": i,
                                    "type": "function",
                                    "function": {"name": n, "arguments": a},
                                }
                                for i, n, a in calls
                            ]
                        }
                        if calls
                        else {}
                    ),
                },
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30},
    }


def chat_chunks(calls: list[Call]) -> list[dict[str, Any]]:
    """A streamed chat completion: each call's id and name first, its arguments in two halves."""
    head = {"id": "chatcmpl-sdk-2", "object": "chat.completion.chunk", "created": 1, "model": "m"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": None})]
    for index, (call_id, name, arguments) in enumerate(calls):
        half = len(arguments) // 2
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": ""},
                        }
                    ]
                }
            )
        )
        for part in (arguments[:half], arguments[half:]):
            chunks.append(
                chunk({"tool_calls": [{"index": index, "function": {"arguments": part}}]})
            )
    chunks.append(chunk({}, "tool_calls"))
    usage = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
    chunks.append({**head, "choices": [], "usage": usage})
    return chunks


def _function_call(call: Call, arguments: str) -> dict[str, Any]:
    call_id, name, _ = call
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }


def response(calls: list[Call], text: str | None = None) -> dict[str, Any]:
    output: list[dict[str, Any]] = [_function_call(call, call[2]) for call in calls]
    if text is not None:
        output.append(
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        )
    return {
        "id": "resp_sdk_1",
        "object": "response",
        "created_at": 1764680000,
        "status": "completed",
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 30,
        },
    }


def response_events(calls: list[Call]) -> list[dict[str, Any]]:
    started = {**response([]), "status": "in_progress", "usage": None}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": started}]
    for index, call in enumerate(calls):
        item_id, arguments = f"fc_{call[0]}", call[2]
        half = len(arguments) // 2
        events.append(
            {
                "type": "response.output_item.added",
                "output_index": index,
                "item": {**_function_call(call, ""), "status": "in_progress"},
            }
        )
        for part in (arguments[:half], arguments[half:]):
            events.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "item_id": item_id,
                    "output_index": index,
                    "delta": part,
                }
            )
        events.append(
            {
                "type": "response.function_call_arguments.done",
                "item_id": item_id,
                "output_index": index,
                "arguments": arguments,
            }
        )
        events.append(
            {
                "type": "response.output_item.done",
                "output_index": index,
                "item": _function_call(call, arguments),
            }
        )
    events.append({"type": "response.completed", "response": response(calls)})
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def message(calls: list[Call], text: str | None = None) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text is not None else []
    content += [
        {"type": "tool_use", "id": i, "name": n, "input": json.loads(a)} for i, n, a in calls
    ]
    return {
        "id": "msg_sdk_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 20},
    }


def message_events(calls: list[Call]) -> list[dict[str, Any]]:
    started = {**message([]), "stop_reason": None}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": started}]
    for index, (call_id, name, arguments) in enumerate(calls):
        half = len(arguments) // 2
        block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        events.append({"type": "content_block_start", "index": index, "content_block": block})
        for part in (arguments[:half], arguments[half:]):
            delta = {"type": "input_json_delta", "partial_json": part}
            events.append({"type": "content_block_delta", "index": index, "delta": delta})
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 20},
        }
    )
    events.append({"type": "message_stop"})
    return events


def response_body(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """A Gemini GenerateContentResponse of one candidate with ``parts``."""
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20},
        "modelVersion": "gemini-test",
        "responseId": "resp_1",
    }
