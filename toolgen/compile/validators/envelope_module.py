"""The generated ``_envelopes_<provider>.py`` of each provider: its envelope validators."""

from __future__ import annotations

from typing import Any

from toolgen.compile.validators.data import schema_text
from toolgen.compile.validators.envelope_compiler import (
    ModuleCompiler,
    compile_surface,
    validator_name,
)
from toolgen.compile.validators.object_compiler import (
    compile_object_surface,
    object_module,
    reader_name,
)
from toolgen.infra.parallel import Later, Runner
from toolgen.render.codegen import LineEmitter, docstring
from toolgen.render.templating import export_order, format_later

#: Where each name a generated module may use comes from; anything else is in ``._runtime``.
_IMPORT_SOURCES = {
    "Any": "typing",
    "TypeVar": "typing",
    "Callable": "collections.abc",
    "Mapping": "collections.abc",
    "mismatch_handler": "._explain",
    "admitted_classes": "._attributes",
    "admit": "._attributes",
    "wire_object": "._attributes",
    "wire_string": "._attributes",
}


def render_envelope_module(
    provider: str,
    schemas: dict[str, Any],
    header: str,
    runner: Runner | None = None,
    *,
    sdk_objects: str = "wire",
) -> str:
    """The source of ``OUT/_envelopes_<provider>.py``: the validators of every surface (the
    decoders that use them are in the fixed API modules).

    ``validate_<surface>(data)`` returns ``data`` as given when it matches and raises
    SchemaDriftError otherwise (``read_<surface>`` and ``_wire_<surface>``: see
    object_compiler and envelope_compiler). ``sdk_objects``: how the provider's SDK objects hold their members
    (``Api.sdk_objects``), which the object checks of ``read_<surface>`` follow.
    """
    return submit_envelope_module(
        provider, schemas, header, runner, sdk_objects=sdk_objects
    ).result()


def submit_envelope_module(
    provider: str,
    schemas: dict[str, Any],
    header: str,
    runner: Runner | None = None,
    *,
    sdk_objects: str = "wire",
) -> Later[str]:
    """:func:`render_envelope_module`, formatted by ``runner``'s workers while the caller goes
    on (the text when ``result()`` is asked for)."""
    module = ModuleCompiler(provider)
    module.reserve("_mismatched", "_SCHEMAS", "_T", *(f"_wire_{s}" for s in schemas))
    module.count_uses(schemas)
    validators = [compile_surface(module, s, schemas[s]) for s in sorted(schemas)]
    objects = object_module(module, sdk_objects)
    readers = [compile_object_surface(objects, s, schemas[s]) for s in sorted(schemas)]
    imports = module.imports | {"mismatch_handler"}
    public = [
        "PROVIDER",
        *(validator_name(s) for s in sorted(schemas)),
        *(reader_name(s) for s in sorted(schemas)),
    ]

    emitter = LineEmitter()
    emitter.line(header)
    emitter.lines(
        docstring(
            f"Envelope validators of {provider}.",
            f"Surfaces: {', '.join(sorted(schemas))}.",
            "",
            "``validate_<surface>(data)`` returns ``data`` as given (raw JSON or an SDK object) when",
            "it has the fields toolgen reads; else it raises SchemaDriftError at the first mismatch",
            "(found by walking ``_SCHEMAS``), or TypeError for a value neither JSON nor an SDK object.",
            "``read_<surface>(data)`` is what the decoders read: the same checks, an SDK object read",
            "through its attributes and returned as it is (its wire form when those do not hold).",
            "``_wire_<surface>(data)`` checks and returns the JSON form (an SDK object's dump).",
        )
    )
    emitter.line()
    for line in _import_lines(imports):
        emitter.line(line)
    emitter.line()
    emitter.line("__all__ = [" + "".join(repr(name) + ", " for name in export_order(public)) + "]")
    emitter.line()
    emitter.line(f"PROVIDER = {provider!r}")
    emitter.lines(module.constants.lines)
    emitter.line("#: The envelope schemas (surface -> schema) as JSON, read to explain a mismatch.")
    emitter.line("_SCHEMAS = (")
    for chunk in _chunks(schema_text(schemas)):
        emitter.line("    " + chunk)
    emitter.line(")")
    emitter.line("_mismatched = mismatch_handler(PROVIDER, _SCHEMAS)")
    emitter.line('_T = TypeVar("_T")')
    emitter.line()
    emitter.line()
    with emitter.block("class _Mismatch(Exception)"):
        emitter.lines(
            docstring("Raised by a validator's check; _mismatched then finds where and why.")
        )
    functions = [*validators, *module.sources.values(), *readers, *objects.sources.values()]
    source = emitter.source() + "".join("\n\n" + part for part in functions)
    return format_later(source, runner=runner or Runner())


#: What a string literal of ``_SCHEMAS`` may take on its line (indented by 4, within 88).
_CHUNK = 84


def _chunks(text: str) -> list[str]:
    """String literals that concatenate to ``text``, each at most ``_CHUNK`` characters long,
    cut after a comma outside JSON strings so no name or value is split across lines (a piece
    longer than a line, such as a long pattern, is cut where it must)."""
    literals: list[str] = []
    line = ""
    for piece in _pieces(text):
        if line and len(repr(line + piece)) > _CHUNK:
            literals.append(repr(line))
            line = ""
        line += piece
        while len(repr(line)) > _CHUNK:
            end = _CHUNK - 2
            while len(repr(line[:end])) > _CHUNK:
                end -= 1
            literals.append(repr(line[:end]))
            line = line[end:]
    if line:
        literals.append(repr(line))
    return literals


def _pieces(text: str) -> list[str]:
    """``text`` (compact JSON) cut after every comma that is not inside a string."""
    pieces: list[str] = []
    start, in_string, escaped = 0, False, False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = in_string
        elif char == '"':
            in_string = not in_string
        elif char == "," and not in_string:
            pieces.append(text[start : index + 1])
            start = index + 1
    pieces.append(text[start:])
    return [piece for piece in pieces if piece]


def _import_lines(names: set[str]) -> list[str]:
    by_module: dict[str, list[str]] = {}
    for name in names:
        by_module.setdefault(_IMPORT_SOURCES.get(name, "._runtime"), []).append(name)
    lines = ["from __future__ import annotations", ""]
    for module in sorted(m for m in by_module if not m.startswith(".")):
        lines += _from_import(module, by_module[module])
    lines.append("")
    for module in sorted(m for m in by_module if m.startswith(".")):
        lines += _from_import(module, by_module[module])
    return lines


#: The shortest line length a user's linter may ask for (ruff's and isort's default).
_SHORTEST_LINE = 88


def _from_import(module: str, names: list[str]) -> list[str]:
    """``from module import a, b``, one name a line (with black's magic trailing comma) when
    that is too long for the shortest line length a linter may ask for."""
    ordered = sorted(names, key=_isort_key)
    line = f"from {module} import {', '.join(ordered)}"
    if len(line) <= _SHORTEST_LINE:
        return [line]
    return [f"from {module} import (", *(f"    {name}," for name in ordered), ")"]


def _isort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then the rest (isort's and ruff's order-by-type)."""
    if name.isupper():
        return 0, name
    return (1 if name[0].isupper() else 2), name
