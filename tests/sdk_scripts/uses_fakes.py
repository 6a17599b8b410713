"""A user's test with the generated fakes (``gen.testing``): the canonical payloads it gives
and the calls it reads back type-check without a cast (tests/test_sdk_typing.py)."""

from __future__ import annotations

from gen import openai
from gen.testing import openai as fake_openai


def refunded_charges() -> list[str]:
    body = fake_openai.response(
        [("billing.refund", {"charge_id": "ch_12345678", "reason": "duplicate"})],
        api="responses",
        text="Refunding.",
    )
    charges = []
    for call in openai.parse_tool_calls(body, "responses"):
        if call.name == "billing.refund":
            charges.append(call.arguments.charge_id)
    events: list[dict[str, object]] = fake_openai.stream([("send_email", {})])
    del events
    served = fake_openai.sse([("send_email", {})], api="responses", text="Sending.")
    body_bytes: bytes = served
    content_type: str = served.content_type
    del body_bytes, content_type
    return charges
