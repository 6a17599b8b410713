"""Writing OUT (issue 2, requirements 6 and 7): all or nothing, only into folders toolgen owns,
stale files removed, no path outside OUT, and design strings that cannot become code."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from toolgen.build import build
from toolgen.package import writer
from toolgen.package.assemble import MANIFEST
from toolgen.package.writer import OutputError, check_paths, compare, write_package

S = {"type": "string"}


def siblings(out: Path) -> list[str]:
    """What the writer left beside OUT (staging or old trees of a failed run)."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


# --------------------------------------------------------------------------------------------
# Ownership, manifest, stale files
# --------------------------------------------------------------------------------------------


def test_writes_files_and_a_manifest(tmp_path, read_tree):
    out = tmp_path / "gen"
    files = {"__init__.py": "A = 1\n", "sub/x.json": "{}\n"}
    write_package(out, {**files, MANIFEST: json.dumps({"files": {p: "" for p in files}})})
    assert read_tree(out) == {
        **{p: t.encode() for p, t in files.items()},
        MANIFEST: json.dumps({"files": {p: "" for p in files}}).encode(),
    }
    assert siblings(out) == []


def test_build_manifest_lists_every_file_with_its_hash(make_design, tool):
    import hashlib

    result = build(make_design({"tools/t.yaml": tool("t", {})}), ("openai",))
    manifest = json.loads(result.files[MANIFEST])
    assert set(manifest["files"]) == set(result.files) - {MANIFEST}
    for path, digest in manifest["files"].items():
        assert hashlib.sha256(result.files[path].encode()).hexdigest() == digest
    assert manifest["design_hash"] == result.design.hash


def test_an_empty_existing_folder_is_fine(tmp_path):
    out = tmp_path / "gen"
    out.mkdir()
    write_package(out, {"a.py": "", MANIFEST: '{"files": {"a.py": ""}}'})
    assert (out / "a.py").exists()


def test_refuses_a_non_empty_folder_without_a_manifest(tmp_path, read_tree):
    out = tmp_path / "src"
    out.mkdir()
    (out / "keep.py").write_text("mine")
    with pytest.raises(OutputError, match="manifest"):
        write_package(out, {"a.py": "", MANIFEST: '{"files": {"a.py": ""}}'})
    assert read_tree(out) == {"keep.py": b"mine"}
    assert siblings(out) == []


def test_refuses_a_folder_whose_manifest_is_not_toolgens(tmp_path):
    out = tmp_path / "gen"
    out.mkdir()
    (out / MANIFEST).write_text("not json")
    (out / "x.py").write_text("")
    with pytest.raises(OutputError):
        write_package(out, {"a.py": "", MANIFEST: '{"files": {"a.py": ""}}'})


def test_removes_files_the_design_no_longer_produces(make_design, tool, tmp_path, read_tree):
    out = tmp_path / "gen"
    design = make_design({"tools/a.yaml": tool("a", {}), "tools/b.yaml": tool("b", {})})
    first = build(design, ("openai",))
    write_package(out, first.files)
    assert (out / "schemas/openai/tools/b.json").exists()
    (design / "tools/b.yaml").unlink()
    second = build(design, ("openai",))
    write_package(out, second.files)
    assert read_tree(out) == {p: t.encode() for p, t in second.files.items()}
    assert compare(out, second.files) == []


def test_keeps_files_the_user_added(make_design, tool, tmp_path):
    out = tmp_path / "gen"
    result = build(make_design({"tools/a.yaml": tool("a", {})}), ("openai",))
    write_package(out, result.files)
    (out / "NOTES.md").write_text("mine")
    write_package(out, result.files)
    assert (out / "NOTES.md").read_text() == "mine"


def test_a_rebuild_writes_only_the_files_that_changed(tmp_path, read_tree):
    """Unchanged files are hard links to the previous tree's (the same inode); a changed file, a
    file edited by hand in OUT and a file that became a symbolic link are written anew."""
    out = tmp_path / "gen"
    files = {f"pkg/m{i}.py": f"M = {i}\n" for i in range(4)}
    files[MANIFEST] = json.dumps({"files": dict.fromkeys(files, "")})
    write_package(out, files)
    inodes = {path: (out / path).stat().st_ino for path in files}
    (out / "pkg/m2.py").write_text("EDITED = 1\n")
    outside = tmp_path / "outside.py"
    outside.write_text("M = 3\n")
    (out / "pkg/m3.py").unlink()
    (out / "pkg/m3.py").symlink_to(outside)

    write_package(out, {**files, "pkg/m1.py": "M = 'changed'\n"})

    assert read_tree(out) == {
        **{p: t.encode() for p, t in files.items()},
        "pkg/m1.py": b"M = 'changed'\n",
    }
    assert (out / "pkg/m0.py").stat().st_ino == inodes["pkg/m0.py"]
    assert (out / MANIFEST).stat().st_ino == inodes[MANIFEST]
    for path in ("pkg/m1.py", "pkg/m2.py", "pkg/m3.py"):
        assert not (out / path).is_symlink()
        assert (out / path).stat().st_ino != inodes[path], path
    assert outside.read_text() == "M = 3\n"
    assert siblings(out) == []


def _record_reads(out: Path, monkeypatch) -> list[str]:
    """The files under ``out`` the writer opens for reading from now on (paths relative to it)."""
    read: list[str] = []

    def recording_open(path, mode="r", *args, **kwargs):
        if "r" in mode:
            read.append(os.path.relpath(path, out))
        return open(path, mode, *args, **kwargs)

    monkeypatch.setattr(writer, "open", recording_open, raising=False)
    return read


def test_a_rebuild_reads_only_previous_files_of_the_same_size(tmp_path, monkeypatch):
    """A previous file of another size differs without being read; one of the same size is read
    and compared, so a hand edit that keeps the size is still rewritten."""
    out = tmp_path / "gen"
    files = {f"pkg/m{i}.py": f"M = {i}\n" for i in range(3)}
    files[MANIFEST] = json.dumps({"files": dict.fromkeys(files, "")})
    write_package(out, files)
    inode = (out / "pkg/m0.py").stat().st_ino
    (out / "pkg/m2.py").write_text("M = 9\n")  # edited by hand, same size
    read = _record_reads(out, monkeypatch)
    write_package(out, {**files, "pkg/m1.py": "M = 'longer'\n"})
    assert sorted(read) == [MANIFEST, "pkg/m0.py", "pkg/m2.py"]
    assert (out / "pkg/m0.py").stat().st_ino == inode
    assert (out / "pkg/m2.py").read_text() == "M = 2\n"
    assert (out / "pkg/m1.py").read_text() == "M = 'longer'\n"


def test_a_file_whose_manifest_hash_changed_is_written_without_reading_the_previous(
    tmp_path, monkeypatch
):
    """The manifests say which files were generated differently: those are written without
    reading the previous ones; the others are compared, so a hand edit is still undone."""
    out = tmp_path / "gen"

    def package(texts: dict[str, str]) -> dict[str, str]:
        hashes = {p: hashlib.sha256(t.encode()).hexdigest() for p, t in texts.items()}
        return {**texts, MANIFEST: json.dumps({"files": hashes})}

    files = {f"pkg/m{i}.py": f"M = {i}\n" for i in range(3)}
    write_package(out, package(files))
    (out / "pkg/m2.py").write_text("M = 9\n")  # edited by hand, its hash unchanged
    read = _record_reads(out, monkeypatch)
    write_package(out, package({**files, "pkg/m1.py": "M = 7\n"}))
    assert "pkg/m1.py" not in read
    assert {"pkg/m0.py", "pkg/m2.py"} <= set(read)
    assert {p: (out / p).read_text() for p in files} == {**files, "pkg/m1.py": "M = 7\n"}


# --------------------------------------------------------------------------------------------
# All or nothing
# --------------------------------------------------------------------------------------------


def test_a_failure_halfway_leaves_the_previous_output(tmp_path, read_tree, monkeypatch):
    out = tmp_path / "gen"
    old = {f"m{i}.py": f"OLD = {i}\n" for i in range(5)}
    write_package(out, {**old, MANIFEST: json.dumps({"files": dict.fromkeys(old, "")})})
    before = read_tree(out)

    new = {f"m{i}.py": f"NEW = {i}\n" for i in range(10)}
    real_write = writer._write_file
    written = []

    def failing_write(path: str, data: bytes) -> None:
        if len(written) == 4:
            raise OSError(28, "No space left on device")
        written.append(path)
        real_write(path, data)

    monkeypatch.setattr(writer, "_write_file", failing_write)
    with pytest.raises(OSError):
        write_package(out, {**new, MANIFEST: json.dumps({"files": dict.fromkeys(new, "")})})
    monkeypatch.undo()
    assert written, "the writer did not go through _write_file; the test must fail it elsewhere"
    assert read_tree(out) == before
    assert siblings(out) == []


def test_a_failure_while_swapping_leaves_the_previous_output(tmp_path, read_tree, monkeypatch):
    out = tmp_path / "gen"
    write_package(out, {"a.py": "OLD\n", MANIFEST: '{"files": {"a.py": ""}}'})
    before = read_tree(out)
    real_replace = os.replace

    def failing_replace(src, dst):
        if (
            Path(dst) == out.absolute() and "toolgen-new" in Path(src).name
        ):  # the new tree moving in
            raise OSError(1, "Operation not permitted")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    monkeypatch.setattr(writer, "_exchange", lambda first, second: False)  # the two-rename path
    with pytest.raises(OSError):
        write_package(out, {"a.py": "NEW\n", MANIFEST: '{"files": {"a.py": ""}}'})
    monkeypatch.undo()
    assert read_tree(out) == before
    assert siblings(out) == []


_SLOW_WRITER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    import toolgen.package.writer as writer

    real = writer._write_file
    def slow(path, data):
        print("writing", flush=True)
        time.sleep(0.2)
        real(path, data)
    writer._write_file = slow
    files = {f"m{i}.py": "NEW\\n" for i in range(50)}
    files[".toolgen-manifest.json"] = json.dumps({"files": dict.fromkeys(files, "")})
    writer.write_package(Path(sys.argv[1]), files)
""")


def test_a_killed_build_leaves_the_previous_output(tmp_path, read_tree):
    out = tmp_path / "gen"
    write_package(out, {"a.py": "OLD\n", MANIFEST: '{"files": {"a.py": ""}}'})
    before = read_tree(out)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    process = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITER, str(out)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    for _ in range(3):  # a few files are being written
        assert process.stdout.readline().strip() == "writing"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=300)
    assert read_tree(out) == before

    # the next build cleans up after the killed one and writes normally
    write_package(out, {"b.py": "NEXT\n", MANIFEST: '{"files": {"b.py": ""}}'})
    assert read_tree(out) == {"b.py": b"NEXT\n", MANIFEST: b'{"files": {"b.py": ""}}'}
    assert siblings(out) == []


def test_compare_reports_missing_changed_and_stale(tmp_path):
    out = tmp_path / "gen"
    write_package(
        out, {"a.py": "A\n", "b.py": "B\n", MANIFEST: '{"files": {"a.py": "", "b.py": ""}}'}
    )
    differences = compare(
        out, {"a.py": "A2\n", "c.py": "C\n", MANIFEST: '{"files": {"a.py": "", "c.py": ""}}'}
    )
    assert [(d.path, d.change) for d in differences] == [
        (MANIFEST, "changed"),
        ("a.py", "changed"),
        ("c.py", "missing"),
        ("b.py", "stale"),
    ]


# --------------------------------------------------------------------------------------------
# Paths never leave OUT
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "paths",
    [
        ["../escape.py"],
        ["a/../../escape.py"],
        ["/etc/passwd"],
        ["a/./b.py"],
        ["a\\..\\b.py"],
        [""],
        ["Models.py", "models.py"],
        ["schemas/openai/tools/A.json", "schemas/openai/tools/a.json"],
    ],
)
def test_paths_that_would_leave_out_are_refused(tmp_path, paths):
    files = dict.fromkeys(paths, "x")
    with pytest.raises(OutputError):
        check_paths(files)
    out = tmp_path / "gen"
    with pytest.raises(OutputError):
        write_package(out, files)
    assert not out.exists()
    assert not (tmp_path / "escape.py").exists()


@pytest.mark.parametrize(
    "name", ["../../escape", "/etc/passwd", "..", "a/../../b", "CON", "x\x00y", ". a"]
)
def test_hostile_contract_names_become_safe_file_names(make_design, tool, name, tmp_path):
    result = build(make_design({"tools/t.yaml": tool(name, {})}), ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    check_paths(result.files)
    out = tmp_path / "gen"
    write_package(out, result.files)
    for path in out.rglob("*"):
        assert path.resolve().is_relative_to(out.resolve())
    assert {p.name for p in tmp_path.iterdir()} == {"design", "gen"}


def test_tool_names_that_differ_by_case_are_a_diagnostic_not_a_clobbered_file(make_design, tool):
    result = build(
        make_design({"tools/a.yaml": tool("Lookup", {}), "tools/b.yaml": tool("lookup", {})}),
        ("openai",),
    )
    assert not result.ok
    assert [d.code for d in result.diagnostics if d.level == "error"] == ["CASE_COLLISION"]


# --------------------------------------------------------------------------------------------
# Hostile design strings reach generated code only as literals
# --------------------------------------------------------------------------------------------

HOSTILE = [
    "quote \" and ' apostrophe",
    "triple \"\"\" and ''' quotes",
    "back\\slash \\n \\x00 \\u1234 \\",
    "{{ 7 * 7 }} {% for x in y %}{% endfor %} {# c #}",
    'new\nline\r\n\tand """; import os; os.system("echo pwned") #',
    '"""; import os; """',
    "'''; import os; '''",
    "\x00 nul \u2028 line separator \ud7ff",
    "}}{{",
    "${x} %(x)s {0} %s",
]


def _hostile_design(make_design, tool, output):
    properties = {}
    for index, text in enumerate(HOSTILE):
        properties[f"p{index}"] = {
            "type": "string",
            "description": text,
            "title": text,
            "enum": [text, "plain"],
        }
        properties[f"{text} name {index}"] = {"type": "string", "pattern": "^" + re.escape(text)}
    parameters = {"type": "object", "properties": properties, "required": list(properties)}
    return make_design(
        {
            "tools/h.json": tool(
                'evil""" tool\'\'\' {{x}}\n"; import os', parameters, description="\n".join(HOSTILE)
            ),
            "outputs/o.json": output("out {% raw %}", parameters, description=HOSTILE[4]),
        }
    )


def test_hostile_strings_are_literals_in_generated_code(make_design, tool, output, tmp_path):
    design = _hostile_design(make_design, tool, output)
    result = build(design, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    for path, text in result.files.items():
        if not path.endswith(".py"):
            continue
        tree = ast.parse(text, filename=path)  # valid Python whatever the strings
        for node in ast.walk(tree):
            if isinstance(node, ast.Name | ast.Attribute):
                name = node.id if isinstance(node, ast.Name) else node.attr
                assert name not in ("os", "system", "pwned"), (path, ast.unparse(node))
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = {alias.name for alias in node.names}
                assert "os" not in names and getattr(node, "module", None) != "os", (
                    path,
                    ast.unparse(node),
                )

    out = tmp_path / "gen"
    write_package(out, result.files)
    # The generated module gives back exactly the hostile strings.
    probe = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from gen import openai as m
        name = m.TOOLS[0]
        d = m.tool_definition(name)
        props = d["function"]["parameters"]["properties"]
        print(json.dumps({{"name": name, "description": d["function"]["description"],
                          "props": props, "output": m.response_format(m.OUTPUTS[0])}}))
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["name"] == 'evil""" tool\'\'\' {{x}}\n"; import os'
    assert got["description"] == "\n".join(HOSTILE)
    for index, text in enumerate(HOSTILE):
        assert got["props"][f"p{index}"]["description"] == text
        assert got["props"][f"p{index}"]["title"] == text
        assert got["props"][f"p{index}"]["enum"] == [text, "plain"]
        assert got["props"][f"{text} name {index}"]["pattern"] == "^" + re.escape(text)
    assert got["output"]["json_schema"]["description"] == HOSTILE[4]


def test_hostile_strings_in_schema_files_are_json(make_design, tool, output):
    result = build(_hostile_design(make_design, tool, output), ("openai",))
    names = json.loads(result.files["schemas/openai/names.json"])
    assert list(names["tools"]) == ['evil""" tool\'\'\' {{x}}\n"; import os']
    wire = names["tools"]['evil""" tool\'\'\' {{x}}\n"; import os']
    schema = json.loads(result.files[f"schemas/openai/tools/{wire}.json"])
    assert schema["properties"]["p3"]["description"] == HOSTILE[3]


def test_generated_code_does_not_run_design_strings(make_design, tool, output, tmp_path):
    """Importing the package must not execute anything a design string says."""
    marker = tmp_path / "pwned"
    text = f'"""\nimport pathlib; pathlib.Path({str(marker)!r}).write_text("x")\n"""'
    design = make_design(
        {
            "tools/t.json": tool(
                "t" + text,
                {
                    "type": "object",
                    "properties": {"a": {"type": "string", "description": text, "enum": [text]}},
                    "required": ["a"],
                },
                description=text,
            )
        }
    )
    result = build(design, ("openai",))
    assert result.ok
    write_package(tmp_path / "gen", result.files)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    probe = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import gen; from gen import openai; "
    )
    probe += (
        "openai.tool_definitions(); import gen.models"
        if (tmp_path / "gen/models").exists()
        else "openai.tool_definitions()"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


# --------------------------------------------------------------------------------------------
# Concurrent and killed builds (issue 11)
# --------------------------------------------------------------------------------------------


def test_concurrent_writers_take_turns(tmp_path, read_tree):
    """A second writer into the same OUT waits for the lock beside OUT, then writes whole."""
    import threading

    from toolgen.package.writer import lock_path, output_lock

    out = tmp_path / "gen"
    files = {"a.py": "SECOND\n", MANIFEST: '{"files": {"a.py": ""}}'}
    waited = threading.Event()
    with output_lock(out):
        assert lock_path(out).parent == out.parent and not out.exists()
        second = threading.Thread(target=write_package, args=(out, files, waited.set))
        second.start()
        assert waited.wait(timeout=300), "the second writer did not notice the lock"
        assert not out.exists(), "the second writer did not wait"
    second.join(timeout=300)
    assert read_tree(out) == {p: t.encode() for p, t in files.items()}
    assert siblings(out) == [], "the lock file or a staging tree stayed beside OUT"


_LOOPING_WRITER = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import toolgen.package.writer as writer

    trees = []
    for name in ("A", "B"):
        files = {f"pkg/m{i}.py": f"{name} = {i}\\n" * 200 for i in range(40)}
        files[".toolgen-manifest.json"] = json.dumps({"files": dict.fromkeys(files, "")})
        trees.append(files)
    print("ready", flush=True)
    while True:
        for files in trees:
            writer.write_package(Path(sys.argv[1]), files)
""")


@pytest.mark.slow
def test_a_build_killed_at_random_moments_leaves_a_whole_tree(tmp_path, read_tree):
    """SIGKILL at many moments of a writer that alternates two trees into OUT: OUT is always one
    tree or the other, whole, and toolgen owns it afterwards."""
    import random

    out = tmp_path / "gen"
    trees = []
    for name in ("A", "B"):
        files = {f"pkg/m{i}.py": f"{name} = {i}\n" * 200 for i in range(40)}
        files[MANIFEST] = json.dumps({"files": dict.fromkeys(files, "")})
        trees.append({p: t.encode() for p, t in files.items()})
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    write_package(out, {p: t.decode() for p, t in trees[1].items()})
    moments = random.Random(11)
    for _ in range(8):
        process = subprocess.Popen(
            [sys.executable, "-c", _LOOPING_WRITER, str(out)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready"
        # the loop writes a tree in a few tens of ms: the moments fall all over its steps
        time.sleep(moments.uniform(0.05, 0.6))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=300)
        assert read_tree(out) in trees
    write_package(out, {"b.py": "NEXT\n", MANIFEST: '{"files": {"b.py": ""}}'})
    assert read_tree(out) == {"b.py": b"NEXT\n", MANIFEST: b'{"files": {"b.py": ""}}'}
    assert siblings(out) == []
