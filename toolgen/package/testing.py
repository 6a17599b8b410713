"""The package's ``testing`` subpackage: per provider, fakes of its responses and streams whose
tool calls carry canonical payloads in the provider's wire form (toolgen/runtime/_forward.py
writes them from the forward plans of toolgen/compile/canonical/forward.py; the bodies and
events are toolgen/runtime/_fakes.py's). Nothing else in the package imports it."""

from __future__ import annotations

from toolgen.compile.canonical.forward import forward_plan
from toolgen.infra.parallel import Runner
from toolgen.project.design_projection import ProviderProjection
from toolgen.render.formatting import Literal
from toolgen.render.runtime_files import copied, runtime_modules
from toolgen.render.templating import format_python, header, render

FOLDER = "testing"
#: the body and event builders the fakes call (written apart from the forward: present once merged)
FAKES = "_fakes"


def testing_files(served: list[ProviderProjection], runner: Runner) -> dict[str, str]:
    """The files of ``testing/`` for the providers ``served`` (those whose module the package
    has), and the fixed modules they import; none without such a provider."""
    if not served:
        return {}
    files = {
        f"{FOLDER}/__init__.py": format_python(
            render(
                "testing_init.py.j2",
                runner,
                header=header(),
                providers=tuple(p.profile.name for p in served),
            ),
            runner=runner,
        ),
        "_forward.py": copied("_forward", header()),
    }
    if FAKES in runtime_modules():
        files[f"{FAKES}.py"] = copied(FAKES, header())
    for projection in served:
        files |= _provider_files(projection, runner)
    return files


def _provider_files(projection: ProviderProjection, runner: Runner) -> dict[str, str]:
    profile = projection.profile
    tools = [p for p in projection.tools if p.schema is not None]
    plans = Literal(
        "TOOL_PLANS",
        "{",
        tuple(f"{p.contract.name!r}: {forward_plan(p)!r}" for p in tools),
    )
    context = {"header": header(), "provider": profile.name, "title": profile.title}
    return {
        f"{FOLDER}/{profile.name}.py": format_python(
            render(
                "testing_provider.py.j2",
                runner,
                **context,
                api_names=profile.api_names,
                tools=tuple(p.contract.name for p in tools),
            ),
            runner=runner,
        ),
        f"{FOLDER}/_plans_{profile.name}.py": format_python(
            render("testing_plans.py.j2", runner, **context, plans=plans), (plans,), runner=runner
        ),
    }
