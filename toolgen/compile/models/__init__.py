"""Model generation (issue 5): Pydantic v2 models of the canonical contracts and typed decoding."""

from toolgen.compile.models.generate import (
    GENERATOR_OPTIONS,
    ModelsOutput,
    PendingModels,
    generate_models,
    plan_models,
    submit_models,
    tool_output_classes,
    warm_up,
)

__all__ = [
    "GENERATOR_OPTIONS",
    "ModelsOutput",
    "PendingModels",
    "generate_models",
    "plan_models",
    "submit_models",
    "tool_output_classes",
    "warm_up",
]
