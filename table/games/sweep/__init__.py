"""Sweep (Balayage): a Pairs capture game for 3 to 6 players (rules, acts, page, faces, bots, README)."""
from table.games.contract import Game
from table.games.sweep import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
