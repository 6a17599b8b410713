"""No traceback on any input (issue 11, item 4): each hostile design answers with diagnostics
(file, pointer, stable code, sentence) in bounded time, through ``build`` and through the CLI.

Big inputs are generated in tmp_path at test time; the limits they hit are documented in the
README ("The design folder")."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolgen.build import analyze, build
from toolgen.load.loader import MAX_UNFOLDED_DEPTH
from toolgen.load.sources import MAX_DEPTH, MAX_FILE_BYTES
from toolgen.providers import PROVIDER_NAMES
from toolgen.schema.refs import unfolded_depth

DEEP = 10_000
STRING = {"type": "string"}


def _tool(parameters: Any, name: str = "t") -> str:
    return json.dumps({"name": name, "description": "d", "parameters": parameters})


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


def _nested_properties_json(levels: int, name: str = "t") -> str:
    # Written as text: json.dumps itself recurses, so a 10,000-deep value cannot be dumped.
    opening = '{"type": "object", "properties": {"a": ' * levels
    return (
        '{"name": "'
        + name
        + '", "parameters": '
        + opening
        + '{"type": "string"}'
        + "}}" * levels
        + "}"
    )


def _nested_properties_yaml(levels: int) -> str:
    opening = "{type: object, properties: {a: " * levels
    return "name: t\nparameters: " + opening + "{type: string}" + "}}" * levels + "\n"


def _nested_block_yaml(levels: int) -> str:
    lines = ["name: t", "parameters:"]
    for level in range(levels):
        indent = "  " * (2 * level + 1)
        lines += [f"{indent}type: object", f"{indent}properties:", f"{indent}  a:"]
    return "\n".join([*lines, "  " * (2 * levels + 1) + "type: string", ""])


def _ref_chain(links: int, *, sibling: bool = False) -> dict[str, Any]:
    defs: dict[str, Any] = {
        f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} | ({"description": "x"} if sibling else {})
        for i in range(links)
    }
    defs[f"D{links}"] = STRING
    return _object(a={"$ref": "#/$defs/D0"}) | {"$defs": defs}


def _ref_bomb(levels: int) -> dict[str, Any]:
    """Definitions that each use the next twice with sibling keywords (inlined, so copied): the
    billion laughs of references."""
    defs: dict[str, Any] = {
        f"D{i}": {
            "anyOf": [
                {"$ref": f"#/$defs/D{i + 1}", "description": "x"},
                {"type": "array", "items": {"$ref": f"#/$defs/D{i + 1}", "description": "y"}},
            ]
        }
        for i in range(levels)
    }
    defs[f"D{levels}"] = STRING
    return _object(a={"$ref": "#/$defs/D0", "description": "z"}) | {"$defs": defs}


def _laughs() -> str:
    """A billion laughs: nine levels of nine aliases to the level below, 9**9 values expanded."""
    text = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in range(1, 10):
        text += f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]\n"
    return text


def _big_file() -> str:
    """A tool file of about 50 MB (50,000 properties with 1,000-character descriptions)."""
    description = "x" * 1_000
    properties = {f"p{i}": {"type": "string", "description": description} for i in range(50_000)}
    return _tool(_object(**properties))


OK_TOOL = _tool(_object(a=STRING))
SECRET = "a secret outside the design"


class Link(str):
    """A symbolic link to this path (relative to the link) instead of a file's content."""


#: id -> (files of the design, expected (file, pointer, code) of the error diagnostics)
Files = dict[str, str | bytes]  # a Link is a str
CASES: dict[str, tuple[Callable[[], Files], set[tuple[str, str, str]]]] = {
    "json 10,000 arrays deep": (
        lambda: {
            "tools/t.json": '{"name": "t", "parameters": {"type": "object", "properties": {"a": '
            + "[" * DEEP
            + "]" * DEEP
            + "}}}"
        },
        {("tools/t.json", "", "TOO_DEEP")},
    ),
    "json 10,000 properties deep": (
        lambda: {"tools/t.json": _nested_properties_json(DEEP)},
        {("tools/t.json", "", "TOO_DEEP")},
    ),
    "json just over the depth the parser allows": (
        lambda: {"tools/t.json": _nested_properties_json(MAX_DEPTH // 2)},
        {
            (
                "tools/t.json",
                "/parameters" + "/properties/a" * (MAX_DEPTH // 2 - 1) + "/properties",
                "TOO_DEEP",
            )
        },
    ),
    "yaml 10,000 arrays deep": (
        lambda: {"tools/t.yaml": "name: t\nparameters: " + "[" * DEEP + "]" * DEEP + "\n"},
        {("tools/t.yaml", "", "TOO_DEEP")},
    ),
    "yaml 10,000 properties deep": (
        lambda: {"tools/t.yaml": _nested_properties_yaml(DEEP)},
        {("tools/t.yaml", "", "TOO_DEEP")},
    ),
    "yaml block style over the limit": (
        lambda: {"tools/t.yaml": _nested_block_yaml(MAX_DEPTH)},
        {
            (
                "tools/t.yaml",
                "/parameters" + "/properties/a" * (MAX_DEPTH // 2 - 1) + "/properties",
                "TOO_DEEP",
            )
        },
    ),
    "toml 10,000 arrays deep": (
        lambda: {"tools/t.json": OK_TOOL, "toolgen.toml": "a = " + "[" * DEEP + "]" * DEEP},
        {("toolgen.toml", "", "TOO_DEEP")},
    ),
    "$ref to itself": (
        lambda: {"tools/t.json": _tool({"$ref": "#"})},
        {("tools/t.json", "/parameters/$ref", "UNBOUNDED_REF")},
    ),
    "$ref cycle across files": (
        lambda: {
            "tools/t.json": _tool(_object(a={"$ref": "../defs/a.json"})),
            "defs/a.json": json.dumps({"$ref": "b.json#/$defs/B"}),
            "defs/b.json": json.dumps({"$defs": {"B": {"anyOf": [{"$ref": "a.json"}]}}}),
        },
        {
            ("defs/a.json", "/$ref", "UNBOUNDED_REF"),
            ("defs/b.json", "/$defs/B/anyOf/0/$ref", "UNBOUNDED_REF"),
        },
    ),
    "$ref chain of 10,000 links": (
        lambda: {"tools/t.json": _tool(_ref_chain(DEEP))},
        {("tools/t.json", "/parameters/properties/a/$ref", "REF_TOO_DEEP")},
    ),
    "$ref chain of 1,000 links with siblings": (
        lambda: {"tools/t.json": _tool(_ref_chain(1_000, sibling=True))},
        {("tools/t.json", "/parameters/properties/a/$ref", "REF_TOO_DEEP")},
    ),
    "$ref chain across files": (
        lambda: {
            "tools/t.json": _tool(_object(a={"$ref": "../defs/d0.json"})),
            **{
                f"defs/d{i}.json": json.dumps(_object(a={"$ref": f"d{i + 1}.json"}))
                for i in range(MAX_UNFOLDED_DEPTH)
            },
            f"defs/d{MAX_UNFOLDED_DEPTH}.json": json.dumps(STRING),
        },
        {("tools/t.json", "/parameters/properties/a/$ref", "REF_TOO_DEEP")},
    ),
    "$ref bomb: 2**40 copies": (
        lambda: {"tools/t.json": _tool(_ref_bomb(40))},
        {("tools/t.json", "/parameters/properties/a/$ref", "REF_TOO_LARGE")},
    ),
    "$ref to a file outside the design": (
        lambda: {"tools/t.json": _tool(_object(a={"$ref": "../../outside.json"}))},
        {("tools/t.json", "/parameters/properties/a/$ref", "REF_OUTSIDE_DESIGN")},
    ),
    "$ref to an absolute path": (
        lambda: {"tools/t.json": _tool(_object(a={"$ref": "/etc/passwd"}))},
        {("tools/t.json", "/parameters/properties/a/$ref", "UNSUPPORTED_REF")},
    ),
    "$ref to a URL": (
        lambda: {"tools/t.json": _tool(_object(a={"$ref": "http://127.0.0.1:9/s.json"}))},
        {("tools/t.json", "/parameters/properties/a/$ref", "UNSUPPORTED_REF")},
    ),
    "$ref to a file URL": (
        lambda: {"tools/t.json": _tool(_object(a={"$ref": "file:///etc/passwd"}))},
        {("tools/t.json", "/parameters/properties/a/$ref", "UNSUPPORTED_REF")},
    ),
    "$ref resolved against a remote $id": (
        lambda: {
            "tools/t.json": _tool(
                {"$id": "http://127.0.0.1:9/", **_object(a={"$ref": "remote.json"})}
            )
        },
        {("tools/t.json", "/parameters/properties/a/$ref", "REF_FILE_NOT_FOUND")},
    ),
    "a symbolic link to a file outside the design": (
        lambda: {
            "tools/t.json": _tool(_object(a={"$ref": "../defs/s.json#/secret"})),
            "defs/s.json": Link("../../outside.json"),
        },
        {
            ("defs/s.json", "", "OUTSIDE_DESIGN"),
            ("tools/t.json", "/parameters/properties/a/$ref", "REF_FILE_NOT_FOUND"),
        },
    ),
    "100,000 enum values": (
        lambda: {"tools/t.json": _tool(_object(a={"enum": [f"v{i}" for i in range(100_000)]}))},
        {("tools/t.json", "/parameters", "LIMIT_ENUM_VALUES")},
    ),
    "a 50 MB file": (
        lambda: {"tools/t.json": _big_file()},
        {("tools/t.json", "", "FILE_TOO_LARGE")},
    ),
    "billion laughs in a tool": (
        lambda: {"tools/t.yaml": _laughs() + "name: t\nparameters: {type: object}\n"},
        {("tools/t.yaml", "", "YAML_ALIAS")},
    ),
    "billion laughs in defs": (
        lambda: {"tools/t.json": OK_TOOL, "defs/laughs.yaml": _laughs()},
        {("defs/laughs.yaml", "", "YAML_ALIAS")},
    ),
    "an alias inside itself": (
        lambda: {"tools/t.yaml": "name: t\nparameters: &p {type: object, properties: {a: *p}}\n"},
        {("tools/t.yaml", "/parameters/properties/a", "YAML_ALIAS")},
    ),
    "invalid utf-8": (
        lambda: {"tools/t.yaml": b"name: t\xff\xfe\nparameters: {type: object}\n"},
        {("tools/t.yaml", "", "UNREADABLE_FILE")},
    ),
    "duplicate keys in json": (
        lambda: {"tools/t.json": '{"name": "t", "name": "u", "parameters": {"type": "object"}}'},
        {("tools/t.json", "", "PARSE_ERROR")},
    ),
    "duplicate keys in yaml": (
        lambda: {"tools/t.yaml": "name: t\nparameters: {type: object}\nname: u\n"},
        {("tools/t.yaml", "", "PARSE_ERROR")},
    ),
    "a tool file that is a list": (
        lambda: {"tools/t.json": "[1, 2]"},
        {("tools/t.json", "", "INVALID_FILE")},
    ),
    "a tool file that is a number": (
        lambda: {"tools/t.yaml": "3\n"},
        {("tools/t.yaml", "", "INVALID_FILE")},
    ),
    "an empty yaml tool file": (
        lambda: {"tools/t.yaml": ""},
        {("tools/t.yaml", "", "INVALID_FILE")},
    ),
    "an empty json tool file": (
        lambda: {"tools/t.json": ""},
        {("tools/t.json", "", "PARSE_ERROR")},
    ),
    "NaN in json": (
        lambda: {"tools/t.json": '{"name": "t", "parameters": {"type": "number", "maximum": NaN}}'},
        {("tools/t.json", "", "PARSE_ERROR")},
    ),
}

#: Seconds of CPU one case may take through build() (one process: jobs=1 is the default).
BUDGET = 15


def _write(root: Path, files: Files) -> Path:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            outside = root.parent / "outside.json"
            outside.write_text(json.dumps({"secret": {"type": "string", "description": SECRET}}))
            path.symlink_to(content)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def designs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("hostile")
    return {
        case: _write(base / f"d{index}", make())
        for index, (case, (make, _)) in enumerate(CASES.items())
    }


def _errors(diagnostics: list[Any]) -> set[tuple[str, str, str]]:
    return {(d.file, d.pointer, d.code) for d in diagnostics if d.level == "error"}


@pytest.mark.parametrize("case", list(CASES))
def test_build_answers_with_diagnostics(designs, case):
    started = time.process_time()  # CPU time: other work on the machine does not count
    result = build(designs[case], PROVIDER_NAMES)
    elapsed = time.process_time() - started
    assert result.files == {}
    expected = CASES[case][1]
    assert expected <= _errors(result.diagnostics), [d.format() for d in result.diagnostics]
    for diagnostic in result.diagnostics:
        assert diagnostic.message.strip(), diagnostic
    assert elapsed < BUDGET


@pytest.mark.parametrize("case", list(CASES))
def test_cli_build_exits_1_and_writes_nothing(cli, designs, case, tmp_path):
    built = cli("build", designs[case], "-o", tmp_path / "out", "--verbose")  # pointers whole
    assert built.exit_code == 1
    assert "Traceback" not in built.stderr and "nothing written" in built.stderr
    for file, pointer, code in CASES[case][1]:
        assert f"{file}:{pointer}: " in built.stderr and f" {code} " in built.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "case", ["yaml 10,000 arrays deep", "billion laughs in defs", "a 50 MB file"]
)
def test_cli_validate_reports_json(cli, designs, case):
    validated = cli("validate", designs[case], "--format", "json")
    assert validated.exit_code == 1
    codes = {(d["file"], d["pointer"], d["code"]) for d in json.loads(validated.stdout)}
    assert CASES[case][1] <= codes


def test_a_subprocess_prints_no_traceback(run_toolgen, designs):
    done = run_toolgen("validate", designs["json 10,000 properties deep"])
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "tools/t.json:: design: TOO_DEEP" in done.stderr


def test_just_under_the_limits_a_design_loads(tmp_path):
    levels = MAX_DEPTH // 2 - 1  # the innermost object at level MAX_DEPTH
    small = "name: small\nparameters: " + json.dumps(_object(a=STRING)) + "\n"
    files: Files = {
        "tools/deep.json": _nested_properties_json(levels, "deep"),
        "tools/chain.json": _tool(_ref_chain(MAX_UNFOLDED_DEPTH - 3), "chain"),
        "tools/aliases.yaml": "name: aliases\nparameters:\n  type: object\n"
        "  properties: {a: &s {type: string}, b: *s}\n  required: [a, b]\n",
        "tools/small.yaml": small + "#" * (MAX_FILE_BYTES - len(small) - 1) + "\n",
    }
    result = analyze(_write(tmp_path / "design", files), ("anthropic",))
    loading = [d.format() for d in result.diagnostics if d.provider == "design"]
    assert loading == []
    assert [t.name for t in result.design.tools] == ["aliases", "chain", "deep", "small"]
    # root, property and the chain's N + 1 definitions: the chain above is at the limit
    chain = _ref_chain(MAX_UNFOLDED_DEPTH - 2)
    assert unfolded_depth(chain)[1] == MAX_UNFOLDED_DEPTH + 1


def test_an_out_that_cannot_be_written_is_an_error_not_a_traceback(cli, designs, tmp_path):
    design = designs["an empty json tool file"].parent / "writable"
    _write(design, {"tools/t.json": OK_TOOL})
    (tmp_path / "file").write_text("")
    built = cli("build", design, "-o", tmp_path / "file" / "out", "--provider", "openai")
    assert built.exit_code == 2
    assert "cannot write" in built.stderr and "Traceback" not in built.stderr
