"""Google Gemini ``generateContent`` (Gemini API and Vertex AI): function declarations and
structured outputs, in two dialects chosen by ``[providers.gemini] dialect`` in toolgen.toml.

- ``json_schema`` (the default): ``functionDeclarations[].parametersJsonSchema`` and
  ``generationConfig.responseJsonSchema``. JSON Schema with a keyword whitelist; references kept
  (bare, or with ``$``-keywords beside them); recursion only through optional members.
- ``openapi``: ``functionDeclarations[].parameters`` and ``generationConfig.responseSchema``. An
  OpenAPI 3.0 subset: no references (inlined; a recursive one as JSON text), no type lists, null written
  ``nullable: true``, no ``const``, no ``additionalProperties``, string-only enums.

In both, optional members stay optional (Gemini has no all-required rule): the projection adds no
nulls, and payloads come back canonical, except the OpenAPI dialect's enum texts, which the
generated canonicalizer reads back. The generated module speaks the generateContent API
(toolgen/runtime/_generate_content.py; envelopes in toolgen/providers/envelopes/gemini).

Every rule, its source and the date it was checked (the generateContent reference
https://ai.google.dev/api/generate-content, FunctionDeclaration and Schema, and the guides
https://ai.google.dev/gemini-api/docs/structured-output and
https://ai.google.dev/gemini-api/docs/function-calling):
"""

from dataclasses import replace

from toolgen.apis.generate_content import GENERATE_CONTENT, GENERATE_CONTENT_OPENAPI
from toolgen.providers.base import (
    UNREPRESENTABLE,
    Limits,
    NameRule,
    OpenApiDialect,
    Profile,
    Rule,
)
from toolgen.providers.endpoints import Endpoint
from toolgen.providers.registration import Registration

CHECKED = "2026-12-03"
JSON_SCHEMA_DOCS = (
    "Gemini API docs, Structured output and Function calling"
    " (ai.google.dev/gemini-api/docs/structured-output,"
    " ai.google.dev/gemini-api/docs/function-calling)"
)
OPENAPI_DOCS = "Gemini API reference, Schema (ai.google.dev/api/caching#Schema)"
DECLARATION_DOCS = (
    "Gemini API reference, FunctionDeclaration (ai.google.dev/api/caching#FunctionDeclaration)"
)

#: Every rule: (dialect, or None for both; the rule). [unconfirmed] facts take the safe side.
_RULES: tuple[tuple[str | None, Rule], ...] = (
    (
        "json_schema",
        Rule(
            "keywords",
            (
                "$id, $defs, $ref, $anchor, type, format, title, description, enum "
                "(strings and numbers), items, prefixItems, minItems, maxItems, minimum, "
                "maximum, anyOf, oneOf (as anyOf), properties, additionalProperties, "
                "required, propertyOrdering; other keywords ignored or rejected [sources "
                "disagree]: every other keyword is dropped (the canonical validation "
                "enforces it); prefixItems stays rejected (no inverse reads tuples); "
                "$id/$anchor dropped (bundled references are pointers)"
            ),
            JSON_SCHEMA_DOCS,
            CHECKED,
        ),
    ),
    (
        "json_schema",
        Rule(
            "$ref siblings",
            (
                "a $ref node may carry only $-keywords beside it: any other sibling "
                "inlines the reference (so does a reference into definitions, a container"
                " off the whitelist: the reference would dangle)"
            ),
            JSON_SCHEMA_DOCS,
            CHECKED,
        ),
    ),
    (
        "json_schema",
        Rule(
            "recursion",
            (
                "cyclic references may appear only under non-required properties: a cycle"
                " whose path from its definition to the reference passes no optional "
                "member is rejected"
            ),
            JSON_SCHEMA_DOCS,
            CHECKED,
        ),
    ),
    (
        "json_schema",
        Rule(
            "const",
            (
                "const is not in the whitelist: written as a one-value enum when the "
                "value is a string or number (enum holds strings and numbers), else "
                "dropped"
            ),
            JSON_SCHEMA_DOCS,
            CHECKED,
        ),
    ),
    (
        "json_schema",
        Rule(
            "type lists",
            (
                "[unconfirmed] type arrays are not listed: split into anyOf with a null "
                "branch (anyOf is)"
            ),
            f"{JSON_SCHEMA_DOCS} (safe side)",
            CHECKED,
        ),
    ),
    (
        "openapi",
        Rule(
            "keywords",
            (
                "type, format, title, description, nullable, enum (strings only), items, "
                "minItems, maxItems, properties, required, minProperties, maxProperties, "
                "minLength, maxLength, pattern, minimum, maximum, anyOf, "
                "propertyOrdering, default, example; minLength, maxLength, minProperties,"
                " maxProperties, pattern, default and example are dropped here (the "
                "canonical validation enforces them; the branch-test compiler and the "
                "regex dialect [unconfirmed] are the reasons)"
            ),
            OPENAPI_DOCS,
            CHECKED,
        ),
    ),
    (
        "openapi",
        Rule(
            "refused fields",
            (
                "additionalProperties, $ref, $defs, const, $schema, exclusiveMinimum, "
                "propertyNames and type arrays are refused as unknown fields: references "
                "inlined (a $ref that closes a cycle written as a string of JSON text, "
                "rejected inside anyOf/oneOf), const as a one-value enum, "
                "additionalProperties not written, a type list with null written "
                "nullable: true, with several types rejected, exclusive bounds dropped"
            ),
            f"{OPENAPI_DOCS}; the API's 'Unknown name ... Cannot find field' error",
            CHECKED,
        ),
    ),
    (
        "openapi",
        Rule(
            "type names",
            (
                "type is one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL: "
                "written upper-case"
            ),
            OPENAPI_DOCS,
            CHECKED,
        ),
    ),
    (
        "openapi",
        Rule(
            "enums",
            (
                "enum holds strings only: numbers and booleans written as their JSON text"
                " in a STRING enum, read back exactly by the inverse (EnumStringified); "
                "two values with one text, or such an enum inside a union, are rejected "
                "(no exact inverse)"
            ),
            OPENAPI_DOCS,
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "formats",
            (
                "string formats: only enum and date-time on the Gemini API; date-time "
                "kept, others dropped (json_schema: [unconfirmed], the same list)"
            ),
            OPENAPI_DOCS,
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "roots",
            "tool roots must be objects",
            DECLARATION_DOCS,
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "optional members",
            ("required is optional (no all-required rule): optional members stay optional"),
            DECLARATION_DOCS,
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "names",
            "start with a letter or _, then letters, digits, _ . : -, at most 64",
            DECLARATION_DOCS,
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "limits",
            (
                "[unconfirmed] 'too many states for serving' for long enums and many "
                "bounds: no documented numbers, so no limit is checked"
            ),
            f"{JSON_SCHEMA_DOCS}; the API's 'too many states for serving' error",
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "requests",
            (
                "tools: [{functionDeclarations: [{name, description, parametersJsonSchema | "
                "parameters}]}]; structured output: generationConfig {responseMimeType: "
                "application/json, responseJsonSchema | responseSchema}; an empty description "
                "is left out"
            ),
            "generateContent reference: Tool, FunctionDeclaration, GenerationConfig",
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "responses",
            (
                "calls are the functionCall parts of the first candidate; args may be absent "
                '(read as {}); id is sent by some models only (else the call\'s id is ""); '
                "candidates is absent when the prompt was blocked (promptFeedback)"
            ),
            "generateContent reference: GenerateContentResponse, Candidate, Part, "
            "FunctionCall; 458 recorded response bodies of the Gemini API and Vertex AI",
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "streams",
            (
                "each server-sent event is a whole GenerateContentResponse chunk; a call comes "
                "whole, or with streamFunctionCallArguments (Vertex AI) as name + willContinue, "
                "then partialArgs (jsonPath and a string, number, bool or null value; strings "
                "go on while willContinue), ended by a functionCall part without willContinue"
            ),
            "google-genai 3.6.1 types.py (FunctionCall, PartialArg); recorded stream chunks of "
            "generateContent (alt=sse) on the Gemini API and Vertex AI",
            CHECKED,
        ),
    ),
    (
        None,
        Rule(
            "strict",
            (
                "a function declaration has no strict flag; toolConfig.functionCallingConfig "
                "mode VALIDATED (request-wide, opt-in: request(strict=True)) constrains every "
                "call of the request to its declared schema, the model still free to answer in "
                "text; the default (AUTO) leaves schemas as guidance, the canonical validation "
                "of each decoded call the check"
            ),
            "google-genai 3.6.1 types.py FunctionCallingConfigMode (VALIDATED); googleapis "
            "google/ai/generativelanguage/v1beta content.proto FunctionCallingConfig.Mode",
            "2026-12-08",
        ),
    ),
)


def _rules(dialect: str) -> tuple[Rule, ...]:
    return tuple(rule for only, rule in _RULES if only in (None, dialect))


NAMES = NameRule(allowed="[a-zA-Z0-9_.:-]", max_length=64, first="[a-zA-Z_]")
FORMATS = frozenset({"date-time"})

JSON_SCHEMA_KEEP = frozenset({
    "$ref", "$defs", "type", "format", "title", "description", "enum", "items", "minItems",
    "maxItems", "minimum", "maximum", "anyOf", "properties", "additionalProperties", "required",
    "propertyOrdering",
})  # fmt: skip

# Refused (or of unsettled support) in a dialect; the canonical validation enforces them.
JSON_SCHEMA_DROP = frozenset({
    "$schema", "$id", "$comment", "$anchor", "definitions", "const", "default", "examples",
    "example", "deprecated", "readOnly", "writeOnly", "minLength", "maxLength", "pattern",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "minProperties",
    "maxProperties", "contentEncoding", "contentMediaType", "contentSchema",
    "contains", "minContains", "maxContains",
})  # fmt: skip

OPENAPI_KEEP = frozenset({
    "type", "format", "title", "description", "enum", "items", "minItems", "maxItems",
    "properties", "required", "minimum", "maximum", "anyOf", "propertyOrdering",
})  # fmt: skip

OPENAPI_DROP = JSON_SCHEMA_DROP | {"$ref", "$defs", "additionalProperties"}


def _numbers_and_strings(values: object) -> bool:
    """The JSON Schema dialect's enum holds strings and numbers (null goes to a null branch)."""
    return isinstance(values, list) and all(
        isinstance(v, str | int | float) and not isinstance(v, bool) for v in values
    )


GEMINI_JSON_SCHEMA = Profile(
    name="gemini",
    display_name="Gemini",
    title="Gemini (JSON Schema dialect)",
    keep=JSON_SCHEMA_KEEP,
    drop=JSON_SCHEMA_DROP,
    reject=UNREPRESENTABLE,
    formats=FORMATS,
    limits=Limits(),
    names=NAMES,
    keep_if={"enum": _numbers_and_strings},
    optional_style="omit",
    type_arrays=False,
    recursion=True,
    recursion_through_optional=True,
    const_as_enum=True,
    non_strict=None,
    strict_flag=False,  # a function declaration has no strict flag
    apis=(GENERATE_CONTENT,),
    rules=_rules("json_schema"),
)

GEMINI_OPENAPI = replace(
    GEMINI_JSON_SCHEMA,
    title="Gemini (OpenAPI dialect)",
    keep=OPENAPI_KEEP,
    drop=OPENAPI_DROP,
    keep_if={},
    recursion=False,
    recursion_through_optional=False,
    inline_refs=True,
    string_enums=True,
    apis=(GENERATE_CONTENT_OPENAPI,),
    rules=_rules("openapi"),
    openapi=OpenApiDialect(
        type_names={
            "string": "STRING",
            "number": "NUMBER",
            "integer": "INTEGER",
            "boolean": "BOOLEAN",
            "array": "ARRAY",
            "object": "OBJECT",
            "null": "NULL",
        }  # fmt: skip
    ),
)

#: ``[providers.gemini] dialect`` -> the profile; the first is the default.
DIALECTS: dict[str, Profile] = {"json_schema": GEMINI_JSON_SCHEMA, "openapi": GEMINI_OPENAPI}


def _auth(key: str) -> dict[str, str]:
    """The Gemini API's key header."""
    return {"x-goog-api-key": key}


REGISTRATION = Registration(
    GEMINI_JSON_SCHEMA,
    order=60,
    dialects=DIALECTS,
    # google-genai's http_options.base_url is https://generativelanguage.googleapis.com; its
    # api_version (v1beta by default) goes before the model's path (_api_client.py; checked
    # 2026-12-07)
    endpoint=Endpoint(
        "GEMINI_API_KEY",
        "https://generativelanguage.googleapis.com",
        "gemini-2.5-flash",
        _auth,
        api_paths=(("generate_content", "/v1beta"),),
    ),
)
