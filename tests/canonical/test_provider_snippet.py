"""The canonicalizers as a provider module exposes them: dispatch by canonical name, names mapped
back from the wire, text entry points; built with the rest of the package from the hard cases."""

from __future__ import annotations

import pytest

from toolgen.build import build


@pytest.fixture(scope="module")
def openai_module(hard_design, tmp_path_factory):
    import importlib
    import sys

    result = build(hard_design, ("openai",))
    assert result.ok, [d.format() for d in result.diagnostics]
    root = tmp_path_factory.mktemp("provider")
    for relative, text in result.files.items():
        target = root / "hard_cases_pkg" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("hard_cases_pkg.openai")
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.startswith("hard_cases_pkg")]:
            del sys.modules[name]


def test_provider_module_canonicalizes_by_canonical_name(openai_module) -> None:
    module = openai_module
    payload = {
        "filter": {"field": "a", "equals": "b", "boost": None},
        "choice": None,
        "shape": None,
        "nested_union": None,
    }
    name = module.CANONICAL_NAMES["unions_shared_names"]
    assert name == "unions.shared_names"
    assert module.canonicalize(name, payload) == {"filter": {"field": "a", "equals": "b"}}
    assert module.CANONICAL_NAMES["unicode___"] == "unicode.名前"
    with pytest.raises(KeyError):
        module.canonicalize("unions_shared_names", payload)  # a wire name is not a canonical name
    text = '{"severity": "low", "labels": null, "owner": null}'
    assert module.canonicalize_output_text("triage.result", text) == '{"severity":"low"}'
    same = b'{"f": "x", "a": {"e": "y", "b": {"c": "z", "d": 1}}}'
    assert module.canonicalize_text("nested.optional_objects", same) is same
    assert module.canonicalize_output(
        "triage.result", {"severity": "low", "labels": None, "owner": None}
    ) == {"severity": "low"}
