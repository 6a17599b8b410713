"""The commands beside ``build``: import, diff, watch."""
