"""Adding an OpenAI-compatible provider is one profile module: a copy of toolgen's tree with a
short ``toolgen/providers/acme.py`` (deriving from openai, no envelope folder) builds a working
module for it, whose envelope validators accept a recorded OpenAI chat body and whose decoder reads
its tool calls. One more, optional, line (its ``Endpoint``) lets ``toolgen canary record`` reach
its API without ``--base-url``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.canary_loopback import serving
from tests.conftest import tool_file, write_design

REPO = Path(__file__).resolve().parents[1]
RECORDED = REPO / "examples" / "recorded" / "chat_tool_calls.json"

ACME = '''"""Acme, an OpenAI-compatible gateway: OpenAI's rules and responses, Chat Completions only."""

from toolgen.apis.chat import CHAT
from toolgen.providers.base import derive
from toolgen.providers.openai import OPENAI
from toolgen.providers.registration import Registration

ACME = derive(OPENAI, name="acme", title="Acme strict mode", display_name="Acme", apis=(CHAT,))
REGISTRATION = Registration(ACME, order=1000, on_request=True)
'''
REGISTRATION = "REGISTRATION = Registration(ACME, order=1000, on_request=True)\n"
# The optional line that makes it canary-able: the key's variable, the base URL, a small model
# (the key goes as ``Authorization: Bearer``; ``auth=`` takes another header function).
ENDPOINT_REGISTRATION = """from toolgen.providers.endpoints import Endpoint

REGISTRATION = Registration(
    ACME, order=1000, on_request=True, endpoint=Endpoint("ACME_API_KEY", {!r}, "acme-small")
)
"""

# Run with the generated package importable: the recorded body passes, a drifted one does not,
# and a body calling the design's tool decodes to its model.
CHECK = """
import json, sys
from gen import acme
body = json.loads(open(sys.argv[1]).read())
assert acme.validate_chat_completion(body) is body
drifted = json.loads(json.dumps(body))
drifted["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = 7
try:
    acme.validate_chat_completion(drifted)
except acme.SchemaDriftError as error:
    drift = error.path
else:
    raise SystemExit("a drifted body passed")
call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": '{"q": "x"}'}}
body["choices"][0]["message"]["tool_calls"] = [call]
(decoded,) = acme.parse_tool_calls(body)
arguments = decoded.arguments.model_dump()
print(json.dumps({"provider": acme.PROVIDER, "drift": drift, "call": [decoded.name, arguments]}))
"""


def _tree(root: Path, module: str = ACME) -> Path:
    """A copy of toolgen's source and templates with the acme provider module added."""
    src = root / "src"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPO / "toolgen", src / "toolgen", ignore=ignore)
    shutil.copytree(REPO / "templates", src / "templates", ignore=ignore)
    (src / "toolgen" / "providers" / "acme.py").write_text(module, encoding="utf-8")
    return src


def _run(
    args: list[str], path: Path, cwd: Path, **environ: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(path), **environ}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_one_module_adds_an_openai_compatible_provider(tmp_path):
    src = _tree(tmp_path)
    parameters = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    design = write_design(
        tmp_path / "design", {"tools/lookup.yaml": tool_file("lookup", parameters)}
    )
    out = tmp_path / "out" / "gen"
    build = ["-m", "toolgen", "build", str(design), "-o", str(out), "--provider", "acme", "-j", "1"]
    built = _run([*build, "--no-cache", "-q"], src, tmp_path)
    assert built.returncode == 0, built.stderr
    assert (out / "acme.py").is_file() and (out / "_envelopes_acme.py").is_file()
    assert "validate_chat_completion_chunk" in (out / "_envelopes_acme.py").read_text()

    checked = _run(["-c", CHECK, str(RECORDED)], tmp_path / "out", tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout) == {
        "provider": "acme",
        "drift": "choices[0].message.tool_calls[0].function.arguments",
        "call": ["lookup", {"q": "x"}],
    }


def test_the_provider_is_unknown_without_its_module(tmp_path):
    src = _tree(tmp_path)
    (src / "toolgen" / "providers" / "acme.py").unlink()
    listed = _run(["-m", "toolgen", "build", "--help"], src, tmp_path)
    assert listed.returncode == 0 and "acme" not in listed.stdout


def test_an_endpoint_line_makes_it_canary_able(tmp_path):
    parameters = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    design = write_design(
        tmp_path / "design", {"tools/lookup.yaml": tool_file("lookup", parameters)}
    )
    record = ["-m", "toolgen", "canary", "record", str(design), "--provider", "acme"]
    local = {"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"}

    without = _run([*record, "--out", str(tmp_path / "none")], _tree(tmp_path / "a"), tmp_path)
    assert without.returncode == 1
    assert "toolgen knows no endpoint of acme; give --base-url" in without.stderr

    with serving() as loopback:
        module = ACME.replace(REGISTRATION, ENDPOINT_REGISTRATION.format(loopback.url + "/v1"))
        src = _tree(tmp_path / "b", module)
        out = tmp_path / "fixtures"
        recorded = _run([*record, "--out", str(out)], src, tmp_path, ACME_API_KEY="k-1", **local)
        requests = list(loopback.requests)
    assert recorded.returncode == 0, recorded.stderr
    assert "recorded 2 fixture(s)" in recorded.stderr  # the design has no output
    assert [path for path, _, _ in requests] == ["/v1/chat/completions"] * 2
    assert all(headers["Authorization"] == "Bearer k-1" for _, headers, _ in requests)
    assert {body["model"] for _, _, body in requests} == {"acme-small"}
    assert requests[0][2]["tools"][0]["function"]["name"] == "lookup"
    assert sorted(p.name for p in (out / "acme" / "chat").iterdir()) == [
        "stream.json",
        "tool_call.json",
    ]
