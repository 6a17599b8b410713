"""A split canonical module put together from its functions formatted one by one, in a process
that builds again (``toolgen watch``).

black formats a top-level function the same alone as among others (what the split and the
formatter's cuts rely on), so the formatted module is the template formatted without its
compiled functions, with each function's formatted text put back where they go: before the
template's own code that follows them (the class of the tables). A rebuild then formats only the
functions it changed, each alone (the others' texts are kept by their unformatted text), and
never writes, cuts, hashes or scans the megabytes of the whole module. The first build of a
process, and one that changed many functions, formats the module whole
(``compiler.submit_canonical_module``), and keeps each function's text for the next.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolgen.compile.canonical.split import Split, split_functions
from toolgen.infra.kept import Kept
from toolgen.infra.parallel import Runner
from toolgen.render.formatting import format_definition

#: a rebuild that changed more functions than this formats the module whole
MOST_FORMATTED = 64
#: the template's first line after the compiled functions (split modules only)
AFTER_FUNCTIONS = "\nclass _Canonicalizers("
#: the tag of a module's map of each function's formatted text by its unformatted text
TEXT_TAG = "canonical-function"


def function_name(function: str) -> str:
    """The name of a compiled function (``def _tool_x(value: Any) -> Any:`` ...)."""
    return function.split("(", 1)[0].removeprefix("def ")


def kept_texts(kept: Kept, core: str, functions: Sequence[str]) -> list[str | None] | None:
    """Each function's formatted text the last build kept for the module ``core`` (None: not
    kept, to be formatted); None when more than :data:`MOST_FORMATTED` are not."""
    last: dict[str, str] = kept.get((TEXT_TAG, core)) or {}
    found = [last.get(function) for function in functions]
    return None if found.count(None) > MOST_FORMATTED else found


def keep_texts(kept: Kept, core: str, functions: Sequence[str], split: Split) -> None:
    """Each function's formatted text from the module ``core`` formatted whole, for the next
    build: one map a module and build (a key a function would be thousands of objects more for
    the collector to count each build)."""
    texts = split.texts
    named = ((function, texts.get(function_name(function))) for function in functions)
    kept.put((TEXT_TAG, core), {function: text for function, text in named if text is not None})


def rejoined(
    skeleton: str,
    functions: Sequence[str],
    found: Sequence[str | None],
    roots: list[str],
    core: str,
    header: str,
    runner: Runner,
) -> Split | None:
    """The split of the module whose template formatted without compiled functions is
    ``skeleton`` and whose functions are ``functions``, formatted where ``found`` has no text
    for them (:func:`kept_texts`); None when the skeleton has no one place for them."""
    at = skeleton.find(AFTER_FUNCTIONS)
    if at < 0 or skeleton.find(AFTER_FUNCTIONS, at + 1) >= 0 or runner.kept is None:
        return None
    head, tail = skeleton[: at + 1], skeleton[at + 1 :]
    texts: dict[str, str] = {}
    for function, text in zip(functions, found, strict=True):
        if text is None:
            # two blank lines after it, up to the next top-level line, as split_module cuts
            text = format_definition(function.rstrip("\n") + "\n") + "\n\n"
        texts[function_name(function)] = text
    runner.kept.put((TEXT_TAG, core), dict(zip(functions, texts.values(), strict=True)))

    def without(gone: set[str]) -> str:
        return head + "".join(text for name, text in texts.items() if name not in gone) + tail

    # a rebuild that changed no function (a description edited) finds the split itself, by
    # everything it is made from (the texts compared by identity first: the kept objects)
    key = ("rejoined", skeleton, tuple(texts), tuple(texts.values()), tuple(roots), core, header)
    return runner.kept.computed(
        key, lambda: split_functions(texts, roots, core, header, runner, without)
    )
