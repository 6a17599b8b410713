"""A small application that uses the bindings toolgen generated from examples/design.

Run `make demo` (it builds gen/ first). The app prints the request fields it would send to OpenAI
and decodes a recorded response: tool calls come back with canonical names and canonical payloads.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gen import openai as oa  # noqa: E402 - the generated package lives at the repo root


def main() -> None:
    tools = oa.tool_definitions("chat")
    print(f"{len(tools)} tools for Chat Completions: {', '.join(t['function']['name'] for t in tools)}")
    triage = oa.response_format("ticket_triage", "responses")
    print(f"structured output for the Responses API: text.format name={triage['name']!r}")

    recorded = json.loads((ROOT / "examples" / "recorded" / "chat_tool_calls.json").read_text())
    for call in recorded["choices"][0]["message"]["tool_calls"]:
        provider_name = call["function"]["name"]
        name = oa.CANONICAL_NAMES[provider_name]
        print(f"call {call['id']}: {provider_name} -> {name}")


if __name__ == "__main__":
    main()
