"""Sweep (Balayage): a Pairs capture game for 3 to 6 players (rules, acts, bots, README)."""
