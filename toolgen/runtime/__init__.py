"""The fixed code of the generated package, as real Python (linted and type-checked as source).

Each ``_<name>.py`` here is copied verbatim into OUT under the generated-file header
(toolgen.render.runtime_files): ``_runtime`` (errors, drift hooks, helpers), ``_decode`` (typed
decoding), ``_explain`` (where a response mismatches its envelope schema) and one module per wire
API, holding that API's request builders, the TypedDicts shaped like its SDK params, its tool-call
decoders (classes that take the provider name and the generated envelope validators as
constructor arguments) and ``READS``, the fields those decoders read, which the build checks
against the envelope schemas. The modules import each other relatively and name APIs, never
providers. This ``__init__`` is not copied.
"""
