"""The agent frameworks' adapters (``gen.pydantic_ai``, ``gen.openai_agents``, ``gen.langchain``):
a real Agent, Runner or tool invocation of each framework, driven by its own test model or a
scripted one (no network), sends toolgen's projection and gives the handler the canonical
payload of what the model wrote in the provider's wire form (a map as key/value entries, the
member that accepts null boxed, the value of any type as JSON text)."""

from __future__ import annotations

import asyncio
import json
from types import ModuleType
from typing import Any

import pytest

from tests.targets.test_mcp import TAG

TOOL = "notes.tag"
WIRE = "notes_tag"  # its name on the provider


def _wire(gen: ModuleType, payload: dict[str, Any]) -> dict[str, Any]:
    """What the provider's model writes for ``payload`` (the package's fakes)."""
    written: dict[str, Any] = gen.testing.openai.arguments(TOOL, payload)
    return written


def test_the_wire_form_is_not_the_canonical_one(gen: ModuleType):
    written = _wire(gen, TAG)
    assert written["weights"] == [{"key": "b", "value": 2}, {"key": "a", "value": 1}]
    assert written["folder"] == {"value": None} and json.loads(written["meta"]) == TAG["meta"]


@pytest.mark.parametrize("kind", ["Handlers", "AsyncHandlers"])
def test_a_pydantic_ai_agent_calls_the_handler_canonical(
    gen: ModuleType, handlers_module: Any, calls: list[Any], kind: str
):
    pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim is in the dev extras")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    seen: dict[str, Any] = {}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            seen["tools"] = {tool.name: tool for tool in info.function_tools}
            missing = {**TAG, "note_id": "missing"}
            parts = [ToolCallPart(WIRE, _wire(gen, TAG)), ToolCallPart(WIRE, _wire(gen, missing))]
            return ModelResponse(parts=parts)
        seen["returns"] = messages[-1].parts
        return ModelResponse(parts=[TextPart("done")])

    toolset = gen.pydantic_ai.toolset(getattr(handlers_module, kind)(), provider="openai")
    result = Agent(FunctionModel(model), toolsets=[toolset]).run_sync("Tag note n1")
    assert result.output == "done"
    tag = seen["tools"][WIRE]
    assert tag.parameters_json_schema == gen.openai.parameters(TOOL) and tag.strict is True
    assert set(seen["tools"]) == set(gen.openai.PROVIDER_NAMES.values())
    assert calls == [(TOOL, TAG), (TOOL, {**TAG, "note_id": "missing"})]
    done, failed = seen["returns"]
    assert done.content == {"note_id": "n1", "tags": ["a", "b"]}
    assert failed.content == "note 'missing' does not exist" and failed.outcome == "failed"


def test_the_strict_flags_are_the_provider_modules_plan(gen: ModuleType, handlers_module: Any):
    """Anthropic caps strict tools per request (optional members across them): the example
    design's tools exceed it, and the toolset marks strict what tool_definitions() marks."""
    pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim is in the dev extras")
    planned = {d["name"]: d.get("strict", False) for d in gen.anthropic.tool_definitions()}
    assert not all(planned.values())
    toolset = gen.pydantic_ai.toolset(handlers_module.Handlers(), provider="anthropic")
    assert {name: tool.strict for name, tool in toolset.tools.items()} == planned


def test_a_pydantic_ai_toolset_of_some_tools(gen: ModuleType, handlers_module: Any):
    pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim is in the dev extras")
    toolset = gen.pydantic_ai.toolset(handlers_module.Handlers(), provider="openai", names=[TOOL])
    assert list(toolset.tools) == [WIRE]
    with pytest.raises(KeyError, match="no tool 'notes'"):
        gen.pydantic_ai.toolset(handlers_module.Handlers(), provider="openai", names=["notes"])


def test_an_agents_runner_calls_the_handler_canonical(
    gen: ModuleType, handlers_module: Any, calls: list[Any]
):
    pytest.importorskip("agents", reason="openai-agents is in the dev extras")
    from agents import Agent, RunConfig, Runner
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    sent: dict[str, Any] = {}

    class Scripted(Model):
        """The model's two turns: three calls (valid, failing, invalid), then text."""

        async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kw: Any):
            tools = kw["tools"]
            if "tools" not in sent:
                sent["tools"] = {tool.name: tool for tool in tools}
                written = [_wire(gen, TAG), _wire(gen, {**TAG, "note_id": "missing"}), {"x": 1}]
                output = [
                    ResponseFunctionToolCall(
                        type="function_call",
                        call_id=f"call_{index}",
                        name=WIRE,
                        arguments=json.dumps(arguments),
                    )
                    for index, arguments in enumerate(written)
                ]
                return ModelResponse(output=output, usage=Usage(), response_id=None)
            sent["outputs"] = [
                i["output"] for i in input if i.get("type") == "function_call_output"
            ]
            text = ResponseOutputText(type="output_text", text="done", annotations=[])
            message = ResponseOutputMessage(
                id="m", type="message", role="assistant", status="completed", content=[text]
            )
            return ModelResponse(output=[message], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kw: Any) -> Any:
            raise NotImplementedError

    agent = Agent(
        name="notes",
        model=Scripted(),
        tools=gen.openai_agents.function_tools(handlers_module.AsyncHandlers()),
    )
    run = Runner.run(agent, "Tag note n1", run_config=RunConfig(tracing_disabled=True))
    assert asyncio.run(run).final_output == "done"
    tag = sent["tools"][WIRE]
    assert tag.params_json_schema == gen.openai.parameters(TOOL)  # the SDK sent it unchanged
    assert tag.strict_json_schema is True
    assert calls == [(TOOL, TAG), (TOOL, {**TAG, "note_id": "missing"})]
    done, failed, invalid = sent["outputs"]
    assert json.loads(done) == {"note_id": "n1", "tags": ["a", "b"]}
    assert failed == "Error: note 'missing' does not exist"
    assert invalid.startswith("Error: The call was not run. arguments")


def test_langchain_tools_bound_and_invoked_from_a_chat_model(
    gen: ModuleType, handlers_module: Any, calls: list[Any]
):
    pytest.importorskip("langchain_core", reason="langchain-core is in the dev extras")
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.utils.function_calling import convert_to_openai_tool

    tools = {
        tool.name: tool
        for tool in gen.langchain.tools(handlers_module.Handlers(), provider="openai")
    }
    bound = convert_to_openai_tool(tools[WIRE])  # what bind_tools sends
    assert bound["function"]["parameters"] == gen.openai.parameters(TOOL)
    missing = {**TAG, "note_id": "missing"}
    turn = AIMessage(
        content="",
        tool_calls=[
            {"name": WIRE, "args": _wire(gen, TAG), "id": "c1"},
            {"name": WIRE, "args": _wire(gen, missing), "id": "c2"},
            {"name": WIRE, "args": {"note_id": 3}, "id": "c3"},
        ],
    )
    model = GenericFakeChatModel(messages=iter([turn]))
    answers = [tools[call["name"]].invoke(call) for call in model.invoke("Tag note n1").tool_calls]
    assert calls == [(TOOL, TAG), (TOOL, missing)]
    assert json.loads(answers[0].content) == {"note_id": "n1", "tags": ["a", "b"]}
    assert (answers[1].status, answers[1].content) == ("error", "note 'missing' does not exist")
    assert answers[2].status == "error" and "arguments.note_id" in answers[2].content


def test_langchain_tools_take_canonical_arguments_without_a_provider(
    gen: ModuleType, handlers_module: Any, calls: list[Any]
):
    pytest.importorskip("langchain_core", reason="langchain-core is in the dev extras")
    (tool,) = gen.langchain.tools(handlers_module.AsyncHandlers(), names=[TOOL])
    assert tool.name == TOOL and tool.args_schema is gen.models.model_for("tool", TOOL)
    answer = asyncio.run(tool.ainvoke(TAG))
    assert calls == [(TOOL, TAG)] and json.loads(answer)["tags"] == ["a", "b"]
