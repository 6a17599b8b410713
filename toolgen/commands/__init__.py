"""The commands beside ``build``: import, diff, watch."""

#: what ``toolgen import`` records of the sources it imported, in the design folder (here, not in
#: toolgen/commands/import_sync.py: the CLI's help names it without importing the importers)
RECORD_FILE = "toolgen-import.json"
