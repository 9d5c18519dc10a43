"""The table session and the views derived from it."""
