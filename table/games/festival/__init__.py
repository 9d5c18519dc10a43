"""Festival: a drafting game for 4 or 5 players, gold by profession (rules, acts, page, faces, bots, README)."""
from table.games.contract import Game
from table.games.festival import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
