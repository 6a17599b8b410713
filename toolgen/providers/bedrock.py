"""AWS Bedrock Converse: ``toolConfig.tools[].toolSpec`` and ``outputConfig.textFormat``.

Rules, each with its source (../shared/PROVIDERS.md, "AWS Bedrock Converse"; the Bedrock Runtime
API reference: ToolSpecification{name, description (at least 1 character, so an empty one is left
out), inputSchema, strict}, OutputFormat{type: json_schema, structure{jsonSchema{schema: string,
name, description}}}), verified on 2026-12-03:

======================================  ==========================================================
rule                                    source / choice
======================================  ==========================================================
names ``[a-zA-Z0-9_-]{1,64}``           ToolSpecification.name
input schema root is an object          ToolInputSchema (every mode)
strict: every object closed             "additionalProperties: false" on Claude models, the same
                                        wording as Anthropic's strict tool use
strict: Anthropic's keyword table,      assumed for Claude [unconfirmed for Bedrock; other model
formats, ``minItems`` 0/1, simple       families undocumented]: Anthropic's tables are imported,
patterns, no recursion                  so both profiles move together (safe side)
strict: optionals stay optional         Anthropic strict tool use: no nulls added, identity inverse
strict: 20 tools, 24 optional and 16    Anthropic's per-request caps of the strict grammar, kept
union members per request at most       for Claude on Bedrock [unconfirmed; safe side]; one
                                        schema over them is rejected, a selection over them
                                        raises in ``tool_definitions``
strict off: the canonical schema        ``[providers.bedrock] strict = false`` or a tool file's
minus a root-level union                ``providers: {bedrock: {strict: false}}``; the root must be
                                        an object in every mode (ToolInputSchema), a root union
                                        taken as Anthropic's [unconfirmed; safe side]
======================================  ==========================================================

With strict off a tool goes out without the ``strict`` key (ToolSpecification's default), its
schema the canonical one minus what Bedrock refuses in every mode (toolgen.nonstrict).
"""

from dataclasses import replace

from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.base import NameRule, NonStrictMode, root_unions_refused

#: Converse's tool-call parser and stream accumulator in the generated envelope module.
CONVERSE_DECODER = {"converse": ("parse_converse_tool_calls", "ConverseToolCallStream")}

NON_STRICT = NonStrictMode(
    root_unions_refused(
        "Bedrock Runtime API reference, ToolInputSchema: the root is an object; a root union "
        "taken as refused, as on Anthropic [unconfirmed, safe side; 2026-12-03]"
    )
)

BEDROCK = replace(
    ANTHROPIC,
    name="bedrock",
    title="Bedrock Converse strict tool use",
    names=NameRule(allowed="[a-zA-Z0-9_-]", max_length=64),
    template="bedrock.py.j2",
    params_template="_params_bedrock.py.j2",
    decoders=CONVERSE_DECODER,
    non_strict=NON_STRICT,
)
