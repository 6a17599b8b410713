"""Stage 1, loading: design files read, bundled and meta-validated into the contracts every later stage reads."""
