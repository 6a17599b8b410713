"""What the generated fakes refuse at type-check time: a tool's wire name for its canonical name,
an API the provider does not speak (each line marked ``# error``; tests/test_sdk_typing.py)."""

from __future__ import annotations

from typing import Any

from gen.testing import openai as fake_openai


def misspelled() -> list[Any]:
    body = fake_openai.response(
        [("billing_refund", {"charge_id": "ch_12345678", "reason": "duplicate"})],  # error
        api="responses",
    )
    events = fake_openai.stream([("send_email", {})], api="messages")  # error
    served = fake_openai.sse([("send_email", {})], api="converse")  # error
    framed = fake_openai.sse([("send-email", {})])  # error
    return [body, events, served, framed]
