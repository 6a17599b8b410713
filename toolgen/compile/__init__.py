"""Stage 3, compiling: the Pydantic models, the inverse canonicalizers and the envelope
validators of the generated package."""
