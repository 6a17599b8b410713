"""`make bench`: run every benchmark in one process, one after the other.

Each benchmark measures its contenders side by side (interleaved, in the same run) and writes its
own section of bench/RESULTS.md with the command that produced it. Run one alone with
`python -m bench.<name>`.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ("build", "canonical", "coldstart", "decode", "envelopes", "models", "shared_defs")


def main() -> None:
    chosen = sys.argv[1:] or list(BENCHMARKS)
    for name in chosen:
        print(f"== bench.{name}", flush=True)
        module = importlib.import_module(f"bench.{name}")
        module.main()


if __name__ == "__main__":
    main()
