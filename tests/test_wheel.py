"""The wheel (issue 2): built from the source tree, installed on its own (no source tree on the
path), it builds a design with the templates it carries inside the package (toolgen/templates).

Offline: the wheel is built with the venv's hatchling (``--no-build-isolation``) and installed with
``pip install --no-deps --target``; its dependencies are the ones already installed in this venv.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from toolgen import __version__

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

_RUN = """
import sys
sys.path.insert(0, sys.argv[1])
import toolgen, toolgen.render.templating
from pathlib import Path
site = Path(sys.argv[1]).resolve()
assert Path(toolgen.__file__).resolve().is_relative_to(site), toolgen.__file__
templates = toolgen.render.templating.templates_dir().resolve()
assert templates == site / "toolgen" / "templates", templates
print("TEMPLATES", templates, file=sys.stderr)
from toolgen.cli import main
sys.argv = ["toolgen", *sys.argv[2:]]
main()
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("toolgen", "templates"):
        shutil.copytree(REPO / folder, source / folder, ignore=ignore)
    for folder in ("gen", "examples", "tests", "bench"):  # a clone's others, and make demo's gen
        (source / folder).mkdir()
        (source / folder / "__init__.py").write_text("")
    dist = work / "dist"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(dist),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = dist.glob("toolgen-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert any(n.startswith("toolgen/templates/") and n.endswith(".j2") for n in names), names
    # only toolgen: the templates inside it, nothing else of the clone
    assert {n.split("/")[0] for n in names} == {"toolgen", f"toolgen-{__version__}.dist-info"}
    assert {"toolgen/runtime/_runtime.py", "toolgen/runtime/_chat_completions.py"} <= set(names)
    site = work / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--target",
            str(site),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return site


def run_installed(site: Path, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(cwd),
    }  # no PYTHONPATH: the source tree is not importable
    return subprocess.run(
        [sys.executable, "-c", _RUN, str(site), *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_installed_wheel_builds_a_design(installed, make_design, tool, tmp_path):
    design = make_design(
        {
            "tools/t.yaml": tool(
                "weather.get", {"type": "object", "properties": {"city": {"type": "string"}}}
            )
        }
    )
    clean = tmp_path / "elsewhere"
    clean.mkdir()
    out = tmp_path / "gen"
    done = run_installed(installed, "build", design, "-o", out, "--provider", "openai", cwd=clean)
    assert done.returncode == 0, done.stderr
    assert "TEMPLATES" in done.stderr
    assert (out / "openai.py").is_file()
    assert "weather_get" in (out / "schemas/openai/names.json").read_text()
    version = run_installed(installed, "--version", cwd=clean)
    assert version.returncode == 0 and "toolgen" in version.stdout


def test_the_installed_wheel_builds_the_example_design(installed, example_design, tmp_path):
    clean = tmp_path / "elsewhere"
    clean.mkdir()
    done = run_installed(installed, "build", example_design, "-o", tmp_path / "gen", cwd=clean)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "gen" / ".toolgen-manifest.json").is_file()
