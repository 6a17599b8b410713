"""Model generation (issue 5): Pydantic v2 models of the canonical contracts and typed decoding."""

from toolgen.modelgen.generate import (
    GENERATOR_OPTIONS,
    ModelsOutput,
    PendingModels,
    generate_models,
    submit_models,
)

__all__ = ["GENERATOR_OPTIONS", "ModelsOutput", "PendingModels", "generate_models", "submit_models"]
