"""Inverse canonicalizers: compiled functions vs the reference, a Pydantic round trip and a
hand-written function, side by side in one run.

    python -m bench.canonical   # writes the "## Inverse canonicalizers" section of RESULTS.md

Payloads are what OpenAI strict mode sends: every member present, optionals written as null
("with nulls"), or every optional given a value ("untouched": the inverse returns the same
object). Times are the minimum and median over interleaved rounds, in ns per payload member
(members counted at every depth), so the distance to the hand-written limit is visible.
"""

from __future__ import annotations

import importlib
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bench.results import write_section
from toolgen.compile.canonical.compiler import render_canonical_module
from toolgen.compile.canonical.reference import reference_for
from toolgen.load.contracts import Config, Contract, Design, ProviderOptions
from toolgen.load.design import load_design
from toolgen.project.design_projection import ProviderProjection, project_design
from toolgen.project.projection import project_contract
from toolgen.providers import PROFILES, settings
from toolgen.render.runtime_files import copied
from toolgen.render.templating import header
from toolgen.schema.nullability import NullOracle

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "RESULTS.md"
EXAMPLE = REPO / "examples" / "design"
CORPUS = REPO.parent / "shared" / "corpus" / "tools"
OPENAI = PROFILES["openai"]
ROUNDS = 15
CORPUS_TOOLS = 150


# -- the contact tool: hand-written and Pydantic contenders ------------------------------------

CONTACT_NULLS = {
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "phone": None,
    "address": {
        "street": "1 Analytical Way",
        "city": "London",
        "postal_code": None,
        "country": "GB",
    },
    "company": {"name": "Engines Ltd", "domain": None},
    "tags": None,
    "status": None,
}
CONTACT_UNTOUCHED = {
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "phone": "+44 20 7946 0000",
    "address": {
        "street": "1 Analytical Way",
        "city": "London",
        "postal_code": "N1",
        "country": "GB",
    },
    "company": {"name": "Engines Ltd", "domain": "engines.example"},
    "tags": ["vip", "uk"],
    "status": "active",
}


def hand_written(p: dict[str, Any]) -> dict[str, Any]:
    """What a careful engineer writes for crm.upsert_contact with bare dict operations."""
    out = p
    if p.get("phone", 0) is None:
        out = dict(p)
        del out["phone"]
    address = p.get("address")
    if address is None:
        if "address" in p:
            if out is p:
                out = dict(p)
            del out["address"]
    elif address.get("postal_code", 0) is None:
        if out is p:
            out = dict(p)
        out["address"] = {k: v for k, v in address.items() if k != "postal_code"}
    company = p.get("company")
    if company is None:
        if "company" in p:
            if out is p:
                out = dict(p)
            del out["company"]
    elif company.get("domain", 0) is None:
        if out is p:
            out = dict(p)
        out["company"] = {k: v for k, v in company.items() if k != "domain"}
    for key in ("tags", "status"):
        if p.get(key, 0) is None:
            if out is p:
                out = dict(p)
            del out[key]
    return out


class Address(BaseModel):
    street: str
    city: str
    postal_code: str | None = None
    country: str


class Company(BaseModel):
    name: str
    domain: str | None = None


class Contact(BaseModel):
    name: str
    email: str
    phone: str | None = None
    address: Address | None = None
    company: Company | None = None
    tags: list[str] | None = None
    status: str | None = None


def pydantic_round_trip(payload: dict[str, Any]) -> dict[str, Any]:
    # the cost reference the issue names; it keeps explicit nulls (they are "set"), so it is
    # cheaper than a faithful inverse would be
    return Contact.model_validate(payload).model_dump(exclude_unset=True)


# -- payloads for any projected contract --------------------------------------------------------


class Payloads:
    """Deterministic provider payloads of a projected schema: every member present; a member that
    accepts null is null ("with nulls") or given a value ("untouched")."""

    def __init__(self, projected: Any) -> None:
        self.root = projected
        self.nulls = NullOracle(projected)

    def make(self, node: Any, *, nulls: bool, depth: int = 0) -> Any:
        if isinstance(node, dict) and "$ref" in node:
            return self.make(self._resolve(node["$ref"]), nulls=nulls, depth=depth + 1)
        if not isinstance(node, dict):
            return None
        if "const" in node:
            return node["const"]
        if "enum" in node:
            values = [v for v in node["enum"] if v is not None]
            return values[0] if values else None
        if "anyOf" in node:
            branches = [b for b in node["anyOf"] if b != {"type": "null"}]
            if not branches or (nulls and len(branches) < len(node["anyOf"])):
                return None
            return self.make(branches[0], nulls=nulls, depth=depth)
        types = node.get("type")
        types = [types] if isinstance(types, str) else list(types or ["object"])
        if nulls and "null" in types or depth > 3:
            return None
        kind = next((t for t in types if t != "null"), "null")
        if kind == "object":
            return {
                name: self.make(sub, nulls=nulls, depth=depth + 1)
                for name, sub in (node.get("properties") or {}).items()
            }
        if kind == "array":
            return [
                self.make(node.get("items", {}), nulls=nulls, depth=depth + 1)
                for _ in range(max(node.get("minItems", 0), 0 if depth > 2 else 2))
            ]
        return {"string": "text", "integer": 7, "number": 1.5, "boolean": True}.get(kind)

    def _resolve(self, ref: str) -> Any:
        node = self.root
        for token in ref.partition("#")[2].split("/")[1:]:
            node = node[token.replace("~1", "/").replace("~0", "~")]
        return node


def members(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(members(v) for v in value.values())
    if isinstance(value, list):
        return sum(members(v) for v in value)
    return 0


# -- timing ------------------------------------------------------------------------------------


def per_call(function: Callable[[Any], Any], payloads: list[Any], repeat: int) -> float:
    """Seconds per payload for one pass over ``payloads``, ``repeat`` times."""
    start = time.perf_counter()
    for _ in range(repeat):
        for payload in payloads:
            function(payload)
    return (time.perf_counter() - start) / (repeat * len(payloads))


def race(
    contenders: dict[str, tuple[Callable[[Any], Any], int]], payloads: list[Any]
) -> dict[str, list[float]]:
    """Interleaved rounds, contenders in a shuffled order each round; seconds per payload."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    order = list(contenders)
    rng = random.Random(7)
    for _ in range(ROUNDS):
        rng.shuffle(order)
        for name in order:
            function, repeat = contenders[name]
            times[name].append(per_call(function, payloads, repeat))
    return times


def table(times: dict[str, list[float]], member_count: float, limit: str) -> list[str]:
    base = min(times[limit])
    lines = [
        "| contender | µs per payload (min) | ns per member (min) | ns per member (median) "
        "| × hand-written (min) |",
        "|---|---|---|---|---|",
    ]
    for name, values in times.items():
        low, mid = min(values), statistics.median(values)
        lines.append(
            f"| {name} | {low * 1e6:.2f} | {low * 1e9 / member_count:.1f} | "
            f"{mid * 1e9 / member_count:.1f} | {low / base:.2f} |"
        )
    return lines


def compile_module(design: Design, projection: ProviderProjection, folder: Path, name: str) -> Any:
    package = folder / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    rendered = render_canonical_module(design, projection, header())
    assert rendered.source is not None, rendered.diagnostics
    (package / "_canonical.py").write_text(rendered.source)
    (package / "_canonical_support.py").write_text(copied("_canonical_support", "# bench"))
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"{name}._canonical")


def corpus_projection() -> ProviderProjection | None:
    from jsonschema import Draft202012Validator

    if not CORPUS.is_dir():
        return None
    found = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        if path.name.endswith(".sources.jsonl"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = json.loads(line)
            schema = record.get("parameters")
            if not isinstance(schema, dict):
                continue
            try:
                Draft202012Validator.check_schema(schema)
            except Exception:  # noqa: BLE001 - not a 2020-12 schema (BFCL's "dict")
                continue
            contract = Contract(
                "tool", f"{path.stem}.{number}", "", schema, path.name, "/parameters"
            )
            try:
                result, _ = project_contract(contract, OPENAI, ProviderOptions(), contract.name)
            except RecursionError:
                continue
            if result.schema is not None:
                found.append(result)
    step = max(1, len(found) // CORPUS_TOOLS)
    return ProviderProjection(OPENAI, tuple(found[::step][:CORPUS_TOOLS]), (), ())


def main() -> None:
    lines = [
        "## Inverse canonicalizers",
        "",
        f"Command: `python -m bench.canonical` ({ROUNDS} rounds, contenders interleaved in a "
        f"shuffled order each round; Python {platform.python_version()}). Times per payload "
        "and per payload member (members counted at every depth).",
        "",
    ]
    folder = Path(tempfile.mkdtemp(prefix="bench_canonical_"))
    design, _ = load_design(EXAMPLE, settings(["openai"]))
    assert design is not None
    projection = project_design(design, OPENAI)
    module = compile_module(design, projection, folder, "bench_example")
    contact = next(p for p in projection.tools if p.contract.name == "crm.upsert_contact")
    assert contact.schema is not None
    reference = reference_for(contact)
    compiled = module.TOOL_CANONICALIZERS["crm.upsert_contact"]
    assert compiled(CONTACT_NULLS) == hand_written(CONTACT_NULLS) == reference(CONTACT_NULLS)
    assert compiled(CONTACT_UNTOUCHED) is CONTACT_UNTOUCHED
    for label, payload in (("with nulls", CONTACT_NULLS), ("untouched", CONTACT_UNTOUCHED)):
        times = race(
            {
                "hand-written dict operations": (hand_written, 20_000),
                "toolgen compiled": (compiled, 20_000),
                "pydantic model_validate + model_dump(exclude_unset)": (pydantic_round_trip, 2_000),
                "toolgen reference (interpretive)": (reference, 50),
            },
            [payload],
        )
        count = members(payload)
        lines += [f"### crm.upsert_contact (example design), {label}: {count} members", ""]
        lines += table(times, count, "hand-written dict operations")
        ratio = min(times["toolgen compiled"]) / min(times["hand-written dict operations"])
        speedup = min(times["toolgen reference (interpretive)"]) / min(times["toolgen compiled"])
        lines += [
            "",
            f"compiled / hand-written: {ratio:.2f}; reference / compiled: {speedup:.0f}×.",
            "",
        ]

    suites = [("example design, every contract", design, projection, module)]
    corpus = corpus_projection()
    if corpus is not None:
        corpus_design = Design(
            str(CORPUS), tuple(p.contract for p in corpus.tools), (), {}, Config(), "c" * 64
        )
        suites.append(
            (
                f"corpus, {len(corpus.tools)} tools",
                corpus_design,
                corpus,
                compile_module(corpus_design, corpus, folder, "bench_corpus"),
            )
        )
    for title, _design, suite, compiled_module in suites:
        for label, nulls in (("with nulls", True), ("untouched", False)):
            pairs = []
            for p in (*suite.tools, *suite.outputs):
                if p.schema is None:
                    continue
                table_ = (
                    compiled_module.TOOL_CANONICALIZERS
                    if p.contract.kind == "tool"
                    else compiled_module.OUTPUT_CANONICALIZERS
                )
                payload = Payloads(p.schema).make(p.schema, nulls=nulls)
                pairs.append((table_[p.contract.name], reference_for(p), payload))
            count = sum(members(payload) for _, _, payload in pairs) / len(pairs)
            calls = [(c, payload) for c, _, payload in pairs]
            references = [(r, payload) for _, r, payload in pairs]
            times = _race_pairs(calls, references)
            lines += [f"### {title}, {label}: {count:.1f} members per payload on average", ""]
            lines += [
                "| contender | µs per payload (min) | ns per member (min) "
                "| ns per member (median) |",
                "|---|---|---|---|",
            ]
            for name, values in times.items():
                low, mid = min(values), statistics.median(values)
                lines.append(
                    f"| {name} | {low * 1e6:.2f} | {low * 1e9 / count:.1f} "
                    f"| {mid * 1e9 / count:.1f} |"
                )
            speedup = min(times["toolgen reference (interpretive)"]) / min(
                times["toolgen compiled"]
            )
            lines += ["", f"reference / compiled: {speedup:.0f}×.", ""]
    section = "\n".join(lines).rstrip("\n") + "\n"
    print(section)
    write_section("Inverse canonicalizers", section)


def _race_pairs(
    calls: list[tuple[Callable[[Any], Any], Any]],
    references: list[tuple[Callable[[Any], Any], Any]],
) -> dict[str, list[float]]:
    def run_all(items: list[tuple[Callable[[Any], Any], Any]]) -> Callable[[Any], None]:
        def run(_: Any) -> None:
            for function, payload in items:
                function(payload)

        return run

    times = race(
        {
            "toolgen compiled": (run_all(calls), 200),
            "toolgen reference (interpretive)": (run_all(references), 1),
        },
        [None],
    )
    return {name: [t / len(calls) for t in values] for name, values in times.items()}


if __name__ == "__main__":
    main()
