"""Five Cards (Cinq cartes): a 2-player Pairs column race to 100 (rules, acts, page, faces, bots, README)."""
from table.games.contract import Game
from table.games.five_cards import acts, rules

GAME = Game(rules.INFO, rules, acts, __name__)
