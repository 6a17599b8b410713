"""Assembling the generated package: the map of every output file, rendered in memory."""

from __future__ import annotations

import hashlib
import marshal
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from json.encoder import encode_basestring as _json_string
from pathlib import PurePosixPath
from typing import Any

from toolgen import __version__
from toolgen.apis import BASE_MODULES, Api, Requests, requests_for, sdk_objects
from toolgen.compile.canonical.compiler import CanonicalModule, submit_canonical_module
from toolgen.compile.canonical.helpers import SUPPORT_MODULE, import_key
from toolgen.compile.models import plan_models
from toolgen.compile.validators import (
    EnvelopeSchemaError,
    load_envelope_schemas,
    submit_envelope_module,
)
from toolgen.infra.diagnostics import Diagnostic
from toolgen.infra.kept import Kept, each_by_identity, plain_key
from toolgen.infra.parallel import Later, Runner
from toolgen.load.contracts import Design
from toolgen.load.loader import ENVELOPES_FOLDER
from toolgen.package.handlers import handlers_module
from toolgen.package.json_tables import json_tables
from toolgen.package.nullable_members import nullable_members
from toolgen.package.schema_texts import SchemaText, json_text, schema_texts
from toolgen.package.targets import target_files, targets_built
from toolgen.package.testing import testing_files
from toolgen.package.tool_outputs import tool_output_files
from toolgen.project.design_projection import ProviderProjection
from toolgen.project.projection import ProjectedContract
from toolgen.providers.base import Profile
from toolgen.render.formatting import Literal
from toolgen.render.runtime_files import copied, copied_with_imports
from toolgen.render.templating import format_later, header, render

MANIFEST = ".toolgen-manifest.json"


@dataclass(frozen=True)
class PackageFiles:
    """Relative POSIX path -> file content, for one build, and what the rendering stages reported."""

    files: dict[str, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def with_manifest(self, design: Design, kept: Kept | None = None) -> dict[str, str]:
        """The files with the manifest; ``kept``: a process that builds again, whose texts
        kept from the last build keep their hashes."""
        return self.hashed(design, kept)[0]

    def hashed(
        self, design: Design, kept: Kept | None = None
    ) -> tuple[dict[str, str], dict[str, str]]:
        """:meth:`with_manifest`, and the hash of each file but the manifest (path -> SHA-256
        of its UTF-8 bytes, as the manifest lists them)."""
        files = dict(sorted(self.files.items()))
        hashes = _file_hashes(files, kept)
        files[MANIFEST] = manifest_text(design.hash, hashes)
        return files, hashes


def manifest_text(design_hash: str, hashes: dict[str, str]) -> str:
    """The manifest's JSON text: what :func:`json_text` writes of ``{"toolgen_version",
    "design_hash", "files": hashes}``, with the files' lines joined here (the standard library
    writes an indented JSON text in Python, a line at a time, for the thousands of files)."""
    if not hashes:
        return json_text(
            {"toolgen_version": __version__, "design_hash": design_hash, "files": hashes}
        )
    head = (
        f"{{\n  {_json_string('toolgen_version')}: {_json_string(__version__)},\n"
        f"  {_json_string('design_hash')}: {_json_string(design_hash)},\n"
        f"  {_json_string('files')}: {{\n    "
    )
    lines = ",\n    ".join(
        f"{_json_string(path)}: {_json_string(value)}" for path, value in hashes.items()
    )
    return head + lines + "\n  }\n}\n"


def _file_hashes(files: dict[str, str], kept: Kept | None) -> dict[str, str]:
    """Each file's hash; in a process that builds again, a text that is the very object the
    last build hashed keeps its hash."""
    hashes = each_by_identity(kept, "sha256", list(files.values()), _sha256)
    return dict(zip(files, hashes, strict=True))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _import_statement(module: str, names: list[str]) -> str:
    """One import, on one line when it fits ruff's default line length (88), else one name a line
    with a trailing comma (which black and isort both keep)."""
    line = f"from .{module} import {', '.join(names)}"
    if len(line) <= 88:
        return line
    return f"from .{module} import (\n" + "".join(f"    {name},\n" for name in names) + ")"


def _relative_imports(
    projection: ProviderProjection,
    surfaces: list[str],
    requests: Requests,
    canonical_module: str | None,
    drops_nulls: bool = False,
) -> list[str]:
    """The generated provider module's relative imports, in isort's order (an ``x as y`` import
    on a line of its own after its module's others)."""
    profile = projection.profile
    decode = ["OutputData", "ToolCall", "TypedCalls", "decode_output", "output_data"]
    if any(api.sdk_models for api in profile.apis):
        decode.append("projected_model")
    by_module: dict[str, set[str]] = {
        "_contracts": {"Contracts", "ModuleTable"},
        "_decode": set(decode),
        f"_envelopes_{profile.name}": {f"validate_{surface}" for surface in surfaces}
        | {f"read_{surface}" for api in profile.apis for surface in api.readers},
        "_runtime": {
            *("CallReader", "Event", "PayloadError", "RawCalls", "RawToolCall"),
            *("SchemaDriftError", "ToolCallDecoder"),
        },
        "models": {"model_for"},
        requests.module: {requests.name},
    }
    if "limits" in requests.arguments:
        by_module["_contracts"].add("StrictToolLimits")
    for api in profile.apis:
        for module, names in api.imports().items():
            by_module.setdefault(module, set()).update(names)
    _loop_imports(by_module)
    aliases = {}
    if canonical_module is not None:
        by_module["_runtime"].add("OnFirstUse")
        by_module[canonical_module] = {"OUTPUT_CANONICALIZERS", "TOOL_CANONICALIZERS"}
        aliases[canonical_module] = "canonicalize_text as _canonicalize_text"
    if drops_nulls:  # the inverse reads a null of a member a request wrote nullable as absent
        by_module["_runtime"].add("OnFirstUse")
        by_module["_contracts"].add("without_nulls")
        if canonical_module is None:
            by_module["_canonical_support"] = set()
            aliases["_canonical_support"] = "canonicalize_text as _canonicalize_text"
    lines: list[str] = []
    for module in sorted(by_module):
        if by_module[module]:
            lines.append(_import_statement(module, sorted(by_module[module], key=import_key)))
        if module in aliases:
            lines.append(_import_statement(module, [aliases[module]]))
    return lines


def _loop_imports(by_module: dict[str, set[str]]) -> None:
    """What the tool loop of a provider module (templates/_tool_loop.py.j2) imports beside each
    API's loop class and types (``Api.imports``)."""
    by_module["_runtime"].add("collecting_failures")
    by_module["_outcomes"] = {"FailedCall", "answer_for", "answers_for", "outcome"}
    by_module["_dispatch"] = {"arun_calls", "run_calls"}
    by_module["tool_outputs"] = {"dump_output"}


def _tables(
    tools: list[ProjectedContract],
    outputs: list[ProjectedContract],
    texts: dict[tuple[str, str], SchemaText],
    kept: Kept | None = None,
    provider: str = "",
) -> dict[str, Literal]:
    """The tables of the provider's tables module (templates/provider_tables.py.j2), one element
    per contract, given to the formatter as data (toolgen/render/formatting.py); the
    provider module's own name tables are JSON rows (templates/_provider_tables.py.j2). The
    schemas are JSON texts, their definitions stored once in ``DEFINITIONS``
    (toolgen/package/json_tables.py). A contract's other elements are a function of its
    projection: in a process that builds again, kept by the identity of a projection kept from
    the last build (each ``provider``'s apart)."""
    tool_rows = each_by_identity(
        kept, ("tool-table-elements", provider), tools, partial(_tool_elements, texts)
    )
    contracts = (*tools, *outputs)
    # the compact texts the schema texts were found by (each schema has one, but None)
    found = [texts.get((p.contract.kind, p.contract.name)) for p in contracts]
    compact_texts = [text.compact for text in found if text is not None]
    schemas = json_tables(
        [p.schema for p in contracts],
        "$defs",
        kept,
        ("schemas", provider),
        compact_texts if len(compact_texts) == len(contracts) else None,
    )
    tool_texts, output_texts = schemas.texts[: len(tools)], schemas.texts[len(tools) :]
    # by name, as a dict of the tables would have them
    tool_by_name = {
        p.contract.name: (row[0], _text_element(p, text), *row[1:])
        for p, row, text in zip(tools, tool_rows, tool_texts, strict=True)
    }
    output_by_name = {
        p.contract.name: (
            f"{p.contract.name!r}: {p.contract.description!r}",
            _text_element(p, t),
            f"{p.contract.name!r}: {texts[('output', p.contract.name)].sizes!r}",
        )
        for p, t in zip(outputs, output_texts, strict=True)
    }
    # the JSON texts one a line (a trailing comma): a table of one large text is cut like a table
    # of many, and its lines are laid out without black (toolgen/render/formatting.py)
    tables = [
        Literal(name, "{", tuple(row[column] for row in rows.values()), trailing_comma=texts)
        for name, column, rows, texts in (
            ("TOOL_DESCRIPTIONS", 0, tool_by_name, False),
            ("TOOL_SCHEMAS", 1, tool_by_name, True),
            ("TOOL_SIZES", 2, tool_by_name, False),
            ("TOOL_PRIORITIES", 3, tool_by_name, False),
            ("OUTPUT_DESCRIPTIONS", 0, output_by_name, False),
            ("OUTPUT_SCHEMAS", 1, output_by_name, True),
            ("OUTPUT_SIZES", 2, output_by_name, False),
        )
    ]
    definitions = tuple(f"{key!r}: {text!r}" for key, text in schemas.shared.items())
    tables.append(Literal("DEFINITIONS", "{", definitions, trailing_comma=True))
    return {table.name: table for table in tables}


def _text_element(projected: ProjectedContract, text: str) -> str:
    return f"{projected.contract.name!r}: {text!r}"


def _tool_elements(
    texts: dict[tuple[str, str], SchemaText], projected: ProjectedContract
) -> tuple[str, ...]:
    """A tool's elements of the tables but its schema: its description, sizes and priority."""
    contract = projected.contract
    text = texts[("tool", contract.name)]
    key = repr(contract.name)
    return (
        f"{key}: {contract.description!r}",
        f"{key}: {text.sizes!r}",
        f"{key}: {contract.priority!r}",
    )


def _tables_module(
    design: Design, projection: ProviderProjection, tables: dict[str, Literal], runner: Runner
) -> Later[str]:
    """The provider's tables module: the per-contract tables its provider module loads on first
    use (``ModuleTable``)."""
    source = render(
        "provider_tables.py.j2",
        runner,
        header=header(),
        title=projection.profile.title,
        provider=projection.profile.name,
        tables=tables,
    )
    return format_later(source, tuple(tables.values()), runner=runner)


def _provider_module(
    design: Design,
    projection: ProviderProjection,
    surfaces: list[str],
    classes: dict[tuple[str, str], tuple[str, str]],
    canonical_module: str | None,
    texts: dict[tuple[str, str], SchemaText],
    runner: Runner,
) -> dict[str, Later[str]]:
    """The generated module of one provider (its tables, bound to the runtime's API classes, and
    to ``canonical_module``'s canonicalizers; None: payloads come back canonical as they are) and
    its tables module and its stub of types (the types that grow with the design), by file name."""
    profile = projection.profile
    tools = [p for p in projection.tools if p.schema is not None]
    outputs = [p for p in projection.outputs if p.schema is not None]
    tables = _tables(tools, outputs, texts, runner.kept, profile.name)
    tables_module = f"_tables_{profile.name}"
    nullable_rows = [
        (p.contract.name, list(members)) for p in tools if (members := nullable_members(p, profile))
    ]
    requests = requests_for(profile.apis)
    sdk_models = any(api.sdk_models for api in profile.apis)
    public = [
        *("PROVIDER", "AnyToolCall", "Api", "OutputData", "PayloadError", "SchemaDriftError"),
        *("ToolCall", "ToolCallStream", "canonicalize", "canonicalize_output"),
        *("canonicalize_output_text", "canonicalize_text", "decode_tool_call", "parse_output"),
        *("parse_tool_calls", "parameters", "output_schema", "TOOLS", "OUTPUTS"),
        *("PROVIDER_NAMES", "CANONICAL_NAMES", "OUTPUT_PROVIDER_NAMES", "OUTPUT_CANONICAL_NAMES"),
        *("STRICT", "MAX_TOOLS", "MAX_STRICT_TOOLS", "MAX_OPTIONAL_MEMBERS", "MAX_UNION_MEMBERS"),
        *requests.functions,
        *(name for api in profile.apis for name in api.types),
        *(f"validate_{surface}" for surface in surfaces),
        *(("tool_model", "output_model") if sdk_models else ()),
        *("AnyOutcome", "FailedCall", "assistant_turn", "tool_result", "tool_results"),
        *("run_tool_calls", "arun_tool_calls"),
        *(name for api in profile.apis if api.loop for name in api.loop.types),
    ]
    types_module = f"_types_{profile.name}"
    named = {
        "sdk_models": sdk_models,
        "tools": tuple(p.contract.name for p in tools),
        "outputs": tuple(p.contract.name for p in outputs),
        "tool_classes": {p.contract.name: classes[("tool", p.contract.name)][1] for p in tools},
        "output_classes": {
            p.contract.name: classes[("output", p.contract.name)][1] for p in outputs
        },
    }
    source = render(
        profile.template or "provider.py.j2",
        runner,
        header=header(),
        title=profile.title,
        provider=profile.name,
        types_module=types_module,
        apis=profile.apis,
        api_names=profile.api_names,
        api_titles=[api.title for api in profile.apis],
        requests=requests,
        request_options=dict(sorted(profile.request_options.items())),
        request_functions=requests.functions,
        imports=_relative_imports(
            projection, surfaces, requests, canonical_module, bool(nullable_rows)
        ),
        public=public,
        tool_rows=[(p.contract.name, p.provider_name, p.strict) for p in tools],
        output_rows=[(p.contract.name, p.provider_name) for p in outputs],
        nullable_rows=nullable_rows,
        trades_optionals=profile.optionals_over_cap,
        tables_module=f".{tables_module}",
        canonical_module=canonical_module,
        inverse_work=projection.inverse_notes(),
        limits=profile.limits,
        all_strict=all(p.strict for p in tools),
        **named,
        **{"loop_options": {}, **projection.profile.module_data},
    )
    types = render("provider_types.pyi.j2", runner, header=header(), provider=profile.name, **named)
    return {
        f"{profile.name}.py": format_later(source, runner=runner),
        f"{tables_module}.py": _tables_module(design, projection, tables, runner),
        f"{types_module}.pyi": format_later(types, runner=runner),
    }


def _fixed_modules(apis: Sequence[Api], profile: Profile) -> tuple[str, ...]:
    """The fixed modules a provider module that speaks ``apis`` imports (each with the fixed
    modules it imports in turn: ``copied_with_imports``); ``_canonical_support`` where a
    request may write members nullable (its inverse reads JSON text)."""
    trades = ("_canonical_support",) if profile.optionals_over_cap else ()
    return (*BASE_MODULES, *(api.module for api in apis), requests_for(apis).module, *trades)


def _texts(projection: ProviderProjection, runner: Runner) -> dict[tuple[str, str], SchemaText]:
    """The texts of every projected schema of ``projection`` (toolgen/package/schema_texts.py)."""
    projected = [p for p in (*projection.tools, *projection.outputs) if p.schema is not None]
    texts = schema_texts(
        [p.schema for p in projected],
        runner,
        projection.profile.name,
        [(f"{p.contract.kind} {p.contract.name}", p.inputs) for p in projected],
    )
    return {(p.contract.kind, p.contract.name): t for p, t in zip(projected, texts, strict=True)}


def _schema_files(
    projection: ProviderProjection, texts: dict[tuple[str, str], SchemaText]
) -> dict[str, str]:
    """The projections as JSON, for consumers that are not Python."""
    base = PurePosixPath("schemas") / projection.profile.name
    files: dict[str, str] = {}
    for folder, contracts in (("tools", projection.tools), ("outputs", projection.outputs)):
        for p in contracts:
            if p.schema is not None:
                file = f"{p.provider_name}.json"
                # no provider's names have a "/"; else pathlib's spelling of the path, as it was
                path = f"{base}/{folder}/{file}" if "/" not in file else str(base / folder / file)
                files[path] = texts[(p.contract.kind, p.contract.name)].json
    files[str(base / "names.json")] = json_text(
        {
            "tools": projection.name_map("tool"),
            "outputs": projection.name_map("output"),
        }
    )
    return files


def render_package(
    design: Design, projections: list[ProviderProjection], runner: Runner | None = None
) -> PackageFiles:
    """Every file of the package; a projection-only provider (no APIs) gets its schema files and
    no module. ``runner`` does the work that can be shared out or cached (in this process, without
    a cache, when None)."""
    runner = runner or Runner()
    # the models go to the workers early, collected last: the other modules are rendered
    # meanwhile; each module's formatting goes to the workers too, collected after the last is
    # rendered (this process takes back what no worker started: toolgen/infra/parallel.py)
    models = plan_models(design, header(), runner)
    providers = tuple(p.profile.name for p in projections if p.profile.apis)
    files: dict[str, str] = {}
    formatting: dict[str, Later[str]] = {}  # files whose formatting is under way
    canonical_files: list[tuple[str, Later[CanonicalModule]]] = []  # (module, its pending split)
    targets = design.config.targets
    if providers or targets:
        # one large part (a class a tool long): first in the queue, so that it ends no later
        # than the models
        formatting["handlers.py"] = handlers_module(design, models.classes, runner)
    models.start()
    formatting["__init__.py"] = _package_init(design, providers, runner)
    files |= target_files(design, providers, runner)  # where the tools run besides the loops
    diagnostics: list[Diagnostic] = []
    files["_runtime.py"] = copied("_runtime", header())
    files["_json.py"] = copied("_json", header())  # _runtime's JSON reading
    files["_fakes.py"] = copied("_fakes", header())  # fake responses for the tests of users
    files["_json_tables.py"] = copied("_json_tables", header())  # the tables of JSON texts
    files.update(tool_output_files(design, models.classes, runner))
    inverses = InverseModules.plan(projections)
    failed: set[str] = set()  # canonical modules that did not compile
    for module, compiled_from in inverses.compiled_from.items():
        pending = submit_canonical_module(design, compiled_from, header(), runner, split=module)
        if _compiled(pending, diagnostics):
            canonical_files.append((module, pending))
        else:
            failed.add(module)
    served: list[ProviderProjection] = []  # the providers that get a module
    for projection in projections:
        name = projection.profile.name
        if not projection.profile.apis:
            files.update(_schema_files(projection, _texts(projection, runner)))
            continue
        schemas, found = _envelope_schemas(design, projection, runner)
        diagnostics += found
        canonical_module = inverses.of_provider.get(name)
        if found or canonical_module in failed:
            continue
        for module in _fixed_modules(projection.profile.apis, projection.profile):
            files |= copied_with_imports(module, header())
        formatting[f"_envelopes_{name}.py"] = _envelope_module(name, schemas, projection, runner)
        texts = _texts(projection, runner)
        formatting |= _provider_module(
            design, projection, list(schemas), models.classes, canonical_module, texts, runner
        )
        files.update(_schema_files(projection, texts))
        served.append(projection)
    files |= testing_files(served, runner)
    for module, pending in canonical_files:
        files |= _canonical_files(module, pending.result(), header())
    files |= {path: text.result() for path, text in formatting.items()}
    done = models.result()
    files.update(done.files)  # the build sorts the files; the models' findings come first
    return PackageFiles(files, [*done.diagnostics, *diagnostics])


#: a design's hash (a SHA-256 in hex), and what stands in for it while ``__init__.py`` is formatted
_DESIGN_HASH = re.compile("[0-9a-f]{64}")
_HASH_STAND_IN = "0" * 64


def _package_init(design: Design, providers: tuple[str, ...], runner: Runner) -> Later[str]:
    """The package's ``__init__.py``, formatted with a stand-in for the design's hash that is
    put in its place after: the hash changes with every edit, the rest of the module (a hundred
    kilobytes for thousands of tools, formatted by black whole) only with the contracts' names,
    so a process that builds again formats it once. black writes the hash's line the same for
    any 64 hex digits; were the stand-in's line not found once, the module is formatted with
    the hash itself."""

    def rendered(design_hash: str) -> str:
        return render(
            "package_init.py.j2",
            runner,
            header=header(),
            version=__version__,
            design_hash=design_hash,
            providers=providers,
            tools=[c.name for c in design.tools],
            outputs=[c.name for c in design.outputs],
            submodules=tuple(
                sorted(
                    (
                        *providers,
                        *targets_built(design, providers),
                        "models",
                        *(("testing",) if providers else ()),
                        *(("handlers",) if providers or design.config.targets else ()),
                    )
                )
            ),
        )

    real = design.hash
    if not _DESIGN_HASH.fullmatch(real):
        return format_later(rendered(real), runner=runner)
    formatted = format_later(rendered(_HASH_STAND_IN), runner=runner)

    def placed() -> str:
        text = formatted.result()
        stand_in = f'\nDESIGN_HASH = "{_HASH_STAND_IN}"\n'
        if text.count(stand_in) != 1:
            return format_later(rendered(real), runner=runner).result()
        return text.replace(stand_in, f'\nDESIGN_HASH = "{real}"\n', 1)

    return Later(placed)


def _compiled(pending: Later[CanonicalModule], diagnostics: list[Diagnostic]) -> bool:
    """Whether a canonical module under way compiled (a module that did not is ready at once,
    with its findings, added to ``diagnostics``)."""
    if not pending.ready:
        return True
    module = pending.result()
    diagnostics += module.diagnostics
    return module.source is not None


def _envelope_schemas(
    design: Design, projection: ProviderProjection, runner: Runner
) -> tuple[dict[str, Any], list[Diagnostic]]:
    provider = projection.profile.name
    overrides = {
        key: value for key, value in design.envelopes.items() if key.split("/", 1)[0] == provider
    }
    apis = projection.profile.apis
    try:
        overrides_key = plain_key(overrides)
        if overrides_key is None or runner.kept is None:
            return load_envelope_schemas(provider, overrides, apis), []
        # kept as marshal's bytes: each build gets a copy of its own
        key = ("envelope-schemas", provider, overrides_key, apis)
        found = runner.kept.get(key)
        if found is not None:
            runner.kept.put(key, found)
            return marshal.loads(found), []
        schemas = load_envelope_schemas(provider, overrides, apis)
        blob = plain_key(schemas)
        if blob is not None:
            runner.kept.put(key, blob)
        return schemas, []
    except EnvelopeSchemaError as error:
        file = f"{ENVELOPES_FOLDER}/{provider}/{error.surface}.json"
        return {}, [Diagnostic(file, error.pointer, provider, "INVALID_ENVELOPE", error.message)]


def _envelope_module(
    provider: str, schemas: dict[str, Any], projection: ProviderProjection, runner: Runner
) -> Later[str]:
    """The provider's envelope validators (``_envelopes_<provider>.py``), compiled again only
    when its envelope schemas change (a process that builds again keeps it by them)."""
    sdk = sdk_objects(projection.profile.apis)
    schemas_key = plain_key(schemas)

    def compute() -> Later[str]:
        return submit_envelope_module(provider, schemas, header(), runner, sdk_objects=sdk)

    if schemas_key is None:
        return compute()
    return runner.keeping(("envelope-module", provider, schemas_key, header(), sdk), compute)


@dataclass(frozen=True)
class InverseModules:
    """Which canonical module each provider reads its payloads back with, and what each module is
    compiled from. A provider whose record holds no rewrite the inverse undoes
    (``ProviderProjection.inverse_notes``) has none: its payloads are canonical as they come. Providers whose
    strict contracts are projected alike (the same projected schemas and records) share one
    module, named after the first of them (``_canonical_<provider>``), so what a provider decodes
    never depends on which other providers are built with it."""

    of_provider: dict[str, str]
    compiled_from: dict[str, ProviderProjection]

    @staticmethod
    def plan(projections: list[ProviderProjection]) -> InverseModules:
        of_provider: dict[str, str] = {}
        compiled_from: dict[str, ProviderProjection] = {}
        keys: dict[str, tuple[Any, ...]] = {}
        for projection in projections:
            name = projection.profile.name
            if not projection.profile.apis or not projection.inverse_notes():
                continue
            key = _inverse_key(projection)
            module = next((m for m, other in keys.items() if other == key), None)
            if module is None:
                module = f"_canonical_{name}"
                keys[module] = key
                compiled_from[module] = projection
            of_provider[name] = module
        return InverseModules(of_provider, compiled_from)


def _inverse_key(projection: ProviderProjection) -> tuple[Any, ...]:
    """What a provider's inverse is compiled from: each strict contract's projected schema and
    record of rewrites (two providers with equal keys have the same inverse)."""
    return tuple(
        (p.contract.kind, p.contract.name, p.meaning, p.rewrites)
        for p in projection.strict_contracts()
    )


def _canonical_files(module: str, canonical: CanonicalModule, header: str) -> dict[str, str]:
    """The files of a canonical module split into its core and its contracts' modules, which
    load on first use (``toolgen.compile.canonical.split``), and the fixed helpers they import
    (toolgen/runtime/_canonical_support.py, the same file for every canonical module)."""
    assert canonical.source is not None
    package = f"{module}_parts"
    files = {f"{module}.py": canonical.source, **copied_with_imports(SUPPORT_MODULE, header)}
    files[f"{package}/__init__.py"] = (
        f'{header}\n"""One module per canonicalizer of ``{module}``, imported on first use."""\n'
    )
    files |= {f"{package}/{name}.py": text for name, text in canonical.parts.items()}
    return files
