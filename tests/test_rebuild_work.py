"""Work a build does once, not once per asker (issue 37, item 8: a fresh one-tool rebuild of a
large design spends its time in such repeated walks). Counted, not timed."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from toolgen.build import analyze
from toolgen.project.design_projection import ProviderProjection

SMALL = Path(__file__).parent / "cases" / "small" / "design"


def test_a_projection_s_inverse_notes_walk_its_records_once(monkeypatch) -> None:
    (projection,) = analyze(SMALL, ("openai",)).projections
    walks = []
    strict_contracts = ProviderProjection.strict_contracts

    def counted(self: ProviderProjection) -> tuple:
        walks.append(self)
        return strict_contracts(self)

    monkeypatch.setattr(ProviderProjection, "strict_contracts", counted)
    notes = [projection.inverse_notes() for _ in range(3)]
    assert len(walks) == 1
    assert notes[0]  # the small design's records hold rewrites that change payloads
    assert notes == [notes[0]] * 3
    # a projection made from another (dataclasses.replace) walks its own records
    other = dataclasses.replace(projection, outputs=())
    other.inverse_notes()
    assert walks == [projection, other]


def test_a_build_without_a_budget_does_not_import_the_request_costs() -> None:
    """A fresh process pays for every module it imports (the cost module's tables, 11 ms)."""
    check = (
        "import sys, toolgen.cli, toolgen.build; "
        "sys.exit('toolgen.package.request_cost' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0


def test_an_edit_that_changes_no_canonicalizer_does_not_make_the_canonical_module_again(
    tmp_path: Path, monkeypatch
) -> None:
    """A fresh process with a cache takes the split canonical module from the cache by what it
    is made from: a description edited renders, formats and splits no canonical module; an
    optional member added (its null to remove: another canonicalizer) makes its provider's
    again where the provider writes that null. Each build's files are those of a build without
    a cache."""
    from toolgen.compile.canonical import compiler

    design = tmp_path / "design"
    shutil.copytree(SMALL, design)
    cache = tmp_path / "cache"
    made: list[str | None] = []
    formatted_whole = compiler._formatted_whole

    def counted(compiled, context, split, header, runner):  # type: ignore[no-untyped-def]
        made.append(split)
        return formatted_whole(compiled, context, split, header, runner)

    monkeypatch.setattr(compiler, "_formatted_whole", counted)

    def rebuilt() -> list[str | None]:
        return sorted(_rebuilt(design, cache, made, ("openai", "anthropic")), key=str)

    assert rebuilt() == ["_canonical_anthropic", "_canonical_openai"]
    ping = design / "tools" / "ping.json"
    tool = json.loads(ping.read_text())
    ping.write_text(json.dumps({**tool, "description": "Check that it answers."}))
    assert rebuilt() == []
    members = {"count": {"type": "integer"}}
    ping.write_text(json.dumps({**tool, "parameters": {"type": "object", "properties": members}}))
    # (Anthropic's strict mode keeps an optional member optional: its canonicalizers are alike)
    assert rebuilt() == ["_canonical_openai"]


def test_the_models_package_modules_are_made_again_only_when_the_names_change(
    tmp_path: Path, monkeypatch
) -> None:
    """The names of the models' modules and classes, and ``models/__init__.py`` (a class per
    contract) and its kin, are a function of the contracts' names: a fresh process with a cache
    reads them (the modules formatted), unless a name changed. Each build's files are those of
    a build without a cache."""
    from toolgen.compile.models import generate
    from toolgen.compile.models.generate import PendingModels

    design = tmp_path / "design"
    shutil.copytree(SMALL, design)
    cache = tmp_path / "cache"
    made: list[str] = []
    sources, planned_names = PendingModels._package_sources, generate._planned_names

    def rendered(self: PendingModels) -> dict:  # type: ignore[type-arg]
        made.append("modules")
        return sources(self)

    def planned(*names: tuple[str, ...]) -> tuple:  # type: ignore[type-arg]
        made.append("names")
        return planned_names(*names)

    monkeypatch.setattr(PendingModels, "_package_sources", rendered)
    monkeypatch.setattr(generate, "_planned_names", planned)

    def rebuilt() -> list[str]:
        return sorted(_rebuilt(design, cache, made))

    assert rebuilt() == ["modules", "names"]
    ping = design / "tools" / "ping.json"
    tool = json.loads(ping.read_text())
    ping.write_text(json.dumps({**tool, "description": "Check that it answers."}))
    assert rebuilt() == []
    ping.write_text(json.dumps({**tool, "name": "pong"}))
    assert rebuilt() == ["modules", "names"]


def test_a_fresh_process_makes_the_texts_of_the_changed_projections_only(
    tmp_path: Path, monkeypatch
) -> None:
    """The compact text, sizes and JSON file of each projected schema come from the cache by
    the projection they are a function of: a rebuild makes those of the changed tool alone,
    one that changed nothing makes none. Each build's files are those of a build without a
    cache."""
    from toolgen.package import schema_texts

    design = tmp_path / "design"
    shutil.copytree(SMALL, design)
    cache = tmp_path / "cache"
    made: list[object] = []
    schema_text = schema_texts._schema_text

    def counted(schema: object) -> schema_texts.SchemaText:
        made.append(schema)
        return schema_text(schema)

    monkeypatch.setattr(schema_texts, "_schema_text", counted)

    def rebuilt() -> int:
        return len(_rebuilt(design, cache, made))

    assert rebuilt() == 3  # two tools and an output
    assert rebuilt() == 0
    ping = design / "tools" / "ping.json"
    tool = json.loads(ping.read_text())
    ping.write_text(json.dumps({**tool, "description": "Check that it answers."}))
    assert rebuilt() == 1


def test_the_fakes_modules_are_made_again_only_when_a_plan_or_a_name_changes(
    tmp_path: Path, monkeypatch
) -> None:
    """The fakes' modules (``testing/<provider>.py``, ``testing/_plans_<provider>.py``) are a
    function of the tools' names and forward plans: a fresh process with a cache reads them
    formatted after an edited description, and makes the plans' module again after an added
    member. Each build's files are those of a build without a cache."""
    from toolgen.package import testing

    design = tmp_path / "design"
    shutil.copytree(SMALL, design)
    cache = tmp_path / "cache"
    made: list[str] = []
    format_python = testing.format_python

    def counted(source: str, *args: object, **kwargs: object) -> str:
        made.append("plans" if "TOOL_PLANS" in source else "provider")
        return format_python(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(testing, "format_python", counted)

    def rebuilt() -> list[str]:
        return sorted(_rebuilt(design, cache, made))

    assert rebuilt() == ["plans", "provider", "provider"]  # (and testing/__init__.py)
    ping = design / "tools" / "ping.json"
    tool = json.loads(ping.read_text())
    ping.write_text(json.dumps({**tool, "description": "Check that it answers."}))
    assert rebuilt() == ["provider"]  # testing/__init__.py only
    members = {"count": {"type": "integer"}}
    ping.write_text(json.dumps({**tool, "parameters": {"type": "object", "properties": members}}))
    assert rebuilt() == ["plans", "provider"]


def _rebuilt(
    design: Path, cache: Path, made: list[Any], providers: tuple[str, ...] = ("openai",)
) -> list[Any]:
    """What a build in a fresh process with ``cache`` recorded in ``made`` (cleared first); its
    files are those of a build without a cache."""
    from toolgen.build import Session, build

    made.clear()
    files = Session(keep=False).build(design, providers, cache_dir=cache).files
    recorded = list(made)
    assert files == build(design, providers).files
    return recorded
