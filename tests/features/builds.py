"""The builds of one feature's design: with every provider (whose diagnostics say which providers
refuse it), with every provider that takes it ("together"), and with each profile's provider alone;
each package written and imported under its own name.

A build with every provider first fills the cache, so each provider-alone build of the same
contract then reads its work from there (a few hundredths of a second each).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import marshal
import struct
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from jsonschema import Draft202012Validator

from tests.conftest import output_file, tool_file, write_design
from tests.features.catalog import OUTPUT, TOOL, Feature, dialect_of, provider_of
from toolgen.build import BuildResult, Session
from toolgen.infra.diagnostics import Diagnostic, Level
from toolgen.project.projection import ProjectedContract
from toolgen.providers import PROFILES, PROVIDER_NAMES
from toolgen.providers.base import Profile

#: the providers whose module a package has (a projection-only provider has none)
SERVED = tuple(name for name in PROVIDER_NAMES if PROFILES[name].apis)
TOOL_FILE = "tools/probe.yaml"
OUTPUT_FILE = "outputs/probe_output.yaml"


#: The providers built together in a variant other than the default design, where its dialect
#: is the one profile under test (gemini's openapi): with a provider of each way a package shares
#: its modules among providers (openai: the ``_canonical`` the nullable providers share;
#: anthropic: a ``_canonical_<provider>`` of its own; cloudflare: its own request and decoding
#: modules), not all twelve, whose rendering the default design's build already pays.
VARIANT_PROVIDERS: dict[str, tuple[str, ...]] = {
    "openapi": ("openai", "anthropic", "gemini", "cloudflare"),
}


def variant_of(profile: str) -> str:
    """The design a profile is built from: its dialect's (toolgen.toml chooses it for the whole
    design), or the default one."""
    return dialect_of(profile) or "default"


@dataclass
class Built:
    """One build and its package, imported (None where the build has errors)."""

    result: BuildResult
    package: ModuleType | None
    _schemas: dict[tuple[str, str], Any] = field(default_factory=dict, repr=False)

    def projected_schema(self, provider: str, kind: str) -> Any:
        """The projected schema of the tool (``kind`` "tool") or output as JSON Schema: the
        package's own (``parameters``, ``output_schema``), or the projection's reading of it
        where the dialect is OpenAPI's (``meaning``)."""
        key = (provider, kind)
        if key not in self._schemas:
            projected = self.projected(provider, kind)
            assert projected is not None
            if self.profile(provider).openapi is not None:
                self._schemas[key] = projected.meaning
            elif kind == "tool":
                self._schemas[key] = self.module(provider).parameters(TOOL)
            else:
                self._schemas[key] = self.module(provider).output_schema(OUTPUT)
        return self._schemas[key]

    def projected_validator(self, provider: str, kind: str) -> Draft202012Validator:
        key = ("validator", provider + kind)
        if key not in self._schemas:
            self._schemas[key] = Draft202012Validator(self.projected_schema(provider, kind))
        return self._schemas[key]

    def projected(self, provider: str, kind: str) -> ProjectedContract | None:
        """The projection of the feature's tool (``kind`` "tool") or output for ``provider``."""
        for projection in self.result.projections:
            if projection.profile.name == provider:
                found = projection.tools if kind == "tool" else projection.outputs
                for projected in found:
                    if projected.contract.name in (TOOL, OUTPUT):
                        return projected
        return None

    def profile(self, provider: str) -> Profile:
        return next(p.profile for p in self.result.projections if p.profile.name == provider)

    def module(self, provider: str) -> ModuleType:
        assert self.package is not None
        return importlib.import_module(f"{self.package.__name__}.{provider}")

    def fakes(self, provider: str) -> ModuleType:
        assert self.package is not None
        return importlib.import_module(f"{self.package.__name__}.testing.{provider}")

    def runtime(self, name: str) -> ModuleType:
        """A fixed module of the package (``_fakes``, ``_forward``, ``_runtime``)."""
        assert self.package is not None
        return importlib.import_module(f"{self.package.__name__}.{name}")


#: compiled modules by their source text: most modules of a package are the same text in every
#: package (the fixed runtime modules, each provider's envelope validators)
_BYTECODE: dict[bytes, bytes] = {}


def write_compiled(root: Path, files: dict[str, str]) -> None:
    """Write a build's files as a package under ``root`` (a new folder, written once: not
    toolgen's writer, whose atomic swap and manifest checks this does not need), and beside each
    module its bytecode as the import system writes it (PEP 552's timestamp form; the import
    system puts the module's own path into the code object), compiled only for a text not seen
    before in this process: importing the matrix's hundreds of packages compiles each distinct
    module once, not once a package."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        source = text.encode("utf-8")
        path.write_bytes(source)
        if not relative.endswith(".py"):
            continue
        key = hashlib.sha256(source).digest()
        code = _BYTECODE.get(key)
        if code is None:
            code = _BYTECODE[key] = marshal.dumps(
                compile(source, str(path), "exec", dont_inherit=True)
            )
        stat = path.stat()
        header = importlib.util.MAGIC_NUMBER + struct.pack(
            "<III", 0, int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF
        )
        cached = Path(importlib.util.cache_from_source(str(path)))
        cached.parent.mkdir(exist_ok=True)
        cached.write_bytes(header + code)


class Sessions:
    """A build session per kind of build (with every provider of a dialect; each provider
    alone): a session keeps the modules its last build rendered (toolgen.infra.kept), so each
    kind's next build, of the next feature, renders again only what the feature changes."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}

    def __getitem__(self, kind: str) -> Session:
        return self._sessions.setdefault(kind, Session(keep=True))


class FeatureBuilds:
    """The builds of ``feature``, made on first use: under ``root`` (designs and packages), in
    the build ``sessions`` and with the ``cache`` the whole run shares."""

    def __init__(self, feature: Feature, root: Path, sessions: Sessions, cache: Path) -> None:
        self.feature = feature
        self.root = root
        self.sessions = sessions
        self.cache = cache
        self.packages = root / "packages"
        self.packages.mkdir(parents=True, exist_ok=True)
        self._probes: dict[str, BuildResult] = {}
        self._together: dict[str, Built] = {}
        self._alone: dict[str, Built] = {}
        self.imported: list[str] = []

    def design(self, variant: str) -> Path:
        folder = self.root / "designs" / variant
        if folder.is_dir():
            return folder
        files: dict[str, Any] = {}
        if self.feature.parameters is not None:
            files[TOOL_FILE] = tool_file(TOOL, self.feature.parameters, "A probe.")
        if self.feature.output is not None:
            files[OUTPUT_FILE] = output_file(OUTPUT, self.feature.output, "A probe's output.")
        if variant != "default":
            files["toolgen.toml"] = f'[providers.gemini]\ndialect = "{variant}"\n'
        return write_design(folder, files)

    def probe(self, variant: str) -> BuildResult:
        """The build with every provider of the variant (VARIANT_PROVIDERS): its diagnostics say
        which providers refuse the design."""
        if variant not in self._probes:
            providers = VARIANT_PROVIDERS.get(variant, PROVIDER_NAMES)
            self._probes[variant] = self._build(variant, providers, variant)
        return self._probes[variant]

    def refusals(self, profile: str) -> list[Diagnostic]:
        """The errors of ``profile``'s provider in the build with every provider."""
        provider = provider_of(profile)
        return [
            d
            for d in self.probe(variant_of(profile)).diagnostics
            if d.level is Level.ERROR and d.provider in (provider, "design")
        ]

    def together(self, variant: str) -> Built:
        """Every served provider that takes the design, built into one package."""
        if variant not in self._together:
            probe = self.probe(variant)
            refusing = {d.provider for d in probe.diagnostics if d.level is Level.ERROR}
            built = VARIANT_PROVIDERS.get(variant, SERVED)
            taking = tuple(p for p in SERVED if p in built and p not in refusing)
            result = probe if probe.ok else self._build(variant, taking, variant)
            self._together[variant] = Built(result, self._imported(f"all_{variant}", result))
        return self._together[variant]

    def alone(self, profile: str) -> Built:
        """``profile``'s provider built alone (in its dialect's design)."""
        if profile not in self._alone:
            self.probe(variant_of(profile))  # fills the cache first
            result = self._build(variant_of(profile), (provider_of(profile),), profile)
            name = profile.replace(":", "_")
            self._alone[profile] = Built(result, self._imported(name, result))
        return self._alone[profile]

    def _build(self, variant: str, providers: tuple[str, ...], kind: str) -> BuildResult:
        session = self.sessions[kind]
        return session.build(self.design(variant), providers, cache_dir=self.cache)

    def _imported(self, label: str, result: BuildResult) -> ModuleType | None:
        if not result.ok:
            return None
        name = f"features_{self.feature.name}_{label}"
        write_compiled(self.packages / name, result.files)
        if str(self.packages) not in sys.path:
            sys.path.insert(0, str(self.packages))
        # the finder of the folder cached its listing before this package was written
        finder = sys.path_importer_cache.get(str(self.packages))
        if finder is not None:
            finder.invalidate_caches()
        self.imported.append(name)
        return importlib.import_module(name)

    def forget(self) -> None:
        """Unload every package imported (the class of tests of this feature is done)."""
        for name in self.imported:
            for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[module]
        if str(self.packages) in sys.path:
            sys.path.remove(str(self.packages))

    @cached_property
    def files(self) -> tuple[str, ...]:
        """The design files of the feature (where a refusal must point)."""
        return tuple(
            path
            for path, schema in (
                (TOOL_FILE, self.feature.parameters),
                (OUTPUT_FILE, self.feature.output),
            )
            if schema is not None
        )
