"""Five Cards (Cinq cartes): a 2-player Pairs column race to 100 (rules, acts, bots, README)."""
