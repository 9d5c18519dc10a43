"""The game registry: every game the table plays, by name, in the order the lobby lists them.

A game registers here once, by its package's `GAME` record; shared layers
reach games only through `GAMES` (and never name one).
"""
from table.games import chevaux, feira_torio, festival, five_cards, kitty, neurotrio, sweep, venture
from table.games.contract import Game

GAMES: dict[str, Game] = {game.name: game for game in (
    feira_torio.GAME, sweep.GAME, kitty.GAME, venture.GAME, five_cards.GAME, festival.GAME, chevaux.GAME, neurotrio.GAME)}


def game_for_deck(deck: str) -> Game | None:
    """The first game played with `deck` (whose faces draw its cards), None when no game uses it."""
    return next((game for game in GAMES.values() if game.info.deck == deck), None)
