"""What every API's canary requests share (each API's own are in its unit): the prompts, what an
error in place of an answer looks like, and the framing of a server-sent event stream.

The tool definitions and output formats in the requests are not written by the units: they are
what the generated package's request builders give (built by toolgen.package.request_builders),
so the canary sends what the package sends, in the dialect the design chose.
"""

from __future__ import annotations

import json
from typing import Any

from toolgen.infra.canary_fixtures import sse_events

PROMPT = "Call the tool now with plausible arguments."
OUTPUT_PROMPT = "Answer with a plausible example of the requested JSON."


def reports_error(answer: Any) -> bool:
    """An error in place of an answer or a stream's event: ``{"type": "error", ...}`` (Messages,
    Responses) or an ``error`` with nothing of an answer beside it (Chat Completions and the APIs
    compatible with it, generateContent; a Responses body has ``"error": null``)."""
    if not isinstance(answer, dict):
        return False
    return answer.get("type") == "error" or (
        bool(answer.get("error")) and not _ANSWER_MEMBERS & set(answer)
    )


#: Members of an answer (a body or an event) of some API: with them, an ``error`` is a part of it.
_ANSWER_MEMBERS = frozenset({"choices", "candidates", "response", "result", "output", "content"})


def sse_payloads(body: bytes) -> list[Any]:
    """The event payloads of a server-sent event stream (ValueError when it is none, or when an
    event reports an error)."""
    events = sse_events(body.decode("utf-8"))
    for event in events:
        if reports_error(event):
            raise ValueError(f"the stream reports an error: {json.dumps(event)[:300]}")
    return events


def user_messages(prompt: str = PROMPT) -> list[dict[str, Any]]:
    """One user message of ``prompt``, as Chat Completions and the Messages API take it."""
    return [{"role": "user", "content": prompt}]
