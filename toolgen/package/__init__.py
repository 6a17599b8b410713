"""Stage 4, the generated package: every output file assembled in memory, then written all or nothing."""
