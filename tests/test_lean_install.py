"""A lean install (issue 37, item 4): an install of the repository makes ``toolgen`` importable
and nothing else of the clone, so that after ``make demo`` (which writes the package ``gen/`` at
the clone's root) ``import gen`` in another folder of that environment fails instead of
importing toolgen's demo package; and ``make demo`` installs the run-time dependencies only.

The editable install puts the folder ``.editable/`` on sys.path, whose one entry is a link to
``toolgen/`` (pyproject.toml, ``dev-mode-dirs``), not the root of the clone.

Cheap: no virtual environment is built. The editable wheel that ``pip install -e`` would install
is built by hatchling (no build isolation, offline) from a copy of the clone's packaging, unpacked
into a folder, and that folder's ``.pth`` files are processed by a Python started without its own
site-packages; ``make -n`` prints what ``make demo`` would run. The non-editable wheel is checked
in tests/test_wheel.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: What a clone has at its root beside toolgen, and what ``make demo`` adds (``gen``): none of it
#: may be importable from the install.
OTHERS = ("gen", "examples", "tests", "bench", "templates")

#: Run with ``-S`` from an empty folder: the unpacked editable wheel's folder (argv[1]) is the only
#: site folder (its .pth files processed as pip's install would have them).
_PROBE = """
import importlib.util, site, sys
site.addsitedir(sys.argv[1])
import toolgen
from toolgen.infra.resources import templates_dir
print("toolgen", toolgen.__file__)
print("templates_dir", templates_dir())
for name in sys.argv[2:]:
    spec = importlib.util.find_spec(name)
    where = [] if spec is None else [spec.origin or "", *(spec.submodule_search_locations or [])]
    print(name, *where)
"""


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files of a clone that packaging reads, and one module in each other top-level folder
    (``gen`` as ``make demo`` leaves it)."""
    root = tmp_path_factory.mktemp("lean") / "clone"
    root.mkdir()
    for name in ("pyproject.toml", "README.md", "Makefile"):
        shutil.copy2(REPO / name, root / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("toolgen", "templates", ".editable"):
        shutil.copytree(REPO / folder, root / folder, ignore=ignore, symlinks=True)
    for folder in ("gen", "examples", "tests", "bench"):
        (root / folder).mkdir()
        (root / folder / "__init__.py").write_text("")
    return root


@pytest.fixture(scope="module")
def editable_site(clone: Path) -> Path:
    """The editable wheel hatchling builds for ``pip install -e``, unpacked as pip would."""
    dist = clone.parent / "dist"
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from hatchling.build import build_editable; print(build_editable(sys.argv[1]))",
            str(dist),
        ],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    site = clone.parent / "site"
    with zipfile.ZipFile(dist / built.stdout.strip().splitlines()[-1]) as wheel:
        wheel.extractall(site)
    return site


def test_only_toolgen_is_importable_from_an_editable_install(
    clone: Path, editable_site: Path, tmp_path: Path
):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = subprocess.run(
        [sys.executable, "-S", "-c", _PROBE, str(editable_site), *OTHERS],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.returncode == 0, probe.stderr
    found = dict(
        line.split(" ", 1) if " " in line else (line, "") for line in probe.stdout.splitlines()
    )
    # `import gen` (and the others) find nothing of the clone: a ModuleNotFoundError, not the demo
    leaked = {name: found[name] for name in OTHERS if str(clone) in found[name]}
    assert leaked == {}
    assert found["gen"] == ""
    # the source tree's toolgen and templates serve the install: an edit takes effect at once
    assert Path(found["toolgen"]) == clone / ".editable" / "toolgen" / "__init__.py"
    assert Path(found["toolgen"]).resolve() == clone / "toolgen" / "__init__.py"
    assert Path(found["templates_dir"]) == clone / "templates"


def test_the_editable_install_copies_nothing_into_site_packages(editable_site: Path):
    """The templates copied into ``site-packages/toolgen`` (as the wheel has them) would be
    stale copies beside the source tree's."""
    assert {path.name for path in editable_site.iterdir() if "dist-info" not in path.name} == {
        "_toolgen.pth"
    }


def test_the_folder_on_the_path_holds_toolgen_alone():
    """Whatever else ``.editable/`` held would be importable from the install."""
    assert os.listdir(REPO / ".editable") == ["toolgen"]
    assert os.readlink(REPO / ".editable" / "toolgen") == "../toolgen"


def test_make_demo_installs_the_run_time_dependencies_only(clone: Path):
    dry = subprocess.run(
        ["make", "-n", "demo"], cwd=clone, capture_output=True, text=True, timeout=60
    )
    assert dry.returncode == 0, dry.stderr
    installs = [
        line for line in dry.stdout.splitlines() if "pip install" in line and " -e " in line
    ]
    assert installs, dry.stdout
    assert all(line.rstrip().endswith(" -e .") for line in installs), installs
