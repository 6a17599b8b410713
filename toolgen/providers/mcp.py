"""MCP's tools (``tools/list``): the ``inputSchema`` and ``outputSchema`` every major client takes.

MCP is no model provider: its clients (Claude Code, Claude Desktop, the Copilot CLI, the Gemini
CLI, Kimi, ...) send a tool's schemas on to whatever model they talk to, and each refuses what
its model refuses. The MCP specification (2026-07-28, "Tools": ``inputSchema`` and
``outputSchema`` are JSON Schema 2020-12) takes the canonical schema as it is; the clients do
not. This profile writes the canonical schema in the form they all take, with rewrites that
change no schema's meaning (the arguments come back canonical as they are: the inverse is the
identity), and refuses what no exact form carries. It is not a provider of the build
(``--provider``): ``[toolgen] targets = ["mcp"]`` asks for it (toolgen.package.targets).

- the root is an object schema, typed ``"type": "object"`` (gemini-cli skips a tool whose root
  is untyped) with ``properties`` (the Copilot CLI refuses an object schema without them);
- no ``anyOf``/``oneOf``/``allOf`` at the root (Claude Code's API answers 400): refused, since
  merging the branches into one object is not exact;
- ``$ref`` only to ``#/$defs/...`` (Kimi refuses ``#/definitions`` and other targets): any other
  target is copied under ``$defs`` and referred to there, which means the same;
- only the definitions the tool reaches (the bundle copies shared definitions per contract);
- an array's ``items`` with a list of types (``["object", "null"]``) written as ``anyOf`` of
  one type each (Gemini-backed clients answer 400 otherwise), which accepts the same values.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from toolgen.providers.base import Rule
from toolgen.schema import pointer as jp
from toolgen.schema import walker
from toolgen.schema.names import NameRule

#: (pointer in the canonical schema, code, message)
Problem = tuple[str, str, str]

NAME = "mcp"
TITLE = "MCP tools (tools/list)"

_SPEC = (
    "MCP specification 2026-07-28, Server features: Tools (modelcontextprotocol.io/specification)"
)
_CHECKED = "2026-12-07"

#: MCP tool names (SEP-986, in the specification since 2025-11-25): 1 to 128 of these characters
NAMES = NameRule(allowed="[A-Za-z0-9_.-]", max_length=128)

#: keywords a client refuses at the root of ``inputSchema``
ROOT_UNIONS = ("anyOf", "oneOf", "allOf")

#: where ``$ref`` may point
DEFS = "$defs"

RULES: tuple[Rule, ...] = (
    Rule(
        "schemas",
        "inputSchema and outputSchema are JSON Schema 2020-12 (any keyword); the canonical "
        "schema is written as it is but for the rules below, none of which changes its meaning",
        _SPEC,
        _CHECKED,
    ),
    Rule(
        "names",
        "tool names are 1 to 128 of A-Z, a-z, 0-9, _, - and . (SEP-986)",
        _SPEC,
        _CHECKED,
    ),
    Rule(
        "roots",
        "anyOf/oneOf/allOf at the top level of input_schema is refused by Claude Code's API "
        "(400 'input_schema does not support oneOf, allOf, or anyOf at the top level'): refused",
        "modelcontextprotocol/python-sdk issue #494",
        _CHECKED,
    ),
    Rule(
        "roots",
        "a root without type object is skipped ('missing types in its parameter schema'): the "
        "root is written with type object",
        "google-gemini/gemini-cli issue #23382",
        _CHECKED,
    ),
    Rule(
        "roots",
        "an object schema without properties is refused ('object schema missing properties'): "
        "the root is written with properties, {} when it declares none",
        "github/copilot-cli issue #1825",
        _CHECKED,
    ),
    Rule(
        "references",
        "a $ref outside #/$defs (#/definitions/..., #/properties/...) is refused by Kimi: its "
        "target is copied under $defs and referred to there; definitions no reference reaches "
        "are left out",
        "softeria/ms-365-mcp-server pull request #576",
        _CHECKED,
    ),
    Rule(
        "arrays",
        "array items with a list of types (['object', 'null']) make every Gemini model answer "
        "400: written as anyOf of one type each (the same values)",
        "github/copilot-cli issue #4623",
        _CHECKED,
    ),
    Rule(
        "results",
        "a client reads only structuredContent (Claude Desktop, Spring AI) or only the text "
        "block (kimi-code #2554): a result carries both, the text being its JSON",
        "kimi-code issue #2554; camunda/camunda issue #46949",
        _CHECKED,
    ),
    Rule(
        "results",
        "structuredContent is validated against outputSchema even on an isError result, hiding "
        "the error: an error carries no structuredContent",
        "IBM/mcp-context-forge issue #4202",
        _CHECKED,
    ),
    Rule(
        "results",
        "outputSchema is an object schema through protocol 2025-11-25 (any schema from "
        "2026-07-28 on): a tool whose output: is no object schema is listed without one, its "
        "results as text",
        _SPEC,
        _CHECKED,
    ),
)


def _types(node: dict[str, Any]) -> list[Any]:
    value = node.get("type")
    return value if isinstance(value, list) else [] if value is None else [value]


def _root(schema: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The root typed as an object, with ``properties``, or why it cannot be."""
    if schema is True:
        schema = {}
    if not isinstance(schema, dict):
        return None, [("", "FALSE_SCHEMA", "a schema that accepts nothing")]
    types = _types(schema)
    if types and types != ["object"]:
        shown = types if len(types) > 1 else types[0]
        return None, [("/type", "NON_OBJECT_ROOT", f"the root must be an object, not {shown!r}")]
    if not types and "properties" not in schema:
        refused = [k for k in ("enum", "const") if k in schema]
        if refused:
            message = f"the root must be an object schema, not {refused[0]}"
            return None, [(f"/{refused[0]}", "NON_OBJECT_ROOT", message)]
    problems = [
        (
            f"/{keyword}",
            "ROOT_UNION",
            f"MCP clients refuse {keyword} at the root of a tool's schema (Claude Code's API "
            "among them); make the root one object (a member may hold the union)",
        )
        for keyword in ROOT_UNIONS
        if keyword in schema
    ]
    if problems:
        return None, problems
    root = {"type": "object", **schema} if not types else dict(schema)
    root.setdefault("properties", {})
    return root, []


def _def_name(pointer: str, taken: set[str]) -> str:
    """A name under ``$defs`` for the node at ``pointer``: its last token (``X`` of
    ``/definitions/X``), else ``root``, made unique."""
    tokens = jp.split(pointer)
    base = re.sub(r"[^A-Za-z0-9_.-]", "_", tokens[-1]) if tokens else "root"
    name, number = base or "def", 2
    while name in taken:
        name, number = f"{base}_{number}", number + 1
    taken.add(name)
    return name


def _under_defs(pointer: str) -> bool:
    tokens = jp.split(pointer)
    return len(tokens) >= 2 and tokens[0] == DEFS


def _relocated(root: dict[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """``root`` with every ``$ref`` pointing under ``#/$defs``: a target elsewhere is copied
    there (as it is in the canonical schema: its own references resolve against the root, as
    before) and referred to by its new name."""
    defs = dict(root.get(DEFS) or {})
    taken = set(defs)
    moved: dict[str, str] = {}  # target pointer -> its name under $defs
    problems: list[Problem] = []

    def target_of(ref: str, at: str) -> str | None:
        if not ref.startswith("#"):
            problems.append(
                (at, "REF_OUTSIDE_DEFS", f"a reference MCP clients cannot follow: {ref}")
            )
            return None
        pointer = jp.ref_pointer(ref)
        if _under_defs(pointer):
            return None
        if pointer not in moved:
            try:
                found = jp.resolve(root, pointer)
            except (KeyError, IndexError, ValueError):
                problems.append((at, "REF_OUTSIDE_DEFS", f"a reference to nothing: {ref}"))
                return None
            if pointer == "":
                found = {k: v for k, v in found.items() if k not in (DEFS, "definitions")}
            moved[pointer] = _def_name(pointer, taken)
            defs[moved[pointer]] = rewrite(copy.deepcopy(found), pointer)
        return moved[pointer]

    def rewrite(node: Any, pointer: str) -> Any:
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = target_of(ref, jp.join(pointer, "$ref"))
            if name is not None:
                node = {**node, "$ref": f"#/{DEFS}/{name}"}
        return walker.map_children(
            node, pointer, lambda child: rewrite(child.schema, child.pointer)
        )

    body = rewrite({k: v for k, v in root.items() if k != DEFS}, "")
    for name in list(defs):
        if name not in moved.values():
            defs[name] = rewrite(defs[name], jp.join("", DEFS, name))
    if moved:
        body.pop("definitions", None)  # every reference into it now points under $defs
    return ({**body, DEFS: defs} if defs else body), problems


def _reached(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with only the definitions its body reaches (through references, transitively)."""
    defs = schema.get(DEFS)
    if not isinstance(defs, dict):
        return schema

    def names(node: Any) -> set[str]:
        found = set()
        for sub, _ in walker.walk(node):
            ref = sub.get("$ref") if isinstance(sub, dict) else None
            if isinstance(ref, str) and _under_defs(jp.ref_pointer(ref)):
                found.add(jp.split(jp.ref_pointer(ref))[1])
        return found

    body = {k: v for k, v in schema.items() if k != DEFS}
    reached, work = set(), list(names(body))
    while work:
        name = work.pop()
        if name in reached or name not in defs:
            continue
        reached.add(name)
        work += names(defs[name])
    kept = {name: value for name, value in defs.items() if name in reached}
    return {**body, DEFS: kept} if kept else body


def _split_item_types(node: Any) -> Any:
    """``node`` with each array's ``items`` that lists several types written as ``anyOf`` of
    one type each (every other keyword in each branch, the annotations outside)."""
    if not isinstance(node, dict):
        return node
    node = walker.map_children(node, "", lambda child: _split_item_types(child.schema))
    items = node.get("items")
    if isinstance(items, dict) and len(_types(items)) > 1:
        outer = {k: items[k] for k in ("title", "description") if k in items}
        rest = {k: v for k, v in items.items() if k not in outer and k != "type"}
        branches = [{"type": kind, **rest} for kind in _types(items)]
        node = {**node, "items": {**outer, "anyOf": branches}}
    return node


def project(schema: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """A tool's canonical (bundled) parameters or ``output:`` schema as MCP's clients take it,
    or None and the problems that keep it from being sent (pointers into ``schema``)."""
    root, problems = _root(schema)
    if root is None:
        return None, problems
    relocated, problems = _relocated(root)
    if problems:
        return None, problems
    return _split_item_types(_reached(relocated)), []
