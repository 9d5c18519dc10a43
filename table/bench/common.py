"""What the benches share: the seats and layout of their simulated tables, the game they play, random play."""
from __future__ import annotations

import random

from table.games.contract import Game
from table.registry import GAMES

SEATS = [1, 2, 3, 4]
LAYOUT = "sim-6-single"


def chosen_game(name: str | None = None) -> Game:
    """The registered game `name`, or the first registered."""
    return GAMES[name or next(iter(GAMES))]


def play_randomly(game: Game, state, rng: random.Random) -> tuple[object, list]:
    """Random legal actions from `state` until the game is done: the last state, and the actions."""
    actions = []
    while not game.rules.need(state).done:
        action = rng.choice(game.rules.legal_actions(state))
        state = game.rules.apply(state, action)
        actions.append(action)
    return state, actions
