"""The generated ``_envelopes_<provider>.py`` of each provider: its envelope validators."""

from __future__ import annotations

from typing import Any

from toolgen.envelope.compiler import api_constant, compile_surface, docstring, validator_names
from toolgen.envelope.emitter import LineEmitter
from toolgen.templating import export_order, format_python

#: Where each name a generated module may use comes from; anything else is in ``._runtime``.
_IMPORT_SOURCES = {
    "Any": "typing",
    "Callable": "collections.abc",
    "Mapping": "collections.abc",
    "isfinite": "math",
}


def render_envelope_module(provider: str, schemas: dict[str, Any], header: str) -> str:
    """The source of ``OUT/_envelopes_<provider>.py``: the validators of every surface (the
    decoders that use them are in the fixed API modules).

    ``validate_<surface>(data)`` returns ``data`` (typed as a dict) when it matches and raises
    SchemaDriftError otherwise.
    """
    constants: dict[str, str] = {}
    imports: set[str] = {"schema_drift"}
    validators = [
        compile_surface(provider, s, schemas[s], constants, imports) for s in sorted(schemas)
    ]
    public = ["PROVIDER", *(validator_names(s)[0] for s in sorted(schemas))]

    emitter = LineEmitter()
    emitter.line(header)
    emitter.lines(
        docstring(
            f"Envelope validators of {provider}.",
            f"Surfaces: {', '.join(sorted(schemas))}.",
        )
    )
    emitter.line()
    for line in _import_lines(imports):
        emitter.line(line)
    emitter.line()
    emitter.line("__all__ = [" + "".join(repr(name) + ", " for name in export_order(public)) + "]")
    emitter.line()
    emitter.line(f"PROVIDER = {provider!r}")
    for surface in sorted(schemas):
        emitter.line(f"{api_constant(surface)} = {surface!r}")
    for name, expression in sorted(constants.items()):
        emitter.line(f"{name} = {expression}")
    emitter.line()
    emitter.line()
    with emitter.block("class _Mismatch(Exception):"):
        emitter.lines(
            docstring("Raised by a fast path; the explaining validator then finds where and why.")
        )
    emitter.line()
    emitter.line()
    with emitter.block(
        "def _drift(api: str, path: tuple[str | int, ...], expected: str, value: object)"
        " -> SchemaDriftError:"
    ):
        emitter.line("return schema_drift(PROVIDER, api, path, expected, value)")
    source = emitter.source() + "".join("\n\n" + part for part in validators)
    return format_python(source)


def _import_lines(names: set[str]) -> list[str]:
    by_module: dict[str, list[str]] = {}
    for name in names:
        by_module.setdefault(_IMPORT_SOURCES.get(name, "._runtime"), []).append(name)
    lines = ["from __future__ import annotations", ""]
    for module in sorted(m for m in by_module if not m.startswith(".")):
        lines.append(f"from {module} import {', '.join(sorted(by_module[module], key=_isort_key))}")
    if "._runtime" in by_module:
        lines += [
            "",
            f"from ._runtime import {', '.join(sorted(by_module['._runtime'], key=_isort_key))}",
        ]
    return lines


def _isort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then the rest (isort's and ruff's order-by-type)."""
    if name.isupper():
        return 0, name
    return (1 if name[0].isupper() else 2), name
