"""One place follows ``$ref`` chains: ``refs.chase`` (and ``refs.follow`` on top of it).

Its behaviour (links in order, cycles, dead ends, long chains without recursion), and a scan of
toolgen/ that fails when a private seen-set loop over a chain appears outside toolgen/schema/refs.py.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Any

import pytest

from toolgen.load.contracts import Contract, ProviderOptions
from toolgen.project.projection import project_contract
from toolgen.providers import PROFILES
from toolgen.schema import pointer as jp
from toolgen.schema import refs

TOOLGEN = Path(__file__).resolve().parent.parent / "toolgen"


def bare_ref(node: Any, pointer: str = "") -> str | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    return ref[1:] if isinstance(ref, str) and ref.startswith("#") else None


def chain_of(length: int) -> dict[str, Any]:
    """``#/$defs/d0`` -> ``d1`` -> ... -> ``d{length}``, a string schema."""
    defs: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(length)}
    defs[f"d{length}"] = {"type": "string"}
    return {"$defs": defs, "$ref": "#/$defs/d0"}


def test_follow_ends_where_the_chain_ends() -> None:
    root = chain_of(3)
    assert refs.follow(root, root, "", bare_ref) == ({"type": "string"}, "/$defs/d3")


def test_follow_a_node_that_refers_to_nothing_is_itself() -> None:
    root = {"type": "integer"}
    assert refs.follow(root, root, "", bare_ref) == (root, "")


def test_chase_calls_step_once_per_link_in_chain_order() -> None:
    root = chain_of(4)
    links: list[str] = []

    def step(node: Any, pointer: str) -> Any:
        links.append(pointer)
        return jp.resolve(root, pointer)

    assert refs.chase(root, bare_ref, step) == {"type": "string"}
    assert links == ["/$defs/d0", "/$defs/d1", "/$defs/d2", "/$defs/d3", "/$defs/d4"]


def test_a_chain_of_ten_thousand_links_needs_no_recursion() -> None:
    root = chain_of(10_000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # a recursive follower would fail long before the end
    try:
        end = refs.follow(root, root, "", bare_ref)
    finally:
        sys.setrecursionlimit(limit)
    assert end == ({"type": "string"}, "/$defs/d10000")


@pytest.mark.parametrize(
    ("defs", "back"),
    [
        ({"a": {"$ref": "#/$defs/a"}}, "/$defs/a"),
        (
            {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/c"}, "c": {"$ref": "#/$defs/b"}},
            "/$defs/b",
        ),
    ],
    ids=["self", "into-a-loop"],
)
def test_a_chain_that_comes_back_raises_ref_cycle_naming_the_repeat(
    defs: dict[str, Any], back: str
) -> None:
    root = {"$defs": defs, "$ref": "#/$defs/a"}
    with pytest.raises(refs.RefCycle) as raised:
        refs.follow(root, root, "", bare_ref)
    assert raised.value.pointer == back


def test_a_cycle_answered_by_the_state_holding_the_repeated_link() -> None:
    root = {"$defs": {"a": {"$ref": "#/$defs/b", "title": "A"}, "b": {"$ref": "#/$defs/a"}}}
    start = {"$ref": "#/$defs/a"}
    end = refs.chase(start, bare_ref, lambda _, p: jp.resolve(root, p), stop_at_dead_end=True)
    assert end == {"$ref": "#/$defs/a"}  # b, whose link to a was already followed


def test_a_link_that_names_nothing_raises_or_ends_the_chain() -> None:
    root = {"$defs": {"a": {"$ref": "#/$defs/missing"}}, "$ref": "#/$defs/a"}
    with pytest.raises(KeyError):
        refs.follow(root, root, "", bare_ref)

    end = refs.chase(root, bare_ref, lambda _, p: jp.resolve(root, p), stop_at_dead_end=True)
    assert end == {"$ref": "#/$defs/missing"}


def test_a_non_local_reference_ends_the_chain_where_target_says_so() -> None:
    root = {"$defs": {"a": {"$ref": "other.json#/x"}}, "$ref": "#/$defs/a"}
    assert refs.follow(root, root, "", bare_ref) == ({"$ref": "other.json#/x"}, "/$defs/a")


# -- no private chain loop outside refs.py -------------------------------------------------------


def _names_in(node: ast.AST) -> set[str]:
    found = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            found.add(inner.id)
        elif isinstance(inner, ast.Attribute):
            found.add(inner.attr)
    return found


def _seen_set_loops(source: str) -> list[int]:
    """Lines of ``while`` loops that keep a set of what they met (``x in S`` and ``S.add(...)``
    on one name), read a reference on the way (``"$ref"``, or a name with ``ref`` or ``call`` in
    it) and take no work list (``.pop()``: a closure over a graph, not a chain): a chain follower
    of their own."""
    lines = []
    for loop in ast.walk(ast.parse(source)):
        if not isinstance(loop, ast.While):
            continue
        tested = set()
        added = set()
        for inner in ast.walk(loop):
            if isinstance(inner, ast.Compare) and any(
                isinstance(op, ast.In | ast.NotIn) for op in inner.ops
            ):
                tested |= {c.id for c in inner.comparators if isinstance(c, ast.Name)}
                tested |= {c.attr for c in inner.comparators if isinstance(c, ast.Attribute)}
            if (
                isinstance(inner, ast.Call)
                and isinstance(inner.func, ast.Attribute)
                and inner.func.attr == "add"
            ):
                owner = inner.func.value
                added.add(owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", ""))
        reads_ref = any(
            isinstance(c, ast.Constant) and c.value == "$ref" for c in ast.walk(loop)
        ) or any("ref" in name.lower() or "call" in name.lower() for name in _names_in(loop))
        worklist = any(
            isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "pop"
            for c in ast.walk(loop)
        )
        if tested & added and reads_ref and not worklist:
            lines.append(loop.lineno)
    return lines


def test_no_seen_set_ref_loop_outside_refs_py() -> None:
    found = {
        f"{path.relative_to(TOOLGEN.parent)}:{line}"
        for path in sorted(TOOLGEN.rglob("*.py"))
        if path != TOOLGEN / "schema" / "refs.py"
        for line in _seen_set_loops(path.read_text(encoding="utf-8"))
    }
    assert not found, (
        f"follow $ref chains with toolgen.schema.refs.chase/follow, not a loop: {found}"
    )


@pytest.mark.parametrize(
    "loop",
    [
        # the loops this test replaced, as they were written
        """
seen = set()
while isinstance(node.get("$ref"), str):
    ref = node["$ref"]
    if ref in seen:
        break
    seen.add(ref)
    node = resolve(ref)
""",
        """
seen: set[str] = set()
while site is not None and site.call is not None:
    if site.call in seen:
        return value
    seen.add(site.call)
    site = reading.site(site.call)
""",
        """
seen = set()
while target not in seen:
    seen.add(target)
    node = lookup(target)
    target = node["$ref"]
""",
    ],
    ids=["ref-text", "site-call", "not-in"],
)
def test_the_scan_finds_a_seen_set_loop(loop: str) -> None:
    assert _seen_set_loops(f"def f(node, site, target, value):\n{_indent(loop)}") == [3]


def test_the_scan_lets_a_closure_over_a_graph_pass() -> None:
    source = (
        "def f(todo, refs):\n    done = set()\n    while todo:\n        ref = todo.pop()\n"
        "        if ref not in done:\n            done.add(ref)\n            todo.extend(refs[ref])\n"
    )
    assert _seen_set_loops(source) == []


def _indent(text: str) -> str:
    return "".join("    " + line + "\n" for line in text.strip("\n").splitlines())


# -- the projection's chain: inlined references and merged one-schema allOf -----------------------


def _project(schema: dict[str, Any]) -> tuple[Any, list[tuple[str, str]], list[str]]:
    contract = Contract(
        kind="tool", name="t", description="", schema=schema, file="t.json", pointer="/parameters"
    )
    projected, found = project_contract(contract, PROFILES["openai"], ProviderOptions(), "t")
    rewrites = [type(r).__name__ for r in projected.rewrites.rewrites("")]
    return projected.schema, [(d.pointer, d.code) for d in found], rewrites


def _closed(properties: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
        "$defs": defs,
    }


def test_the_projection_reports_a_chain_that_comes_back_at_each_reference() -> None:
    """References with siblings are inlined; ``A -> B -> A`` never ends (the design loader
    reports it as UNBOUNDED_REF first; the projection still answers with a value)."""
    defs = {"A": {"$ref": "#/$defs/B", "title": "A"}, "B": {"$ref": "#/$defs/A", "title": "B"}}
    schema, found, _ = _project(_closed({"x": {"$ref": "#/$defs/A", "description": "x"}}, defs))
    assert schema is None
    assert found == [
        ("/parameters/properties/x/$ref", "REF_CYCLE"),
        ("/parameters/$defs/A/$ref", "REF_CYCLE"),
        ("/parameters/$defs/B/$ref", "REF_CYCLE"),
    ]


def test_the_projection_follows_references_and_allof_in_one_chain() -> None:
    """The root's reference, then R's one-schema allOf, then its reference: one chain, each step
    recorded in order."""
    target = _closed({"s": {"type": "string"}}, {})
    del target["$defs"]
    schema, found, rewrites = _project(
        {"$ref": "#/$defs/R", "$defs": {"R": {"allOf": [{"$ref": "#/$defs/S"}]}, "S": target}}
    )
    assert found == []
    assert {k: v for k, v in schema.items() if k != "$defs"} == target
    assert rewrites[:3] == ["RefInlined", "AllOfMerged", "RefInlined"]
