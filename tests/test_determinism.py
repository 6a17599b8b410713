"""Same inputs, byte-identical output (issue 2, requirement 7): whatever PYTHONHASHSEED, the order
in which the design files were written, or where the design and OUT live."""

from __future__ import annotations

import json
import os
import random
import shutil

import pytest

from toolgen.build import build

S = {"type": "string"}


def _files(tool, output):
    """A design that exercises every map toolgen writes: several tools and outputs, shared defs,
    sets of names whose order depends on hashing if anything iterates a set."""
    files = {
        "defs/money.yaml": {
            "$defs": {
                "Money": {
                    "type": "object",
                    "properties": {
                        "cents": {"type": "integer"},
                        "currency": {"$ref": "#/$defs/Cur"},
                    },
                    "required": ["cents", "currency"],
                },
                "Cur": {"type": "string", "enum": ["EUR", "USD", "GBP"]},
            }
        },
        "defs/tags.json": {"$defs": {"Tag": {"type": "string", "pattern": "^[a-z]+$"}}},
        "toolgen.toml": '[toolgen]\nproviders = ["openai"]\n',
    }
    for index, name in enumerate(["zeta.z", "alpha", "mid.point", "b", "ns.deep.name", "émoji_✓"]):
        files[f"tools/{index}_{name.replace('.', '_')}.yaml"] = tool(
            name,
            {
                "type": "object",
                "properties": {
                    "z": S,
                    "a": {"$ref": "../defs/money.yaml#/$defs/Money"},
                    "m": {"type": "array", "items": {"$ref": "../defs/tags.json#/$defs/Tag"}},
                    "k": {"oneOf": [S, {"type": "integer"}]},
                },
                "required": ["z"],
            },
            examples=[{"z": "x", "a": {"cents": 1, "currency": "EUR"}}],
        )
    files["outputs/report.yaml"] = output(
        "report", {"type": "object", "properties": {"text": S, "n": {"type": "integer"}}}
    )
    files["outputs/alpha.yaml"] = output(
        "alpha.out", {"type": "object", "properties": {"b": S, "a": S}, "required": ["b"]}
    )
    return files


def test_same_design_written_in_any_order_anywhere_builds_the_same_bytes(make_design, tool, output):
    files = _files(tool, output)
    results = []
    for seed in range(3):
        order = list(files.items())
        random.Random(seed).shuffle(order)
        root = make_design(dict(order), name=f"copy{seed}/nested" * (seed + 1))
        results.append(build(root))
    assert all(r.ok for r in results), [d.format() for r in results for d in r.diagnostics]
    assert results[0].files == results[1].files == results[2].files
    assert results[0].design.hash == results[1].design.hash


def test_authored_property_order_is_kept(make_design, tool, output):
    result = build(make_design(_files(tool, output)))
    schema = json.loads(result.files["schemas/openai/outputs/alpha_out.json"])
    assert list(schema["properties"]) == ["b", "a"]
    assert schema["required"] == ["b", "a"]


@pytest.mark.slow
def test_byte_identical_across_hash_seeds(
    make_design, tool, output, tmp_path, run_toolgen, read_tree
):
    design = make_design(_files(tool, output))
    trees = []
    for seed in ("0", "1", "12345", "random"):
        out = tmp_path / f"out-{seed}"
        done = run_toolgen("build", design, "-o", out, env={"PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        trees.append(read_tree(out))
    assert trees[0] and all(tree == trees[0] for tree in trees)
    # and the in-process build agrees with the subprocess ones
    assert {p: t.encode() for p, t in build(design).files.items()} == trees[0]


def test_no_absolute_paths_or_timestamps_in_the_output(make_design, tool, output, tmp_path):
    root = make_design(_files(tool, output))
    result = build(root)
    text = "".join(result.files.values())
    assert str(tmp_path) not in text
    assert str(root) not in text
    import datetime

    assert str(datetime.date.today()) not in text


def test_rebuilding_into_the_same_folder_changes_nothing(
    make_design, tool, output, tmp_path, cli, read_tree
):
    design = make_design(_files(tool, output))
    out = tmp_path / "gen"
    assert cli("build", design, "-o", out).exit_code == 0
    first = read_tree(out)
    assert cli("build", design, "-o", out).exit_code == 0
    assert read_tree(out) == first
    assert cli("build", design, "-o", out, "--check").exit_code == 0


def test_copying_the_design_keeps_the_hash(make_design, tool, output, tmp_path):
    root = make_design(_files(tool, output))
    copy = tmp_path / "elsewhere" / "design"
    shutil.copytree(root, copy)
    os.utime(copy / "toolgen.toml", (0, 0))
    assert build(root).files == build(copy).files
