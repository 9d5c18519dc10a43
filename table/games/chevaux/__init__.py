"""Chevaux: a battle of horse cards, the best value on a characteristic takes the round (rules, acts, page, faces,
bots, README)."""
from table.games.contract import Game
from table.games.chevaux import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
