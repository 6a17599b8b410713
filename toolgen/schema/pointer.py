"""JSON pointers (RFC 6901)."""

from __future__ import annotations

from typing import Any


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(pointer: str, *tokens: str | int) -> str:
    return pointer + "".join("/" + escape(t) for t in tokens)


def split(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer``; KeyError when it does not exist."""
    node = document
    for token in split(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node


def unescape_uri(fragment: str) -> str:
    """A URI fragment's percent-escapes decoded (``#/$defs/a%20b`` names ``a b``)."""
    from urllib.parse import unquote

    return unquote(fragment)


def ref_pointer(ref: str) -> str:
    """The JSON pointer a local ``$ref`` names: ``#/$defs/a%20b`` -> ``/$defs/a b``."""
    return unescape_uri(ref.partition("#")[2])
