"""Writing Python source: the code emitter, the Jinja2 templates and black, in parts and through the cache."""
