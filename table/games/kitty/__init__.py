"""Kitty (Chaton): a Pairs sealed-bid collecting game for 3 to 6 players (rules, acts, bots, README)."""
