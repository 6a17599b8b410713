"""The wire APIs toolgen binds, provider-neutral: what a profile lists in ``Profile.apis``.

Each names its fixed module in toolgen/runtime (copied into OUT when a provider speaks it), the
decoder class there, which the generated provider module builds as
``Decoder(PROVIDER, validate_<surface>, ...)`` in ``surfaces`` order, and the fields that decoder
reads (``READS`` of the module), checked against the provider's envelope schemas at build time.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolgen.runtime import _chat_completions, _converse, _messages, _responses, _workers_ai


@dataclass(frozen=True)
class Api:
    name: str  # the value of the generated functions' ``api`` argument
    module: str  # the fixed module (toolgen/runtime/<module>.py, OUT/<module>.py)
    decoder: str  # its ToolCallDecoder class
    reads: tuple[tuple[str, str, str], ...]  # (surface, read path, JSON type)

    @property
    def surfaces(self) -> tuple[str, ...]:
        """The envelope surfaces the decoder validates, in its constructor's order."""
        return tuple(dict.fromkeys(surface for surface, _, _ in self.reads))


CHAT = Api("chat", "_chat_completions", "ChatCompletionsDecoder", _chat_completions.READS)
RESPONSES = Api("responses", "_responses", "ResponsesDecoder", _responses.READS)
MESSAGES = Api("messages", "_messages", "MessagesDecoder", _messages.READS)
CONVERSE = Api("converse", "_converse", "ConverseDecoder", _converse.READS)
#: Workers AI's ai/run/{model}: the REST wrapper and the model families' result shapes (it reads
#: the chat and responses shapes through CHAT's and RESPONSES' decoders)
WORKERS_AI = Api("run", "_workers_ai", "WorkersAiDecoder", _workers_ai.READS)
