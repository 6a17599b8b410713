"""``OUT/tool_outputs.py``: ``dump_output``, what every tool's handler returns as canonical JSON,
checked against the tool's output model where its file declares ``output:``; and the fixed
module it stands on (``_tool_outputs``: ToolOutputError, the dump and the check)."""

from __future__ import annotations

from toolgen.compile.models import tool_output_classes
from toolgen.infra.parallel import Runner
from toolgen.load.contracts import Design
from toolgen.render.runtime_files import copied
from toolgen.render.templating import format_python, header, render


def tool_output_files(
    design: Design, classes: dict[tuple[str, str], tuple[str, str]], runner: Runner
) -> dict[str, str]:
    """The two files, for every design (a tool without ``output:`` passes its results through),
    and the stub of the functions typed per tool when a tool declares ``output:``; ``classes``
    are the models' (:attr:`toolgen.compile.models.ModelsOutput.classes`)."""
    models = tool_output_classes(classes)
    tools = tuple(models)
    public = ["JSON", "OUTPUT_MODELS", "ToolOutputError", "dump_output"]
    if tools:
        public += ["output_model", "validate_output"]
    named = {"tools": tools, "classes": models, "types_module": "_types_tool_outputs"}
    source = render("tool_outputs.py.j2", runner, header=header(), public=public, **named)
    files = {
        "tool_outputs.py": format_python(source, runner=runner),
        "_tool_outputs.py": copied("_tool_outputs", header()),
    }
    if tools:  # the functions typed per tool, in a stub (templates/tool_outputs_types.pyi.j2)
        types = render("tool_outputs_types.pyi.j2", runner, header=header(), **named)
        files["_types_tool_outputs.pyi"] = format_python(types, runner=runner)
    return files
