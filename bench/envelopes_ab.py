"""Envelope validators of two builds side by side: is a change to the compiler faster or slower?

The generated packages BEFORE and AFTER (``toolgen build ... -o`` of two toolgen versions) are
imported into one process; each round runs both validators over every recorded body of a surface
(the bodies BEFORE accepts), in a shuffled order. On a shared machine the absolute times are
noise; the ratio AFTER/BEFORE of one run, min and median over the rounds, is the measurement.

    python -m bench.envelopes_ab BEFORE AFTER [ROUNDS]   # writes "## Envelope validators, A/B"
"""

from __future__ import annotations

import importlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.envelopes import CORPUS
from bench.results import write_section

#: (provider, surface) -> the corpus folder of its recorded bodies
SURFACES = {
    ("openai", "chat_completion"): "openai/chat-completions",
    ("openai", "response"): "openai/responses",
    ("anthropic", "message"): "anthropic/messages",
    ("gemini", "generate_content"): "google-gla/generate-content",
}


def _validator(package: Path, provider: str, surface: str) -> Callable[[Any], Any] | None:
    sys.path.insert(0, str(package.parent))
    try:
        module = importlib.import_module(f"{package.name}._envelopes_{provider}")
    except ModuleNotFoundError:
        return None  # not built for this provider
    finally:
        sys.path.remove(str(package.parent))
    validate: Callable[[Any], Any] = getattr(module, f"validate_{surface}")
    return validate


def _accepted(validate: Callable[[Any], Any], bodies: list[Any]) -> list[Any]:
    kept = []
    for body in bodies:
        try:
            validate(body)
        except Exception:  # noqa: BLE001 - a body the old validator rejects is left out
            continue
        kept.append(body)
    return kept


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    before, after = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    if before.name == after.name:
        raise SystemExit("the two packages need different folder names (they are imported by name)")
    rows = []
    for (provider, surface), folder in SURFACES.items():
        old, new = _validator(before, provider, surface), _validator(after, provider, surface)
        if old is None or new is None or not (CORPUS / folder).is_dir():
            continue
        paths = sorted((CORPUS / folder).glob("*.json"))
        bodies = _accepted(old, [json.loads(p.read_text()) for p in paths])
        times: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(rounds):
            sides = [("before", old), ("after", new)]
            random.shuffle(sides)
            for side, validate in sides:
                start = time.perf_counter()
                for body in bodies:
                    validate(body)
                times[side].append((time.perf_counter() - start) / len(bodies) * 1e6)
        b, a = times["before"], times["after"]
        rows.append(
            f"| {provider} {surface} | {len(bodies)} | {min(b):.2f} | {min(a):.2f} | "
            f"{min(a) / min(b):.2f} | {statistics.median(a) / statistics.median(b):.2f} |"
        )
    section = "\n".join(
        [
            "## Envelope validators, A/B",
            "",
            f"Command: `python -m bench.envelopes_ab BEFORE AFTER {rounds}` (two builds of "
            "examples/design with every provider, one process, both validators each round in a "
            f"shuffled order; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
            "at the start).",
            "",
            "| surface | bodies | before µs (min) | after µs (min) | after/before (min) "
            "| after/before (median) |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    print(section)
    write_section("Envelope validators, A/B", section)


if __name__ == "__main__":
    main()
