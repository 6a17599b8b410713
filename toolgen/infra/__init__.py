"""What serves every stage and knows none: diagnostics, the build cache, the runner of
per-contract work, the process settings, where toolgen's own files are."""
