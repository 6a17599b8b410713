"""``toolgen watch`` after random sequences of edits: whatever a rebuild keeps from the last one,
OUT must hold byte for byte what a cold build of the design as it is then makes, and a failed
rebuild must leave the last good OUT. The edits are those a user makes (a description, a
member added, dropped or retyped, a tool added, renamed or deleted, the shared definitions
changed, a file broken then fixed, a file saved unchanged) plus one a tool makes: the same bytes
count written in place with the file's times put back (``cp -p``, an archive extracted over the
design), which no file signature can see and only the bytes can."""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolgen.build import build
from toolgen.cli import EXIT_DESIGN, EXIT_OK, watch_rebuilder

PROVIDERS = '[toolgen]\nproviders = ["openai", "anthropic"]\n'
SHARED = "defs/common.yaml"
#: each word the same length as the others, so swapping one for another keeps a file's size
WORDS = ("alpha", "bravo", "delta", "gamma", "kappa", "omega", "sigma")
TYPES = ({"type": "string"}, {"type": "integer"}, {"type": "boolean"}, {"type": "number"})


class Design:
    """A design folder and the values of its files, edited one random step at a time."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.shared: dict[str, Any] = {
            "type": "object",
            "properties": {"page": {"type": "integer"}, "size": {"type": "integer"}},
            "required": ["page"],
        }
        self.tools: dict[str, dict[str, Any]] = {}
        self.broken: str | None = None
        self.counter = 0
        self.deck: list[Callable[[], str]] = []
        (root / "toolgen.toml").parent.mkdir(parents=True, exist_ok=True)
        (root / "toolgen.toml").write_text(PROVIDERS, encoding="utf-8")
        self._write(SHARED, {"$defs": {"Pagination": self.shared}})
        for _ in range(4):
            self.new_tool()

    def _write(self, relative: str, value: Any) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")

    def _save(self, stem: str) -> None:
        self._write(f"tools/{stem}.yaml", self.tools[stem])

    def _pick(self) -> str:
        return self.rng.choice(sorted(self.tools))

    def _word(self) -> str:
        return self.rng.choice(WORDS)

    # the steps, each a user's edit

    def new_tool(self) -> str:
        self.counter += 1
        stem = f"t{self.counter}"
        properties: dict[str, Any] = {"q": {"type": "string", "description": self._word()}}
        if self.rng.random() < 0.5:
            properties["page"] = {"$ref": "../defs/common.yaml#/$defs/Pagination"}
        self.tools[stem] = {
            "name": stem,
            "description": f"Tool {self._word()}.",
            "parameters": {"type": "object", "properties": properties, "required": ["q"]},
        }
        self._save(stem)
        return f"add {stem}"

    def delete_tool(self) -> str:
        if len(self.tools) < 3:
            return self.new_tool()
        stem = self._pick()
        del self.tools[stem]
        (self.root / "tools" / f"{stem}.yaml").unlink()
        return f"delete {stem}"

    def rename_tool(self) -> str:
        stem = self._pick()
        self.tools[stem]["name"] = f"{stem}_{self._word()}"
        self._save(stem)
        return f"rename {stem}"

    def describe(self) -> str:
        stem = self._pick()
        self.tools[stem]["description"] = f"Tool {self._word()} {self._word()}."
        self._save(stem)
        return f"describe {stem}"

    def add_member(self) -> str:
        stem = self._pick()
        properties = self.tools[stem]["parameters"]["properties"]
        properties[f"m{len(properties)}_{self._word()}"] = copy.deepcopy(self.rng.choice(TYPES))
        self._save(stem)
        return f"add a member to {stem}"

    def drop_member(self) -> str:
        stem = self._pick()
        properties = self.tools[stem]["parameters"]["properties"]
        droppable = sorted(name for name in properties if name != "q")
        if not droppable:
            return self.add_member()
        del properties[self.rng.choice(droppable)]
        self._save(stem)
        return f"drop a member of {stem}"

    def retype_member(self) -> str:
        stem = self._pick()
        properties = self.tools[stem]["parameters"]["properties"]
        name = self.rng.choice(sorted(name for name in properties if name != "page"))
        properties[name] = copy.deepcopy(self.rng.choice(TYPES))
        self._save(stem)
        return f"retype {stem}.{name}"

    def change_shared(self) -> str:
        size = self.shared["properties"]["size"]
        if "maximum" in size and self.rng.random() < 0.5:
            del size["maximum"]
        else:
            size["maximum"] = self.rng.choice((10, 50, 100))
        self.shared["description"] = f"Pages {self._word()}."
        self._write(SHARED, {"$defs": {"Pagination": self.shared}})
        return "change the shared definition"

    def save_unchanged(self) -> str:
        stem = self._pick()
        self._save(stem)
        return f"save {stem} unchanged"

    def same_size_keeping_times(self) -> str:
        """One word of a file swapped for another of the same length in place, the file's times
        put back: its inode, size and times are those the last build saw."""
        stem = self._pick()
        path = self.root / "tools" / f"{stem}.yaml"
        before = path.stat()
        text = path.read_text(encoding="utf-8")
        old = next(word for word in WORDS if word in text)
        new = self.rng.choice([word for word in WORDS if word != old])
        with open(path, "r+", encoding="utf-8") as file:
            file.write(text.replace(old, new, 1))
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        self.tools[stem] = yaml.safe_load(path.read_text(encoding="utf-8"))
        return f"swap a word of {stem} keeping its size and times"

    def break_tool(self) -> str:
        stem = self._pick()
        broken = copy.deepcopy(self.tools[stem])
        broken["parameters"]["properties"]["q"] = {"type": "strng"}
        self._write(f"tools/{stem}.yaml", broken)
        self.broken = stem
        return f"break {stem}"

    def fix(self) -> str:
        assert self.broken is not None
        stem, self.broken = self.broken, None
        self._save(stem)
        return f"fix {stem}"

    def step(self) -> str:
        """The next edit: every kind once, in a random order, before any kind again (a broken
        file is fixed first)."""
        if self.broken is not None:
            return self.fix()
        if not self.deck:
            self.deck = self._kinds()
            self.rng.shuffle(self.deck)
        return self.deck.pop()()

    def _kinds(self) -> list[Callable[[], str]]:
        return [
            self.new_tool,
            self.delete_tool,
            self.rename_tool,
            self.describe,
            self.add_member,
            self.drop_member,
            self.retype_member,
            self.change_shared,
            self.save_unchanged,
            self.same_size_keeping_times,
            self.break_tool,
        ]


def _cold(design: Path) -> dict[str, bytes]:
    result = build(design)
    assert result.ok, result.diagnostics
    return {path: text.encode("utf-8") for path, text in result.files.items()}


#: the sequences of edits: one a run (each kind of edit at least once), more in make test-deep
SEEDS = [1, 2, 3, 4] if os.environ.get("TOOLGEN_DEEP") else [1]


@pytest.mark.slow  # a dozen rebuilds a sequence, each against a cold build
@pytest.mark.parametrize("seed", SEEDS)
def test_watch_rebuilds_equal_a_cold_build_after_random_edits(
    tmp_path: Path, seed: int, read_tree: Callable[[Path], dict[str, bytes]]
) -> None:
    design = Design(tmp_path / "design", random.Random(seed))
    out = tmp_path / "gen"
    rebuild = watch_rebuilder(design.root, out, (), "text", tmp_path / "cache")
    assert rebuild() == EXIT_OK
    done: list[str] = []
    for _ in range(12):  # every kind of edit at least once
        done.append(design.step())
        good = read_tree(out)
        if design.broken is not None:
            assert rebuild() == EXIT_DESIGN, done
            assert read_tree(out) == good, done
        else:
            assert rebuild() == EXIT_OK, done
            assert read_tree(out) == _cold(design.root), done
