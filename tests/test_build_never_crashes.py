"""Whatever schema a design holds, the build answers with files or diagnostics, never a traceback:
random schemas over the keywords that interact (unions, merges, references with siblings,
self-references, open and closed objects, booleans), built for every provider."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strict_checker import assert_strict

from tests.canonical.support import instances, json_values
from toolgen.build import build
from toolgen.canonical.reference import reference_inverse
from toolgen.providers import PROVIDER_NAMES

_NAMES = st.sampled_from(["a", "b", "type", "default", "$ref", "properties", "x y", "ü"])
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=3),
)  # fmt: skip
_TYPES = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array"])
_REF = {"$ref": "#/$defs/D"}


def _leaves() -> st.SearchStrategy[object]:
    return st.one_of(
        st.builds(lambda t: {"type": t}, _TYPES),
        st.builds(lambda t: {"type": [t, "null"]}, _TYPES),
        st.builds(
            lambda v: {"enum": v}, st.lists(_SCALARS, min_size=1, max_size=3, unique_by=json.dumps)
        ),
        st.builds(lambda v: {"const": v}, _SCALARS),
        st.just(_REF),
        st.just({}),
        st.booleans(),
    )


def _composites(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    extra = st.one_of(st.none(), st.booleans(), inner)
    return st.one_of(
        st.builds(
            lambda p, r, ap: {"type": "object", "properties": p, "required": r}
            | ({} if ap is None else {"additionalProperties": ap}),
            st.dictionaries(_NAMES, inner, max_size=3), st.lists(_NAMES, max_size=2, unique=True), extra,
        ),
        st.builds(lambda p: {"properties": p}, st.dictionaries(_NAMES, inner, max_size=3)),
        st.builds(lambda i: {"type": "array", "items": i}, inner),
        st.builds(lambda bs: {"anyOf": bs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda bs: {"oneOf": bs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda bs: {"allOf": bs}, st.lists(inner, min_size=1, max_size=2)),
        st.builds(lambda s: {**s, "description": "d"} if isinstance(s, dict) else s, inner),
        st.just({**_REF, "description": "a reference with a sibling"}),
        st.builds(lambda n: {"not": n}, inner),
    )  # fmt: skip


SCHEMAS = st.recursive(_leaves(), _composites, max_leaves=8)


_packages = itertools.count()


def _compiled_canonicalizer(files: dict[str, str], folder: Path) -> Any:
    name = f"fuzzed_{next(_packages)}"
    for relative, text in files.items():
        target = folder / name / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(f"{name}._canonical").TOOL_CANONICALIZERS["t"]
    finally:
        sys.path.remove(str(folder))


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(member=SCHEMAS, definition=SCHEMAS, data=st.data())
def test_build_reports_instead_of_raising(tmp_path_factory, member, definition, data):
    design = tmp_path_factory.mktemp("fuzz") / "design"
    (design / "tools").mkdir(parents=True)
    parameters = {
        "type": "object",
        "properties": {"p": member, "q": _REF},
        "$defs": {"D": definition},
    }
    (design / "tools" / "t.json").write_text(json.dumps({"name": "t", "parameters": parameters}))
    result = build(design, PROVIDER_NAMES)
    assert result.ok == (result.files != {})
    for diagnostic in result.diagnostics:
        assert diagnostic.file == "tools/t.json" or diagnostic.provider == "models"
    if result.ok:  # what the build accepts, OpenAI strict mode accepts
        projected = json.loads(result.files["schemas/openai/tools/t.json"])
        assert_strict(projected)
        # and its compiled inverse agrees with the reference, on projected instances and junk
        compiled = _compiled_canonicalizer(result.files, design.parent)
        openai = next(p for p in result.projections if p.profile.name == "openai").tools[0]
        assert openai.schema == projected
        for payload in (data.draw(instances(projected)), data.draw(json_values())):
            assert compiled(payload) == reference_inverse(payload, openai)


def test_a_reference_to_itself_on_the_same_value_is_a_diagnostic(make_design, tool):
    parameters = {
        "type": "object",
        "properties": {"p": _REF, "q": {"$ref": "#/$defs/E"}},
        "$defs": {"D": _REF, "E": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/E"}]}},
    }
    result = build(make_design({"tools/t.yaml": tool("t", parameters)}), PROVIDER_NAMES)
    assert [(d.pointer, d.code) for d in result.diagnostics] == [
        ("/parameters/$defs/D/$ref", "UNBOUNDED_REF"),
        ("/parameters/$defs/E/anyOf/1/$ref", "UNBOUNDED_REF"),
    ]
    assert result.files == {}


def test_recursion_through_a_member_is_fine(make_design, tool):
    tree = {
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
    }
    parameters = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/T"}},
        "$defs": {"T": tree},
    }
    result = build(make_design({"tools/t.yaml": tool("t", parameters)}), ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
