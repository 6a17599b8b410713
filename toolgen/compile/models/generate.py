"""Pydantic v2 models of the canonical contracts, written by datamodel-code-generator in-process.

Layout of what :func:`generate_models` returns (paths relative to OUT)::

    models/__init__.py          lazy registry: model_for(kind, name), classes on first use
    models/_base.py             CanonicalModel: strict, open by default, serialises by alias
    models/_shared.py           one class per shared definition (design/defs), imported where used
    models/tools/<module>.py    one module per tool: its parameters model and nested classes
    models/outputs/<module>.py  one module per structured output
    models/tool_outputs/<module>.py  one module per tool that declares ``output:`` (<Tool>Output)
    _decode.py                  ToolCall, decode_tool_call(), decode_output()

One generator call per contract (and one for the shared definitions): a contract's module is only
imported when that contract is used, so a package of 1,000 tools imports in constant time.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from toolgen.compile.models import prepare
from toolgen.compile.models.arrays import json_arrays
from toolgen.compile.models.imports import name_order, rewrite_imports
from toolgen.compile.models.json_literals import json_literals
from toolgen.infra.cache import Cache, code_fingerprint, digest, plain
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.infra.kept import each_by_identity
from toolgen.infra.parallel import Later, Pending, Runner, stored_later, text_of
from toolgen.load.contracts import Contract, Design, SharedDef
from toolgen.render import model_layout
from toolgen.render.formatting import LINE_LENGTH, Literal, black_format
from toolgen.render.runtime_files import copied
from toolgen.render.templating import format_later, format_python, render
from toolgen.schema import names
from toolgen.schema.metaschema import meta_validator

PROVIDER = "models"  # the provider slot of the diagnostics of this stage

#: datamodel-code-generator options, each with the reason it is set.
GENERATOR_OPTIONS: dict[str, Any] = {
    "input_file_type": "jsonschema",
    "output_model_type": "pydantic_v2.BaseModel",
    "target_python_version": "3.11",
    # MISSING is importable from pydantic itself from 2.14 (no experimental import, no warning).
    "target_pydantic_version": "2.14",
    # An optional member that is absent stays absent: `x: T | MISSING = MISSING`, and
    # model_dump() leaves it out, so a payload dumps back to itself.
    "use_missing_sentinel": True,
    # Constraints as Annotated[..., Field(ge=...)]: readable, and mypy sees the plain type.
    "use_annotated": True,
    "field_constraints": True,
    # enum/const as Literal[...]: the value is the payload's value, not an Enum member.
    "enum_field_as_literal": "all",
    # A schema's description becomes its class docstring (pydantic puts it in the model's JSON
    # schema); a member's description becomes Field(description=...), so it reaches
    # model_json_schema() and the SDKs' helpers that read it (attribute docstrings would not).
    "use_schema_description": True,
    # Strictness, extra members and alias handling live in one base class (models/_base.py);
    # additionalProperties: false still writes extra='forbid' on the closed models.
    "base_class": prepare.BASE_CLASS,
    # pydantic reads a class attribute ``Config`` as the model's configuration: a member of that
    # name is a field named otherwise, as the generator does for BaseModel's own attribute names.
    "aliases": {"Config": "Config_"},
    # Deterministic output: no timestamp, no command line; black runs afterwards (toolgen's own).
    "disable_timestamp": True,
    "formatters": [],
    "use_double_quotes": True,
    "custom_file_header": "#",
}

_CLASS_DEF = re.compile(r"^class (\w+)\(", re.MULTILINE)
_ROOT_MODEL_DEF = re.compile(
    r"^(class \w+\(RootModel\[.*\]\):\n)(?!    model_config)", re.MULTILINE
)
_ROOT_CONFIG_IMPORT = f"from {prepare.PLACEHOLDER_PACKAGE}.models._base import ROOT_MODEL_CONFIG\n"


def _strict_root_models(source: str) -> str:
    """Root models do not inherit CanonicalModel's config (no option for their base class):
    give each the same strictness, or a nested ``RootModel[int]`` would accept ``"5"``."""
    if not _ROOT_MODEL_DEF.search(source):
        return source
    source = _ROOT_MODEL_DEF.sub(r"\1    model_config = ROOT_MODEL_CONFIG\n", source)
    return _ROOT_CONFIG_IMPORT + source


@dataclass(frozen=True)
class ModelsOutput:
    files: dict[str, str]
    classes: dict[tuple[str, str], tuple[str, str]]
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class _Planned:
    contract: Contract
    folder: str  # "tools", "outputs" or "tool_outputs"
    module: str
    class_name: str


def _plan(design: Design) -> tuple[list[_Planned], dict[str, str]]:
    """Class and module names for every contract and shared definition, in a stable order.

    Classes share one namespace (tools first, then outputs, then shared definitions) so that
    ``from OUT.models import X`` is never ambiguous; modules are unique per folder.
    """
    names_of, shared, _ = _named(_names(design))
    return _with_contracts(design, names_of), shared


#: what the plan is a function of: the kind and name of the design's tools, outputs and tool
#: outputs (each in the design's order), and the names of its shared definitions
_Names = tuple[
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str], ...],
    tuple[tuple[str, str], ...],
    tuple[str, ...],
]
#: (folder, module, class name) of each contract in plan order; the class of each shared
#: definition; the module and class of each contract by (kind, name) (``ModelsOutput.classes``)
_Named = tuple[list[tuple[str, str, str]], dict[str, str], dict[tuple[str, str], tuple[str, str]]]


def _names(design: Design) -> _Names:
    return (
        tuple((c.kind, c.name) for c in design.tools),
        tuple((c.kind, c.name) for c in design.outputs),
        tuple((c.kind, c.name) for c in design.tool_outputs),
        tuple(design.shared),  # already sorted by name
    )


def _named(names_of: _Names, cache: Cache | None = None) -> _Named:
    """``cache``: a process that builds once, which reads the names the last build planned from
    the cache (claiming 3,920 classes' names cost a one-tool rebuild 16 ms)."""
    tools, outputs, tool_outputs, shared_names = names_of
    key = digest(code_fingerprint(), _PLAN_STAGE, names_of) if cache is not None else ""
    stored = _stored_plan(cache.get(_PLAN_STAGE, key)) if cache is not None else None
    if stored is not None and (
        len(stored[0]) == len(tools) + len(outputs) + len(tool_outputs)
        and tuple(stored[1]) == shared_names
    ):
        planned, shared = stored
    else:
        planned, shared = _planned_names(
            tuple(name for _, name in tools),
            tuple(name for _, name in outputs),
            tuple(name for _, name in tool_outputs),
            shared_names,
        )
        if cache is not None:
            cache.put(_PLAN_STAGE, key, [planned, shared])
    classes = {
        (kind, name): (f".models.{folder}.{module}", class_name)
        for (kind, name), (folder, module, class_name) in zip(
            (*tools, *outputs, *tool_outputs), planned, strict=True
        )
    }
    return planned, shared, classes


def _stored_plan(found: Any) -> tuple[list[tuple[str, str, str]], dict[str, str]] | None:
    """The planned names as :func:`_named` stores them; None for no entry, or another's."""
    try:
        planned = [(str(folder), str(module), str(cls)) for folder, module, cls in found[0]]
        shared = {str(name): str(cls) for name, cls in found[1].items()}
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        return None
    return planned, shared


def _with_contracts(design: Design, names_of: list[tuple[str, str, str]]) -> list[_Planned]:
    """The plans of the design's contracts, given their names (:func:`_named`)."""
    return [
        _Planned(contract, folder, module, class_name)
        for contract, (folder, module, class_name) in zip(
            (*design.tools, *design.outputs, *design.tool_outputs), names_of, strict=True
        )
    ]


def _planned_names(
    tools: tuple[str, ...],
    outputs: tuple[str, ...],
    tool_outputs: tuple[str, ...],
    shared_names: tuple[str, ...],
) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    """(folder, module, class name) of each contract in plan order, and the class of each shared
    definition: a function of the names only."""
    classes = names.Namespace()
    planned: list[tuple[str, str, str]] = []
    for folder, (prefix, kind_suffix), contracts in (
        ("tools", ("", "Tool"), tools),
        ("outputs", ("", "Output"), outputs),
        # what a tool's handler returns: ``<Tool>Output``, last, so no other class is renamed
        ("tool_outputs", ("Output", "ToolOutput"), tool_outputs),
    ):
        modules = names.Namespace()
        for name in contracts:
            wanted = names.class_name(name) + prefix
            planned.append(
                (
                    folder,
                    modules.claim(names.module_name(name)),
                    classes.claim(wanted, alternative=wanted + kind_suffix),
                )
            )
    shared: dict[str, str] = {}
    for name in shared_names:
        wanted = names.class_name(name)
        shared[name] = classes.claim(wanted, alternative=wanted + "Def")
    return planned, shared


def _run_generator(schema: Any, class_name: str) -> str:
    # imported here, not with this module: about a second, which a build whose models all come
    # from the cache (or from the workers, which import it in warm_up) does not pay
    from datamodel_code_generator import generate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = generate(json.dumps(schema), class_name=class_name, **GENERATOR_OPTIONS)
    if not isinstance(result, str):  # a single input always gives a single module
        raise TypeError(f"datamodel-code-generator returned {type(result).__name__}")
    return result


def warm_up() -> None:
    """What a build's worker runs before its first item: the generator's first call imports most
    of datamodel-code-generator (about a second), and meta-validation needs jsonschema."""
    meta_validator()  # meta-validation runs in workers
    schema = {"type": "object", "properties": {"a": {}}}
    format_python(_run_generator(schema, "WarmUp"), runner=Runner())


def _notes_to_diagnostics(
    notes: list[prepare.Note], locate: Any, code: str = "MODEL_CONSTRAINT_DROPPED"
) -> list[Diagnostic]:
    found = []
    for pointer, message in notes:
        file, where = locate(pointer)
        found.append(Diagnostic(file, where, PROVIDER, code, message, Level.WARNING))
    return found


def _fallback_module(
    header: str, class_name: str, description: str, reason: str, runner: Runner
) -> str:
    return format_python(
        render(
            "models_fallback.py.j2",
            runner,
            header=header,
            class_name=class_name,
            description=description,
            reason=reason,
        ),
        runner=runner,
    )


def _contract_module(
    plan: _Planned, shared_classes: dict[str, str], header: str, *, runner: Runner
) -> tuple[str, str, list[Diagnostic]]:
    """The source of one contract's module and the name of its root class."""
    contract = plan.contract
    notes: list[prepare.Note] = []
    used = {name: shared_classes[name] for name in contract.shared}
    schema = prepare.contract_schema(
        contract.schema, contract.description, used, notes, tool=contract.kind == "tool"
    )
    diagnostics = _notes_to_diagnostics(notes, contract.locate)
    package = f"models.{plan.folder}"
    try:
        source = _run_generator(schema, plan.class_name)
        if plan.class_name not in _CLASS_DEF.findall(source):
            raise ValueError(f"the generator did not write class {plan.class_name}")
        source = rewrite_imports(
            json_arrays(json_literals(_strict_root_models(source))), package, header
        )
        formatted = model_layout.laid_out(source, LINE_LENGTH, black_format)
        return formatted or format_python(source, runner=runner), plan.class_name, diagnostics
    except Exception as error:  # the generator's failures on a schema are design findings
        reason = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        diagnostics.append(
            Diagnostic(
                contract.file,
                contract.pointer,
                PROVIDER,
                "MODEL_NOT_GENERATED",
                f"no typed model for {contract.kind} {contract.name!r} "
                f"(datamodel-code-generator failed: {reason}); "
                "its model accepts any object",
                Level.WARNING,
            )
        )
        return (
            _fallback_module(header, plan.class_name, contract.description, reason, runner),
            plan.class_name,
            diagnostics,
        )


#: the header every contract module is generated with (and cached under); the design's own
#: header replaces it afterwards, so a cached module serves every design hash
_NEUTRAL_HEADER = "# toolgen-models-header"


def _encode(result: tuple[str, str, list[Diagnostic]]) -> Any:
    source, class_name, diagnostics = result
    return [source, class_name, [d.to_dict() for d in diagnostics]]


def _decode(value: Any) -> tuple[str, str, list[Diagnostic]]:
    source, class_name, diagnostics = value
    return source, class_name, [Diagnostic.from_dict(d) for d in diagnostics]


def _cache_key(arguments: tuple[Any, ...]) -> str:
    plan, shared_classes, header = arguments  # the names and the header are JSON already
    return digest(
        code_fingerprint(),
        "models",
        [plan.contract.identity(), plan.folder, plan.module, plan.class_name],
        shared_classes,
        header,
    )


def _submit_contract_modules(
    planned: list[_Planned], shared_classes: dict[str, str], runner: Runner
) -> Pending[tuple[str, str, list[Diagnostic]]]:
    """:func:`_contract_module` of every plan, through the build's runner (toolgen/infra/parallel.py):
    in parallel, and from the cache when the contract, the shared definitions it reaches and the
    names of their classes are unchanged. The results carry :data:`_NEUTRAL_HEADER`."""
    jobs = [
        (plan, {name: shared_classes[name] for name in plan.contract.shared}, _NEUTRAL_HEADER)
        for plan in planned
    ]
    return runner.submit(
        "models",
        _contract_module,
        jobs,
        key=_cache_key,
        encode=_encode,
        decode=_decode,
        with_runner=True,
        take_back=False,  # this process has not imported the generator (~1 s): the workers have
        keep_decoded=True,  # texts and diagnostics, only read
    )


def _shared_module(
    shared: dict[str, SharedDef], shared_classes: dict[str, str], header: str, *, runner: Runner
) -> tuple[str, str, list[Diagnostic]]:
    """The source of ``models/_shared.py`` ("" in the place of a class name: the shape of a
    contract module's result, so that both go through the runner and the cache alike)."""
    diagnostics: list[Diagnostic] = []
    defs: dict[str, Any] = {}
    for name, definition in shared.items():
        notes: list[prepare.Note] = []
        schema = prepare.prepare(prepare.rename_refs(definition.schema, shared_classes), notes)
        if schema is True:
            schema = {}
        defs[shared_classes[name]] = schema
        diagnostics += _notes_to_diagnostics(notes, lambda p, d=definition: (d.file, d.pointer + p))
    root = "ToolgenSharedRoot"
    source = _run_generator({"$defs": defs}, root)
    # The generator writes a root model for the (empty) root schema; only the definitions matter.
    source = re.sub(rf"\nclass {root}\(RootModel\[Any\]\):\n    root: Any\n", "\n", source)
    missing = sorted(set(defs) - set(_CLASS_DEF.findall(source)))
    for cls in missing:
        name = next(n for n, c in shared_classes.items() if c == cls)
        definition = shared[name]
        diagnostics.append(
            Diagnostic(
                definition.file,
                definition.pointer,
                PROVIDER,
                "MODEL_NOT_GENERATED",
                f"the generator wrote no class {cls} for shared definition {name!r}",
            )
        )
    source = rewrite_imports(
        json_arrays(json_literals(_strict_root_models(source))), "models", header
    )
    return format_python(source, runner=runner), "", diagnostics


class PendingModels:
    """The models step under way (:func:`submit_models`): the class of each contract is known
    at once, the files when :meth:`result` returns. Planned only (:func:`plan_models`), the work
    goes to the workers at :meth:`start`."""

    def __init__(self, design: Design, header: str, runner: Runner) -> None:
        self.design = design
        self.header = header
        self.runner = runner
        # a function of the contracts' names only: a process that builds again keeps it by them
        self._names = _names(design)
        named = (
            runner.kept.computed(("models-plan", self._names), partial(_named, self._names))
            if runner.kept is not None
            else _named(self._names, runner.cache)
        )
        names_of, self.shared_classes, self.classes = named
        self.planned = _with_contracts(design, names_of)
        self._started: tuple[Pending[Any] | None, Pending[Any], dict[str, Later[str]]] | None = None

    def start(self) -> None:
        """Hand the models' work to the runner's workers (once)."""
        if self._started is not None:
            return
        design, runner = self.design, self.runner
        shared = (
            runner.submit(
                "shared",
                _shared_module,
                [(design.shared, self.shared_classes, _NEUTRAL_HEADER)],
                key=lambda arguments: digest(code_fingerprint(), "shared", *plain(arguments)),
                encode=_encode,
                decode=_decode,
                with_runner=True,
                take_back=False,
                keep_decoded=True,
            )
            if design.shared
            else None
        )
        contracts = _submit_contract_modules(self.planned, self.shared_classes, runner)
        # the package's own modules need the classes only: formatted meanwhile
        self._started = shared, contracts, self._package_modules()

    def _package_modules(self) -> dict[str, Later[str]]:
        """``models/__init__.py``, ``_base.py`` and the subpackages' ``__init__.py``, formatting."""
        runner, kept = self.runner, self.runner.kept
        if kept is None and runner.cache is not None:
            return self._stored_package_modules(runner.cache)
        rendered = (
            kept.computed(("models-package", self._names, self.header), self._package_sources)
            if kept is not None
            else self._package_sources()
        )
        return {
            path: format_later(source, literals, runner=runner)
            for path, (source, literals) in rendered.items()
        }

    def _stored_package_modules(self, cache: Cache) -> dict[str, Later[str]]:
        """In a process that builds once, with a cache: the package's own modules formatted,
        from the cache by the contracts' names they are a function of (rendering and formatting
        an ``__init__`` of thousands of classes cost a one-tool rebuild more than the read);
        else made and stored."""
        paths: list[str] = []  # the modules' paths, when they are made

        def formatted() -> Later[dict[str, str]]:
            texts = {
                path: format_later(source, literals, runner=self.runner)
                for path, (source, literals) in self._package_sources().items()
            }
            paths.extend(texts)
            return Later(lambda: {path: text.result() for path, text in texts.items()})

        every = stored_later(
            cache, _PACKAGE_STAGE, [self._names, self.header], formatted, dict, _texts_of
        )
        if every.ready:
            return {path: Later.done(text) for path, text in every.result().items()}
        return {path: Later(partial(_one_of, every, path)) for path in paths}

    def _package_sources(self) -> dict[str, tuple[str, tuple[Literal, ...]]]:
        """The package's own modules rendered (a function of the contracts' names and the
        header), with the literals their formatting is given."""
        header, shared_classes, runner = self.header, self.shared_classes, self.runner
        files: dict[str, tuple[str, tuple[Literal, ...]]] = {}
        classes = self.classes
        for folder, kind in _subpackages(self.design):
            files[f"models/{folder}/__init__.py"] = (
                render("models_subpackage.py.j2", runner, header=header, kind=kind),
                (),
            )
        registry = [
            {"kind": kind, "name": name, "module": module[len(".models") :], "class_name": cls}
            for (kind, name), (module, cls) in classes.items()
        ]
        exported = sorted(
            [(e["class_name"], e["module"]) for e in registry]
            + [(cls, "._shared") for cls in shared_classes.values()],
            key=lambda item: name_order(item[0]),
        )
        by_module: dict[str, list[str]] = {}
        for cls, module in exported:
            by_module.setdefault(module, []).append(cls)
        type_imports = sorted(by_module.items(), key=lambda item: item[0].lower())
        files["models/__init__.py"] = (
            render(
                "models_init.py.j2",
                runner,
                header=header,
                class_rows=[(e["kind"], e["name"], e["module"], e["class_name"]) for e in registry],
                exported_rows=exported,
            ),
            (),
        )
        public = Literal(
            "ALL",
            "[",
            ("'CLASSES'", *(repr(cls) for cls, _ in exported), "'model_for'"),
            trailing_comma=True,
        )
        files["models/__init__.pyi"] = (
            render(
                "models_init.pyi.j2",
                runner,
                header=header,
                type_imports=type_imports,
                public=public,
            ),
            (public,),
        )
        files["models/_base.py"] = (render("models_base.py.j2", runner, header=header), ())
        return files

    def result(self) -> ModelsOutput:
        self.start()
        assert self._started is not None
        shared, contracts, package = self._started
        header = self.header
        files: dict[str, str] = {}
        diagnostics: list[Diagnostic] = []
        if shared is not None:
            source, _, found = shared.result()[0]
            files["models/_shared.py"] = source.replace(_NEUTRAL_HEADER, header, 1)
            diagnostics += found
        results = contracts.result()
        # each module's text with the header: kept by the identity of the kept result's text
        texts = each_by_identity(
            self.runner.kept,
            ("header", header),
            [source for source, _, _ in results],
            partial(_with_header, header),
        )
        for plan, text, (_, _, found) in zip(self.planned, texts, results, strict=True):
            files[f"models/{plan.folder}/{plan.module}.py"] = text
            diagnostics += found
        files |= {path: text.result() for path, text in package.items()}
        files["_decode.py"] = copied("_decode", header)
        return ModelsOutput(dict(sorted(files.items())), self.classes, diagnostics)


#: the cache's stage of the models package's own modules, formatted
_PACKAGE_STAGE = "models-package"
#: the cache's stage of the names of the models' modules and classes (:func:`_named`)
_PLAN_STAGE = "models-plan"


def _texts_of(found: Any) -> dict[str, str]:
    """The modules' texts by path, as :meth:`PendingModels._stored_package_modules` stores them."""
    if not isinstance(found, dict):
        raise TypeError("not the package's modules")
    return {str(path): text_of(text) for path, text in found.items()}


def _one_of(texts: Later[dict[str, str]], path: str) -> str:
    return texts.result()[path]


def _with_header(header: str, source: str) -> str:
    return source.replace(_NEUTRAL_HEADER, header, 1)


def _subpackages(design: Design) -> list[tuple[str, str]]:
    """(folder, what each of its modules holds) of the models package: the tool outputs' only when
    a tool declares one (a design without leaves the package as it was)."""
    folders = [("tools", "tool"), ("outputs", "output")]
    if design.tool_outputs:
        folders.append(("tool_outputs", "tool output (what a tool's handler returns)"))
    return folders


def tool_output_classes(classes: dict[tuple[str, str], tuple[str, str]]) -> dict[str, str]:
    """Canonical tool name -> the class name of its output model (``models.<class>``), for the
    tools that declare ``output:``; ``classes`` is :attr:`ModelsOutput.classes`."""
    return {name: cls for (kind, name), (_, cls) in classes.items() if kind == "tool_output"}


def plan_models(design: Design, header: str, runner: Runner) -> PendingModels:
    """The models step planned (every contract's class known), its work not yet handed out:
    what goes to the workers before :meth:`PendingModels.start` is done first."""
    return PendingModels(design, header, runner)


def submit_models(design: Design, header: str, runner: Runner) -> PendingModels:
    """Start the models step: the contracts' modules go to ``runner``'s workers now."""
    models = PendingModels(design, header, runner)
    models.start()
    return models


def generate_models(design: Design, header: str, runner: Runner | None = None) -> ModelsOutput:
    """Every model file of the generated package, the class of each contract, and diagnostics."""
    return submit_models(design, header, runner or Runner()).result()
