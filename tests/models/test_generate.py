"""Generated models keep canonical semantics; names, sharing, determinism, laziness, decoding."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from models_support import EXAMPLES, load, materialize, write_design
from pydantic import ValidationError

from toolgen.compile.models import generate_models
from toolgen.render.templating import header
from toolgen.schema.names import Namespace, class_name, module_name

MONEY_DEFS = {
    "$defs": {
        "Money": {
            "type": "object",
            "description": "An amount of money.",
            "properties": {"amount": {"type": "number"}, "currency": {"$ref": "#/$defs/Currency"}},
            "required": ["amount", "currency"],
            "additionalProperties": False,
        },
        "Currency": {"enum": ["EUR", "USD"]},
    }
}
MONEY = {"$ref": "../defs/money.json#/$defs/Money"}

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1, "description": "The city."},
        "units": {"enum": ["celsius", "fahrenheit"], "default": "celsius"},
        "note": {"type": ["string", "null"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
        "score": {"type": "number"},
        "when": {"type": "string", "format": "date-time"},
        "email": {"type": "string", "format": "email"},
        "id": {"type": "string", "format": "uuid"},
        "code": {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3},
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
        "class": {"type": "string"},
        "json": {"type": "integer"},
        "model_config": {"type": "boolean"},
        "schema": {"type": "string"},
        "open": {"type": "object", "properties": {"a": {"type": "string"}}},
    },
    "required": ["city", "note"],
    "additionalProperties": False,
}


@pytest.fixture
def weather(build):
    return build(
        tools={
            "weather.get": WEATHER,
            "billing.refund": {
                "type": "object",
                "properties": {"amount": MONEY},
                "required": ["amount"],
            },
            "billing_refund": {"type": "object", "properties": {"total": MONEY}},
        },
        outputs={
            "weather.get": {
                "type": "object",
                "properties": {"temp": {"type": "number"}},
                "required": ["temp"],
            }
        },
        defs={"money": MONEY_DEFS},
        descriptions={"weather.get": 'Get the """weather""" \\ for a city.'},
    )


def test_constructs_from_keywords_and_dumps_the_payload_back(weather):
    model = weather.model("tool", "weather.get")
    instance = model(city="Paris", note=None)
    assert instance.model_dump(mode="json") == {"city": "Paris", "note": None}
    payload = {
        "city": "Paris",
        "note": "hi",
        "units": "celsius",
        "days": 3,
        "score": 5,
        "when": "2024-05-01T10:00:00Z",
        "email": "a@b.example",
        "code": "EUR",
        "id": "123e4567-e89b-12d3-a456-426614174000",
        "tags": ["ab"],
        "class": "x",
        "json": 1,
        "model_config": True,
        "schema": "s",
        "open": {"a": "x", "z": [None]},
    }
    dumped = model.model_validate(payload).model_dump(mode="json")
    assert dumped == payload
    assert list(dumped) == [k for k in WEATHER["properties"] if k in payload]  # authored order
    assert type(dumped["score"]) is int  # a number that is an integer stays one


def test_absent_is_absent_and_null_is_null(weather):
    model = weather.model("tool", "weather.get")
    instance = model.model_validate({"city": "Paris", "note": None})
    assert "units" not in instance.model_dump(mode="json")  # no default filled in
    assert instance.note is None
    with pytest.raises(ValidationError):
        model.model_validate({"city": "Paris"})  # note is required (and nullable)
    with pytest.raises(ValidationError):
        model.model_validate({"city": "Paris", "note": None, "units": None})  # not nullable


@pytest.mark.parametrize(
    "change",
    [
        {"extra": 1},  # closed object
        {"city": ""},  # minLength
        {"days": 0},  # minimum
        {"days": "3"},  # strict: a string is not an integer
        {"days": True},  # a boolean is not an integer
        {"days": 2.5},
        {"score": "5"},
        {"code": "eur"},  # pattern
        {"code": "EURO"},  # maxLength and pattern
        {"tags": ["A"]},  # pattern of an item (a root model: strict too)
        {"when": "yesterday"},  # format date-time
        {"when": "2024-05-01T10:00:00"},  # no offset: not RFC 3339
        {"email": "nobody"},  # format email
        {"id": "not-a-uuid"},
        {"units": "kelvin"},
        {"class": 1},
    ],
)
def test_invalid_payloads_raise(weather, change):
    model = weather.model("tool", "weather.get")
    with pytest.raises(ValidationError):
        model.model_validate({"city": "Paris", "note": None, **change})


def test_formats_need_no_extra_package(weather):
    sources = "\n".join(weather.output.files.values())
    for name in ("EmailStr", "AnyUrl", "datetime", "UUID", "email_validator"):
        assert name not in sources
    weather.model("tool", "weather.get")
    assert "email_validator" not in sys.modules or "email_validator" in sys.modules  # informative
    assert all("email_validator" not in line for line in sources.splitlines() if "import" in line)


def test_names_are_stable_and_collision_free(weather):
    classes = weather.output.classes
    assert classes[("tool", "billing.refund")] == (".models.tools.billing_refund", "BillingRefund")
    assert classes[("tool", "billing_refund")] == (
        ".models.tools.billing_refund2",
        "BillingRefundTool",
    )
    assert classes[("tool", "weather.get")][1] == "WeatherGet"
    assert classes[("output", "weather.get")][1] == "WeatherGetOutput"
    assert len({cls for _, cls in classes.values()}) == len(classes)


def test_naming_rules():
    assert class_name("get_weather") == class_name("getWeather") == "GetWeather"
    assert class_name("mcp__github__list-issues") == "McpGithubListIssues"
    assert class_name("none") == "NoneModel"  # not the builtin
    assert class_name("9lives") == "Model9Lives"
    assert class_name("日本") == "Unnamed"
    assert module_name("import") == "import_"
    assert module_name("Billing.Refund") == "billing_refund"
    names = Namespace()
    assert [names.claim("A"), names.claim("a"), names.claim("A", alternative="AOut")] == [
        "A",
        "a2",
        "AOut",
    ]


def test_shared_definitions_are_one_class(weather):
    sources = weather.output.files
    defined = [path for path, source in sources.items() if "class Money(" in source]
    assert defined == ["models/_shared.py"]
    refund = weather.model("tool", "billing.refund")
    other = weather.model("tool", "billing_refund")
    shared = weather.module(".models._shared")
    assert refund.model_fields["amount"].annotation is shared.Money
    assert other.model_validate({"total": {"amount": 1, "currency": "EUR"}}).total.__class__ is (
        shared.Money
    )
    with pytest.raises(ValidationError):
        refund.model_validate({"amount": {"amount": 1, "currency": "EUR", "x": 1}})
    assert weather.module(".models").Money is shared.Money


def test_descriptions_reach_the_json_schema(weather):
    """A schema's description is its class docstring; a member's is Field(description=...), so
    both reach model_json_schema() (where the SDKs' helpers read them)."""
    model = weather.model("tool", "weather.get")
    assert model.__doc__.strip() == 'Get the """weather""" \\ for a city.'
    schema = model.model_json_schema()
    assert schema["description"] == 'Get the """weather""" \\ for a city.'
    assert schema["properties"]["city"]["description"] == "The city."
    assert weather.module(".models._shared").Money.__doc__.strip() == "An amount of money."


def test_closed_objects_forbid_extra_members_and_open_ones_keep_them(weather):
    model = weather.model("tool", "weather.get")
    schema = model.model_json_schema()
    assert schema["additionalProperties"] is False
    with pytest.raises(ValidationError):
        model.model_validate({"city": "Oslo", "note": None, "extra": 1})
    # "open" declares properties without additionalProperties: JSON Schema leaves it open.
    opened = model.model_validate({"city": "Oslo", "note": None, "open": {"a": "x", "b": 1}})
    assert opened.model_dump(mode="json")["open"] == {"a": "x", "b": 1}


def test_every_file_starts_with_the_header_and_output_is_deterministic(tmp_path):
    design = load(EXAMPLES)
    first = generate_models(design, header())
    second = generate_models(load(EXAMPLES), header())
    assert first.files == second.files
    assert first.classes == second.classes
    for path, source in first.files.items():
        assert path.endswith((".py", ".pyi")), path  # models/__init__.pyi: what type checkers read
        assert source.startswith(header() + "\n"), path
        assert "datamodel-codegen" not in source and "timestamp" not in source


def test_importing_the_package_builds_no_model(weather):
    models = weather.module(".models")
    prefix = f"{weather.package}.models."
    assert not [name for name in sys.modules if name.startswith(prefix + "tools.")]
    models.model_for("tool", "weather.get")
    loaded = sorted(name for name in sys.modules if name.startswith(prefix + "tools."))
    assert loaded == [prefix + "tools.weather_get"]
    with pytest.raises(KeyError):
        models.model_for("tool", "nope")
    with pytest.raises(AttributeError):
        _ = models.Nope
    assert models.WeatherGet is models.model_for("tool", "weather.get")


def test_recursive_local_definitions(build):
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
        "required": ["name"],
        "additionalProperties": False,
    }
    built = build(
        outputs={
            "tree": {
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/Node"}},
                "$defs": {"Node": node},
            }
        }
    )
    model = built.model("output", "tree")
    payload = {"root": {"name": "a", "kids": [{"name": "b", "kids": []}, {"name": "c"}]}}
    assert model.model_validate(payload).model_dump(mode="json") == payload
    with pytest.raises(ValidationError):
        model.model_validate({"root": {"name": "a", "kids": [{"kids": []}]}})


def test_a_pattern_python_cannot_compile_is_a_warning(build):
    built = build(
        tools={
            "t": {"type": "object", "properties": {"p": {"type": "string", "pattern": "\\p{L}+("}}}
        }
    )
    codes = [(d.code, d.pointer) for d in built.output.diagnostics]
    assert codes == [("MODEL_CONSTRAINT_DROPPED", "/parameters/properties/p/pattern")]
    assert built.model("tool", "t").model_validate({"p": "x"}).model_dump() == {"p": "x"}


def test_generator_failure_is_a_diagnostic_with_a_permissive_model(tmp_path, monkeypatch):
    from toolgen.compile.models import generate as module

    real = module._run_generator

    def failing(schema, class_name):
        if class_name == "Broken":
            raise RuntimeError("boom\nmore")
        return real(schema, class_name)

    monkeypatch.setattr(module, "_run_generator", failing)
    root = write_design(
        tmp_path / "d",
        tools={
            "broken": {"type": "object"},
            "ok": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
    )
    sys.path.insert(0, str(tmp_path))
    try:
        built = materialize(load(root), tmp_path)
        [diagnostic] = built.output.diagnostics
        assert diagnostic.code == "MODEL_NOT_GENERATED" and "boom" in diagnostic.message
        assert built.model("tool", "broken").model_validate({"x": 1}).model_dump() == {"x": 1}
    finally:
        sys.path.remove(str(tmp_path))


# --- typed decoding ----------------------------------------------------------------------------


def _call(runtime, raw, canonicalize=None, call_id="call_1"):
    """What a provider module does before typing a call: JSON parse and canonicalize."""
    calls = runtime.RawCalls(
        "openai",
        {"weather_get": "weather.get"},
        (lambda name, payload: canonicalize(payload)) if canonicalize else None,
    )
    return calls.from_text(call_id, "weather_get", raw)


def _typed(decode, raw, model):
    """What a provider module does with a call read while failures are collected."""
    return decode.TypedCalls("openai", {}, None, lambda kind, name: model).typed(raw)


def test_typed_call(weather):
    decode, runtime = weather.decode(), weather.module("._runtime")
    model = weather.model("tool", "weather.get")
    raw = '{"city": "Paris", "note": null}'
    call = _typed(decode, _call(runtime, raw), model)
    assert (call.id, call.name, call.raw_arguments) == ("call_1", "weather.get", raw)
    assert isinstance(call.arguments, model) and call.arguments.city == "Paris"
    with pytest.raises(AttributeError):
        call.id = "other"  # frozen


def test_decoding_applies_the_canonicalizer_before_validation(weather):
    decode, runtime = weather.decode(), weather.module("._runtime")
    model = weather.model("tool", "weather.get")

    def canonicalize(payload):  # what an inverse does: drop nulls the projection added
        return {k: v for k, v in payload.items() if v is not None or k == "note"}

    raw = _call(runtime, '{"city": "P", "note": null, "units": null}', canonicalize, "c")
    call = _typed(decode, raw, model)
    assert call.arguments.model_dump(mode="json") == {"city": "P", "note": None}


def test_payload_errors_name_tool_call_and_location_but_no_value(weather):
    decode, runtime = weather.decode(), weather.module("._runtime")
    model = weather.model("tool", "weather.get")
    raw = '{"city": "Paris", "note": null, "code": "s3cr3t-value", "tags": ["ok", "S3CR3T"]}'
    with pytest.raises(runtime.PayloadError) as caught:
        _typed(decode, _call(runtime, raw, call_id="call_9"), model)
    error = caught.value
    assert (error.tool, error.call_id, error.location) == ("weather.get", "call_9", "code")
    assert "s3cr3t" not in str(error).lower() and "s3cr3t" not in repr(error).lower()
    assert isinstance(error.__cause__, ValidationError)
    assert "1 more" in str(error)

    with pytest.raises(runtime.PayloadError) as caught:
        _call(runtime, '{"city": "s3cr3t', call_id="call_9")
    assert caught.value.location == "arguments" and "s3cr3t" not in str(caught.value)

    with pytest.raises(runtime.PayloadError) as caught:
        _typed(decode, _call(runtime, '{"city": "P", "note": null, "tags": [1]}'), model)
    assert caught.value.location == "tags[0]"


def test_decode_output(weather):
    decode = weather.decode()
    runtime = weather.module("._runtime")
    model = weather.model("output", "weather.get")
    assert (
        decode.decode_output("openai", "weather.get", '{"temp": 3.5}', lambda x: x, model).temp
        == 3.5
    )
    assert decode.decode_output("openai", "weather.get", {"temp": 3}, lambda x: x, model).temp == 3
    with pytest.raises(runtime.PayloadError) as caught:
        decode.decode_output("openai", "weather.get", {"temp": "hot"}, lambda x: x, model)
    assert (caught.value.tool, caught.value.call_id, caught.value.location) == (
        "weather.get",
        "",
        "temp",
    )


def test_example_design_generates(tmp_path):
    if not any(EXAMPLES.glob("tools/*")):
        pytest.skip("no example design")
    sys.path.insert(0, str(tmp_path))
    try:
        built = materialize(load(EXAMPLES), tmp_path)
        assert built.output.diagnostics == []
        for kind, name in built.output.classes:
            assert built.model(kind, name).__name__ == built.output.classes[(kind, name)][1]
    finally:
        sys.path.remove(str(tmp_path))


def test_files_are_posix_relative_paths(weather):
    for path in weather.output.files:
        assert not Path(path).is_absolute() and "\\" not in path and ".." not in path
