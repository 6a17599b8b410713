"""The provider profiles toolgen supports, by name (the order of the generated modules), and the
tool-definition formats ``toolgen import`` reads (bedrock_tools and gemini_tools hold formats only:
toolgen builds no bindings for those providers, so they are no profiles)."""

from toolgen.providers import anthropic, bedrock_tools, gemini_tools, openai
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.base import Profile
from toolgen.providers.cerebras import CEREBRAS
from toolgen.providers.groq import GROQ
from toolgen.providers.openai import OPENAI
from toolgen.tool_formats import BFCL_FUNCTIONS, MCP_TOOLS, ToolFormat

PROFILES: dict[str, Profile] = {
    profile.name: profile for profile in (OPENAI, ANTHROPIC, GROQ, CEREBRAS)
}

PROVIDER_NAMES: tuple[str, ...] = tuple(PROFILES)

#: In detection order: a document is read by the first format whose layout it has. The bare
#: declaration list of Gemini comes after the OpenAI forms, whose entries carry a type, and after
#: BFCL's, whose roots are of type "dict".
IMPORT_FORMATS: tuple[ToolFormat, ...] = (
    MCP_TOOLS,
    bedrock_tools.TOOL_CONFIG,
    openai.CHAT_TOOLS,
    openai.RESPONSES_TOOLS,
    anthropic.TOOLS,
    BFCL_FUNCTIONS,
    gemini_tools.FUNCTION_DECLARATIONS,
)
