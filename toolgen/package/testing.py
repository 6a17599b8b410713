"""The package's ``testing`` subpackage: per provider, fakes of its responses and streams whose
tool calls carry canonical payloads in the provider's wire form (toolgen/runtime/_forward.py
writes them from the forward plans of toolgen/compile/canonical/forward.py; the bodies and
events are each API's runtime module's: ``fake_response``, ``fake_stream``, and so is their HTTP
framing, ``stream_body``, which ``sse`` returns). Nothing else in the package imports it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from toolgen.compile.canonical.forward import forward_plan
from toolgen.infra.cache import code_fingerprint, digest, grouped_results
from toolgen.infra.parallel import Later, Runner, stored_later, text_of
from toolgen.package.json_tables import Stored, stored, tables_of
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract
from toolgen.providers import ENDPOINTS
from toolgen.providers.base import Profile
from toolgen.render.formatting import Literal
from toolgen.render.runtime_files import copied_with_imports
from toolgen.render.templating import format_python, header, render

FOLDER = "testing"


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
        # with what _forward imports (the canonical modules copy some of it too)
        **copied_with_imports("_forward", header()),
    }
    for projection in served:
        files |= _provider_files(projection, runner)
    return files


def _provider_files(projection: ProviderProjection, runner: Runner) -> dict[str, str]:
    profile = projection.profile
    tools = [p for p in projection.tools if p.schema is not None]
    stored = tables_of(_stored_plans(tools, runner), "defs")
    # JSON texts one a line, cut and laid out without black however few (as assemble._tables)
    plans = Literal(
        "TOOL_PLANS",
        "{",
        tuple(f"{p.contract.name!r}: {t!r}" for p, t in zip(tools, stored.texts, strict=True)),
        trailing_comma=True,
    )
    shared = Literal(
        "DEF_PLANS",
        "{",
        tuple(f"{k!r}: {t!r}" for k, t in stored.shared.items()),
        trailing_comma=True,
    )
    context = {
        "header": header(),
        "provider": profile.name,
        "title": profile.title,
        "fake_options": _fake_options(profile),
        "fake_builders": [(api.name, api.fakes.module) for api in profile.apis],
        "stream_framing": profile.module_data.get("stream_framing", {}),
        "fake_modules": sorted({api.fakes.module for api in profile.apis}),
    }
    names = tuple(p.contract.name for p in tools)
    return {
        f"{FOLDER}/{profile.name}.py": _once(
            runner,
            [context, "provider", profile.api_names, names],
            lambda: format_python(
                render(
                    "testing_provider.py.j2",
                    runner,
                    **context,
                    api_names=profile.api_names,
                    tools=names,
                ),
                runner=runner,
            ),
        ),
        f"{FOLDER}/_plans_{profile.name}.py": _once(
            runner,
            [context, "plans", _elements_digest(plans), _elements_digest(shared)],
            lambda: format_python(
                render("testing_plans.py.j2", runner, **context, plans=plans, shared=shared),
                (plans, shared),
                runner=runner,
            ),
        ),
    }


#: the cache's stage of the fakes' modules, formatted
_MODULES_STAGE = "testing-modules"


def _once(runner: Runner, made_from: Any, make: Callable[[], str]) -> str:
    """``make()``; in a process that builds once, with a cache, from the cache by
    ``made_from`` (what the module is a function of, besides toolgen's code): after an edit that
    changes no plan and no name (a description), the fakes' modules are neither rendered nor
    formatted again (their tables of 3,920 plans cost a one-tool rebuild 20 ms)."""
    if runner.kept is not None or runner.cache is None:
        return make()
    made = stored_later(
        runner.cache, _MODULES_STAGE, made_from, lambda: Later.done(make()), str, text_of
    )
    return made.result()


def _elements_digest(literal: Literal) -> str:
    """A digest of a literal's elements (``repr`` texts, which hold no NUL)."""
    joined = "\0".join(literal.elements)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()


def _stored_plans(tools: list[ProjectedContract], runner: Runner) -> list[Stored]:
    """Each tool's forward plan as stored in ``TOOL_PLANS`` (toolgen/package/json_tables.py),
    through the runner's cache: a function of its projection, whose cache key it has (a rebuild
    plans thousands of unchanged tools). A process that builds once finds them a few dozen
    tools an entry (``grouped_results``: one entry a tool cost a one-tool rebuild of the corpus
    design 24 ms of digests and reads)."""
    keyed = all(p.inputs is not None for p in tools)
    if keyed and runner.kept is None and runner.cache is not None:
        return grouped_results(
            runner.cache,
            "forward-plans",
            [p.contract.name for p in tools],
            [str(p.inputs) for p in tools],
            lambda positions: [_stored_plan(tools[index]) for index in positions],
            _encode_stored,
            _decode_stored,
            tools[0].provider if tools else "",
        )
    return runner.map(
        "forward-plans",
        _stored_plan,
        [(p,) for p in tools],
        key=(lambda a: digest(code_fingerprint(), "forward-plan", a[0].inputs)) if keyed else None,
        encode=_encode_stored,
        decode=_decode_stored,
        parallel=False,
        indexed=True,
        keep_decoded=True,  # texts
    )


def _stored_plan(projected: ProjectedContract) -> Stored:
    return stored(forward_plan(projected), "defs")


def _encode_stored(one: Stored) -> Any:
    return [one.text, [list(pair) for pair in one.held]]


def _decode_stored(value: Any) -> Stored:
    return Stored(str(value[0]), tuple((str(name), str(text)) for name, text in value[1]))


def _fake_options(profile: Profile) -> dict[str, dict[str, Any]]:
    """API -> keyword arguments of the API's fake builders for ``profile``: the model its canary
    asks (its endpoint's) where the API's bodies name one, and its own ``fake_options`` (a wire
    variant)."""
    endpoint = ENDPOINTS.get(profile.name)
    own = profile.module_data.get("fake_options", {})
    options: dict[str, dict[str, Any]] = {}
    for api in profile.apis:
        chosen: dict[str, Any] = {}
        if endpoint is not None and api.fakes.model:  # a Converse body names no model
            chosen["model"] = endpoint.model
        chosen |= own.get(api.name, {})
        if chosen:
            options[api.name] = chosen
    return options
