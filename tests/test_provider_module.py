"""The generated provider module binds what the profile says: its APIs' request class, with the
profile's request options as keyword arguments."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from toolgen import build as build_module
from toolgen.build import build
from toolgen.providers import PROFILES

SMALL = Path(__file__).parent / "cases" / "small" / "design"


def test_request_options_reach_the_request_class(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = replace(PROFILES["groq"], request_options={"spelling": "upper", "depth": 2})
    monkeypatch.setattr(build_module, "profile_for", lambda name, options: chosen)
    result = build(SMALL, ["groq"])
    assert result.ok, result.diagnostics
    module = result.files["groq.py"]
    call = module[module.index("_REQUESTS = ChatCompletionsRequests(") :].split("\n)\n")[0]
    assert call.splitlines()[1:] == [
        "    _TOOLS,",
        "    _OUTPUTS,",
        "    limits=StrictToolLimits(MAX_STRICT_TOOLS, MAX_OPTIONAL_MEMBERS, MAX_UNION_MEMBERS, MAX_TOOLS),",
        "    depth=2,",
        '    spelling="upper",',
    ]
    # only the API modules the provider speaks are copied
    assert "_chat_completions.py" in result.files
    assert not {"_responses.py", "_messages.py", "_converse.py"} & set(result.files)
