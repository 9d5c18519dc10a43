"""Neurotrio, the treasure hunt: a growing grid of cards and secret "neuro" bids, 3 to 8 players (rules, acts,
page, faces, bots, README)."""
from table.games.contract import Game
from table.games.neurotrio import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
