"""What a watch session's loads keep from one to the next (toolgen.load.seen, toolgen.load.reload):
a file that did not change is not read again, and when only tool or output files changed the
other contracts are the last load's objects. Whatever is kept, each build makes what a cold
build (no cache, a fresh process) makes of the design as it is then: its files and its
diagnostics."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolgen.build import BuildResult, Session, build
from toolgen.infra.file_state import RACY_NS
from toolgen.load.seen import Seen, read_seen

S = {"type": "string"}
INT = {"type": "integer"}
OPENAI = '[toolgen]\nproviders = ["openai"]\n'
#: past the window in which a file read is racily clean (toolgen.infra.file_state.RACY_NS)
PAST_RACY = 2 * RACY_NS / 1e9


class Watched:
    """A design built again and again in one session, each build checked against a cold one."""

    def __init__(self, design: Path, cache: Path) -> None:
        self.design, self.cache = design, cache
        self.session = Session()
        self.last: BuildResult | None = None

    def build(self) -> BuildResult:
        result = self.session.build(self.design, cache_dir=self.cache)
        cold = build(self.design)
        assert [d.to_dict() for d in result.diagnostics] == [d.to_dict() for d in cold.diagnostics]
        assert result.files == cold.files
        self.last = result
        return result


def _two_tools(tool: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return {
        "toolgen.toml": OPENAI,
        "tools/a.yaml": tool("a", {"type": "object", "properties": {"x": S}}),
        "tools/b.yaml": tool("b", {"type": "object", "properties": {"y": INT}}),
    }


def _rewrite_keeping_times(path: Path, data: bytes, *, recreate: bool = False) -> None:
    """``data`` (the file's size) into ``path``, its access and modification times put back
    (``cp -p``, an archive extracted over the design); ``recreate``: deleted and created again
    (its inode free for the new file)."""
    before = path.stat()
    assert len(data) == before.st_size and data != path.read_bytes()
    if recreate:
        path.unlink()
    path.write_bytes(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_an_unchanged_file_is_not_read_again_but_a_racily_clean_one_is(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"a: 1\n")
    status = path.stat()
    signature = (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
    # kept as read a second after its last change: not read again (the kept bytes prove it)
    long_after = Seen(b"kept", signature, status.st_ctime_ns + 1_000_000_000)
    assert read_seen(str(path), "a.yaml", long_after)[0] is long_after
    # read within the clock's window of its last change: a write in the same tick could have
    # left its signature as it was, so it is read again
    racy = Seen(b"kept", signature, status.st_ctime_ns + RACY_NS // 2)
    again, found = read_seen(str(path), "a.yaml", racy)
    assert again is not None and again.data == b"a: 1\n" and not found
    # another signature: read again; the same bytes are the same object as before
    moved = Seen(b"a: 1\n", (signature[0] + 1, *signature[1:]), long_after.read_at)
    again, _ = read_seen(str(path), "a.yaml", moved)
    assert again is not None and again is not moved and again.data is moved.data


def test_an_edit_with_its_times_put_back_is_seen(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    """The same size written in place, or into a file deleted and created again, with the
    times put back: only the inode's change time (which no user can set) tells."""
    design = make_design(_two_tools(tool))
    watched = Watched(design, tmp_path / "cache")
    watched.build()
    path, previous = design / "tools" / "a.yaml", b"A tool."
    for recreate, text in ((False, b"Changed"), (True, b"Again!!")):
        time.sleep(PAST_RACY)  # not racily clean: the signature alone must tell
        _rewrite_keeping_times(path, path.read_bytes().replace(previous, text), recreate=recreate)
        previous = text
        result = watched.build()
        assert result.design is not None
        assert result.design.tools[0].description == text.decode()


def test_only_the_changed_tool_is_loaded_again(
    tmp_path: Path,
    make_design: Callable[..., Path],
    tool: Callable[..., dict[str, Any]],
    output: Callable[..., dict[str, Any]],
) -> None:
    """A tool file changed: every other contract is the last load's object (later stages find
    what they kept for it by its identity); the changed one is made again."""
    shared = {"$defs": {"Page": {"type": "integer", "minimum": 1}}}
    uses = {"type": "object", "properties": {"p": {"$ref": "../defs/common.yaml#/$defs/Page"}}}
    design = make_design(
        {
            "toolgen.toml": OPENAI,
            "defs/common.yaml": shared,
            "tools/a.yaml": tool("a", uses),
            "tools/b.yaml": tool("b", uses, output={"type": "object", "properties": {"r": S}}),
            "tools/c.yaml": tool("c", {"type": "object", "properties": {"y": INT}}),
            "outputs/o.yaml": output("o", {"type": "object", "properties": {"z": S}}),
        }
    )
    watched = Watched(design, tmp_path / "cache")
    one = watched.build()
    make_design({"tools/b.yaml": tool("b", uses, "Changed.", output={"type": "object"})})
    two = watched.build()
    first, second = one.design, two.design
    assert first is not None and second is not None
    assert [c.name for c in second.contracts] == ["a", "b", "c", "o"]
    for before, now in zip(first.contracts, second.contracts, strict=True):
        assert (now is before) == (now.name != "b")
    # and so is each projection of an unchanged contract (toolgen.infra.parallel.map_by_identity)
    (projected_before,), (projected,) = one.projections, two.projections
    for before, now in zip(
        (*projected_before.tools, *projected_before.outputs),
        (*projected.tools, *projected.outputs),
        strict=True,
    ):
        assert (now is before) == (now.contract.name != "b")
    assert second.tools[1].description == "Changed."
    assert second.tools[1].shared["Page"] is first.tools[1].shared["Page"]
    make_design({"toolgen.toml": OPENAI + "# a comment: the design's hash changes\n"})
    third = watched.build().design
    assert third is not None and third.hash != second.hash
    assert third.contracts == second.contracts


def test_a_shared_definition_changed_that_only_some_tools_use(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    def uses(file: str, name: str) -> dict[str, Any]:
        return {"type": "object", "properties": {"v": {"$ref": f"../defs/{file}#/$defs/{name}"}}}

    design = make_design(
        {
            "toolgen.toml": OPENAI,
            "defs/a.yaml": {"$defs": {"X": {"type": "integer", "maximum": 5}}},
            "defs/b.yaml": {"$defs": {"Y": {"type": "string", "maxLength": 5}}},
            "tools/t1.yaml": tool("t1", uses("a.yaml", "X")),
            "tools/t2.yaml": tool("t2", uses("b.yaml", "Y")),
            "tools/t3.yaml": tool("t3", {"type": "object", "properties": {"z": S}}),
        }
    )
    watched = Watched(design, tmp_path / "cache")
    watched.build()
    make_design({"defs/b.yaml": {"$defs": {"Y": {"type": "string", "maxLength": 9}}}})
    result = watched.build()
    assert result.design is not None
    assert result.design.shared["Y"].schema["maxLength"] == 9
    assert result.design.tools[1].schema["$defs"]["Y"]["maxLength"] == 9


def test_shared_names_follow_the_set_of_targets(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    """Two definitions of the same name in two files are named after their files; once one of
    them is no longer used (or used again), the other's name changes in every tool that uses
    it, though only another tool's file changed."""

    def uses(*targets: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {f"v{i}": {"$ref": f"../defs/{t}"} for i, t in enumerate(targets)},
        }

    design = make_design(
        {
            "toolgen.toml": OPENAI,
            "defs/a.yaml": {"$defs": {"X": {"type": "integer"}}},
            "defs/b.yaml": {"$defs": {"X": {"type": "string"}}},
            "tools/t1.yaml": tool("t1", uses("a.yaml#/$defs/X")),
            "tools/t2.yaml": tool("t2", uses("b.yaml#/$defs/X")),
            "tools/t3.yaml": tool("t3", uses()),
        }
    )
    watched = Watched(design, tmp_path / "cache")

    def names() -> list[list[str]]:
        result = watched.build()
        assert result.design is not None
        return [sorted(c.shared) for c in result.design.tools]

    assert names() == [["a.X"], ["b.X"], []]
    make_design({"tools/t2.yaml": tool("t2", uses())})  # b's X no longer used
    assert names() == [["X"], [], []]
    make_design({"tools/t3.yaml": tool("t3", uses("b.yaml#/$defs/X"))})  # used again
    assert names() == [["a.X"], [], ["b.X"]]
    make_design({"tools/t3.yaml": tool("t3", uses("a.yaml#/$defs/X", "b.yaml#/$defs/X"))})
    assert names() == [["a.X"], [], ["a.X", "b.X"]]


def test_a_tool_file_another_references_changed(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    design = make_design(
        {
            "toolgen.toml": OPENAI,
            "tools/a.yaml": tool(
                "a", {"type": "object", "properties": {"p": {"type": "integer", "maximum": 3}}}
            ),
            "tools/b.yaml": tool(
                "b",
                {"type": "object", "properties": {"q": {"$ref": "a.yaml#/properties/p"}}},
            ),
        }
    )
    watched = Watched(design, tmp_path / "cache")
    watched.build()
    make_design(
        {
            "tools/a.yaml": tool(
                "a", {"type": "object", "properties": {"p": {"type": "integer", "maximum": 7}}}
            )
        }
    )
    result = watched.build()
    assert result.design is not None
    assert [d["maximum"] for d in result.design.tools[1].schema["$defs"].values()] == [7]


def test_a_changed_tool_takes_another_tools_name_and_gives_it_back(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    design = make_design(_two_tools(tool))
    watched = Watched(design, tmp_path / "cache")
    watched.build()
    make_design({"tools/b.yaml": tool("a", {"type": "object", "properties": {"y": INT}})})
    assert [d.code for d in watched.build().diagnostics] == ["DUPLICATE_NAME"]
    make_design({"tools/b.yaml": tool("b", {"type": "object", "properties": {"y": INT}})})
    assert watched.build().ok
    make_design({"tools/b.yaml": tool("b", {"type": "object", "properties": {"y": INT}})})
    make_design({"tools/a.yaml": tool("c", {"type": "object", "properties": {"x": S}})})
    result = watched.build()  # a name changed: the order of the tools too
    assert result.design is not None
    assert [c.name for c in result.design.tools] == ["b", "c"]


def test_a_kept_contract_is_projected_again_under_other_options(
    make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    """A projection is found by the contract's identity only with the same profile and
    options: the same contract objects under other provider options are projected again."""
    from dataclasses import replace

    from toolgen.infra.kept import Kept
    from toolgen.infra.parallel import Runner
    from toolgen.load.contracts import Config, ProviderOptions
    from toolgen.load.design import load_design
    from toolgen.project.design_projection import project_design
    from toolgen.providers import profile_for, settings

    nullable = {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}
    design, _ = load_design(
        make_design({"toolgen.toml": OPENAI, "tools/a.yaml": tool("a", nullable)}), settings()
    )
    assert design is not None
    runner = Runner(kept=Kept())
    for level in ("encode", "keep", "encode"):
        config = Config(options={"openai": ProviderOptions(optional_nullable=level)})
        again = replace(design, config=config)  # the same contract objects
        profile = profile_for("openai", config.options_for("openai"))
        found = project_design(again, profile, runner)
        expected = project_design(again, profile, Runner())
        assert [p.schema for p in found.tools] == [p.schema for p in expected.tools]
        assert found.diagnostics == expected.diagnostics
    assert (
        found.tools[0].schema
        != project_design(
            replace(
                design, config=Config(options={"openai": ProviderOptions(optional_nullable="keep")})
            ),
            profile_for("openai", ProviderOptions(optional_nullable="keep")),
            Runner(),
        )
        .tools[0]
        .schema
    )


def test_a_load_from_the_last_one_leaves_the_cache_indexes_of_a_whole_one(
    tmp_path: Path, make_design: Callable[..., Path], tool: Callable[..., dict[str, Any]]
) -> None:
    """What a rebuild hands on without reading it (meta-validation, checks, projections,
    unsatisfiable nodes of unchanged contracts) is counted as used by the cache: each indexed
    stage's index holds the entries the first build of the same design in a new watch session
    uses, so that build reads them from the index. (A process that builds once reads these
    results a few dozen contracts an entry instead: toolgen.infra.cache.grouped_results.)"""
    import marshal

    from toolgen.infra.cache import INDEX_FILE

    uses = {"type": "object", "properties": {"p": {"$ref": "../defs/common.yaml#/$defs/Page"}}}
    design = make_design(
        {
            **_two_tools(tool),
            "defs/common.yaml": {"$defs": {"Page": {"type": "integer"}}},
            "tools/c.yaml": tool("c", uses),
        }
    )
    watched = Watched(design, tmp_path / "cache")
    watched.build()
    make_design({"tools/b.yaml": tool("b", {"type": "object", "properties": {"z": INT}})})
    watched.build()
    Watched(design, tmp_path / "fresh").build()

    def index(cache: Path, stage: str) -> set[str]:
        return set(marshal.loads((cache / stage / INDEX_FILE).read_bytes())["entries"])

    for stage in ("meta", "checks", "satisfiable"):
        assert index(tmp_path / "cache", stage) == index(tmp_path / "fresh", stage), stage
