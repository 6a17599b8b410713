"""Where generated modules import shared classes and the base class from, before the import
rewrite makes those imports relative (the generated package never names itself)."""

PLACEHOLDER_PACKAGE = "_toolgen_out_"
