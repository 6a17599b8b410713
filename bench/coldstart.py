"""Cold start benchmark: a generated package of 1,000 corpus tools against one of 10.

Both packages are built by ``toolgen build`` for OpenAI from the first corpus tools that project
cleanly (bench/corpus.py). Each probe is a fresh interpreter that imports ``<package>.openai`` and
decodes the first call of a chat completion (envelope, name, JSON, inverse, model); the two
packages are probed in interleaved rounds, and the ratio 1,000 / 10 of the medians is the figure
(target: at most 1.2). Twice: with the bytecode cache written (``__pycache__``, as pip installs a
package) and without one (a read-only deployment that compiles every module at each start).
Times are CPU seconds of the probe (``time.process_time``), which a loaded machine disturbs less
than wall time; wall times are printed beside them.

    python -m bench.coldstart              # writes the "## Cold start" section of bench/RESULTS.md
    python -m bench.coldstart --rounds 9
    python -m bench.coldstart --against ../main   # and side by side with another checkout's build
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.corpus import clean_tools, write_design
from bench.results import write_section

SIZES = (10, 1000)
ROUNDS = 7
TARGET = 1.2

_PROBE = """
import sys, time
c0, w0 = time.process_time(), time.perf_counter()
import {package}.openai as m
name = {name!r}
body = {{"id": "x", "object": "chat.completion", "created": 1, "model": "m", "usage": {{
    "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}, "choices": [{{"index": 0,
    "finish_reason": "tool_calls", "message": {{"role": "assistant", "content": None,
    "tool_calls": [{{"id": "c1", "type": "function", "function": {{
        "name": m.PROVIDER_NAMES[name], "arguments": {arguments!r}}}}}]}}}}]}}
c1, w1 = time.process_time(), time.perf_counter()
calls = m.parse_tool_calls(body)
c2, w2 = time.process_time(), time.perf_counter()
assert calls[0].name == name, calls
print(c1 - c0, c2 - c0, w2 - w0)
"""

#: a diagnostic line of an error (not a warning) in a tool file
_FAILED = re.compile(r"^(tools/t\d+\.json):\S* [\w-]+: [A-Z_]+ (?!warning)", re.MULTILINE)


def build(design: Path, out: Path, source: Path | None = None) -> None:
    """``toolgen build`` for OpenAI (by the toolgen of the source tree ``source``, else this one);
    a tool whose design fails (a check the corpus filter does not make) is left out and the build
    run again."""
    # python -m finds toolgen in the working directory before PYTHONPATH: run it from ``source``
    env = None if source is None else {**os.environ, "PYTHONPATH": str(source.resolve())}
    cwd = None if source is None else source.resolve()
    for _ in range(5):
        shutil.rmtree(out, ignore_errors=True)
        command = [sys.executable, "-m", "toolgen", "build", str(design), "-o", str(out), "-q"]
        result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
        if result.returncode == 0:
            return
        failed = _FAILED.findall(result.stderr)
        if not failed:
            raise RuntimeError(result.stderr[-2000:])
        for path in failed:
            (design / path).unlink()
    raise RuntimeError(f"{design}: the build keeps failing")


def probe(parent: Path, package: str, call: tuple[str, str], bytecode: bool) -> tuple[float, ...]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    name, arguments = call
    code = _PROBE.format(package=package, name=name, arguments=arguments)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=parent, env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return tuple(float(value) for value in result.stdout.split())


def first_call(design: Path) -> tuple[str, str]:
    """The name of the design's first tool file (in both packages) and a payload with its required
    members, each a plausible value."""
    tool = json.loads(min((design / "tools").glob("*.json")).read_text())
    first = tool["parameters"]
    samples = {"string": "x", "integer": 1, "number": 1, "boolean": True, "array": [], "object": {}}
    payload = {}
    for key in first.get("required", []):
        schema = first["properties"].get(key, {})
        kind = schema.get("type", "string")
        payload[key] = schema["enum"][0] if "enum" in schema else samples.get(kind, "x")
    return tool["name"], json.dumps(payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument(
        "--against",
        type=Path,
        help="a toolgen source tree (a checkout of main): its packages of the same designs are "
        "probed in the same rounds, and a table puts its ratios beside this code's",
    )
    args = parser.parse_args()
    codes: dict[str, Path | None] = {"this": None}
    if args.against is not None:
        codes["against"] = args.against
    tools = clean_tools(("openai",), max(SIZES) + 20)
    work = Path(tempfile.mkdtemp(prefix="toolgen_bench_coldstart_"))
    results: dict[tuple[str, bool, int], list[tuple[float, ...]]] = {}
    try:
        for size in SIZES:
            design = write_design(work / f"design{size}", tools[:size], ("openai",))
            for code, source in codes.items():
                # the failures left out by the first build are out of the design for the second
                build(design, work / code / f"cache{size}" / f"pkg{size}", source)
                shutil.copytree(work / code / f"cache{size}", work / code / f"source{size}")
        first = {size: first_call(work / f"design{size}") for size in SIZES}
        load = os.getloadavg()[0]
        for bytecode in (True, False):
            folder = "cache" if bytecode else "source"
            contenders = [
                (code, size, work / code / f"{folder}{size}") for code in codes for size in SIZES
            ]
            for _, size, parent in contenders:  # write the bytecode cache (or check there is none)
                probe(parent, f"pkg{size}", first[size], bytecode)
            for _ in range(args.rounds):
                for code, size, parent in contenders:
                    found = probe(parent, f"pkg{size}", first[size], bytecode)
                    results.setdefault((code, bytecode, size), []).append(found)
        counts = {
            size: len(list((work / f"design{size}" / "tools").glob("*.json"))) for size in SIZES
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def median(code: str, bytecode: bool, size: int, index: int) -> float:
        return statistics.median(r[index] for r in results[(code, bytecode, size)])

    small, large = SIZES
    lines = [
        "## Cold start",
        "",
        f"Command: `python -m bench.coldstart --rounds {args.rounds}"
        + (f" --against {args.against}" if args.against else "")
        + f"` (packages of {counts[small]} and {counts[large]} corpus tools built by `toolgen "
        f"build` for OpenAI; each probe a fresh interpreter importing `<package>.openai` and "
        f"decoding one call with `parse_tool_calls`; sizes interleaved, median of {args.rounds} "
        f"rounds; CPU time of the probe, wall time beside it; Python {sys.version.split()[0]}; "
        f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, on "
        f"{os.cpu_count()} cores: read the ratios).",
        "",
        f"| bytecode | measure | {counts[small]} tools | {counts[large]} tools | ratio | target |",
        "|---|---|---|---|---|---|",
    ]
    for bytecode in (True, False):
        label = _label(bytecode)
        for index, measure in ((0, "import"), (1, "import + first call"), (2, "same, wall")):
            a, b = median("this", bytecode, small, index), median("this", bytecode, large, index)
            target = f"≤ {TARGET}×" if index == 1 else ""
            lines.append(
                f"| {label} | {measure} | {a * 1e3:.1f} ms | {b * 1e3:.1f} ms | {b / a:.2f}× "
                f"| {target} |"
            )
    if args.against is not None:
        lines += [
            "",
            f"Side by side in the same rounds, import + first call (CPU), packages of the same "
            f"designs built by `{args.against}` and by this code:",
            "",
            f"| bytecode | {args.against}: {counts[small]} / {counts[large]} tools | ratio "
            f"| this code: {counts[small]} / {counts[large]} tools | ratio |",
            "|---|---|---|---|---|",
        ]
        for bytecode in (True, False):
            row = [_label(bytecode)]
            for code in ("against", "this"):
                a, b = median(code, bytecode, small, 1), median(code, bytecode, large, 1)
                row += [f"{a * 1e3:.1f} / {b * 1e3:.1f} ms", f"{b / a:.2f}×"]
            lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    section = "\n".join(lines)
    print(section)
    write_section("Cold start", section)


def _label(bytecode: bool) -> str:
    return "cached (`__pycache__`)" if bytecode else "none (compiled at start)"


if __name__ == "__main__":
    main()
