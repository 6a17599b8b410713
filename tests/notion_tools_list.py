"""A Notion-like MCP ``tools/list`` result for the tests of issue 37: 24 tools whose input schemas
each carry the server's 9 shared ``$defs`` (as a server that writes one components block into
every tool does), one of which holds a node every provider refuses (``Filter``'s ``not``: a
compound filter gives ``and`` or ``or``, not both). Written for the tests, after the shapes of
Notion's public API (pages, databases, blocks, comments, users; rich text, parents, icons,
property values, filters, sorts, pagination); no server's output is copied."""

from __future__ import annotations

import copy
from typing import Any

COLORS = ["default", "gray", "brown", "orange", "yellow", "green", "blue", "purple", "pink", "red"]
UUID = {"type": "string", "format": "uuid"}


def _closed(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _condition() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"property": {"type": "string"}, "equals": {"type": "string"}},
        "required": ["property"],
    }


#: The server's shared definitions, written into every tool's inputSchema.
DEFS: dict[str, Any] = {
    "Color": {
        "type": "string",
        "description": "A text or background color.",
        "enum": COLORS + [c + "_background" for c in COLORS[1:]],
    },
    "RichText": {
        "type": "object",
        "description": "A run of text with its annotations.",
        "properties": {
            "content": {"type": "string", "maxLength": 2000},
            "link": {"type": ["string", "null"], "format": "uri"},
            "bold": {"type": "boolean", "default": False},
            "italic": {"type": "boolean", "default": False},
            "code": {"type": "boolean", "default": False},
            "color": {"$ref": "#/$defs/Color"},
        },
        "required": ["content"],
        "additionalProperties": False,
    },
    "Parent": {
        "description": "Where a page lives: under a page, in a database, or at the top.",
        "anyOf": [
            _closed({"page_id": UUID}, ["page_id"]),
            _closed({"database_id": UUID}, ["database_id"]),
            _closed({"workspace": {"const": True}}, ["workspace"]),
        ],
    },
    "Icon": {
        "description": "An emoji or the URL of an image.",
        "anyOf": [
            _closed({"emoji": {"type": "string", "maxLength": 8}}, ["emoji"]),
            _closed({"external_url": {"type": "string", "format": "uri"}}, ["external_url"]),
        ],
    },
    "DateValue": {
        "type": "object",
        "description": "A date or a date range.",
        "properties": {
            "start": {"type": "string", "format": "date"},
            "end": {"type": ["string", "null"], "format": "date"},
            "time_zone": {"type": "string"},
        },
        "required": ["start"],
        "additionalProperties": False,
    },
    "PropertyValue": {
        "description": "The value of one database property.",
        "anyOf": [
            _closed({"title": {"type": "array", "items": {"$ref": "#/$defs/RichText"}}}, ["title"]),
            _closed({"number": {"type": ["number", "null"]}}, ["number"]),
            _closed({"select": {"type": ["string", "null"]}}, ["select"]),
            _closed({"checkbox": {"type": "boolean"}}, ["checkbox"]),
            _closed({"date": {"$ref": "#/$defs/DateValue"}}, ["date"]),
        ],
    },
    "Filter": {
        "type": "object",
        "description": "A filter on database properties; and/or combine conditions.",
        "properties": {
            "property": {"type": "string"},
            "equals": {"type": ["string", "number", "boolean"]},
            "contains": {"type": "string"},
            "and": {"type": "array", "items": _condition()},
            "or": {"type": "array", "items": _condition()},
        },
        "not": {"required": ["and", "or"]},
    },
    "Sort": {
        "type": "object",
        "description": "One sort key.",
        "properties": {
            "property": {"type": "string"},
            "direction": {
                "type": "string",
                "enum": ["ascending", "descending"],
                "default": "ascending",
            },
        },
        "required": ["property"],
        "additionalProperties": False,
    },
    "Pagination": {
        "type": "object",
        "description": "Which page of results to return.",
        "properties": {
            "start_cursor": {"type": "string"},
            "page_size": {"type": "integer", "minimum": 1, "maximum": 100, "default": 100},
        },
        "additionalProperties": False,
    },
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _text(description: str) -> dict[str, Any]:
    return {"type": "array", "items": _ref("RichText"), "description": description}


def _map_of(name: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": _ref(name)}


#: (name, description, properties, required) of each tool
TOOLS: list[tuple[str, str, dict[str, Any], list[str]]] = [
    (
        "search",
        "Search pages and databases by title.",
        {
            "query": {"type": "string"},
            "filter": _ref("Filter"),
            "sort": _ref("Sort"),
            "page": _ref("Pagination"),
        },
        ["query"],
    ),
    ("retrieve_page", "Retrieve a page's properties.", {"page_id": UUID}, ["page_id"]),
    (
        "create_page",
        "Create a page under a page or in a database.",
        {
            "parent": _ref("Parent"),
            "title": _text("The page's title."),
            "icon": _ref("Icon"),
            "properties": _map_of("PropertyValue"),
        },
        ["parent", "title"],
    ),
    (
        "update_page",
        "Update a page's properties, icon or archived state.",
        {
            "page_id": UUID,
            "properties": _map_of("PropertyValue"),
            "icon": _ref("Icon"),
            "archived": {"type": "boolean"},
        },
        ["page_id"],
    ),
    ("archive_page", "Move a page to the trash.", {"page_id": UUID}, ["page_id"]),
    (
        "move_page",
        "Move a page to another parent.",
        {"page_id": UUID, "parent": _ref("Parent")},
        ["page_id", "parent"],
    ),
    (
        "retrieve_page_property",
        "Retrieve one property of a page, paginated.",
        {"page_id": UUID, "property_id": {"type": "string"}, "page": _ref("Pagination")},
        ["page_id", "property_id"],
    ),
    ("retrieve_database", "Retrieve a database's schema.", {"database_id": UUID}, ["database_id"]),
    (
        "query_database",
        "List a database's pages matching a filter, sorted.",
        {
            "database_id": UUID,
            "filter": _ref("Filter"),
            "sorts": {"type": "array", "items": _ref("Sort")},
            "page": _ref("Pagination"),
        },
        ["database_id"],
    ),
    (
        "create_database",
        "Create a database under a page.",
        {"parent": _ref("Parent"), "title": _text("The database's title."), "icon": _ref("Icon")},
        ["parent", "title"],
    ),
    (
        "update_database",
        "Update a database's title or icon.",
        {"database_id": UUID, "title": _text("The new title."), "icon": _ref("Icon")},
        ["database_id"],
    ),
    ("retrieve_block", "Retrieve one block.", {"block_id": UUID}, ["block_id"]),
    (
        "list_block_children",
        "List the children of a block, paginated.",
        {"block_id": UUID, "page": _ref("Pagination")},
        ["block_id"],
    ),
    (
        "append_paragraph",
        "Append a paragraph to a block.",
        {"block_id": UUID, "text": _text("The paragraph's text."), "color": _ref("Color")},
        ["block_id", "text"],
    ),
    (
        "append_heading",
        "Append a heading to a block.",
        {
            "block_id": UUID,
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "text": _text("The heading."),
            "color": _ref("Color"),
        },
        ["block_id", "level", "text"],
    ),
    (
        "append_todo",
        "Append a to-do item to a block.",
        {
            "block_id": UUID,
            "text": _text("The item."),
            "checked": {"type": "boolean", "default": False},
        },
        ["block_id", "text"],
    ),
    (
        "update_block",
        "Replace a text block's content.",
        {"block_id": UUID, "text": _text("The new text."), "color": _ref("Color")},
        ["block_id", "text"],
    ),
    ("delete_block", "Delete a block.", {"block_id": UUID}, ["block_id"]),
    (
        "create_comment",
        "Comment on a page or in a discussion.",
        {"page_id": UUID, "discussion_id": {"type": "string"}, "text": _text("The comment.")},
        ["text"],
    ),
    (
        "list_comments",
        "List the comments of a block or page, paginated.",
        {"block_id": UUID, "page": _ref("Pagination")},
        ["block_id"],
    ),
    ("list_users", "List the workspace's users, paginated.", {"page": _ref("Pagination")}, []),
    ("retrieve_user", "Retrieve a user.", {"user_id": UUID}, ["user_id"]),
    ("retrieve_bot_user", "Retrieve the integration's own bot user.", {}, []),
    (
        "set_page_dates",
        "Set a page's date properties.",
        {"page_id": UUID, "dates": _map_of("DateValue")},
        ["page_id", "dates"],
    ),
]
#: The tools whose schemas reach ``Filter`` (the node every provider refuses).
REACH_FILTER = ("query_database", "search")


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Any:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    schema["$defs"] = copy.deepcopy(DEFS)
    return {"name": name, "description": description, "inputSchema": schema}


def tools_list(*extra: tuple[str, str, dict[str, Any], list[str]]) -> dict[str, Any]:
    """The JSON-RPC response to ``tools/list``; ``extra``: more tools, as :data:`TOOLS` has them."""
    tools = [_tool(*entry) for entry in [*TOOLS, *extra]]
    return {"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}


#: A tool upstream adds later, reaching ``Filter`` too.
QUERY_DATA_SOURCE = (
    "query_data_source",
    "List a data source's pages matching a filter.",
    {"data_source_id": UUID, "filter": _ref("Filter"), "page": _ref("Pagination")},
    ["data_source_id"],
)
