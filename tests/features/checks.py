"""What the matrix compares with, written apart from toolgen's own helpers: JSON equality, the
canonical schema's validation (with the formats the docs say are checked after decoding), the
official SDKs' objects of a body, and what a decode gives (its outcome)."""

from __future__ import annotations

import copy
import ipaddress
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from toolgen.compile.canonical.views import Unresolvable, resolve


def json_equal(a: Any, b: Any) -> bool:
    """JSON's equality: no boolean equals a number (``True`` is not ``1``), numbers compare by
    value (``1`` equals ``1.0``), objects by their members whatever their order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def without_null_defaults(value: Any, schema: Any, root: Any | None = None) -> Any:
    """``value`` without the members that are null where their schema's ``default`` is null:
    there absent and null mean the same (the issue's "natural where exact allows"), so either
    may come back for the other."""
    root = schema if root is None else root
    schema = _resolved(schema, root)
    if isinstance(value, list):
        items = schema.get("items") if isinstance(schema, dict) else None
        return [without_null_defaults(v, items, root) for v in value]
    if not isinstance(value, dict) or not isinstance(schema, dict):
        return value
    properties = schema.get("properties") or {}
    kept = {}
    for name, member in value.items():
        declared = _resolved(properties.get(name), root)
        if member is None and isinstance(declared, dict) and declared.get("default", 0) is None:
            continue
        kept[name] = without_null_defaults(member, declared, root)
    return kept


def _resolved(schema: Any, root: Any) -> Any:
    seen = set()
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        if ref in seen:
            return {}
        seen.add(ref)
        try:
            schema = {**resolve(root, ref), **{k: v for k, v in schema.items() if k != "$ref"}}
        except (Unresolvable, TypeError):
            return {}
    return schema


# -- the canonical validation ---------------------------------------------------------------------

#: RFC 1123 host names (JSON Schema's "hostname"): dot-separated labels of letters, digits and
#: hyphens, none starting or ending with a hyphen, each at most 63 characters, 253 in all.
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")
#: RFC 3339 appendix A durations (JSON Schema's "duration")
_DURATION = re.compile(
    r"P(?:(?:\d+D|\d+M(?:\d+D)?|\d+Y(?:\d+M(?:\d+D)?)?)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?"
    r"|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)|\d+W)\Z",
    re.ASCII,
)
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")

FORMATS = FormatChecker(())


@FORMATS.checks("hostname")
def _hostname(value: object) -> bool:
    if not isinstance(value, str):
        return True
    return 0 < len(value) <= 253 and all(_LABEL.match(label) for label in value.split("."))


@FORMATS.checks("duration")
def _duration(value: object) -> bool:
    return not isinstance(value, str) or bool(_DURATION.match(value))


@FORMATS.checks("ipv6", raises=ValueError)
def _ipv6(value: object) -> bool:
    if isinstance(value, str):
        return "%" not in value and bool(ipaddress.IPv6Address(value))
    return True


@FORMATS.checks("uuid", raises=ValueError)
def _uuid(value: object) -> bool:
    return not isinstance(value, str) or bool(_UUID.match(value) and uuid.UUID(value))


@FORMATS.checks("email")
def _email(value: object) -> bool:
    if not isinstance(value, str):
        return True
    local, at, domain = value.rpartition("@")
    return bool(at and local and domain) and not any(c.isspace() for c in value)


def canonical_validator(schema: Any) -> Draft202012Validator:
    """The canonical schema's validator, with the formats docs/projection.md says the package
    checks after decoding (hostname, ipv6, duration, email, uuid: the ones the matrix uses)."""
    return Draft202012Validator(schema, format_checker=FORMATS)


def errors_of(validator: Draft202012Validator, value: Any) -> list[str]:
    """The first lines of what ``validator`` finds wrong with ``value`` (a schema that cannot be
    read, a ``$ref`` that points nowhere, is one)."""
    try:
        errors = list(validator.iter_errors(value))
    except Exception as error:  # noqa: BLE001 - the schema itself is broken: a finding
        return [f"the schema cannot be read: {type(error).__name__}: {str(error).splitlines()[0]}"]
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors]


# -- SDK objects ---------------------------------------------------------------------------------


def sdk_object(api: str, body: Any) -> Any | None:
    """The object the official client hands a user for a response ``body`` of ``api`` (built
    offline with the SDK's own lenient constructor, as tests/envelope/support.py does); None
    where the users' SDK hands out the JSON itself (boto3's Converse, Workers AI's REST)."""
    if api in ("chat", "responses"):
        pytest.importorskip("openai", reason="the openai SDK is in the dev extras")
        from openai._models import construct_type
        from openai.types.chat import ChatCompletion
        from openai.types.responses import Response

        kind = ChatCompletion if api == "chat" else Response
        return construct_type(type_=kind, value=copy.deepcopy(body))
    if api == "messages":
        sdk = pytest.importorskip("anthropic", reason="the anthropic SDK is in the dev extras")
        from anthropic._models import construct_type as construct

        return construct(type_=sdk.types.Message, value=copy.deepcopy(body))
    if api == "generate_content":
        genai = pytest.importorskip(
            "google.genai.types", reason="google-genai is in the dev extras"
        )
        response = genai.GenerateContentResponse
        return response._from_response(response=copy.deepcopy(body), kwargs={})
    return None


# -- outcomes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one entry point gave: the canonical payloads (JSON) of its calls, or the error."""

    payloads: tuple[Any, ...] | None = None
    error: str | None = None  # "PayloadError CODE at LOCATION: reason" or "TypeName: message"

    def same(self, other: Outcome) -> bool:
        if self.payloads is None or other.payloads is None:
            return self.error == other.error
        return json_equal(list(self.payloads), list(other.payloads))

    def __str__(self) -> str:
        if self.payloads is not None:
            return json.dumps(list(self.payloads), default=repr)[:300]
        return str(self.error)


def outcome(
    payload_error: type[BaseException], call: Callable[..., Any], *args: Any, **kwargs: Any
) -> Outcome:
    """``call(*args, **kwargs)``, a decode: its calls' (or output's) model dumps, or the error
    it raised."""
    return _outcome(payload_error, lambda: dumped(call(*args, **kwargs)))


def value_outcome(
    payload_error: type[BaseException], call: Callable[..., Any], *args: Any, **kwargs: Any
) -> Outcome:
    """``call(*args, **kwargs)``, which returns one JSON value (a canonical payload), or the
    error it raised."""
    return _outcome(payload_error, lambda: [call(*args, **kwargs)])


def _outcome(payload_error: type[BaseException], run: Callable[[], Any]) -> Outcome:
    try:
        found = tuple(run())
    except Exception as error:  # noqa: BLE001 - any other exception is a finding, named
        if isinstance(error, payload_error) and hasattr(error, "location"):
            code = getattr(error, "code", "")
            reason = str(getattr(error, "reason", error)).splitlines()[0][:200]
            return Outcome(error=f"PayloadError {code} at {error.location}: {reason}")
        first = (str(error).splitlines() or [""])[0][:200]
        return Outcome(error=f"{type(error).__name__}: {first}")
    return Outcome(payloads=found)


def dumped(found: Any) -> list[Any]:
    """The JSON payloads of decoded calls (their ``arguments``) or of an output's model."""
    models = [
        getattr(item, "arguments", item) for item in (found if isinstance(found, list) else [found])
    ]
    return [model.model_dump(mode="json") for model in models]
