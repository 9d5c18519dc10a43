"""High Card, the reference game: the smallest complete game, kept in the tests and never in the lobby.

Each round every player lays a card face down at once; the highest card takes
the round's point. It shows every part a game brings (rules, acts, page,
faces, bots, README) and runs through the contract test like the eight games.
"""
from table.games.contract import Game
from tests.games.reference import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
