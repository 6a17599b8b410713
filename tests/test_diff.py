"""toolgen diff (issue 12, item 2): a table of design pairs, each with the changes a reviewer expects
(written by hand from the rules in toolgen/schema/compare.py, not copied from the output), then the
command line: --git against a temporary repository, --format json, --fail-on and exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from toolgen.build import analyze
from toolgen.commands.diff import blocking_diagnostics, diff_designs, format_json, format_text
from toolgen.schema.names import short_hash

S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741
OPENAI_ONLY = '[toolgen]\nproviders = ["openai"]\n'
BOTH = '[toolgen]\nproviders = ["openai", "anthropic"]\n'
# a contract strict mode cannot carry is sent non-strict instead of failing the build
FALLBACK = 'strict_fallback = "non-strict"\n'
#: what a removed member breaks (issue 37): payloads, as the object it left decides, and code
STILL_VALID = "stored payloads that have it still validate (the object is open)"
REJECTED = "stored payloads that have it are rejected now (the object is closed)"
CODE_BREAKS = "code that reads or sets it breaks (the model has no field for it now)"
NEEDS_METHOD = (
    "ToolHandlers and AsyncToolHandlers subclasses need its method (HANDLER_NAMES), or they are "
    "abstract"
)


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, **extra}
    if required is not None:
        schema["required"] = required
    return schema


def tool(
    parameters: Any, name: str = "t", description: str = "A tool.", **extra: Any
) -> dict[str, Any]:
    return {"name": name, "description": description, "parameters": parameters, **extra}


@dataclass
class Case:
    """OLD and NEW design files (``tools/t.yaml`` when only parameters are given) and the expected
    text lines of the diff, in their sorted order."""

    id: str
    old: dict[str, Any]
    new: dict[str, Any]
    expected: list[str]
    config: str = OPENAI_ONLY
    tags: list[str] = field(default_factory=list)


def one(old_parameters: Any, new_parameters: Any, expected: list[str], id: str) -> Case:
    return Case(
        id, {"tools/t.yaml": tool(old_parameters)}, {"tools/t.yaml": tool(new_parameters)}, expected
    )


P = "tools/t.yaml:/parameters"
ORDER = {"a": {"type": "string", "enum": ["x", "y", "z"]}, "b": I, "c": S}
TREE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "label": S,
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["label"],
        }
    },
}
TREE_REQUIRED = json.loads(json.dumps(TREE))
TREE_REQUIRED["$defs"]["Node"]["required"] = ["label", "children"]
#: recursive through a union (a child, or its label): Anthropic's strict mode cannot take it (its
#: JSON text could be the other branch's string), so the tool goes non-strict there
TREE_IN_UNION = json.loads(json.dumps(TREE))
TREE_IN_UNION["$defs"]["Node"]["properties"]["children"]["items"] = {
    "anyOf": [{"$ref": "#/$defs/Node"}, S]
}
MONEY = obj(
    {"amount": I, "currency": {"type": "string", "enum": ["EUR", "USD"]}}, ["amount", "currency"]
)
CARD = obj({"kind": {"const": "card"}, "number": S}, ["kind", "number"])
IBAN = obj({"kind": {"const": "iban"}, "iban": S}, ["kind", "iban"])
CASH = obj({"kind": {"const": "cash"}}, ["kind"])


def _untyped(node: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in node.items() if k != "type"}


#: Equivalent rewrites (issue 20): each pair accepts the same payloads, so the diff is empty.
EQUIVALENT = [
    one(
        obj({"pay": {"type": "object", "oneOf": [_untyped(CARD), _untyped(IBAN)]}}, ["pay"]),
        obj({"pay": {"oneOf": [CARD, IBAN]}}, ["pay"]),
        [],
        "type beside a union of objects folded into the branches",
    ),
    one(
        obj({"e": {"enum": ["a", "b"]}, "c": {"const": 3}}),
        obj({"e": {"type": "string", "enum": ["a", "b"]}, "c": {"type": "integer", "const": 3}}),
        [],
        "an enum and a const with the type their values have",
    ),
    one(
        obj({"e": {"type": "string", "enum": ["a", None]}}),
        obj({"e": {"type": "string", "enum": ["a"]}}),
        [],
        "an enum value its type refuses",
    ),
    one(
        obj({"u": {"anyOf": [S, {"type": "integer", "minimum": 1}, CASH]}}),
        obj({"u": {"anyOf": [CASH, {"type": "integer", "minimum": 1}, S]}}),
        [],
        "a reordered union",
    ),
    one(
        obj({"v": {"type": ["string", "integer", "null"], "minLength": 1, "enum": ["a", 1, None]}}),
        obj(
            {
                "v": {
                    "anyOf": [
                        {"type": "string", "minLength": 1, "enum": ["a"]},
                        {"type": "integer", "enum": [1]},
                        {"type": "null"},
                    ]
                }
            }
        ),
        [],
        "a type list split into one branch per type",
    ),
    one(
        obj({"p": {"type": "object", "required": ["a"]}}, ["p"]),
        obj(
            {
                "p": {
                    "type": "object",
                    "properties": {"a": {}},
                    "required": ["a"],
                    "additionalProperties": True,
                }
            },
            ["p"],
        ),
        [],
        "required members declared as the values they are",
    ),
]

#: A required member declared on one side only: the other side gives it the schema of its
#: undeclared members, and the two schemas are compared.
DECLARED = [
    one(
        obj({"p": {"type": "object", "required": ["a"]}}, ["p"]),
        obj({"p": obj({"a": I}, ["a"])}, ["p"]),
        [f"{P}/properties/p/properties/a/type: design: BREAKING type narrowed from any to integer"],
        "a required member declared with a type",
    ),
]

CASES = [
    *EQUIVALENT,
    *DECLARED,
    Case(
        "tool removed",
        {"tools/t.yaml": tool(obj({"a": S})), "tools/u.yaml": tool(obj({"a": S}), name="u")},
        {"tools/t.yaml": tool(obj({"a": S}))},
        ["tools/u.yaml:: design: BREAKING tool 'u' removed"],
    ),
    Case(
        "tool added",
        {"tools/t.yaml": tool(obj({"a": S}))},
        {"tools/t.yaml": tool(obj({"a": S})), "tools/u.yaml": tool(obj({"b": I}), name="u")},
        [f"tools/u.yaml:: design: NEEDS_HANDLER tool 'u' added: {NEEDS_METHOD}"],
    ),
    Case(
        "output added: no handler",
        {"tools/t.yaml": tool(obj({"a": S}))},
        {
            "tools/t.yaml": tool(obj({"a": S})),
            "outputs/o.yaml": {"name": "o", "description": "An output.", "schema": obj({"b": I})},
        },
        ["outputs/o.yaml:: design: COMPATIBLE output 'o' added"],
    ),
    Case(
        "tool renamed in its file, same wire name",
        {"tools/t.yaml": tool(obj({"a": S}), name="billing.refund")},
        {"tools/t.yaml": tool(obj({"a": S}), name="billing_refund")},
        [
            "tools/t.yaml:/name: design: BREAKING tool renamed from 'billing.refund' to 'billing_refund'"
            " (was tools/t.yaml); aliases: [billing.refund] in its file keeps MCP clients calling"
            " the old name"
        ],
    ),
    Case(
        "tool renamed with its old name kept as an alias",
        {"tools/t.yaml": tool(obj({"a": S}), name="billing.refund")},
        {"tools/t.yaml": tool(obj({"a": S}), name="billing_refund", aliases=["billing.refund"])},
        [
            "tools/t.yaml:/name: design: BREAKING tool renamed from 'billing.refund' to 'billing_refund'"
            " (was tools/t.yaml); MCP clients keep calling the old name (aliases)"
        ],
    ),
    Case(
        "tool renamed and moved, wire name changed",
        {"tools/t.yaml": tool(obj({"a": S}, ["a"]), name="a.b")},
        {"tools/moved.yaml": tool(obj({"a": S}, ["a"]), name="a-b")},
        [
            "tools/moved.yaml:/name: design: BREAKING tool renamed from 'a.b' to 'a-b' (was tools/t.yaml)"
            "; aliases: [a.b] in its file keeps MCP clients calling the old name",
            "tools/moved.yaml:/name: openai: BREAKING wire name changed from 'a_b' to 'a-b'",
        ],
    ),
    Case(
        "wire name cut and hashed changes with the canonical name",
        {"tools/t.yaml": tool(obj({"a": S}), name="x" * 70)},
        {"tools/t.yaml": tool(obj({"a": S}), name="x" * 71)},
        [
            f"tools/t.yaml:/name: design: BREAKING tool renamed from '{'x' * 70}' to '{'x' * 71}' (was tools/t.yaml)"
            f"; aliases: [{'x' * 70}] in its file keeps MCP clients calling the old name",
            # both names are too long for the wire: cut, with a hash of the canonical name
            "tools/t.yaml:/name: openai: BREAKING wire name changed from "
            f"'{'x' * 55}_{short_hash('x' * 70)}' to "
            f"'{'x' * 55}_{short_hash('x' * 71)}'",
        ],
    ),
    one(
        obj({"a": S, "b": I}, ["a"]),
        obj({"a": S, "b": I}, ["a", "b"]),
        [f"{P}/properties/b: design: BREAKING member became required"],
        "member became required",
    ),
    one(
        obj({"a": S, "b": I}, ["a", "b"]),
        obj({"a": S, "b": I}, ["a"]),
        [f"{P}/properties/b: design: COMPATIBLE member became optional"],
        "member became optional",
    ),
    one(
        obj({"a": S, "b": I}, ["a"]),
        obj({"a": S}, ["a"]),
        [f"{P}/properties/b: design: BREAKING member removed: {STILL_VALID}; {CODE_BREAKS}"],
        "member removed from an open object",
    ),
    one(
        obj({"a": S, "b": I}, ["a"], additionalProperties=False),
        obj({"a": S}, ["a"], additionalProperties=False),
        [f"{P}/properties/b: design: BREAKING member removed: {REJECTED}; {CODE_BREAKS}"],
        "member removed from a closed object",
    ),
    one(
        obj({"a": S}, ["a"]),
        obj({"a": S, "b": I}, ["a"]),
        [f"{P}/properties/b: design: COMPATIBLE new optional member"],
        "new optional member",
    ),
    one(
        obj({"a": S}, ["a"]),
        obj({"a": S, "b": I}, ["a", "b"]),
        [f"{P}/properties/b: design: BREAKING new required member"],
        "new required member",
    ),
    one(
        obj({"n": {"type": "number"}}),
        obj({"n": I}),
        [f"{P}/properties/n/type: design: BREAKING type narrowed from number to integer"],
        "type narrowed",
    ),
    one(
        obj({"n": I}),
        obj({"n": {"type": ["integer", "string"]}}),
        [f"{P}/properties/n/type: design: COMPATIBLE type widened from integer to integer/string"],
        "type widened",
    ),
    one(
        obj({"e": {"enum": ["a", "b", "c"]}}),
        obj({"e": {"enum": ["c", "a"]}}),
        [f'{P}/properties/e/enum: design: BREAKING enum value(s) removed: "b"'],
        "enum narrowed",
    ),
    one(
        obj({"e": {"enum": ["a", "b"]}}),
        obj({"e": {"enum": ["b", "a", "c"]}}),
        [f'{P}/properties/e/enum: design: COMPATIBLE enum value(s) added: "c"'],
        "enum widened and reordered",
    ),
    one(
        obj({"e": {"type": "string", "const": "a"}}),
        obj({"e": {"type": "string", "enum": ["a"]}}),
        [],
        "const written as a one-value enum",
    ),
    one(
        obj({"s": {"type": "string", "maxLength": 10}, "n": {"type": "integer", "minimum": 0}}),
        obj({"s": {"type": "string", "maxLength": 5}, "n": {"type": "integer", "minimum": 1}}),
        [
            f"{P}/properties/n/minimum: design: BREAKING minimum raised from 0 to 1",
            f"{P}/properties/s/maxLength: design: BREAKING maxLength lowered from 10 to 5",
        ],
        "constraints tightened",
    ),
    one(
        obj(
            {
                "s": {"type": "string", "maxLength": 5},
                "l": {"type": "array", "items": S, "minItems": 2},
            }
        ),
        obj({"s": {"type": "string", "maxLength": 10}, "l": {"type": "array", "items": S}}),
        [
            f"{P}/properties/l/minItems: design: COMPATIBLE minItems 2 removed",
            f"{P}/properties/s/maxLength: design: COMPATIBLE maxLength raised from 5 to 10",
        ],
        "constraints loosened",
    ),
    one(
        obj({"n": {"type": "integer", "multipleOf": 2}}),
        obj({"n": {"type": "integer", "multipleOf": 4}}),
        [f"{P}/properties/n/multipleOf: design: BREAKING multipleOf 4 changed from 2"],
        "multipleOf tightened",
    ),
    one(
        obj({"n": {"type": "number", "multipleOf": 0.5}}),
        obj({"n": {"type": "number", "multipleOf": 0.25}}),
        [
            f"{P}/properties/n/multipleOf: design: COMPATIBLE multipleOf changed from 0.5 to 0.25, a divisor"
        ],
        "multipleOf loosened",
    ),
    one(
        obj({"id": {"type": "string", "pattern": "^[a-z]+$"}}),
        obj({"id": {"type": "string", "pattern": "^[a-z0-9]+$"}}),
        [
            f"{P}/properties/id/pattern: design: BREAKING pattern changed;"
            " toolgen cannot tell whether every value accepted before is still accepted"
        ],
        "pattern changed (cannot tell: breaking)",
    ),
    one(
        obj({"a": S}),
        obj({"a": S}, additionalProperties=False),
        [
            f"{P}/additionalProperties: design: BREAKING object closed: members not listed are rejected now"
        ],
        "object closed",
    ),
    one(
        obj({"v": {"anyOf": [S, I, {"type": "boolean"}]}}),
        obj({"v": {"anyOf": [I, S]}}),
        [f"{P}/properties/v/anyOf/2: design: BREAKING union branch removed"],
        "union branch removed",
    ),
    one(
        obj({"v": {"anyOf": [S, I]}}),
        obj({"v": {"anyOf": [S, I, {"type": "boolean"}]}}),
        [f"{P}/properties/v/anyOf/2: design: COMPATIBLE union branch added"],
        "union branch added",
    ),
    one(
        obj({"v": S}),
        obj({"v": {"anyOf": [S, I]}}),
        [f"{P}/properties/v/anyOf/1: design: COMPATIBLE union branch added"],
        "a type becomes a union",
    ),
    one(
        obj({"pay": {"oneOf": [CARD, IBAN]}}, ["pay"]),
        obj(
            {
                "pay": {
                    "oneOf": [
                        IBAN,
                        obj(
                            {"kind": {"const": "card"}, "number": S, "cvc": S},
                            ["kind", "number", "cvc"],
                        ),
                    ]
                }
            },
            ["pay"],
        ),
        [f"{P}/properties/pay/oneOf/1/properties/cvc: design: BREAKING new required member"],
        "union branch narrowed (matched by its discriminator)",
    ),
    one(
        obj({"pay": {"oneOf": [CARD, IBAN, CASH]}}),
        obj({"pay": {"anyOf": [CASH, IBAN, CARD]}}),
        [],
        "oneOf as anyOf, branches reordered",
    ),
    one(
        obj({"a": S, "b": I, "c": S}, ["a", "b", "c"]),
        {"required": ["c", "a", "b"], "properties": {"c": S, "b": I, "a": S}, "type": "object"},
        [],
        "reordered required and keys",
    ),
    one(
        obj({"price": MONEY, "fee": MONEY}),
        obj(
            {"price": {"$ref": "#/$defs/Money"}, "fee": {"$ref": "#/$defs/Money"}},
            **{"$defs": {"Money": MONEY}},
        ),
        [],
        "$ref refactoring: a definition extracted",
    ),
    Case(
        "$ref refactoring: a definition moved to defs/, then changed",
        {
            "tools/t.yaml": tool(
                obj({"price": {"$ref": "#/$defs/Money"}}, **{"$defs": {"Money": MONEY}})
            )
        },
        {
            "tools/t.yaml": tool(obj({"price": {"$ref": "../defs/money.yaml#/$defs/Money"}})),
            "defs/money.yaml": {
                "$defs": {
                    "Money": obj(
                        {"amount": I, "currency": {"type": "string", "enum": ["USD"]}},
                        ["amount", "currency"],
                    )
                }
            },
        },
        [
            f'{P}/properties/price/properties/currency/enum: design: BREAKING enum value(s) removed: "EUR"'
        ],
    ),
    one(
        obj({"a": {"type": ["string", "null"]}}, ["a"]),
        obj({"a": {"anyOf": [S, {"type": "null"}]}}, ["a"]),
        [],
        "nullable type list as anyOf with a null branch",
    ),
    one(
        obj({"a": {"allOf": [{"$ref": "#/$defs/S"}]}}, **{"$defs": {"S": S}}),
        obj({"a": S}),
        [],
        "one-branch allOf of a $ref inlined",
    ),
    one(
        obj({"n": {"type": ["integer", "number"]}}),
        obj({"n": {"type": "number"}}),
        [],
        "integer beside number",
    ),
    one(
        TREE,
        TREE_REQUIRED,
        [f"{P}/properties/root/properties/children: design: BREAKING member became required"],
        "recursive schema",
    ),
    one(
        obj({"tags": {"type": "array", "items": S}}),
        obj({"tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}),
        [f'{P}/properties/tags/items/enum: design: BREAKING now limited to the values "a"'],
        "items narrowed",
    ),
    one(
        obj({"a": {"type": "string", "description": "old"}}, title="T"),
        obj({"a": {"type": "string", "description": "new"}}, title="T2"),
        [
            f"{P}/properties/a/description: design: COMPATIBLE description changed",
            f"{P}/title: design: COMPATIBLE title changed",
        ],
        "annotations",
    ),
    one(
        obj({"a": {"type": "string", "allOf": [{"minLength": 1}, {"maxLength": 9}]}}),
        obj({"a": {"type": "string", "minLength": 1, "maxLength": 9}}),
        # the same contract, and OpenAI takes both (the two-branch allOf is merged into one)
        [],
        "allOf of disjoint keywords merged",
    ),
    one(
        obj(
            {"a": {"allOf": [{"$ref": "#/$defs/A"}, {"pattern": "^x"}]}},
            **{"$defs": {"A": {"type": "string", "pattern": "^a"}}},
        ),
        obj(
            {"a": {"allOf": [{"$ref": "#/$defs/A"}, {"pattern": "^x"}, {"pattern": "y$"}]}},
            **{"$defs": {"A": {"type": "string", "pattern": "^a"}}},
        ),
        [f"{P}/properties/a/allOf/1: design: BREAKING allOf branch added"],
        "allOf branch added",
    ),
    Case(
        "not removed (sent strict by a provider now)",
        {"tools/t.yaml": tool(obj({"a": {"type": "string", "not": {"enum": ["x"]}}}))},
        {"tools/t.yaml": tool(obj({"a": S}))},
        [
            "tools/t.yaml:/parameters: openai: COMPATIBLE sends this tool strict now",
            f"{P}/properties/a/not: design: COMPATIBLE not removed",
        ],
        config=OPENAI_ONLY + FALLBACK,
    ),
    Case(
        "now emitted for a provider",
        {"tools/t.yaml": tool(obj({"a": S}), providers=["openai"])},
        {"tools/t.yaml": tool(obj({"a": S}))},
        ["tools/t.yaml:/providers: anthropic: COMPATIBLE now emitted"],
        config=BOTH,
    ),
    Case(
        "tool description changed",
        {"tools/t.yaml": tool(obj({"a": S}), description="Old.")},
        {"tools/t.yaml": tool(obj({"a": S}), description="New.")},
        ["tools/t.yaml:/description: design: COMPATIBLE description changed"],
    ),
    Case(
        "tool priority changed",
        {"tools/t.yaml": tool(obj({"a": S}))},
        {"tools/t.yaml": tool(obj({"a": S}), priority=3)},
        ["tools/t.yaml:/priority: design: COMPATIBLE priority changed from 0 to 3"],
    ),
    Case(
        "newly rejected by a provider (description over OpenAI's limit)",
        {"tools/t.yaml": tool(obj({"a": S}), description="Short.")},
        {"tools/t.yaml": tool(obj({"a": S}), description="x" * 1_100)},
        [
            "tools/t.yaml:/description: design: COMPATIBLE description changed",
            "tools/t.yaml:/parameters: openai: BREAKING rejects this tool now: LIMIT_DESCRIPTION"
            " at tools/t.yaml:/description",
        ],
    ),
    Case(
        "sent non-strict by one provider, strict by another (recursion through a union)",
        {"tools/t.yaml": tool(obj({"label": S}, ["label"]))},
        {"tools/t.yaml": tool(TREE_IN_UNION)},
        [
            "tools/t.yaml:/parameters: anthropic: COMPATIBLE sends this tool non-strict now:"
            " STRICT_FALLBACK at tools/t.yaml:/parameters/$defs/Node/properties/children/items/anyOf/0/$ref",
            f"{P}/properties/label: design: BREAKING member removed: {STILL_VALID}; {CODE_BREAKS}",
            f"{P}/properties/root: design: BREAKING new required member",
        ],
        config=BOTH + FALLBACK,
    ),
    Case(
        # both strict: the map is sent as a list of key/value entries
        "map closed into an object",
        {"tools/t.yaml": tool(obj({"m": {"type": "object", "additionalProperties": S}}))},
        {"tools/t.yaml": tool(obj({"m": obj({"k": S}, additionalProperties=False)}))},
        [
            f"{P}/properties/m/additionalProperties: design: BREAKING object closed:"
            " members not listed are rejected now",
            f"{P}/properties/m/properties/k: design: COMPATIBLE new optional member",
        ],
    ),
    Case(
        "no longer emitted for a provider",
        {"tools/t.yaml": tool(obj({"a": S}))},
        {"tools/t.yaml": tool(obj({"a": S}), providers=["openai"])},
        ["tools/t.yaml:/providers: anthropic: BREAKING no longer emitted"],
        config=BOTH,
    ),
    Case(
        "provider dropped from toolgen.toml",
        {"tools/t.yaml": tool(obj({"a": S})), "toolgen.toml": BOTH},
        {"tools/t.yaml": tool(obj({"a": S})), "toolgen.toml": OPENAI_ONLY},
        ["toolgen.toml:/toolgen/providers: anthropic: BREAKING no longer built"],
        config="",
    ),
    Case(
        # the GitHub MCP server's issue_write.type: null removes the type, absent leaves it
        "an optional member comes to accept null: boxed on openai, as it is on anthropic",
        {"tools/t.yaml": tool(obj({"title": S, "type": S}, ["title"]))},
        {"tools/t.yaml": tool(obj({"title": S, "type": {"type": ["string", "null"]}}, ["title"]))},
        [
            f"{P}/properties/type: openai: COMPATIBLE boxes this optional member that"
            " accepts null now: the model writes null to leave it out and"
            ' {"value": ...} to set it; absent and null come back apart',
            f"{P}/properties/type/type: design: COMPATIBLE type widened from string to null/string",
        ],
        config=BOTH,
    ),
    Case(
        "optional_nullable set to keep: no longer boxed",
        {
            "tools/t.yaml": tool(obj({"type": {"type": ["string", "null"]}})),
            "toolgen.toml": OPENAI_ONLY,
        },
        {
            "tools/t.yaml": tool(obj({"type": {"type": ["string", "null"]}})),
            "toolgen.toml": OPENAI_ONLY + '[providers.openai]\noptional_nullable = "keep"\n',
        },
        [
            f"{P}/properties/type: openai: BREAKING no longer boxes this optional member"
            " that accepts null: absent comes back as null",
        ],
        config="",
    ),
    Case(
        "output schema changed",
        {
            "outputs/o.yaml": {
                "name": "o",
                "description": "An output.",
                "schema": obj({"a": S}, ["a"]),
            }
        },
        {
            "outputs/o.yaml": {
                "name": "o",
                "description": "An output.",
                "schema": obj({"a": I}, ["a"]),
            }
        },
        [
            "outputs/o.yaml:/schema/properties/a/type: design: BREAKING type narrowed from string to integer"
        ],
    ),
    Case(
        "a tool's output schema narrowed",
        {"tools/t.yaml": tool(obj({"a": S}), output=obj({"ok": S}))},
        {"tools/t.yaml": tool(obj({"a": S}), output=obj({"ok": I}))},
        [
            "tools/t.yaml:/output/properties/ok/type: design: BREAKING output: type narrowed"
            " from string to integer"
        ],
    ),
    Case(
        "a tool gains an output schema",
        {"tools/t.yaml": tool(obj({"a": S}))},
        {"tools/t.yaml": tool(obj({"a": S}), output={"type": "array"})},
        ["tools/t.yaml:/output/type: design: BREAKING output: type narrowed from any to array"],
    ),
    Case(
        "a tool loses its output schema",
        {"tools/t.yaml": tool(obj({"a": S}), output={"type": "array"})},
        {"tools/t.yaml": tool(obj({"a": S}))},
        ["tools/t.yaml:/output/type: design: COMPATIBLE output: type widened from array to any"],
    ),
    Case(
        "title and annotations changed",
        {"tools/t.yaml": tool(obj({"a": S}), title="A", annotations={"readOnlyHint": True})},
        {"tools/t.yaml": tool(obj({"a": S}), title="B", annotations={"readOnlyHint": False})},
        [
            "tools/t.yaml:/annotations: design: COMPATIBLE annotations changed",
            "tools/t.yaml:/title: design: COMPATIBLE title changed",
        ],
    ),
]


def _write(make_design: Any, name: str, files: dict[str, Any], config: str) -> Path:
    files = dict(files)
    if config and "toolgen.toml" not in files:
        files["toolgen.toml"] = config
    return make_design(files, name=name)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_diff_case(case: Case, make_design: Any) -> None:
    old = analyze(_write(make_design, "old", case.old, case.config))
    new = analyze(_write(make_design, "new", case.new, case.config))
    assert not blocking_diagnostics(old) and not blocking_diagnostics(new)
    assert format_text(diff_designs(old, new)).splitlines() == case.expected


def test_providers_that_see_the_same_change_share_its_line(make_design: Any) -> None:
    """One change seen alike by several providers is one line naming them all; ``verbose`` gives
    one line per provider, and JSON one object per provider."""
    old = analyze(make_design({"tools/t.yaml": tool(obj({"a": S}), name="a.b")}, name="old"))
    new = analyze(make_design({"tools/t.yaml": tool(obj({"a": S}), name="a-b")}, name="new"))
    changes = [c for c in diff_designs(old, new) if c.kind == "PROVIDER_NAME_CHANGED"]
    providers = sorted(c.provider for c in changes)
    # Gemini's names may hold a dot; the others' wire name was a_b
    underscored = [name for name in providers if name != "gemini"]
    assert "gemini" in providers and len(underscored) > 2
    wire = "tools/t.yaml:/name: {}: BREAKING wire name changed from '{}' to 'a-b'"
    assert format_text(changes).splitlines() == [
        wire.format(", ".join(underscored), "a_b"),
        wire.format("gemini", "a.b"),
    ]
    assert format_text(changes, verbose=True).splitlines() == [
        wire.format(name, "a.b" if name == "gemini" else "a_b") for name in providers
    ]
    assert [entry["provider"] for entry in json.loads(format_json(changes))] == providers


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_design_against_itself_has_no_change(case: Case, make_design: Any) -> None:
    new = analyze(_write(make_design, "new", case.new, case.config))
    assert diff_designs(new, new) == []


# -- the command line ---------------------------------------------------------------------------


@pytest.fixture
def pair(make_design):
    old = make_design(
        {"tools/t.yaml": tool(obj({"a": S, "b": I}, ["a"])), "toolgen.toml": OPENAI_ONLY},
        name="old",
    )
    compatible = make_design(
        {"tools/t.yaml": tool(obj({"a": S, "b": I, "c": S}, ["a"])), "toolgen.toml": OPENAI_ONLY},
        name="compatible",
    )
    breaking = make_design(
        {"tools/t.yaml": tool(obj({"a": S, "b": I}, ["a", "b"])), "toolgen.toml": OPENAI_ONLY},
        name="breaking",
    )
    return old, compatible, breaking


def test_cli_exit_codes_with_fail_on(cli, pair) -> None:
    old, compatible, breaking = pair
    assert cli("diff", old, old, "--fail-on", "any").exit_code == 0
    assert cli("diff", old, compatible).exit_code == 0
    assert cli("diff", old, compatible, "--fail-on", "breaking").exit_code == 0
    assert cli("diff", old, compatible, "--fail-on", "any").exit_code == 1
    result = cli("diff", old, breaking, "--fail-on", "breaking")
    assert result.exit_code == 1
    assert result.stdout == f"{P}/properties/b: design: BREAKING member became required\n"
    assert "1 breaking, 0 needing a handler, 0 compatible" in result.stderr
    assert cli("diff", old, breaking).exit_code == 0


def test_cli_json(cli, pair) -> None:
    old, compatible, _ = pair
    result = cli("diff", old, compatible, "--format", "json")
    assert json.loads(result.stdout) == [
        {
            "file": "tools/t.yaml",
            "pointer": "/parameters/properties/c",
            "provider": "design",
            "kind": "MEMBER_ADDED",
            "classification": "compatible",
            "message": "new optional member",
        }
    ]


def test_cli_usage_errors(cli, pair) -> None:
    old, _, _ = pair
    assert cli("diff", old).exit_code == 2
    assert cli("diff", old, old, old).exit_code == 2
    assert cli("diff", "--git", "HEAD", old, old).exit_code == 2
    assert cli("diff", old, old, "--fail-on", "sometimes").exit_code == 2


def test_cli_reports_design_errors_of_either_side(cli, pair, make_design) -> None:
    old, _, _ = pair
    broken = make_design(
        {"tools/t.yaml": tool({"type": "strng"}), "toolgen.toml": OPENAI_ONLY}, name="broken"
    )
    for args in ((old, broken), (broken, old)):
        result = cli("diff", *args)
        assert result.exit_code == 1
        assert "tools/t.yaml:/parameters/type: design: INVALID_SCHEMA" in result.stderr
        assert f"{broken} has design errors" in result.stderr


def test_cli_a_side_that_would_not_build_is_printed_and_exits_1(cli, pair, make_design) -> None:
    """Issue 37: a tool a provider rejects, added on the new side, was a silent "tool added" and
    exit 0. The errors of either side are printed, and the exit code is 1 without --fail-on; the
    changes are printed still."""
    old, _, _ = pair
    rejected = make_design(
        {
            "tools/t.yaml": tool(obj({"a": S, "b": I}, ["a"])),
            "tools/u.yaml": tool(obj({"x": {"not": S}}), name="u"),
            "toolgen.toml": OPENAI_ONLY,
        },
        name="rejected",
    )
    for args, change in (
        ((old, rejected), "NEEDS_HANDLER tool 'u' added"),
        ((rejected, old), "BREAKING tool 'u' removed"),
    ):
        result = cli("diff", *args)
        assert result.exit_code == 1, result.stderr
        assert change in result.stdout
        assert "tools/u.yaml:/parameters/properties/x/not: openai: UNSUPPORTED_NOT" in result.stderr
        assert f"toolgen: {rejected} has errors (1 error(s), 0 warning(s))" in result.stderr
        assert f"toolgen: {rejected} would not build" in result.stderr


def test_cli_fail_on_handler(cli, pair, make_design) -> None:
    """A tool added is a class of its own: --fail-on breaking lets it pass, --fail-on handler
    (breaking, or a handler to write) does not."""
    old, compatible, breaking = pair
    added = make_design(
        {
            "tools/t.yaml": tool(obj({"a": S, "b": I}, ["a"])),
            "tools/u.yaml": tool(obj({"x": S}), name="u"),
            "toolgen.toml": OPENAI_ONLY,
        },
        name="added",
    )
    result = cli("diff", old, added, "--fail-on", "breaking")
    assert result.exit_code == 0
    assert "0 breaking, 1 needing a handler, 0 compatible" in result.stderr
    assert cli("diff", old, added, "--fail-on", "handler").exit_code == 1
    assert cli("diff", old, breaking, "--fail-on", "handler").exit_code == 1
    assert cli("diff", old, compatible, "--fail-on", "handler").exit_code == 0


@pytest.fixture
def git_repo(tmp_path: Path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> str:
        env = {
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com",
            "PATH": "/usr/bin:/bin:/usr/local/bin",
            "HOME": str(tmp_path),
        }
        return subprocess.run(
            ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env
        ).stdout

    git("init", "-q", "-b", "main")
    return repo, git


def test_cli_git_compares_a_revision_with_the_working_tree(
    cli, git_repo, make_design, monkeypatch
) -> None:
    repo, git = git_repo
    design = make_design(
        {"tools/t.yaml": tool(obj({"a": S, "b": I}, ["a"])), "toolgen.toml": OPENAI_ONLY},
        name="repo/api/design",
    )
    git("add", ".")
    git("commit", "-q", "-m", "first")
    make_design(
        {"tools/t.yaml": tool(obj({"a": S}, ["a"])), "tools/u.yaml": tool(obj({"x": S}), name="u")},
        name="repo/api/design",
    )

    result = cli("diff", "--git", "HEAD", design)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{P}/properties/b: design: BREAKING member removed: {STILL_VALID}; {CODE_BREAKS}",
        f"tools/u.yaml:: design: NEEDS_HANDLER tool 'u' added: {NEEDS_METHOD}",
    ]
    assert cli("diff", "--git", "HEAD", design, "--fail-on", "breaking").exit_code == 1

    monkeypatch.chdir(repo / "api")  # DESIGN defaults to ./design
    assert cli("diff", "--git", "main", "--fail-on", "breaking").exit_code == 1

    git("add", ".")
    git("commit", "-q", "-m", "second")
    assert cli("diff", "--git", "HEAD", design, "--fail-on", "any").exit_code == 0
    assert cli("diff", "--git", "HEAD~1", design, "--fail-on", "any").exit_code == 1

    unknown = cli("diff", "--git", "no-such-branch", design)
    assert unknown.exit_code == 2
    assert "cannot read" in unknown.stderr


def test_cli_git_design_that_did_not_exist_at_the_revision(cli, git_repo, make_design) -> None:
    repo, git = git_repo
    (repo / "README").write_text("x")
    git("add", ".")
    git("commit", "-q", "-m", "first")
    design = make_design(
        {"tools/t.yaml": tool(obj({"a": S})), "toolgen.toml": OPENAI_ONLY}, name="repo/design"
    )
    result = cli("diff", "--git", "HEAD", design, "--fail-on", "breaking")
    assert result.exit_code == 0, result.stderr
    assert "tools/t.yaml:: design: NEEDS_HANDLER tool 't' added" in result.stdout
    assert "does not exist" in result.stderr


def test_cli_git_outside_a_repository(cli, make_design) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    design = make_design({"tools/t.yaml": tool(obj({"a": S}))})
    result = cli("diff", "--git", "HEAD", design)
    assert result.exit_code == 2
    assert "cannot read" in result.stderr
