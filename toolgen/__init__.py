"""toolgen: provider bindings for LLM tools, generated from canonical JSON Schema."""

__version__ = "0.1.0"
