"""The agent frameworks toolgen writes tools for (``[toolgen] targets``, toolgen.package.targets):
which provider's projection each one's tools carry, where the framework fixes it.

- pydantic-ai and LangChain talk to any provider: their adapters take the provider of the
  agent's (the chat model's) model as an argument, one of the package's provider modules.
- The OpenAI Agents SDK's models speak OpenAI's Responses API (``OpenAIResponsesModel``, the
  default) or Chat Completions (``OpenAIChatCompletionsModel``), whose strict function
  parameters its ``FunctionTool.params_json_schema`` is (``strict_json_schema=True``: the SDK's
  ``ensure_strict_json_schema``, which leaves a schema already in OpenAI's strict form as it
  is): its tools carry toolgen's OpenAI projection.
"""

from __future__ import annotations

from toolgen.providers.base import Rule

#: target -> the provider whose projection its tools carry (None: the caller chooses)
FRAMEWORK_PROVIDERS: dict[str, str | None] = {
    "pydantic_ai": None,
    "openai_agents": "openai",
    "langchain": None,
}

RULES: tuple[Rule, ...] = (
    Rule(
        "openai_agents",
        "FunctionTool{name, description, params_json_schema, on_invoke_tool(ctx, arguments "
        "JSON text), strict_json_schema}; the default model is OpenAIResponsesModel",
        "openai-agents-python src/agents/tool.py, src/agents/models/openai_responses.py",
        "2026-12-07",
    ),
)
