"""A tool's ``output:`` (issue 19, item 4): loaded and checked like the parameters, carried over
by ``toolgen import`` from MCP with ``title`` and ``annotations``, and enforced on a handler's
result by the generated ``tool_outputs.dump_output`` (ToolOutputError naming the path).

The package is the golden case tests/cases/tool_outputs (one provider), built once."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from toolgen.build import build
from toolgen.commands.importing import import_sources, write_tools
from toolgen.formats import IMPORT_FORMATS
from toolgen.load.design import load_design
from toolgen.package.writer import write_package
from toolgen.providers import settings

CASE = Path(__file__).parent / "cases" / "tool_outputs" / "design"
ROUTE = {"legs": [{"to": {"lat": 48.85, "lon": 2.35}, "minutes": 12}], "distance_km": 3.5}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    result = build(CASE)
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("tool_outputs")
    write_package(root / "toolgen_tool_outputs_case", result.files)
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("toolgen_tool_outputs_case")
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith("toolgen_tool_outputs_case")]:
            del sys.modules[name]


def _outputs(package: ModuleType) -> ModuleType:
    return importlib.import_module(f"{package.__name__}.tool_outputs")


def _error(package: ModuleType, tool: str, value: object) -> Any:
    outputs = _outputs(package)
    with pytest.raises(outputs.ToolOutputError) as caught:
        outputs.dump_output(tool, value)
    return caught.value


# -- the generated package ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "location"),
    [
        (lambda r: r["legs"][0]["to"].update(lat=123.0), "legs[0].to.lat"),  # a shared def's bound
        (lambda r: r["legs"][0].update(minutes=-1), "legs[0].minutes"),  # a local $defs member
        (lambda r: r.pop("distance_km"), "distance_km"),  # a required member
        (lambda r: r.update(note="x" * 81), "note"),  # maxLength
    ],
)
def test_a_result_that_breaks_the_output_schema_raises_tool_output_error_with_its_path(
    package: ModuleType, change: Callable[[dict[str, Any]], Any], location: str
) -> None:
    result = json.loads(json.dumps(ROUTE))
    change(result)
    error = _error(package, "maps.route", result)
    assert (error.tool, error.location) == ("maps.route", location)
    assert error.to_dict()["code"] == "INVALID_TOOL_OUTPUT"
    text = str(error)
    assert len(text) < 300 and "maps.route" in text and location in text
    assert "123" not in text and "xxxx" not in text  # the rule broken, no value of the result


def test_a_valid_result_comes_back_as_canonical_json(package: ModuleType) -> None:
    outputs = _outputs(package)
    assert outputs.dump_output("maps.route", ROUTE) == ROUTE
    model = package.models.MapsRouteOutput(legs=[], distance_km=0)
    dumped = outputs.dump_output("maps.route", model)
    assert dumped == {"legs": [], "distance_km": 0}  # the unset optional ``note`` stays absent
    assert json.dumps(dumped)  # plain JSON
    typed = outputs.validate_output("maps.route", ROUTE)
    assert isinstance(typed, package.models.MapsRouteOutput) and typed.legs[0].minutes == 12
    assert outputs.output_model("ping") is package.models.model_for("tool_output", "ping")
    assert outputs.OUTPUT_MODELS == {"maps.route": "MapsRouteOutput", "ping": "PingOutput"}


def test_a_model_of_another_tool_is_checked_by_its_dump(package: ModuleType) -> None:
    other = package.models.Echo(text="hi")
    assert _error(package, "maps.route", other).location in {"legs", "distance_km"}


def test_a_non_object_output_schema_is_enforced_at_the_root(package: ModuleType) -> None:
    outputs = _outputs(package)
    assert outputs.dump_output("ping", "pong") == "pong"
    assert _error(package, "ping", "pang").location == "(root)"


def test_a_tool_without_output_passes_json_and_models_through(package: ModuleType) -> None:
    outputs = _outputs(package)
    for value in ({"any": ["json", 1, None]}, [1, 2], "text", 3, None, True):
        assert outputs.dump_output("echo", value) == value
    assert outputs.dump_output("echo", package.models.Echo(text="hi")) == {"text": "hi"}
    error = _error(package, "echo", {"a": {1, 2}})  # not JSON: refused before it is sent
    assert error.location == "(root)" and "set" in error.reason
    assert _error(package, "echo", float("nan")).location == "(root)"


def test_the_message_stays_short_whatever_the_reason(package: ModuleType) -> None:
    error = _outputs(package).ToolOutputError("t" * 200, "a." * 100, "r" * 500)
    assert len(str(error)) < 300


# -- loading ---------------------------------------------------------------------------------------


def _loaded(root: Path) -> tuple[Any, list[str]]:
    design, diagnostics = load_design(root, settings())
    return design, [f"{d.file}:{d.pointer}: {d.code}" for d in diagnostics]


LOOP = {"$ref": "#/$defs/D", "$defs": {"D": {"$ref": "#/$defs/D"}}}


def test_output_title_and_annotations_are_checked_at_load(make_design, tool) -> None:
    parameters = {"type": "object"}
    root = make_design(
        {
            "tools/a.yaml": tool("a", parameters, output={"type": "objekt"}),
            "tools/b.yaml": tool("b", parameters, title=3, annotations={"readOnlyHint": "yes"}),
            "tools/c.yaml": tool("c", parameters, annotations=["readOnlyHint"]),
            "tools/d.yaml": tool("d", parameters, output={"$ref": "#/$defs/Missing"}),
            "tools/e.yaml": tool("e", parameters, output=LOOP),
        }
    )
    design, found = _loaded(root)
    assert found == [
        "tools/b.yaml:/title: INVALID_FIELD",
        "tools/b.yaml:/annotations/readOnlyHint: INVALID_FIELD",
        "tools/c.yaml:/annotations: INVALID_FIELD",
        "tools/a.yaml:/output/type: INVALID_SCHEMA",
        "tools/d.yaml:/output/$ref: REF_NOT_FOUND",
        "tools/e.yaml:/output/$defs/D/$ref: UNBOUNDED_REF",
    ]
    assert [t.name for t in design.tools] == []


def test_output_true_is_no_output_and_output_false_is_an_error(make_design, tool) -> None:
    """``true`` admits every result, as no ``output:`` does (no model, results unchecked);
    ``false`` admits none, so every call would fail: the build says so at the field."""
    parameters = {"type": "object"}
    root = make_design(
        {
            "tools/a.yaml": tool("a", parameters, output=True),
            "tools/b.yaml": tool("b", parameters, output=False),
        }
    )
    design, found = _loaded(root)
    assert found == ["tools/b.yaml:/output: INVALID_FIELD"]
    assert [(t.name, t.output) for t in design.tools] == [("a", None)]


def test_an_output_resolves_its_own_defs_and_shared_ones(make_design, tool) -> None:
    parameters = {
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/Leg"}},
        "$defs": {"Leg": {"type": "integer"}},
    }
    output = {
        "type": "object",
        "properties": {"leg": {"$ref": "#/$defs/Leg"}, "at": {"$ref": "../defs/geo.yaml#/$defs/P"}},
        "$defs": {"Leg": {"type": "string"}},
    }
    root = make_design(
        {
            "tools/a.yaml": tool("a", parameters, output=output, title="A"),
            "defs/geo.yaml": {"$defs": {"P": {"type": "number"}}},
        }
    )
    design, found = _loaded(root)
    assert found == []
    (loaded,) = design.tools
    assert loaded.title == "A" and loaded.output is not None
    assert loaded.output.kind == "tool_output" and loaded.output.pointer == "/output"
    assert loaded.output.schema["$defs"]["Leg"] == {
        "type": "string"
    }  # its own, not the parameters'
    assert loaded.output.schema["properties"]["at"] == {"$ref": "#/$defs/P"}
    assert list(loaded.output.shared) == ["P"] and loaded.shared == {}
    assert design.tool_outputs == (loaded.output,)


# -- toolgen import --------------------------------------------------------------------------------

MCP_TOOL = {
    "name": "get_weather",
    "title": "Weather",
    "description": "Current weather.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    "outputSchema": {
        "type": "object",
        "properties": {"celsius": {"type": "number"}, "sky": {"type": "string"}},
        "required": ["celsius"],
    },
    "annotations": {"readOnlyHint": True, "openWorldHint": True, "title": "Weather now"},
}


def test_an_mcp_tool_with_output_schema_title_and_annotations_round_trips(tmp_path: Path) -> None:
    listed = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [MCP_TOOL]}}
    source = tmp_path / "tools_list.json"
    source.write_text(json.dumps(listed), encoding="utf-8")
    design = tmp_path / "design"
    result = import_sources([(source, "tools_list.json")], design, IMPORT_FORMATS)
    assert result.ok, [d.format() for d in result.diagnostics]
    write_tools(design, result.tools)
    text = (design / "tools" / "get_weather.yaml").read_text(encoding="utf-8")
    assert text.index("parameters:") < text.index("title:") < text.index("output:")
    loaded, found = _loaded(design)
    assert found == []
    (tool,) = loaded.tools
    assert tool.title == MCP_TOOL["title"]
    assert tool.annotations == MCP_TOOL["annotations"]
    assert tool.output is not None and tool.output.schema == MCP_TOOL["outputSchema"]
    assert tool.schema == MCP_TOOL["inputSchema"]


def test_an_mcp_output_schema_that_is_no_schema_is_not_imported(tmp_path: Path) -> None:
    source = tmp_path / "tools_list.json"
    source.write_text(json.dumps({"tools": [{**MCP_TOOL, "outputSchema": {"type": 7}}]}))
    result = import_sources([(source, "tools_list.json")], tmp_path / "design", IMPORT_FORMATS)
    assert not result.ok and result.tools == []
    assert [d.code for d in result.diagnostics] == ["INVALID_SCHEMA"]


# -- the tool loop sends results through the output check -----------------------------------------

_CONVERSE = {
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {
                    "toolUse": {
                        "toolUseId": "tooluse_1",
                        "name": "maps_route",
                        "input": {"from": {"lat": 0, "lon": 0}, "to": {"lat": 1, "lon": 1}},
                    }
                }
            ],
        }
    },
    "stopReason": "tool_use",
    "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
    "metrics": {"latencyMs": 100},
}


def test_the_loop_checks_a_result_against_its_output_schema(package: ModuleType) -> None:
    bedrock = importlib.import_module(f"{package.__name__}.bedrock")
    (call,) = bedrock.parse_tool_calls(_CONVERSE)
    result = bedrock.tool_result(call, ROUTE)
    assert result["toolResult"] == {
        "toolUseId": "tooluse_1",
        "content": [{"json": ROUTE}],
        "status": "success",
    }
    broken = {**ROUTE, "distance_km": -1}
    with pytest.raises(_outputs(package).ToolOutputError) as caught:
        bedrock.tool_result(call, broken)
    assert caught.value.location == "distance_km"
    with pytest.raises(_outputs(package).ToolOutputError):
        bedrock.tool_results([call], [broken])
    # an error's text is no result: the output schema does not apply to it
    failed = bedrock.tool_result(call, "the map service is down", is_error=True)
    assert failed["toolResult"]["status"] == "error"

    class Handlers(package.handlers.ToolHandlers):
        def maps_route(self, arguments: Any) -> Any:
            return broken

        def echo(self, arguments: Any) -> Any:
            return arguments

        def ping(self, arguments: Any) -> Any:
            return "pong"

    with pytest.raises(_outputs(package).ToolOutputError):
        bedrock.run_tool_calls(Handlers(), [call])
