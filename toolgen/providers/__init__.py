"""The provider profiles toolgen supports, by name (the order of the generated modules), and the
tool-definition formats ``toolgen import`` reads (bedrock_tools is the import side of ``bedrock``).

A provider with several dialects (``[providers.NAME] dialect`` in toolgen.toml) lists them in
``DIALECTS``; ``PROFILES`` holds its default one. A profile without APIs is projection only:
``validate``, ``show`` and ``build --provider NAME`` (schema files) take it, but it is not in the
default provider list (``BUILT_BY_DEFAULT``) until toolgen can generate its module.

The OpenAI-compatible providers in ``ON_REQUEST`` (Mistral, xAI and the gateways) are built only
when toolgen.toml or ``--provider`` names them: most designs call one or two of them, and each adds
a module, its envelope validators and their build time to every default build.
"""

from toolgen.model import ProviderOptions
from toolgen.providers import anthropic, bedrock_tools, gemini, gemini_tools, openai
from toolgen.providers.anthropic import ANTHROPIC
from toolgen.providers.azure_openai import AZURE_OPENAI
from toolgen.providers.base import Profile
from toolgen.providers.bedrock import BEDROCK
from toolgen.providers.cerebras import CEREBRAS
from toolgen.providers.cloudflare import CLOUDFLARE
from toolgen.providers.deepseek import DEEPSEEK
from toolgen.providers.groq import GROQ
from toolgen.providers.mistral import MISTRAL
from toolgen.providers.openai import OPENAI
from toolgen.providers.openrouter import OPENROUTER
from toolgen.providers.xai import XAI
from toolgen.tool_formats import BFCL_FUNCTIONS, MCP_TOOLS, ToolFormat

DIALECTS: dict[str, dict[str, Profile]] = {"gemini": gemini.DIALECTS}

PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        OPENAI,
        ANTHROPIC,
        GROQ,
        CEREBRAS,
        BEDROCK,
        next(iter(gemini.DIALECTS.values())),
        MISTRAL,
        XAI,
        AZURE_OPENAI,
        OPENROUTER,
        DEEPSEEK,
        CLOUDFLARE,
    )
}

PROVIDER_NAMES: tuple[str, ...] = tuple(PROFILES)

#: Built only when named (see the module docstring).
ON_REQUEST: frozenset[str] = frozenset(
    p.name for p in (MISTRAL, XAI, AZURE_OPENAI, OPENROUTER, DEEPSEEK)
)

#: What ``toolgen build`` generates when neither --provider nor toolgen.toml says.
BUILT_BY_DEFAULT: tuple[str, ...] = tuple(
    n for n, p in PROFILES.items() if p.apis and n not in ON_REQUEST
)


def profile_for(name: str, options: ProviderOptions) -> Profile:
    """The profile of provider ``name`` in the dialect its options choose (its strict flag is
    chosen per tool by the projection: toolgen.strictness.project_tool)."""
    if options.dialect is not None and name in DIALECTS:
        return DIALECTS[name].get(options.dialect, PROFILES[name])
    return PROFILES[name]


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
