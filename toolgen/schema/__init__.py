"""JSON Schema on its own, below every stage: pointers, the one walker, ``$ref`` chains, null
acceptance, names, the meta-schema and semantic comparison."""
