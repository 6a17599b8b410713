"""What a rebuild does not redo (issue 37, item 8): work whose cost a fresh-process rebuild or a
watch rebuild paid again and again, each checked by what it computes, not by a clock."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from toolgen.build import Session
from toolgen.infra.parallel import Runner, usable
from toolgen.render import runtime_files


def _closure_by_walking_everything(module: str) -> tuple[str, ...]:
    """The import closure as it was computed: every node of every module, walked."""
    found, todo = {module}, [module]
    while todo:
        for node in ast.walk(ast.parse(runtime_files.runtime_source(todo.pop()))):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module not in found:
                found.add(str(node.module))
                todo.append(str(node.module))
    return tuple(sorted(found))


def test_the_runtime_import_scan_finds_what_the_syntax_tree_holds():
    """A fresh rebuild finds the fixed modules' relative imports by a scan of their lines, not
    by parsing them (a fiftieth of a one-tool rebuild of the corpus design): each module's are
    those of every node of its syntax tree, and so is every closure."""
    for module in runtime_files.runtime_modules():
        tree = ast.parse(runtime_files.runtime_source(module))
        walked = {
            str(node.module)
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        }
        assert runtime_files._imports(module) == walked, module
        assert runtime_files.with_imports(module) == _closure_by_walking_everything(module)


def test_a_kept_pool_outlives_its_runner_and_takes_a_handful_of_items():
    """Workers kept by a runner (Runner.keep_pool) stay up when it closes, and a runner given
    them sends two items their way: without them, fewer than MIN_PARALLEL_ITEMS run in this
    process (starting workers would cost more than the items)."""
    with Runner(2) as first:
        pool = first.keep_pool()
    assert pool is not None and usable(pool)
    try:
        # (take_back=False: this process takes back no chunk the workers have not started)
        with Runner(2, pool=pool) as runner:
            pids = runner.submit("test", os.getpid, [(), ()], take_back=False).result()
        assert os.getpid() not in pids
        with Runner(2) as cold:  # no workers running: a handful of items stays here
            here = cold.submit("test", os.getpid, [(), ()], take_back=False).result()
            assert here == [os.getpid()] * 2
        assert usable(pool)  # the runner given the pool left it running
    finally:
        pool.shutdown()
    assert not usable(pool)


@pytest.mark.slow  # two builds of a one-tool design on two workers
def test_a_session_keeps_its_workers_between_builds_and_replaces_a_broken_pool(
    tmp_path: Path, make_design, tool
):
    design = make_design({"tools/t.yaml": tool("t", {"type": "object", "properties": {}})})
    session = Session()
    try:
        assert session.build(design, ("openai",), jobs=2, cache_dir=tmp_path / "cache").ok
        assert session._pool is not None
        jobs, pool = session._pool
        assert jobs == 2 and usable(pool)
        assert session.build(design, ("openai",), jobs=2, cache_dir=tmp_path / "cache").ok
        assert session._pool == (2, pool)  # the same workers
        for process in list(pool._processes.values()):  # a worker killed: the pool is broken
            process.kill()
            process.join()
        assert session.build(design, ("openai",), jobs=2, cache_dir=tmp_path / "cache").ok
        assert session._pool is not None and session._pool[1] is not pool
        replaced = session._pool[1]
    finally:
        session.close()
    assert session._pool is None and not usable(replaced)
