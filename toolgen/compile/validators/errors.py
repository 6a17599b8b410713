"""The error raised for an envelope schema that the compiler cannot handle."""

from __future__ import annotations


class EnvelopeSchemaError(Exception):
    """An envelope schema uses something outside the compiled subset (the build reports it).

    ``pointer`` is a JSON pointer into the schema document of ``provider``/``surface``.
    """

    def __init__(self, provider: str, surface: str, pointer: str, message: str) -> None:
        super().__init__(f"{provider}/{surface}.json:{pointer}: {message}")
        self.provider = provider
        self.surface = surface
        self.pointer = pointer
        self.message = message
