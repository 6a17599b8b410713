"""Whatever schema a design holds, the build answers with files or diagnostics, never a traceback:
random schemas over the keywords that interact (unions, merges, references with siblings,
self-references, open and closed objects, booleans), built for every provider."""

from __future__ import annotations

import importlib
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strict_checker import assert_strict

from tests.canonical.support import instances, json_values
from toolgen.build import build
from toolgen.compile.canonical.reference import reference_inverse
from toolgen.providers import PROVIDER_NAMES

_NAMES = st.sampled_from(["a", "b", "type", "default", "$ref", "properties", "x y", "ü"])
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=3),
)  # fmt: skip
_TYPES = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array"])
_REF = {"$ref": "#/$defs/D"}
#: examples per fuzz test: each is a whole build for every provider (about 2 s), so the suite runs
#: a few (the feature matrix builds each encoding on every profile besides); make test-deep
#: sets TOOLGEN_FUZZ_EXAMPLES=200
FUZZ_EXAMPLES = int(os.environ.get("TOOLGEN_FUZZ_EXAMPLES", "6"))


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
        module = importlib.import_module(f"{name}.openai")
        return lambda payload: module.canonicalize("t", payload)
    finally:
        sys.path.remove(str(folder))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
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
            assert _outcome(compiled, payload) == _outcome(
                lambda value: reference_inverse(value, openai), payload
            )


def _outcome(inverse: Any, payload: Any) -> Any:
    """The canonical payload, or the message with which an inverse refuses it: junk under an
    encoding (text that is not JSON where JSON text goes) is an EncodingError in both."""
    try:
        return ("value", inverse(payload))
    except ValueError as error:  # EncodingError: the compiled module has its own class
        assert type(error).__name__ == "EncodingError", repr(error)
        return ("refused", str(error))


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


# --------------------------------------------------------------------------------------------
# Arbitrary JSON as tool files, schemas and shared definitions (issue 11, item 4)
# --------------------------------------------------------------------------------------------

_KEYWORDS = st.sampled_from(
    ["type", "properties", "required", "items", "enum", "const", "anyOf", "oneOf", "allOf",
     "$ref", "$defs", "additionalProperties", "pattern", "format", "minimum", "description",
     "not", "prefixItems", "default", "title", "$id", "$schema"]
)  # fmt: skip
#: Schemas whose keywords hold any JSON value: mostly invalid, sometimes subtly.
WILD_SCHEMAS = st.recursive(
    json_values(),
    lambda inner: st.dictionaries(
        _KEYWORDS,
        st.one_of(
            inner,
            _TYPES,
            st.dictionaries(_NAMES, inner, max_size=2),
            st.lists(inner, max_size=2),
            st.sampled_from(
                ["#", "#/$defs/D", "../defs/x.json", "x.json#/a", "http://127.0.0.1:9/"]
            ),
        ),
        max_size=4,
    ),
    max_leaves=10,
)
_WELL_FORMED = st.builds(
    lambda member, extra: {
        "name": "t",
        "parameters": {
            "type": "object",
            "properties": {"p": member, "q": {"$ref": "../defs/x.json"}},
            **extra,
        },
    },
    st.one_of(WILD_SCHEMAS, SCHEMAS),
    st.dictionaries(_KEYWORDS, json_values(), max_size=1),
)
_ANY_FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.text(max_size=5), json_values()),
        "description": st.one_of(st.text(max_size=5), json_values()),
        "parameters": st.one_of(SCHEMAS, WILD_SCHEMAS),
        "examples": st.one_of(st.lists(json_values(), max_size=2), json_values()),
        "providers": st.one_of(
            st.lists(st.sampled_from([*PROVIDER_NAMES, "x"]), max_size=2), json_values()
        ),
        "other": json_values(),
    },
)
#: Any JSON value as a tool file; most often a well-formed file around a wild schema, so that
#: examples reach the later stages.
TOOL_FILES = st.one_of(json_values(), _ANY_FIELDS, _WELL_FORMED, _WELL_FORMED, _WELL_FORMED)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(tool_file=TOOL_FILES, definition=st.one_of(WILD_SCHEMAS, SCHEMAS))
def test_arbitrary_json_builds_or_is_reported(tmp_path_factory, tool_file, definition):
    design = tmp_path_factory.mktemp("wild") / "design"
    (design / "tools").mkdir(parents=True)
    (design / "defs").mkdir()
    (design / "tools" / "t.json").write_text(json.dumps(tool_file))
    (design / "defs" / "x.json").write_text(json.dumps(definition))
    result = build(design, PROVIDER_NAMES)
    assert result.ok == (result.files != {})
    for diagnostic in result.diagnostics:
        assert diagnostic.file in ("tools/t.json", "defs/x.json") or diagnostic.provider == "models"
        assert diagnostic.code.isupper() and diagnostic.message
    if result.ok:
        for path, text in result.files.items():
            if path.startswith("schemas/openai/tools/"):
                assert_strict(json.loads(text))
