"""What the benches share: the seats and layout of their simulated tables, the game they play, random play, copies
of a finished game."""
from __future__ import annotations

import os
import random

from table.games.contract import Game
from table.registry import GAMES
from table.storage.history import History, Played

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


def copies(history: History, row: dict, count: int) -> list[Played]:
    """`count` copies of the archived game `row`: its archive linked under new names, and their history rows."""
    archive = history.folder / row["journal"]
    made = []
    for number in range(1, count + 1):
        name = f"{number:05d}-{row['journal']}"
        os.link(archive, archive.with_name(name))
        made.append(Played(row["game"], row["options"], row["seats"], row["scores"], row["winners"],
                           row["started"], row["ended"], row["first_seq"], row["last_seq"], name, row["sha256"],
                           row["players"]))
    return made
