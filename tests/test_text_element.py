"""The formatter's test for a ``'key': 'JSON text'`` element of a large literal
(toolgen/render/formatting.py ``_text_element``) equals the regular expression it replaced, on
elements as repr writes them and on any text made of the characters that matter."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.render import formatting

#: the pattern ``_text_element`` replaced (a key of :data:`formatting._STRING`, then a text
#: with a double quote and neither single quotes, backslashes nor line breaks)
_NOT_IN_TEXT = r"""'\\\n\r\0\x0b\x0c\x1c-\x1e\x85\u2028\u2029"""
_PATTERN = re.compile(rf"""({formatting._STRING}): ('[^{_NOT_IN_TEXT}]*"[^{_NOT_IN_TEXT}]*')""")

_SPECIAL = ["'", '"', "\\", ":", " ", "\n", "\r", "\0", "\x0b", "\x0c", "\x1b", "\x1c", "\x1d"]
_SPECIAL += ["\x1e", "\x1f", "\x85", "\u2028", "\u2029", "a", "{", "界"]
_ANY = st.text(st.sampled_from(_SPECIAL), max_size=14)
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20) | _ANY


def _expected(element: str) -> tuple[str, str] | None:
    match = _PATTERN.fullmatch(element)
    return None if match is None else (match.group(1)[1:-1], match.group(2))


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_text_element_of_reprs_is_the_patterns(key, text) -> None:
    for element in (f"{key!r}: {text!r}", f"{key!r}: {text + chr(34)!r}", f"{key!r}: {text!r}x"):
        assert formatting._text_element(element) == _expected(element), element


@settings(max_examples=300, deadline=None)
@given(_ANY)
def test_text_element_of_any_text_is_the_patterns(element) -> None:
    for candidate in (element, f"'k': '{element}'", f"'{element}': '\"{element}'"):
        assert formatting._text_element(candidate) == _expected(candidate), candidate


def test_text_elements_laid_out() -> None:
    assert formatting._text_element("'a': '{\"b\":1}'") == ("a", "'{\"b\":1}'")
    assert formatting._text_element("'a': '{}'") is None  # no double quote: a scalar
    assert formatting._text_element("'a\"': '\"'") is None  # a double quote in the key
    assert formatting._text_element("'a': '\"\\\\'") is None  # a backslash in the text
    assert formatting._text_element("'a': '\"\x1d'") is None  # a line break of splitlines
    assert formatting._text_element("'a':'\"'") is None
    assert formatting._text_element("'a': '\"' ") is None
