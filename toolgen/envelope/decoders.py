"""The tool-call decoders emitted beside the validators, and the fields each one relies on.

A decoder reads validated data with plain subscripts, so every field it reads must be guaranteed by
its surface's schema (required where it subscripts, the right type). ``check_decoder_reads``
verifies that at build time, so an override that drops such a field is a build error rather than a
KeyError inside a generated parser.

Read paths: ``key`` (required, never null), ``key?`` (may be absent or null: read with ``.get``,
null taken as absent; what is checked is the non-null branch), ``[]`` (every item),
``[0]`` (the first item: needs minItems >= 1), ``{D=V}`` (the union case V of discriminator D).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from toolgen.envelope.compiler import Mode, SurfaceCompiler
from toolgen.envelope.errors import EnvelopeSchemaError


@dataclass(frozen=True)
class Decoder:
    template: str  # under templates/
    exports: tuple[str, ...]  # the public names the template defines
    reads: tuple[tuple[str, str, str], ...]  # (surface, read path, JSON type)
    imports: frozenset[str] = frozenset(
        {
            "Any",
            "Callable",
            "Mapping",
            "MISSING",
            "RawToolCall",
            "ToolCallFragments",
            "decode_tool_call",
            "schema_drift",
        }
    )

    @property
    def surfaces(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(surface for surface, _, _ in self.reads))


_CHAT_CALL = "choices[0].message.tool_calls?.[]"
_CHUNK_CALL = "choices.[].delta.tool_calls?.[]"
CHAT_COMPLETIONS = Decoder(
    "envelopes/chat_completions.py.j2",
    ("ChatCompletionToolCallStream", "parse_chat_completion_tool_calls"),
    (
        ("chat_completion", "choices[0].message", "object"),
        ("chat_completion", f"{_CHAT_CALL}.type", "string"),
        ("chat_completion", f"{_CHAT_CALL}.{{type=function}}.id", "string"),
        ("chat_completion", f"{_CHAT_CALL}.{{type=function}}.function.name", "string"),
        ("chat_completion", f"{_CHAT_CALL}.{{type=function}}.function.arguments", "string"),
        ("chat_completion_chunk", "choices.[].index", "integer"),
        ("chat_completion_chunk", f"{_CHUNK_CALL}.index", "integer"),
        ("chat_completion_chunk", f"{_CHUNK_CALL}.type?", "string"),
        ("chat_completion_chunk", f"{_CHUNK_CALL}.id?", "string"),
        ("chat_completion_chunk", f"{_CHUNK_CALL}.function?.name?", "string"),
        ("chat_completion_chunk", f"{_CHUNK_CALL}.function?.arguments?", "string"),
    ),
)
_ITEM = "{type=response.output_item.added}.item"
_DONE_ITEM = "{type=response.output_item.done}.item"
RESPONSES = Decoder(
    "envelopes/responses.py.j2",
    ("ResponseToolCallStream", "parse_response_tool_calls"),
    (
        ("response", "output.[].type", "string"),
        ("response", "output.[].{type=function_call}.call_id", "string"),
        ("response", "output.[].{type=function_call}.name", "string"),
        ("response", "output.[].{type=function_call}.arguments", "string"),
        ("response_stream_event", "type", "string"),
        ("response_stream_event", "{type=response.output_item.added}.output_index", "integer"),
        ("response_stream_event", "{type=response.output_item.done}.output_index", "integer"),
        ("response_stream_event", f"{_ITEM}.type", "string"),
        ("response_stream_event", f"{_ITEM}.{{type=function_call}}.call_id", "string"),
        ("response_stream_event", f"{_ITEM}.{{type=function_call}}.name", "string"),
        ("response_stream_event", f"{_DONE_ITEM}.type", "string"),
        ("response_stream_event", f"{_DONE_ITEM}.{{type=function_call}}.call_id", "string"),
        ("response_stream_event", f"{_DONE_ITEM}.{{type=function_call}}.name", "string"),
        ("response_stream_event", f"{_DONE_ITEM}.{{type=function_call}}.arguments", "string"),
        (
            "response_stream_event",
            "{type=response.function_call_arguments.delta}.output_index",
            "integer",
        ),
        ("response_stream_event", "{type=response.function_call_arguments.delta}.delta", "string"),
        (
            "response_stream_event",
            "{type=response.function_call_arguments.done}.output_index",
            "integer",
        ),
        (
            "response_stream_event",
            "{type=response.function_call_arguments.done}.arguments",
            "string",
        ),
    ),
)
_START = "{type=content_block_start}"
_DELTA = "{type=content_block_delta}"
ANTHROPIC_MESSAGES = Decoder(
    "envelopes/anthropic_messages.py.j2",
    ("MessageToolCallStream", "parse_message_tool_calls"),
    (
        ("message", "content.[].type", "string"),
        ("message", "content.[].{type=tool_use}.id", "string"),
        ("message", "content.[].{type=tool_use}.name", "string"),
        ("message", "content.[].{type=tool_use}.input", "object"),
        ("message_stream_event", "type", "string"),
        ("message_stream_event", f"{_START}.index", "integer"),
        ("message_stream_event", f"{_START}.content_block.type", "string"),
        ("message_stream_event", f"{_START}.content_block.{{type=tool_use}}.id", "string"),
        ("message_stream_event", f"{_START}.content_block.{{type=tool_use}}.name", "string"),
        ("message_stream_event", f"{_START}.content_block.{{type=tool_use}}.input", "object"),
        ("message_stream_event", f"{_DELTA}.index", "integer"),
        ("message_stream_event", f"{_DELTA}.delta.type", "string"),
        (
            "message_stream_event",
            f"{_DELTA}.delta.{{type=input_json_delta}}.partial_json",
            "string",
        ),
    ),
    frozenset(
        {
            "Any",
            "Callable",
            "Mapping",
            "RawToolCall",
            "ToolCallFragments",
            "decode_tool_call",
            "tool_call_from_object",
        }
    ),
)

_BLOCK = "output.message.content.[].toolUse?"
_BLOCK_START = "contentBlockStart?.start.toolUse?"
_BLOCK_DELTA = "contentBlockDelta?"
CONVERSE = Decoder(
    "envelopes/converse.py.j2",
    ("ConverseToolCallStream", "parse_converse_tool_calls"),
    (
        ("converse", f"{_BLOCK}.toolUseId", "string"),
        ("converse", f"{_BLOCK}.name", "string"),
        ("converse", f"{_BLOCK}.input", "object"),
        ("converse", f"{_BLOCK}.type?", "string"),
        ("converse_stream_event", "messageStart?", "object"),
        ("converse_stream_event", "contentBlockStart?.contentBlockIndex", "integer"),
        ("converse_stream_event", f"{_BLOCK_START}.toolUseId", "string"),
        ("converse_stream_event", f"{_BLOCK_START}.name", "string"),
        ("converse_stream_event", f"{_BLOCK_START}.type?", "string"),
        ("converse_stream_event", f"{_BLOCK_DELTA}.contentBlockIndex", "integer"),
        ("converse_stream_event", f"{_BLOCK_DELTA}.delta.toolUse?.input", "string"),
    ),
    ANTHROPIC_MESSAGES.imports,  # the same: whole inputs and joined fragments
)

#: provider -> the decoders of its module (each needs the surfaces it reads)
DECODERS: dict[str, tuple[Decoder, ...]] = {
    "openai": (CHAT_COMPLETIONS, RESPONSES),
    "groq": (CHAT_COMPLETIONS,),
    "cerebras": (CHAT_COMPLETIONS,),
    "anthropic": (ANTHROPIC_MESSAGES,),
    "bedrock": (CONVERSE,),
    # the OpenAI-style and Responses-style results of some model families (toolgen.runtime's
    # _workers_ai reads the REST wrapper and the native results, and calls these for the others)
    "cloudflare": (CHAT_COMPLETIONS, RESPONSES),
}


def decoders_for(provider: str, schemas: dict[str, Any]) -> list[Decoder]:
    """The decoders of ``provider`` whose surfaces are all present, checked against them."""
    chosen = []
    for decoder in DECODERS.get(provider, ()):
        if all(surface in schemas for surface in decoder.surfaces):
            for surface, path, json_type in decoder.reads:
                check_decoder_read(provider, surface, schemas[surface], path, json_type)
            chosen.append(decoder)
    return chosen


def check_decoder_read(provider: str, surface: str, schema: Any, path: str, json_type: str) -> None:
    """Raise EnvelopeSchemaError unless ``schema`` guarantees what a decoder reads at ``path``."""
    lookup = SurfaceCompiler(provider, surface, schema, Mode.FAST, {})
    where = ""

    def fail(message: str) -> EnvelopeSchemaError:
        return lookup.error(where, f"the tool-call decoder reads {path} ({json_type}); {message}")

    nodes: list[tuple[Any, str]] = [_resolved(lookup, schema, "")]
    for token in re.findall(r"\{[^}]*\}|[^.]+", path):
        node, where = nodes[-1]
        if token == "[]" or token.endswith("[0]"):
            key = "" if token == "[]" else token.removesuffix("[0]")
            if key:
                nodes.append(_member(lookup, node, where, key, fail))
                node, where = nodes[-1]
            if lookup.describe(node, where) != "array" or "items" not in node:
                raise fail("an array with items is needed here")
            if token != "[]" and node.get("minItems", 0) < 1:
                raise fail("the array needs minItems 1")
            nodes.append(_resolved(lookup, node["items"], where + "/items"))
        elif token.startswith("{"):
            discriminator, _, value = token[1:-1].partition("=")
            cases = {
                c["if"]["properties"][discriminator]["const"]: (c["then"], i)
                for i, c in enumerate(node.get("allOf", ()))
                if discriminator in c.get("if", {}).get("properties", {})
            }
            if value not in cases:
                raise fail(f"the union needs the case {value!r}")
            then, position = cases[value]
            resolved, then_pointer = _resolved(lookup, then, f"{where}/allOf/{position}/then")
            # a case's members may be declared in the case or beside the union
            nodes.append(
                (
                    {
                        "properties": {
                            **node.get("properties", {}),
                            **resolved.get("properties", {}),
                        },
                        "required": [*node.get("required", ()), *resolved.get("required", ())],
                    },
                    then_pointer,
                )
            )
        else:
            nodes.append(_member(lookup, node, where, token, fail))
    node, where = nodes[-1]
    if lookup.describe(node, where) != json_type:
        raise fail(f"the schema says {lookup.describe(node, where)}")


def _member(
    lookup: SurfaceCompiler, node: Any, pointer: str, token: str, fail: Any
) -> tuple[Any, str]:
    key = token.removesuffix("?")
    properties = node.get("properties", {}) if isinstance(node, dict) else {}
    if key not in properties:
        raise fail(f"{key!r} must be declared")
    if key == token and key not in node.get("required", ()):
        raise fail(f"{key!r} must be required")
    child, child_pointer = _resolved(lookup, properties[key], f"{pointer}/properties/{key}")
    if lookup.describe(child, child_pointer).endswith(" or null"):
        if key == token:
            raise fail(f"{key!r} must not be nullable")
        inner = lookup.nullable_inner(child, child_pointer)
        position = next(i for i, branch in enumerate(child["anyOf"]) if branch is inner)
        child, child_pointer = _resolved(lookup, inner, f"{child_pointer}/anyOf/{position}")
    return child, child_pointer


def _resolved(lookup: SurfaceCompiler, schema: Any, pointer: str) -> tuple[Any, str]:
    return lookup.follow_refs(schema, pointer)
