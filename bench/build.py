"""Build benchmark: the whole build on the corpus tools that project cleanly (bench/corpus.py).

Measured in one run, each contender a fresh ``python -m toolgen build`` process (wall time, and
the peak resident memory of its whole process tree, sampled from /proc):

  * a full build for one provider (OpenAI) against datamodel-code-generator alone on the same
    schemas (one ``generate()`` per schema in one process, as toolgen's models step calls it),
    on 10% of the corpus, contenders interleaved, best of ROUNDS;
  * scaling: the full build of 10% and of 100% of the corpus (cold cache);
  * a rebuild after one changed tool, and after a changed shared definition that 1% of the tools
    use, against the full build that filled the cache (each into the OUT the last build left, as
    a developer rebuilds); and one changed tool built into an empty OUT with the cache kept (a CI
    job that keeps only its cache);
  * the peak memory of the full corpus build for every provider;
  * a design of one tool with a 100,000-value string enum (about 1 MB) against a design of the
    same size in corpus tools (OpenAI, no cache): the build should stay linear in its input.

    python -m bench.build            # writes the "## Build" section of bench/RESULTS.md
    python -m bench.build --cold 5   # only the 10% build against the generator, 5 rounds: medians
    python -m bench.build --cold 5 --baseline ../main-copy   # and another tree's toolgen beside it
    python -m bench.build --enum 3   # only the large enum against the same-size design, 3 rounds
    python -m bench.build --only rebuild --rounds 3   # the rebuild ratios alone (medians), printed
    python -m bench.build --only rebuild --rounds 2 --against ../main-src --pyc   # side by side
    python -m bench.build --only watch --rounds 2 --edits 5 --against ../main-src --pyc
        # one-tool rebuilds in one long-lived process, as ``toolgen watch`` does them
    python -m bench.build --only small-watch --rounds 2 --against ../main-src --pyc
        # a small design in one watch process: 24 MCP tools with shared $defs, 7 providers
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.corpus import CORPUS, REPO, clean_tools, write_design
from bench.results import write_section
from toolgen.providers import PROVIDER_NAMES

ROUNDS = 2
JOBS = 2
SHARED_FILE = "defs/common.yaml"
SHARED = {
    "$defs": {
        "Pagination": {
            "type": "object",
            "description": "Which page of results to return.",
            "properties": {
                "page": {"type": "integer", "minimum": 1},
                "per_page": {"type": "integer", "minimum": 1, "maximum": 100},
            },
            "required": ["page"],
        }
    }
}


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mib: float
    cpu_seconds: float = 0.0  # user + system of the process and the children it waited for


def _tree_rss_kib(root: int) -> int:
    """Resident memory of ``root`` and every descendant, in KiB."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        parents[int(entry.name)] = int(fields.get("PPid", "0").strip())
        rss[int(entry.name)] = int(fields.get("VmRSS", "0 kB").split()[0])
    members, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        members.update(children)
        frontier += children
    return sum(rss.get(pid, 0) for pid in members)


#: variables every measured process gets on top of this one's (``--pyc``: bytecode kept)
EXTRA_ENV: dict[str, str] = {}
#: variables removed from every measured process's environment
DROPPED_ENV: set[str] = set()


def keep_bytecode(folder: Path) -> None:
    """Let the measured processes write and read compiled bytecode (in ``folder``), as an
    installed toolgen does: a machine with PYTHONDONTWRITEBYTECODE set compiles every module of
    every process from source (about 0.15 s of each process's start)."""
    EXTRA_ENV["PYTHONPYCACHEPREFIX"] = str(folder)
    DROPPED_ENV.add("PYTHONDONTWRITEBYTECODE")


def run(command: list[str], env_extra: dict[str, str] | None = None) -> Run:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env |= {"CI": "1", **EXTRA_ENV, **(env_extra or {})}
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ended: dict[str, Any] = {}

    def reap() -> None:
        # wait4, not poll: the CPU time of the process tree (its workers are its children); on
        # a thread that blocks in it, so the wall time ends when the process does, not at the
        # next memory sample (which made every run a multiple of 0.2 s, plus a few ms)
        _, ended["status"], ended["usage"] = os.wait4(process.pid, 0)
        ended["at"] = time.perf_counter()

    waiter = threading.Thread(target=reap)
    waiter.start()
    peak = 0
    while waiter.is_alive():
        peak = max(peak, _tree_rss_kib(process.pid))
        waiter.join(0.2)
    status, usage = ended["status"], ended["usage"]
    seconds = ended["at"] - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{stderr[-2000:]}")
    return Run(seconds, peak / 1024, usage.ru_utime + usage.ru_stime)


def toolgen(
    design: Path, out: Path, *options: str, keep_out: bool = False, code: Path | None = None
) -> Run:
    """One ``toolgen build`` into ``out``: an empty one, or (``keep_out``) the previous build's,
    as a developer's rebuild finds it. ``code``: the toolgen source tree to run (default: this
    one), first on PYTHONPATH; ``-P`` keeps the working folder off the path (else ``-m`` would
    import the toolgen of the folder the bench runs in, whatever ``code`` says)."""
    if not keep_out:  # and what a build keeps beside OUT (the spare tree), as a fresh checkout
        shutil.rmtree(out, ignore_errors=True)
        for beside in out.parent.glob(f".{out.name}.toolgen-*"):
            shutil.rmtree(beside, ignore_errors=True)
    path = os.pathsep.join([str(code or REPO), os.environ.get("PYTHONPATH", "")])
    command = [sys.executable, "-P", "-m", "toolgen", "build", str(design), "-o", str(out)]
    return run([*command, *options], {"PYTHONPATH": path})


_DMCG_ALONE = """
import json, sys, warnings
from pathlib import Path
from datamodel_code_generator import generate
from toolgen.compile.models.generate import GENERATOR_OPTIONS
defaults = sys.argv[2] == "defaults"
shared = json.loads(Path(sys.argv[1], "defs", "common.yaml").read_text())["$defs"]
for path in sorted(Path(sys.argv[1], "tools").glob("*.json")):
    schema = json.loads(path.read_text())["parameters"]
    if "pagination" in schema.get("properties", {}):  # the shared definition, inlined
        schema["properties"]["pagination"] = shared["Pagination"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if defaults:  # what `datamodel-codegen` does out of the box (black and isort included)
            generate(json.dumps(schema), input_file_type="jsonschema",
                     output_model_type="pydantic_v2.BaseModel")
        else:  # the options toolgen's models step uses (no formatter)
            generate(json.dumps(schema), class_name="Parameters", **GENERATOR_OPTIONS)
"""


def dmcg_alone(design: Path, variant: str) -> Run:
    return run([sys.executable, "-c", _DMCG_ALONE, str(design), variant])


def with_shared_definition(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every hundredth tool gains a ``pagination`` member that refers to the shared definition."""
    changed = []
    for index, tool in enumerate(tools):
        if index % 100 == 50:
            parameters = dict(tool["parameters"])
            parameters["properties"] = {
                **parameters.get("properties", {}),
                "pagination": {"$ref": f"../{SHARED_FILE}#/$defs/Pagination"},
            }
            tool = {**tool, "parameters": parameters}
        changed.append(tool)
    return changed


def corpus_design(root: Path, tools: list[dict[str, Any]], providers: tuple[str, ...]) -> Path:
    write_design(root, with_shared_definition(tools), providers)
    (root / SHARED_FILE).parent.mkdir(exist_ok=True)
    (root / SHARED_FILE).write_text(json.dumps(SHARED, indent=2))
    return root


ENUM_VALUES = 100_000
#: the build of the large-enum design may take this many times the same-size design's, at most
ENUM_RATIO = 3.0
ENUM_PEAK_MIB = 300


def enum_design(root: Path, count: int = ENUM_VALUES) -> Path:
    """One tool whose parameter is a string enum of ``count`` SKUs (compact JSON: about 1 MB for
    100,000), for OpenAI."""
    values = [f"S{index:05d}" for index in range(count)]
    parameters = {
        "type": "object",
        "properties": {"sku": {"type": "string", "enum": values, "description": "The SKU."}},
        "required": ["sku"],
    }
    tool = {"name": "pick_sku", "description": "Pick one SKU.", "parameters": parameters}
    write_design(root, [], ("openai",))
    (root / "tools" / "pick_sku.json").write_text(json.dumps(tool), encoding="utf-8")
    return root


def design_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def same_size_design(root: Path, size: int, tools: list[dict[str, Any]]) -> tuple[Path, int]:
    """The first corpus ``tools`` whose design folder reaches ``size`` bytes (OpenAI), and how
    many they are."""
    count = total = 0
    for tool in tools:
        count += 1
        total += len(json.dumps(tool, indent=2, ensure_ascii=False).encode("utf-8"))
        if total >= size:
            break
    return write_design(root, tools[:count], ("openai",)), count


@dataclass(frozen=True)
class EnumRuns:
    enum: list[Run]
    ordinary: list[Run]
    summary: str  # what the two designs are

    def ratio(self) -> float:
        """The median of the per-round ratios (a load that changes between rounds moves both)."""
        pairs = zip(self.enum, self.ordinary, strict=True)
        return statistics.median(e.seconds / o.seconds for e, o in pairs)

    def peak_mib(self) -> float:
        return max(run.peak_mib for run in self.enum)


def _enum_runs(work: Path, rounds: int) -> EnumRuns:
    """The large-enum design and the same-size ordinary design, each a cold ``toolgen build``
    (no cache, JOBS jobs), interleaved for ``rounds`` rounds."""
    enum = enum_design(work / "enum")
    size = design_bytes(enum)
    ordinary, count = same_size_design(work / "ordinary", size, clean_tools(("openai",)))
    summary = (
        f"one tool with a {ENUM_VALUES:,}-value string enum ({size / 1e6:.2f} MB) against "
        f"{count} corpus tools ({design_bytes(ordinary) / 1e6:.2f} MB), OpenAI, `--no-cache -j "
        f"{JOBS}`"
    )
    enum_runs: list[Run] = []
    ordinary_runs: list[Run] = []
    options = ("--no-cache", "-q", "-j", str(JOBS))
    for number in range(rounds):
        load = _load()
        enum_runs.append(toolgen(enum, work / "out", *options))
        ordinary_runs.append(toolgen(ordinary, work / "out", *options))
        print(
            f"round {number + 1} ({load}): enum {enum_runs[-1].seconds:.1f} s "
            f"(peak {enum_runs[-1].peak_mib:.0f} MiB), ordinary {ordinary_runs[-1].seconds:.1f} s "
            f"(peak {ordinary_runs[-1].peak_mib:.0f} MiB)",
            flush=True,
        )
    return EnumRuns(enum_runs, ordinary_runs, summary)


def _enum_only(work: Path, rounds: int) -> str:
    runs = _enum_runs(work, rounds)
    enum = statistics.median(run.seconds for run in runs.enum)
    ordinary = statistics.median(run.seconds for run in runs.ordinary)
    pairs = zip(runs.enum, runs.ordinary, strict=True)
    cpu = statistics.median(e.cpu_seconds / o.cpu_seconds for e, o in pairs)
    return "\n".join(
        [
            f"{runs.summary}, {rounds} round(s), medians:",
            f"  enum {enum:.1f} s, ordinary {ordinary:.1f} s: ratio {runs.ratio():.2f} (median of "
            f"per-round ratios; target <= {ENUM_RATIO:g}), CPU ratio {cpu:.2f}",
            f"  peak memory of the enum build {runs.peak_mib():.0f} MiB (process tree; target < "
            f"{ENUM_PEAK_MIB} MiB), of the ordinary build "
            f"{max(run.peak_mib for run in runs.ordinary):.0f} MiB",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="the build benchmark (bench/RESULTS.md)")
    parser.add_argument(
        "--cold",
        type=int,
        metavar="ROUNDS",
        help="only the cold 10%% build against datamodel-code-generator, ROUNDS rounds "
        "(printed, RESULTS.md untouched)",
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="only the cold builds of 10%% and 100%% of the corpus (OpenAI) and of the full "
        "corpus for every provider: time, CPU, peak memory (printed, RESULTS.md untouched)",
    )
    parser.add_argument(
        "--enum",
        type=int,
        metavar="ROUNDS",
        help="only the large-enum design against a same-size design of corpus tools, ROUNDS "
        "rounds (printed, RESULTS.md untouched)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="TREE",
        help="with --cold: also the toolgen of source tree TREE (e.g. an export of main), "
        "run after this one's in each round",
    )
    parser.add_argument(
        "--only",
        choices=["rebuild", "watch", "small-watch"],
        help="only the rebuild scenarios, or only the rebuilds of one `toolgen watch` process "
        "(of the corpus design, or of a small design: small-watch) (printed)",
    )
    parser.add_argument(
        "--edits",
        type=int,
        default=5,
        help="with --only watch: pairs of one-tool rebuilds a round (a description changed, then a "
        "member added to another tool)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="repetitions of --only (medians)")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="SRC",
        help="with --only rebuild or watch: also measure the toolgen source tree SRC (a checkout of "
        "main: `git worktree add SRC main`), interleaved with this one in every round",
    )
    parser.add_argument(
        "--pyc",
        action="store_true",
        help="the measured processes keep compiled bytecode (in the work folder), as an "
        "installed toolgen does, even where PYTHONDONTWRITEBYTECODE is set",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="toolgen_bench_build_"))
    if args.pyc:
        keep_bytecode(work / "pycache")
    try:
        if args.only == "rebuild":
            print(_measure_rebuilds(work, args.rounds, args.against))
            return
        if args.only == "watch":
            print(_measure_watch(work, args.rounds, args.edits, args.against))
            return
        if args.only == "small-watch":
            print(_measure_small_watch(work, args.rounds, args.against))
            return
        if args.enum:
            print(_enum_only(work, args.enum))
            return
        if args.cold or args.scale:
            if args.cold:
                baseline = args.baseline.resolve() if args.baseline else None
                print(_cold_only(work, args.cold, baseline), flush=True)
            if args.scale:
                print(_scale_only(work))
            return
        section = _measure(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(section)
    write_section("Build", section)


@dataclass(frozen=True)
class Rebuilds:
    full: Run  # cold cache, empty OUT
    one_tool: Run  # one tool's description changed; the previous OUT in place
    no_change: Run  # then nothing changed; the previous OUT in place
    one_tool_again: Run  # then another tool's description changed; the previous OUT in place
    shared_def: Run  # then the shared definition changed; the previous OUT in place
    empty_out: Run  # then one tool changed again, into an empty OUT (a CI job with its cache kept)


def _edit_one_tool(design: Path, which: int = 0) -> None:
    """Append to the description of the tool file ``which`` (in name order)."""
    one = sorted((design / "tools").glob("*.json"))[which]
    tool = json.loads(one.read_text())
    one.write_text(json.dumps({**tool, "description": tool["description"] + " Changed."}))


def _edit_one_schema(design: Path, which: int) -> None:
    """Add a string member to the parameters of the tool file ``which`` (in name order): its
    model, its canonicalizer and its schema change, not only the tables."""
    one = sorted((design / "tools").glob("*.json"))[which]
    tool = json.loads(one.read_text())
    parameters = dict(tool["parameters"])
    members = dict(parameters.get("properties", {}))
    members[f"added_{len(members)}"] = {"type": "string", "description": "Added."}
    one.write_text(json.dumps({**tool, "parameters": {**parameters, "properties": members}}))


def _rebuilds(design: Path, out: Path, cache: Path, code: Path | None = None) -> Rebuilds:
    """A full build with a cold cache, then rebuilds after one changed tool, after no change,
    after another changed tool and after a changed shared definition (each edit on top of the
    previous one, OUT as the last build left it), then one more changed tool built into an
    empty OUT. ``code``: the toolgen
    source tree that builds (default: this one)."""
    shutil.rmtree(cache, ignore_errors=True)
    options = ("--cache-dir", str(cache), "-q", "-j", str(JOBS))
    full = toolgen(design, out, *options, code=code)
    _edit_one_tool(design)
    one_tool = toolgen(design, out, *options, keep_out=True, code=code)
    no_change = toolgen(design, out, *options, keep_out=True, code=code)
    _edit_one_tool(design, 1)
    one_tool_again = toolgen(design, out, *options, keep_out=True, code=code)
    shared = json.loads((design / SHARED_FILE).read_text())
    pagination = shared["$defs"]["Pagination"]["properties"]["per_page"]
    pagination["maximum"] = 50 if pagination["maximum"] != 50 else 100
    (design / SHARED_FILE).write_text(json.dumps(shared, indent=2))
    shared_def = toolgen(design, out, *options, keep_out=True, code=code)
    _edit_one_tool(design)
    empty_out = toolgen(design, out, *options, code=code)
    return Rebuilds(full, one_tool, no_change, one_tool_again, shared_def, empty_out)


def _variants(against: Path | None) -> list[tuple[str, Path | None]]:
    """The toolgen trees a measurement compares: this one, and ``against`` (another source tree)."""
    return [("this tree", None)] + ([(f"{against}", against)] if against is not None else [])


def _measure_rebuilds(work: Path, rounds: int, against: Path | None = None) -> str:
    """The rebuild rows alone, ``rounds`` times (medians of the ratios, each against the full
    build of its own round). ``against``: another toolgen source tree (a checkout of main),
    measured in the same rounds, interleaved with this one (the order alternates by round)."""
    tools = clean_tools(("openai",))
    variants = _variants(against)
    designs = {
        label: corpus_design(work / f"design-{index}", tools, ("openai",))
        for index, (label, _) in enumerate(variants)
    }
    ratios: dict[str, list[tuple[float, float, float, float, float]]] = {
        label: [] for label, _ in variants
    }
    # a shared machine's load moves the full build's wall time (its two workers wait for
    # cores) far more than a serial rebuild's: the CPU times say what each did, whatever the load
    cpu: dict[str, list[tuple[float, float, float]]] = {label: [] for label, _ in variants}
    lines = [f"corpus: {len(tools)} tools (OpenAI), {JOBS} jobs, {rounds} round(s)"]
    for index in range(rounds):
        order = variants if index % 2 == 0 else variants[::-1]
        for label, code in order:
            load = _load()
            runs = _rebuilds(designs[label], work / "out", work / "cache", code)
            full = runs.full.seconds
            ratios[label].append(
                (
                    runs.one_tool.seconds / full,
                    runs.no_change.seconds / full,
                    runs.shared_def.seconds / full,
                    runs.empty_out.seconds / full,
                    runs.one_tool_again.seconds / full,
                )
            )
            mine = ratios[label][-1]
            cpu[label].append(
                (runs.full.cpu_seconds, runs.one_tool.cpu_seconds, runs.one_tool_again.cpu_seconds)
            )
            lines.append(
                f"round {index + 1}, {label} ({load} at its start): full {full:.1f} s (CPU "
                f"{runs.full.cpu_seconds:.1f} s), one tool {runs.one_tool.seconds:.2f} s "
                f"({mine[0]:.2%}; CPU {runs.one_tool.cpu_seconds:.2f} s), no change "
                f"{runs.no_change.seconds:.2f} s ({mine[1]:.2%}), another tool "
                f"{runs.one_tool_again.seconds:.2f} s ({mine[4]:.2%}; CPU "
                f"{runs.one_tool_again.cpu_seconds:.2f} s), shared definition "
                f"{runs.shared_def.seconds:.2f} s ({mine[2]:.2%}), one tool into an empty OUT "
                f"{runs.empty_out.seconds:.2f} s ({mine[3]:.2%}); {_load()} at its end"
            )
            print(lines[-1], flush=True)
    for label, found in ratios.items():
        lines.append(
            f"medians, {label}: one tool {statistics.median(r[0] for r in found):.2%} (issue 37: "
            f"5%), no change {statistics.median(r[1] for r in found):.2%}, another tool "
            f"{statistics.median(r[4] for r in found):.2%}, shared definition "
            f"{statistics.median(r[2] for r in found):.2%} (target 10%), one tool into an "
            f"empty OUT {statistics.median(r[3] for r in found):.2%}; CPU: full "
            f"{statistics.median(c[0] for c in cpu[label]):.1f} s, one tool "
            f"{statistics.median(c[1] for c in cpu[label]):.2f} s, another tool "
            f"{statistics.median(c[2] for c in cpu[label]):.2f} s"
        )
    return "\n".join(lines)


#: A long-lived process doing what ``toolgen watch`` does after each burst of changes: it calls
#: the rebuild callback the watch command makes (``toolgen.cli.watch_rebuilder``), or, on a tree
#: without one, what the watch command of main at 9e03844 called (``_build_into`` with the
#: default cache of the design, here given), with the garbage collector's thresholds of the CLI's
#: process (``collect_less``, as ``run_and_exit`` sets them). A line on stdin = one rebuild; it
#: answers with the rebuild's seconds and exit code. At the end it closes the rebuilder, as the
#: watch command does (what it wrote last recorded in the cache, its spare tree beside OUT).
_WATCH_DRIVER = """
import sys, time
from pathlib import Path
import toolgen.cli as cli
from toolgen.infra.process import collect_less
collect_less()
design, out, cache = (Path(arg) for arg in sys.argv[1:4])
make = getattr(cli, "watch_rebuilder", None)
if make is None:
    def rebuild():
        return cli._build_into(design, out, (), "text", check=False, cache=cache)
else:
    rebuild = make(design, out, (), "text", cache)
for _ in sys.stdin:
    start = time.perf_counter()
    code = rebuild()
    print(f"{time.perf_counter() - start:.4f} {code}", flush=True)
getattr(rebuild, "close", lambda: None)()  # as toolgen watch does when it stops
import resource
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)  # KiB, this process
"""


class WatchProcess:
    """One driver process (:data:`_WATCH_DRIVER`) of the toolgen tree ``code``."""

    def __init__(self, design: Path, out: Path, cache: Path, code: Path | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        path = os.pathsep.join([str(code or REPO), os.environ.get("PYTHONPATH", "")])
        env |= {"CI": "1", **EXTRA_ENV, "PYTHONPATH": path}
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-c", _WATCH_DRIVER, str(design), str(out), str(cache)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def rebuild(self, expect: int = 0) -> float:
        """One rebuild's seconds, measured in the process (raises unless its exit code is
        ``expect``)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("rebuild\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().split()
        if len(answer) != 2 or answer[1] != str(expect):
            raise RuntimeError(f"the watch driver failed: {answer}")
        return float(answer[0])

    def close(self) -> float:
        """Stop the process; returns its peak resident memory in MiB (its workers' not counted)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        peak = self.process.stdout.read().strip()
        self.process.wait()
        return int(peak) / 1024 if peak.isdigit() else float("nan")


@dataclass(frozen=True)
class WatchRuns:
    full: Run  # fresh process, empty cache, empty OUT
    first: float  # the watch process's first build (nothing changed since the full build)
    edits: list[float]  # one-tool rebuilds in the watch process, each after one tool's edit
    schema_edits: list[float]  # the same after a member added to one tool's parameters
    no_change: float  # a rebuild in the watch process with nothing changed
    fresh_one_tool: Run  # one more edit, built by a fresh `toolgen build` (the previous OUT kept)
    peak_mib: float  # the watch process's peak resident memory (not its workers')


def _watch_runs(
    design: Path, out: Path, cache: Path, edits: int, code: Path | None = None
) -> WatchRuns:
    shutil.rmtree(cache, ignore_errors=True)
    options = ("--cache-dir", str(cache), "-q", "-j", str(JOBS))
    full = toolgen(design, out, *options, code=code)
    watcher = WatchProcess(design, out, cache, code)
    try:
        first = watcher.rebuild()
        times, schema_times = [], []
        for index in range(edits):
            _edit_one_tool(design, 2 * index + 1)
            times.append(watcher.rebuild())
            _edit_one_schema(design, 2 * index + 2)
            schema_times.append(watcher.rebuild())
        no_change = watcher.rebuild()
    finally:
        peak = watcher.close()
    _edit_one_tool(design, 0)
    fresh = toolgen(design, out, *options, keep_out=True, code=code)
    return WatchRuns(full, first, times, schema_times, no_change, fresh, peak)


def _measure_watch(work: Path, rounds: int, edits: int, against: Path | None = None) -> str:
    """Each round: a fresh full build with an empty cache (the denominator), then one watch
    process doing ``edits`` one-tool rebuilds and one with nothing changed, then a fresh-process
    one-tool rebuild; ``against`` (another toolgen tree) interleaved, the order alternating."""
    tools = clean_tools(("openai",))
    variants = _variants(against)
    designs = {
        label: corpus_design(work / f"design-{index}", tools, ("openai",))
        for index, (label, _) in enumerate(variants)
    }
    found: dict[str, list[tuple[float, float, float, float]]] = {label: [] for label, _ in variants}
    lines = [
        f"corpus: {len(tools)} tools (OpenAI), {JOBS} jobs, {rounds} round(s); a round: a fresh "
        f"full build with an empty cache, then in one watch process {edits} x (a tool's "
        "description changed, rebuild; a member added to another tool, rebuild), a rebuild "
        "with no change; then a fresh-process one-tool rebuild"
    ]
    for index in range(rounds):
        order = variants if index % 2 == 0 else variants[::-1]
        for label, code in order:
            load = _load()
            runs = _watch_runs(designs[label], work / "out", work / "cache", edits, code)
            full = runs.full.seconds
            median = statistics.median(runs.edits)
            schema = statistics.median(runs.schema_edits)
            found[label].append(
                (
                    median / full,
                    schema / full,
                    runs.no_change / full,
                    runs.fresh_one_tool.seconds / full,
                )
            )
            lines.append(
                f"round {index + 1}, {label} ({load} at its start): full {full:.1f} s; watch: "
                f"first build {runs.first:.2f} s, one description "
                + ", ".join(f"{t:.2f}" for t in runs.edits)
                + f" s (median {median:.2f} s = {median / full:.2%}), one schema "
                + ", ".join(f"{t:.2f}" for t in runs.schema_edits)
                + f" s (median {schema:.2f} s = {schema / full:.2%}), no change "
                f"{runs.no_change:.2f} s ({runs.no_change / full:.2%}); fresh process one tool "
                f"{runs.fresh_one_tool.seconds:.2f} s ({runs.fresh_one_tool.seconds / full:.2%}); "
                f"watch process peak {runs.peak_mib:.0f} MiB; {_load()} at its end"
            )
            print(lines[-1], flush=True)
    for label, ratios in found.items():
        lines.append(
            f"medians, {label}: watch one description {statistics.median(r[0] for r in ratios):.2%}"
            f", one schema {statistics.median(r[1] for r in ratios):.2%} (target 2%), watch no "
            f"change {statistics.median(r[2] for r in ratios):.2%}, fresh process one tool "
            f"{statistics.median(r[3] for r in ratios):.2%}"
        )
    return "\n".join(lines)


#: the small design: the first tools of an MCP server's tools/list, each carrying the same shared
#: $defs (as an import writes them), one of which strict mode refuses (`not`): 168 errors for 24
#: tools and 7 providers until toolgen.toml says strict_fallback = "non-strict", then as many
#: STRICT_FALLBACK warnings (the first hour of issue 37)
SMALL_TOOLS = 24
SMALL_SOURCE = "mcp_github_mcp_server.jsonl"
#: the providers of the default build that have a non-strict mode to fall back to
SMALL_PROVIDERS = ("openai", "anthropic", "groq", "bedrock", "mistral", "azure_openai", "deepseek")
SMALL_DEFS: dict[str, Any] = {
    "Owner": {"type": "string", "description": "Repository owner"},
    "Repo": {"type": "string", "description": "Repository name"},
    "Page": {
        "type": "object",
        "properties": {
            "page": {"type": "integer", "minimum": 1},
            "perPage": {"type": "integer", "minimum": 1, "maximum": 100},
        },
    },
    "Labels": {"type": "array", "items": {"type": "string"}},
    "Meta": {"type": "object", "additionalProperties": {"type": "string"}},
    "Sort": {"type": "string", "enum": ["created", "updated", "comments"]},
    "Dir": {"type": "string", "enum": ["asc", "desc"]},
    "When": {"type": "string", "format": "date-time"},
    "Refused": {"type": "string", "not": {"const": ""}},
}


def small_design(root: Path) -> Path:
    """The small design (:data:`SMALL_TOOLS`), failing until :func:`_fix_small_design`."""
    lines = (CORPUS / SMALL_SOURCE).read_text(encoding="utf-8").splitlines()[:SMALL_TOOLS]
    tools = []
    for index, line in enumerate(lines):
        record = json.loads(line)
        parameters = dict(record["parameters"])
        members = dict(parameters.get("properties", {}))
        members["page"] = {"$ref": "#/$defs/Page"}
        members["sort"] = {"$ref": "#/$defs/Sort"}
        if index % 2:
            members["meta"] = {"$ref": "#/$defs/Meta"}
        parameters |= {"properties": members, "$defs": SMALL_DEFS}
        tools.append(
            {"name": record["name"], "description": record["description"], "parameters": parameters}
        )
    return write_design(root, tools, SMALL_PROVIDERS)


def _fix_small_design(design: Path) -> None:
    toml = design / "toolgen.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("[toolgen]\n", '[toolgen]\nstrict_fallback = "non-strict"\n'))


def _edit_every_schema(design: Path) -> None:
    for which in range(len(list((design / "tools").glob("*.json")))):
        _edit_one_schema(design, which)


@dataclass(frozen=True)
class SmallRuns:
    failing: float  # the watch process's first build: 168 errors
    fixed: float  # after toolgen.toml's fix: the first good build, every contract
    one_tool: list[float]  # a member added to one tool
    every_tool: list[float]  # a member added to every tool (a scripted fix, a shared definition)


def _small_runs(root: Path, code: Path | None) -> SmallRuns:
    shutil.rmtree(root, ignore_errors=True)
    design = small_design(root / "design")
    watcher = WatchProcess(design, root / "out", root / "cache", code)
    try:
        failing = watcher.rebuild(expect=1)
        _fix_small_design(design)
        fixed = watcher.rebuild()
        one_tool = []
        for which in range(3):
            _edit_one_schema(design, which)
            one_tool.append(watcher.rebuild())
        every_tool = []
        for _ in range(2):
            _edit_every_schema(design)
            every_tool.append(watcher.rebuild())
    finally:
        watcher.close()
    return SmallRuns(failing, fixed, one_tool, every_tool)


def _measure_small_watch(work: Path, rounds: int, against: Path | None = None) -> str:
    """Each round, for this tree and ``against`` (interleaved, the order alternating): a fresh
    copy of the small design and a fresh cache, one watch process: its first build (failing),
    the fix, three one-tool edits, two edits of every tool; each a rebuild's seconds."""
    variants = _variants(against)
    found: dict[str, list[SmallRuns]] = {label: [] for label, _ in variants}
    lines = [
        f"small design: {SMALL_TOOLS} tools of {SMALL_SOURCE} with {len(SMALL_DEFS)} shared $defs "
        f"each, {len(SMALL_PROVIDERS)} providers ({', '.join(SMALL_PROVIDERS)}), the default jobs "
        f"({os.cpu_count()}), {rounds} round(s); one watch process a round and tree"
    ]
    for index in range(rounds):
        order = variants if index % 2 == 0 else variants[::-1]
        for label, code in order:
            load = _load()
            runs = _small_runs(work / "small", code)
            found[label].append(runs)
            lines.append(
                f"round {index + 1}, {label} ({load} at its start): first build (failing) "
                f"{runs.failing:.2f} s, the toolgen.toml fix {runs.fixed:.2f} s, one tool "
                + ", ".join(f"{t:.2f}" for t in runs.one_tool)
                + " s, every tool "
                + ", ".join(f"{t:.2f}" for t in runs.every_tool)
                + f" s; {_load()} at its end"
            )
            print(lines[-1], flush=True)
    for label, runs_of in found.items():
        lines.append(
            f"medians, {label}: the fix {statistics.median(r.fixed for r in runs_of):.2f} s, one "
            f"tool {statistics.median(t for r in runs_of for t in r.one_tool):.2f} s, every tool "
            f"{statistics.median(t for r in runs_of for t in r.every_tool):.2f} s"
        )
    return "\n".join(lines)


def _contenders(
    small: Path, out: Path, baseline: Path | None = None
) -> list[tuple[str, Callable[[], Run]]]:
    """The cold 10% build and datamodel-code-generator alone, in the order they run each round;
    with ``baseline`` (another source tree, e.g. main's), its toolgen after each of this one's."""
    jobs = ("--no-cache", "-q", "-j")
    contenders: list[tuple[str, Callable[[], Run]]] = [
        ("dmcg defaults", lambda: dmcg_alone(small, "defaults")),
        ("dmcg toolgen options", lambda: dmcg_alone(small, "toolgen")),
    ]
    for count in ("1", str(JOBS)):
        contenders.append((f"toolgen -j{count}", lambda c=count: toolgen(small, out, *jobs, c)))
        if baseline is not None:
            contenders.append(
                (
                    f"baseline -j{count}",
                    lambda c=count: toolgen(small, out, *jobs, c, code=baseline),
                )
            )
    return contenders


def _cold_only(work: Path, rounds: int, baseline: Path | None = None) -> str:
    """Each round runs every contender once, side by side; the ratios are of the medians (and
    the median of the per-round ratios, less sensitive to a load that changes between rounds)."""
    openai_tools = clean_tools(("openai",))
    small = corpus_design(work / "small", openai_tools[: len(openai_tools) // 10], ("openai",))
    seconds: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for number in range(rounds):
        for name, measure in _contenders(small, work / "out", baseline):
            result = measure()
            seconds.setdefault(name, []).append(result.seconds)
            cpu.setdefault(name, []).append(result.cpu_seconds)
        print(
            f"round {number + 1}: {_load()}; "
            + ", ".join(
                f"{name} {times[-1]:.1f} s (CPU {cpu[name][-1]:.1f} s)"
                for name, times in seconds.items()
            ),
            flush=True,
        )
    base = seconds["dmcg defaults"]
    lines = [f"{len(openai_tools) // 10} tools, {rounds} rounds, medians:"]
    for name, times in seconds.items():
        per_round = statistics.median(t / b for t, b in zip(times, base, strict=True))
        lines.append(
            f"  {name}: {statistics.median(times):.1f} s = "
            f"{statistics.median(times) / statistics.median(base):.2f}x dmcg defaults "
            f"(median of per-round ratios {per_round:.2f}x); CPU {statistics.median(cpu[name]):.1f} s"
            f" = {statistics.median(cpu[name]) / statistics.median(cpu['dmcg defaults']):.2f}x"
        )
    return "\n".join(lines)


def _scale_only(work: Path) -> str:
    openai_tools = clean_tools(("openai",))
    tenth = len(openai_tools) // 10
    lines = []
    runs = []
    for name, tools, providers in (
        (f"10% ({tenth} tools, OpenAI)", openai_tools[:tenth], ("openai",)),
        (f"100% ({len(openai_tools)} tools, OpenAI)", openai_tools, ("openai",)),
        ("every provider", clean_tools(PROVIDER_NAMES), PROVIDER_NAMES),
    ):
        design = corpus_design(work / f"scale{len(runs)}", tools, providers)
        # the scaling builds fill a fresh cache (as in the full benchmark), the last one none
        cache = (
            ("--cache-dir", str(work / f"cache{len(runs)}")) if len(runs) < 2 else ("--no-cache",)
        )
        runs.append(toolgen(design, work / "out", "-q", *cache, "-j", str(JOBS)))
        result = runs[-1]
        lines.append(
            f"{name}: {result.seconds:.1f} s, CPU {result.cpu_seconds:.1f} s, "
            f"peak {result.peak_mib:.0f} MiB ({_load()})"
        )
        print(lines[-1], flush=True)
    small, full = runs[0], runs[1]
    ratio = len(openai_tools) / tenth
    lines.append(
        f"scaling 10% -> 100%, relative to linear: {full.seconds / small.seconds / ratio:.2f}x "
        f"wall, {full.cpu_seconds / small.cpu_seconds / ratio:.2f}x CPU"
    )
    return "\n".join(lines)


def _load() -> str:
    return "load " + " ".join(f"{value:.1f}" for value in os.getloadavg())


def _measure(work: Path) -> str:
    openai_tools = clean_tools(("openai",))
    every_tools = clean_tools(PROVIDER_NAMES)
    tenth = len(openai_tools) // 10
    small = corpus_design(work / "small", openai_tools[:tenth], ("openai",))
    full = corpus_design(work / "full", openai_tools, ("openai",))
    every = corpus_design(work / "every", every_tools, PROVIDER_NAMES)
    out = work / "out"
    jobs = ("-q", "-j")
    print(f"corpus: {len(openai_tools)} tools (OpenAI), {len(every_tools)} (every provider)")

    # 1. the build against datamodel-code-generator alone, interleaved, best of ROUNDS
    best: dict[str, Run] = {}
    for _ in range(ROUNDS):
        for name, measure in _contenders(small, out):
            result = measure()
            print(f"  {name}: {result.seconds:.1f} s", flush=True)
            if name not in best or result.seconds < best[name].seconds:
                best[name] = result

    # 2. scaling and 3. rebuilds (cold caches for the full builds)
    small_cold = toolgen(small, out, "--cache-dir", str(work / "cache-small"), *jobs, str(JOBS))
    rebuilds = _rebuilds(full, out, work / "cache-full")
    full_cold, one_tool, shared_def = rebuilds.full, rebuilds.one_tool, rebuilds.shared_def
    print(f"  full build: {full_cold.seconds:.1f} s", flush=True)
    users = sum(1 for i in range(len(openai_tools)) if i % 100 == 50)

    # 4. memory of the full corpus for every provider
    every_run = toolgen(every, out, "--no-cache", *jobs, str(JOBS))

    # 5. the large enum against the same-size design
    enum = _enum_runs(work, 1)

    base = best["dmcg defaults"].seconds
    strict = best["dmcg toolgen options"].seconds
    one_job, parallel = best["toolgen -j1"].seconds, best[f"toolgen -j{JOBS}"].seconds
    scaling = (full_cold.seconds / small_cold.seconds) / (len(openai_tools) / tenth)

    def verdict(ok: bool) -> str:
        return "met" if ok else "**missed**"

    lines = [
        "## Build",
        "",
        f"Command: `python -m bench.build` ({len(openai_tools)} corpus tools that project cleanly "
        f"for OpenAI, {len(every_tools)} for every provider; 1% of the tools refer to one shared "
        f"definition; each contender a fresh process; `toolgen build -q`; {JOBS} jobs unless "
        f"said; Python {sys.version.split()[0]}, {os.cpu_count()} cores).",
        "",
        "| measure | figure | target | |",
        "|---|---|---|---|",
        f"| build ({tenth} tools, OpenAI, no cache, {JOBS} jobs) / datamodel-code-generator alone "
        f"(defaults: black + isort) | {parallel / base:.2f}× ({parallel:.1f} s / {base:.1f} s) "
        f"| ≤ 1.5× | {verdict(parallel / base <= 1.5)} |",
        f"| same, 1 job | {one_job / base:.2f}× ({one_job:.1f} s) | report | |",
        f"| build, {JOBS} jobs / datamodel-code-generator alone with toolgen's options (no "
        f"formatter) | {parallel / strict:.2f}× ({strict:.1f} s) | report | |",
        f"| scaling 10% → 100% ({small_cold.seconds:.1f} s → {full_cold.seconds:.1f} s), "
        f"relative to linear | {scaling:.2f}× | ≤ 1.1× | {verdict(scaling <= 1.1)} |",
        f"| rebuild after one changed tool / full build | {one_tool.seconds / full_cold.seconds:.1%}"
        f" ({one_tool.seconds:.1f} s) | ≤ 2% | {verdict(one_tool.seconds <= 0.02 * full_cold.seconds)} |",
        f"| rebuild after a changed shared definition ({users} users) / full build | "
        f"{shared_def.seconds / full_cold.seconds:.1%} ({shared_def.seconds:.1f} s) | ≤ 10% | "
        f"{verdict(shared_def.seconds <= 0.10 * full_cold.seconds)} |",
        f"| one changed tool built into an empty OUT (the cache kept) / full build | "
        f"{rebuilds.empty_out.seconds / full_cold.seconds:.1%} ({rebuilds.empty_out.seconds:.1f} s)"
        " | report | |",
        f"| peak memory, full corpus, OpenAI (process tree) | {full_cold.peak_mib:.0f} MiB | "
        f"< 1 GiB | {verdict(full_cold.peak_mib < 1024)} |",
        f"| peak memory, full corpus, every provider (process tree; {every_run.seconds:.0f} s) | "
        f"{every_run.peak_mib:.0f} MiB | < 1 GiB | {verdict(every_run.peak_mib < 1024)} |",
        f"| build of a large enum / a design of the same size ({enum.summary}) | "
        f"{enum.ratio():.2f}× ({enum.enum[0].seconds:.1f} s / {enum.ordinary[0].seconds:.1f} s) "
        f"| ≤ {ENUM_RATIO:g}× | {verdict(enum.ratio() <= ENUM_RATIO)} |",
        f"| peak memory, large enum (process tree) | {enum.peak_mib():.0f} MiB | < "
        f"{ENUM_PEAK_MIB} MiB | {verdict(enum.peak_mib() < ENUM_PEAK_MIB)} |",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
