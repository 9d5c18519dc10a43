"""Venture (Entreprise): a sealed-bid capture game with the Pairs deck for 3 to 8 players (rules, acts, page, faces, bots, README)."""
from table.games.contract import Game
from table.games.venture import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
