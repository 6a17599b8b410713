"""Stage 2, projection: each contract rewritten into what one provider accepts, with a record
of every rewrite and its inverse."""
