"""Two costs of drawing from JSON schemas that hypothesis and hypothesis-jsonschema (pinned at
0.23.1 in the dev extras) pay again on every draw, paid once here. Neither changes what is drawn:
the same choices give the same values, so a seeded run draws the same examples.

- hypothesis-jsonschema builds the strategy of an object's member when it draws the member, from
  the member's schema, by canonicalising and merging it (a third of the law tests' time): the
  strategy is kept by the schema's text (and the run's alphabet).
- hypothesis, each time a ``@st.composite`` strategy is made, asks whether the function reads its
  first parameter, by parsing the function's source file again; hypothesis-jsonschema makes one
  for every object node it draws: the answer is kept per code object.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from types import CodeType
from typing import Any

#: the member strategies kept (each small; the run's alphabet is one object per root schema)
KEPT_STRATEGIES = 8192


def install() -> None:
    """Patch both, where the libraries still have what is patched (else leave them as they are)."""
    from hypothesis.strategies._internal import core

    if hasattr(core, "is_first_param_referenced_in_function"):
        core.is_first_param_referenced_in_function = _asked_once_per_code(
            core.is_first_param_referenced_in_function
        )
    try:
        from hypothesis_jsonschema import _from_schema
    except ImportError:
        return
    original = getattr(_from_schema, "__from_schema", None)
    if original is not None and not hasattr(original, "kept_by_text"):
        setattr(_from_schema, "__from_schema", _kept_by_text(original))


def _asked_once_per_code(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    answers: dict[CodeType, bool] = {}

    def once(function: Any) -> bool:
        code = getattr(function, "__code__", None)
        if not isinstance(code, CodeType):
            return check(function)
        if code not in answers:
            answers[code] = check(function)
        return answers[code]

    return once


def _kept_by_text(build: Callable[..., Any]) -> Callable[..., Any]:
    """``build(schema, alphabet=..., custom_formats=...)``, kept by the schema's JSON text (in
    its own order) where there are no custom formats; each build gets a fresh copy of the schema
    (hypothesis-jsonschema canonicalises the schema it is given in place)."""

    @functools.lru_cache(maxsize=KEPT_STRATEGIES)
    def kept(text: str, alphabet: Any) -> Any:
        return build(json.loads(text), alphabet=alphabet, custom_formats=None)

    def strategy(schema: Any, *, alphabet: Any, custom_formats: Any) -> Any:
        if custom_formats is not None:
            return build(schema, alphabet=alphabet, custom_formats=custom_formats)
        try:
            text = json.dumps(schema)
        except (TypeError, ValueError):
            return build(schema, alphabet=alphabet, custom_formats=custom_formats)
        return kept(text, alphabet)

    strategy.kept_by_text = True  # type: ignore[attr-defined]
    strategy.__wrapped_build__ = build  # type: ignore[attr-defined]
    return strategy
