"""Every Python example of README.md and docs/*.md runs, against the package the toolgen under
test builds from examples/design.

The blocks of one page run in order in one namespace (a page may set up what later blocks use),
in a folder holding that package as ``gen`` and the repository's ``examples/``, with the SDK
clients pointed at a local stand-in of the providers' APIs (tests/sdk/stand_in.py). A block that
is not meant to run has ``<!-- docs-test: skip -->`` on the line before its fence; those are
counted against ``SKIPPED``, so none is skipped silently.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.sdk import stand_in
from toolgen.build import build
from toolgen.package.writer import write_package
from toolgen.providers import PROVIDER_NAMES

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SKIP_MARK = "<!-- docs-test: skip -->"
#: page (relative to the repository) -> how many of its Python blocks are marked not to run
SKIPPED: dict[str, int] = {}
FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)")


@dataclass(frozen=True)
class Block:
    page: str
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    skipped: bool


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, with the language of each."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, language = opening.groups()
        end = index + 1
        while end < len(lines) and not lines[end].startswith(fence):
            end += 1
        before = next((x.strip() for x in reversed(lines[:index]) if x.strip()), "")
        code = "\n".join(lines[index + 1 : end]) + "\n"
        relative = page.relative_to(REPO).as_posix()
        found.append(Block(relative, index + 1, language, code, before == SKIP_MARK))
        index = end + 1
    return found


def python_blocks(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.language == "python"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory, suite_cache: Path) -> Path:
    """A folder with the example design built for every provider as ``gen/`` and ``examples/``."""
    result = build(REPO / "examples" / "design", PROVIDER_NAMES, cache_dir=suite_cache)
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("docs")
    write_package(root / "gen", result.files)
    (root / "examples").symlink_to(REPO / "examples", target_is_directory=True)
    return root


@pytest.fixture(scope="module")
def stand_in_url() -> Iterator[str]:
    yield from stand_in.serve()


def _forget_gen() -> None:
    """``gen`` and what imported it (``examples.handlers``): a page's handlers must raise the
    ToolError of the ``gen`` that page imports."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("gen", "examples")]:
        del sys.modules[name]


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_python_examples_run(
    page: Path, workdir: Path, stand_in_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("openai", reason="the SDK examples need the dev extras")
    for name, value in stand_in.environment(stand_in_url).items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(workdir)
    monkeypatch.syspath_prepend(str(workdir))
    _forget_gen()  # a `gen` imported from elsewhere (the repository's `make demo`) must not answer
    namespace: dict[str, object] = {"__name__": "__docs__"}
    try:
        for block in python_blocks(page):
            if block.skipped:
                continue
            code = compile(block.code, f"{block.page}:{block.line}", "exec")
            try:
                exec(code, namespace)
            except Exception as error:
                pytest.fail(f"the example at {block.page}:{block.line} fails: {error!r}")
    finally:
        _forget_gen()


@functools.cache
def docs_modules() -> dict[str, str]:
    """Each page's examples, in order, as one module (file name -> code) to put beside ``gen``:
    what a user copies. tests/test_sdk_typing.py type-checks them with mypy and pyright, in its
    runs over the same package."""
    modules = {}
    for page in PAGES:
        code = [b.code for b in python_blocks(page) if not b.skipped]
        if code:
            modules["docs_" + re.sub(r"\W", "_", page.stem.lower()) + ".py"] = "\n".join(code)
    return modules


def test_skipped_examples_are_the_declared_ones() -> None:
    skipped = {
        page.relative_to(REPO).as_posix(): sum(b.skipped for b in python_blocks(page))
        for page in PAGES
    }
    assert {page: n for page, n in skipped.items() if n} == SKIPPED


def test_every_python_like_block_is_a_python_block() -> None:
    """A block fenced as ``py`` or ``python3`` would escape the runner: only ``python`` counts."""
    for page in PAGES:
        for block in blocks(page):
            assert block.language == "python" or not block.language.startswith(("py", "Py")), (
                f"{block.page}:{block.line} is fenced as {block.language!r}; write ```python"
            )


def test_the_pages_have_examples_to_run() -> None:
    """The README's loop and the generated package's API are examples that run."""
    counts = {p.relative_to(REPO).as_posix(): len(python_blocks(p)) for p in PAGES}
    assert counts["README.md"] >= 1
    assert counts["docs/generated-api.md"] >= 5
    assert counts["docs/sdks.md"] >= 5


COMMAND = re.compile(r"\btoolgen (build|validate|show|diff|watch|import|providers)\b([^`\n#]*)")


def test_the_options_the_pages_name_exist() -> None:
    """Each ``toolgen COMMAND --option`` written in the pages is an option of that command."""
    from click.testing import CliRunner

    from toolgen.cli import main

    runner = CliRunner()
    helps: dict[str, str] = {}
    checked = 0
    for page in PAGES:
        for command, rest in COMMAND.findall(page.read_text(encoding="utf-8")):
            if command not in helps:
                helps[command] = runner.invoke(main, [command, "--help"]).output
            for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest):
                assert option in helps[command], f"{page.name}: toolgen {command} {option}"
                checked += 1
    assert checked >= 20  # the synopsis of docs/commands.md alone names more


def test_the_pages_cite_public_sources() -> None:
    """A user of toolgen has the provider's pages and SDKs, not the notes toolgen was built from
    (docs/providers.md included: it is written from the profiles, which cite public sources)."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "PROVIDERS.md" not in text and "](../shared/" not in text, page.name
        if page.name != "README.md":  # the README's set-up names where the suite's corpus is
            assert "../shared/" not in text, page.name


@pytest.mark.parametrize("page", ["README.md", "docs/design.md"])
def test_the_tool_file_of_the_page_loads(page: str, tmp_path: Path) -> None:
    """The tool file a page shows is a tool of a design (with the example design's definitions)."""
    import shutil

    from toolgen.build import analyze

    tool = next(
        b.code for b in blocks(REPO / page) if b.language == "yaml" and b.code.startswith("name:")
    )
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "refund.yaml").write_text(tool, encoding="utf-8")
    shutil.copytree(REPO / "examples" / "design" / "defs", tmp_path / "defs")
    result = analyze(tmp_path, ("openai", "anthropic"))
    assert [d.format() for d in result.diagnostics] == []
    assert [t.contract.name for t in result.projections[0].tools] == ["billing.refund"]
