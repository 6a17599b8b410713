"""What ``toolgen canary record`` sends: per provider its endpoint (the environment variable of its
key, its base URL, a small default model) and per wire API the smallest requests that make it
answer with a forced tool call, a structured output, and a stream.

The request bodies are built from the projected definitions (wire name, description, schema,
strict flag), the same fields the generated request builders send; each API's text of a structured
output is found by ``output_text``. Bedrock (signed requests) and Workers AI (an account in the
URL) have no canary requests yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PROMPT = "Call the tool now with plausible arguments."
OUTPUT_PROMPT = "Answer with a plausible example of the requested JSON."


@dataclass(frozen=True)
class Endpoint:
    """Where a provider's API is and how its key is sent."""

    env: str  # the environment variable its SDKs read the key from
    base_url: str
    model: str  # a small model; --model chooses another
    auth: Callable[[str], dict[str, str]]


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _anthropic_auth(key: str) -> dict[str, str]:
    return {"x-api-key": key, "anthropic-version": "2023-06-01"}


def _google_auth(key: str) -> dict[str, str]:
    return {"x-goog-api-key": key}


ENDPOINTS: dict[str, Endpoint] = {
    "openai": Endpoint("OPENAI_API_KEY", "https://api.openai.com/v1", "gpt-4.1-mini", _bearer),
    "anthropic": Endpoint(
        "ANTHROPIC_API_KEY", "https://api.anthropic.com/v1", "claude-haiku-4-5", _anthropic_auth
    ),
    "gemini": Endpoint(
        "GEMINI_API_KEY",
        "https://generativelanguage.googleapis.com/v1beta",
        "gemini-2.5-flash",
        _google_auth,
    ),
    "groq": Endpoint(
        "GROQ_API_KEY", "https://api.groq.com/openai/v1", "openai/gpt-oss-20b", _bearer
    ),
    "cerebras": Endpoint("CEREBRAS_API_KEY", "https://api.cerebras.ai/v1", "gpt-oss-120b", _bearer),
    "mistral": Endpoint(
        "MISTRAL_API_KEY", "https://api.mistral.ai/v1", "mistral-small-latest", _bearer
    ),
    "xai": Endpoint("XAI_API_KEY", "https://api.x.ai/v1", "grok-3-mini", _bearer),
    "deepseek": Endpoint("DEEPSEEK_API_KEY", "https://api.deepseek.com", "deepseek-chat", _bearer),
    "openrouter": Endpoint(
        "OPENROUTER_API_KEY", "https://openrouter.ai/api/v1", "openai/gpt-4.1-mini", _bearer
    ),
}


@dataclass(frozen=True)
class Definition:
    """A projected contract as a request carries it."""

    name: str  # its wire name
    description: str
    schema: Any
    strict: bool


@dataclass(frozen=True)
class WireApi:
    """The canary's requests of one wire API: ``path(model, stream)`` and the bodies of a forced
    tool call (streamed or not) and of a structured output."""

    path: Callable[[str, bool], str]
    tool_request: Callable[[str, Definition, bool], dict[str, Any]]
    output_request: Callable[[str, Definition], dict[str, Any]]
    output_text: Callable[[Any], Any]  # the structured output's text in a response, or None


def _user() -> list[dict[str, Any]]:
    return [{"role": "user", "content": PROMPT}]


def _chat_tool(model: str, tool: Definition, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "messages": _user(),
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.schema,
                    "strict": tool.strict,
                },
            }
        ],
        "tool_choice": {"type": "function", "function": {"name": tool.name}},
    }
    return {**body, "stream": True} if stream else body


def _chat_output(model: str, output: Definition) -> dict[str, Any]:
    return {
        "model": model,
        "messages": [{"role": "user", "content": OUTPUT_PROMPT}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": output.name, "schema": output.schema, "strict": output.strict},
        },
    }


def _chat_text(body: Any) -> Any:
    try:
        return body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None


def _responses_tool(model: str, tool: Definition, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "input": PROMPT,
        "tools": [
            {
                "type": "function",
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.schema,
                "strict": tool.strict,
            }
        ],
        "tool_choice": {"type": "function", "name": tool.name},
    }
    return {**body, "stream": True} if stream else body


def _responses_output(model: str, output: Definition) -> dict[str, Any]:
    return {
        "model": model,
        "input": OUTPUT_PROMPT,
        "text": {
            "format": {
                "type": "json_schema",
                "name": output.name,
                "schema": output.schema,
                "strict": output.strict,
            }
        },
    }


def _responses_text(body: Any) -> Any:
    try:
        return next(
            part["text"]
            for item in body["output"]
            if item.get("type") == "message"
            for part in item["content"]
            if part.get("type") == "output_text"
        )
    except (KeyError, TypeError, AttributeError, StopIteration):
        return None


def _messages_tool(model: str, tool: Definition, stream: bool) -> dict[str, Any]:
    definition: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "input_schema": tool.schema,
    }
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": 1024,
        "messages": _user(),
        "tools": [{**definition, "strict": True} if tool.strict else definition],
        "tool_choice": {"type": "tool", "name": tool.name},
    }
    return {**body, "stream": True} if stream else body


def _messages_output(model: str, output: Definition) -> dict[str, Any]:
    return {
        "model": model,
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": OUTPUT_PROMPT}],
        "output_config": {"format": {"type": "json_schema", "schema": output.schema}},
    }


def _messages_text(body: Any) -> Any:
    try:
        return next(block["text"] for block in body["content"] if block.get("type") == "text")
    except (KeyError, TypeError, AttributeError, StopIteration):
        return None


def _contents(prompt: str) -> list[dict[str, Any]]:
    return [{"role": "user", "parts": [{"text": prompt}]}]


def _generate_content_path(model: str, stream: bool) -> str:
    return (
        f"/models/{model}:streamGenerateContent?alt=sse"
        if stream
        else f"/models/{model}:generateContent"
    )


def _generate_content_tool(model: str, tool: Definition, stream: bool) -> dict[str, Any]:
    declaration = {
        "name": tool.name,
        "description": tool.description,
        "parametersJsonSchema": tool.schema,
    }
    return {
        "contents": _contents(PROMPT),
        "tools": [{"functionDeclarations": [declaration]}],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [tool.name]}
        },
    }


def _generate_content_output(model: str, output: Definition) -> dict[str, Any]:
    return {
        "contents": _contents(OUTPUT_PROMPT),
        "generationConfig": {
            "responseMimeType": "application/json",
            "responseJsonSchema": output.schema,
        },
    }


def _generate_content_text(body: Any) -> Any:
    try:
        parts = body["candidates"][0]["content"]["parts"]
        return next(part["text"] for part in parts if "text" in part)
    except (KeyError, IndexError, TypeError, StopIteration):
        return None


#: By the API's name (``Api.name``).
WIRE_APIS: dict[str, WireApi] = {
    "chat": WireApi(lambda _m, _s: "/chat/completions", _chat_tool, _chat_output, _chat_text),
    "responses": WireApi(
        lambda _m, _s: "/responses", _responses_tool, _responses_output, _responses_text
    ),
    "messages": WireApi(
        lambda _m, _s: "/messages", _messages_tool, _messages_output, _messages_text
    ),
    "generate_content": WireApi(
        _generate_content_path,
        _generate_content_tool,
        _generate_content_output,
        _generate_content_text,
    ),
}
