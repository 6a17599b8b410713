"""A small application on the bindings toolgen generated from examples/design.

`make demo` builds gen/ and runs this. It prints the request fields it would send, then decodes
recorded responses (examples/recorded/) the way a real application would: tool calls come back
with canonical names, canonical payloads (the nulls strict mode forced are gone) and Pydantic
models; a response whose shape drifted raises SchemaDriftError, and first_valid falls back to the
next provider.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "examples" / "recorded"
sys.path.insert(0, str(ROOT))

from gen import anthropic, openai  # noqa: E402 - the generated package lives at the repo root
from gen._runtime import first_valid, on_schema_drift  # noqa: E402


def recorded(name: str) -> dict:
    return json.loads((RECORDED / name).read_text(encoding="utf-8"))


def show_requests() -> None:
    tools = openai.tool_definitions(api="chat")
    print(f"OpenAI: {len(tools)} strict tools: {', '.join(t['function']['name'] for t in tools)}")
    print(
        f"OpenAI: response_format {openai.response_format('ticket_triage')['json_schema']['name']!r}"
    )
    definitions = (
        anthropic.tool_definitions()
    )  # strict="auto": as many strict as one request allows
    strict = [d["name"] for d in definitions if d.get("strict")]
    print(f"Anthropic: {len(strict)} of {len(definitions)} tools strict in one request")


def decode_responses() -> None:
    for call in openai.parse_tool_calls(recorded("chat_tool_calls.json")):
        print(f"OpenAI call {call.id}: {call.name} -> {call.arguments!r}")
        print(f"  canonical payload: {call.arguments.model_dump(mode='json')}")

    stream = openai.ToolCallStream("chat")
    for line in (RECORDED / "chat_stream.jsonl").read_text(encoding="utf-8").splitlines():
        stream.add(json.loads(line))
    for call in stream.tool_calls():
        print(
            f"OpenAI streamed call {call.id}: {call.name} -> {call.arguments.model_dump(mode='json')}"
        )

    triage = openai.parse_output(
        "ticket_triage",
        '{"category":"billing","priority":"p2","summary":"Charged twice","refund":null,'
        '"entities":[{"kind":"order_id","value":"A-1001"}],"suggested_reply":null}',
    )
    print(f"OpenAI structured output: {triage.model_dump(mode='json')}")


def fall_back_on_drift() -> None:
    drifted = copy.deepcopy(recorded("chat_tool_calls.json"))
    drifted["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = {"charge_id": "?"}
    on_schema_drift(lambda error: print(f"drift observed: {error.to_dict()}"))
    calls = first_valid(
        [
            lambda: openai.parse_tool_calls(drifted),
            lambda: anthropic.parse_tool_calls(recorded("anthropic_tool_use.json")),
        ]
    )
    print(
        f"fell back to Anthropic: {[(c.name, c.arguments.model_dump(mode='json')) for c in calls]}"
    )


if __name__ == "__main__":
    show_requests()
    decode_responses()
    fall_back_on_drift()
