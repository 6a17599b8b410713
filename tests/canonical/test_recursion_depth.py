"""The laws where ``recursion_depth = N`` unrolls a recursive reference on a provider that refuses
recursion (Anthropic, Mistral, Gemini's OpenAPI dialect), over a tree whose ``children`` recurse.

The projection is tighter than the canonical schema: a payload nesting ``children`` deeper than N
levels has no projected form. So completeness (and the forward writer) are claimed for payloads
within the depth, and a deeper one is shown unfillable while the canonical schema accepts it.
Soundness and identity hold for every payload.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.canonical.conftest import _package, write_files
from tests.canonical.support import Case, compile_projection
from tests.canonical.test_forward import written
from tests.canonical.test_laws import (
    LAW,
    _closed_instances,
    _filler,
    _inverses,
    _projected,
    check_identity,
    check_soundness,
)
from toolgen.load.loader import load_design
from toolgen.project.design_projection import project_design
from toolgen.providers import profile_for
from toolgen.providers import settings as provider_settings

DEPTH = 2
S = {"type": "string"}
TREE = {
    "type": "object",
    "properties": {"tree": {"$ref": "#/$defs/Node"}},
    "required": ["tree"],
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": S,
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name"],
        }
    },
}
PROVIDERS = {"anthropic": "", "mistral": "", "gemini": 'dialect = "openapi"\n'}


def nesting(node: Any) -> int:
    """How many levels of the tree hold ``children`` (0: the node has none)."""
    if not isinstance(node, dict) or "children" not in node:
        return 0
    return 1 + max((nesting(child) for child in node["children"]), default=0)


def within_depth(payload: Any) -> bool:
    return nesting(payload["tree"]) <= DEPTH


@pytest.fixture(scope="module", params=list(PROVIDERS))
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    provider = request.param
    root = write_files(
        tmp_path_factory.mktemp(f"unrolled_{provider}"),
        {
            "toolgen.toml": f"[providers.{provider}]\n{PROVIDERS[provider]}"
            f"recursion_depth = {DEPTH}\n",
            "tools/t.json": {"name": "t", "description": "A tree.", "parameters": TREE},
        },
    )
    design, diagnostics = load_design(root, provider_settings([provider]))
    assert design is not None, diagnostics
    projection = project_design(design, profile_for(provider, design.config.options_for(provider)))
    out = tmp_path_factory.mktemp(f"unrolled_{provider}_out")
    [found] = compile_projection(design, projection, out, _package()).cases
    assert found.unrolls
    return found


def _within(case: Case) -> st.SearchStrategy[Any]:
    return _closed_instances(case).filter(within_depth)


@LAW
@given(data=st.data())
def test_completeness_within_the_depth(case: Case, data: st.DataObject) -> None:
    x = data.draw(_within(case), label="canonical")
    filled, expected = _filler(case)(x)
    assert _projected(case).is_valid(filled), f"fill(x) is not valid under P(S): {filled!r}"
    for label, inverse in _inverses(case):
        assert inverse(filled) == expected, label


@LAW
@given(data=st.data())
def test_the_forward_writer_within_the_depth(case: Case, data: st.DataObject) -> None:
    x = data.draw(_within(case), label="canonical")
    wire = written(case, x)
    errors = [e.message for e in _projected(case).iter_errors(wire)]
    assert not errors, f"forward(x) is not valid under the projection: {wire!r}: {errors}"
    assert wire == _filler(case)(x)[0]
    for label, inverse in _inverses(case):
        assert inverse(wire) == x, label


@LAW
@given(data=st.data())
def test_soundness(case: Case, data: st.DataObject) -> None:
    check_soundness(case, data)


@LAW
@given(data=st.data())
def test_identity(case: Case, data: st.DataObject) -> None:
    check_identity(case, data)


def leaf(name: str) -> dict[str, Any]:
    return {"name": name}


def test_a_two_level_payload_round_trips(case: Case) -> None:
    """Two levels of children, written by the forward writer, read back by both inverses."""
    payload = {"tree": {"name": "a", "children": [{"name": "b", "children": [leaf("c")]}]}}
    assert within_depth(payload)
    wire = written(case, payload)
    assert _projected(case).is_valid(wire), wire
    for label, inverse in _inverses(case):
        assert inverse(wire) == payload, label


def test_a_deeper_payload_has_no_projected_form(case: Case) -> None:
    """Three levels: canonical, but the tighter projection has no form for it."""
    payload = {"tree": {"name": "a", "children": [{"name": "b", "children": [leaf("c")]}]}}
    payload["tree"]["children"][0]["children"][0]["children"] = [leaf("d")]
    assert Draft202012Validator(TREE).is_valid(payload)
    assert not within_depth(payload)
    assert not _projected(case).is_valid(written(case, payload))
    assert not _projected(case).is_valid(_filler(case)(payload)[0])
