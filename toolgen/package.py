"""Assembling the generated package: the map of every output file, rendered in memory."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from toolgen import __version__
from toolgen.canonical.compiler import CanonicalModule, render_canonical_module
from toolgen.design import ENVELOPES_FOLDER
from toolgen.diagnostics import Diagnostic
from toolgen.envelope import (
    EnvelopeSchemaError,
    load_envelope_schemas,
    render_envelope_module,
)
from toolgen.limits import measure
from toolgen.model import Design
from toolgen.modelgen import generate_models
from toolgen.projection import ProjectedContract, ProviderProjection
from toolgen.runtime_files import copied
from toolgen.templating import format_python, header, render

MANIFEST = ".toolgen-manifest.json"


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class PackageFiles:
    """Relative POSIX path -> file content, for one build, and what the rendering stages reported."""

    files: dict[str, str]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def with_manifest(self, design: Design) -> dict[str, str]:
        files = dict(sorted(self.files.items()))
        manifest = {
            "toolgen_version": __version__,
            "design_hash": design.hash,
            "files": {
                path: hashlib.sha256(text.encode()).hexdigest() for path, text in files.items()
            },
        }
        files[MANIFEST] = _json(manifest)
        return files


def _sizes(schema: Any) -> tuple[int, int]:
    stats = measure(schema)
    return stats.optional, stats.unions


def params_module(projection: ProviderProjection) -> str:
    """The generated module of a profile's request TypedDicts, named after its template (or the
    fixed module that holds them)."""
    template = projection.profile.params_template
    if template is None:  # the TypedDicts are in the profile's first fixed module
        return projection.profile.apis[0].module
    return template.removesuffix(".py.j2")


def _provider_module(
    design: Design,
    projection: ProviderProjection,
    template: str,
    surfaces: list[str],
    classes: dict[tuple[str, str], tuple[str, str]],
) -> str:
    tools = [p for p in projection.tools if p.schema is not None]
    outputs = [p for p in projection.outputs if p.schema is not None]
    source = render(
        template,
        header=header(design.hash),
        title=projection.profile.title,
        tools=tuple(p.contract.name for p in tools),
        outputs=tuple(p.contract.name for p in outputs),
        provider_names={p.contract.name: p.provider_name for p in tools},
        canonical_names={p.provider_name: p.contract.name for p in tools},
        output_provider_names={p.contract.name: p.provider_name for p in outputs},
        output_canonical_names={p.provider_name: p.contract.name for p in outputs},
        descriptions={p.contract.name: p.contract.description for p in tools},
        output_descriptions={p.contract.name: p.contract.description for p in outputs},
        parameters={p.contract.name: p.schema for p in tools},
        output_schemas={p.contract.name: p.schema for p in outputs},
        provider=projection.profile.name,
        apis=projection.profile.apis,
        api_names=projection.profile.api_names,
        nullable=projection.profile.optional_style == "nullable",
        surfaces=surfaces,
        limits=projection.profile.limits,
        strict=projection.profile.strict,
        sizes={p.contract.name: _sizes(p.schema) for p in tools},
        priorities={p.contract.name: p.contract.priority for p in tools},
        tool_classes={p.contract.name: classes[("tool", p.contract.name)][1] for p in tools},
        output_classes={p.contract.name: classes[("output", p.contract.name)][1] for p in outputs},
        params_module=params_module(projection),
        **projection.profile.module_data,
    )
    return format_python(source)


def _schema_files(projection: ProviderProjection) -> dict[str, str]:
    """The projections as JSON, for consumers that are not Python."""
    base = PurePosixPath("schemas") / projection.profile.name
    files: dict[str, str] = {}
    for folder, contracts in (("tools", projection.tools), ("outputs", projection.outputs)):
        for p in contracts:
            if p.schema is not None:
                files[str(base / folder / f"{p.provider_name}.json")] = _json(p.schema)
    files[str(base / "names.json")] = _json(
        {
            "tools": projection.name_map("tool"),
            "outputs": projection.name_map("output"),
        }
    )
    return files


def render_package(design: Design, projections: list[ProviderProjection]) -> PackageFiles:
    """Every file of the package; a projection-only provider (no template) gets its schema files
    and no module."""
    providers = tuple(p.profile.name for p in projections if p.profile.template is not None)
    files: dict[str, str] = {}
    files["__init__.py"] = format_python(
        render(
            "package_init.py.j2",
            header=header(design.hash),
            version=__version__,
            design_hash=design.hash,
            providers=providers,
            tools=tuple(c.name for c in design.tools),
            outputs=tuple(c.name for c in design.outputs),
            submodules=tuple(sorted((*providers, "models"))),
        )
    )
    models = generate_models(design, header(design.hash))
    files.update(models.files)
    diagnostics = list(models.diagnostics)
    files["_runtime.py"] = copied("_runtime", header(design.hash))
    canonical = _canonical_module(design, projections)
    if canonical is not None:
        diagnostics += canonical.diagnostics
        if canonical.source is not None:
            files["_canonical.py"] = canonical.source
    for projection in projections:
        name, template = projection.profile.name, projection.profile.template
        if template is None:
            files.update(_schema_files(projection))
            continue
        schemas, found = _envelope_schemas(design, projection)
        diagnostics += found
        if found:
            continue
        for api in projection.profile.apis:
            files[f"{api.module}.py"] = copied(api.module, header(design.hash))
        files[f"_envelopes_{name}.py"] = render_envelope_module(name, schemas, header(design.hash))
        files[f"{name}.py"] = _provider_module(
            design, projection, template, list(schemas), models.classes
        )
        if projection.profile.params_template is not None:
            files[f"{params_module(projection)}.py"] = format_python(
                render(projection.profile.params_template, header=header(design.hash))
            )
        files.update(_schema_files(projection))
    return PackageFiles(files, diagnostics)


def _envelope_schemas(
    design: Design, projection: ProviderProjection
) -> tuple[dict[str, Any], list[Diagnostic]]:
    provider = projection.profile.name
    overrides = {
        key: value for key, value in design.envelopes.items() if key.split("/", 1)[0] == provider
    }
    try:
        return load_envelope_schemas(provider, overrides, projection.profile.apis), []
    except EnvelopeSchemaError as error:
        file = f"{ENVELOPES_FOLDER}/{provider}/{error.surface}.json"
        return {}, [Diagnostic(file, error.pointer, provider, "INVALID_ENVELOPE", error.message)]


def _canonical_module(
    design: Design, projections: list[ProviderProjection]
) -> CanonicalModule | None:
    """One ``_canonical.py`` serves every provider that makes optionals nullable: the inverse of a
    contract depends only on its canonical schema and on which values its projection admits, and
    those providers' projections of one contract admit the same values. Each contract is compiled
    from the first such projection that accepts it."""
    nullable = [p for p in projections if p.profile.optional_style == "nullable"]
    if not nullable:
        return None
    chosen: dict[tuple[str, str], ProjectedContract] = {}
    for projection in nullable:
        for projected in (*projection.tools, *projection.outputs):
            key = (projected.contract.kind, projected.contract.name)
            if projected.schema is not None and key not in chosen:
                chosen[key] = projected
    merged = ProviderProjection(
        nullable[0].profile,
        tuple(p for p in chosen.values() if p.contract.kind == "tool"),
        tuple(p for p in chosen.values() if p.contract.kind == "output"),
        (),
    )
    return render_canonical_module(design, merged, header(design.hash))
