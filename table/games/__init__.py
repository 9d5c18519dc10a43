"""The games: one package each, built on `contract` and `kit` (the registry is table/registry.py)."""
