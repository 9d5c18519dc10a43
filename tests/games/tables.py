"""Engine states of any registered game, and the table view the session would show for them.

`Played` records a whole random legal game, each action checked (the property
tests' games); `random_states` plays random legal games with the pure rules; `table_view`
builds the session's table view for a state (lights from the game's `Need`,
its prompt, the table gate), so page tests render every page of every game
without a session; `Keys` stands for the texts in tests of what a page shows.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Iterator

from table.registry import GAMES
from table.games.contract import Game
from table.session.lights import need_lights
from table.session.lobby import Menu


@dataclass
class Played:
    """A game played to the end by random legal choices, each checked: `states[i]` is the state before
    `actions[i]`; the last one is the end. `rng` chose the first player, then every action."""

    rng: random.Random
    options: dict
    actions: list
    states: list

    @classmethod
    def record(cls, rules: ModuleType, deck, players: int, seed: int, options: dict | None = None,
               limit: int = 20_000) -> "Played":
        rng = random.Random(seed)
        state = rules.new_game(deck, players, rng.randrange(players), options)
        game = cls(rng, options or {}, [], [state])
        while not rules.need(state).done:
            assert len(game.actions) < limit, "the game must end"
            legal = rules.legal_actions(state)
            assert legal
            action = rng.choice(legal)
            assert rules.check(state, action) is None
            state = rules.apply(state, action)
            game.actions.append(action)
            game.states.append(state)
        return game


def new_state(game: Game, players: int, seed: int = 0, options: dict | None = None):
    """A new game of `players`, started by player `seed % players`, with the defaults overridden by `options`."""
    return game.rules.new_game(game.deck, players, seed % players, {**game.info.defaults(), **(options or {})})


def random_states(game: Game, players: int, seed: int, options: dict | None = None) -> Iterator:
    """Every state of one random legal game (from the new game on) until it is over."""
    rng = random.Random(seed)
    rules = game.rules
    state = new_state(game, players, seed, options)
    yield state
    while not rules.need(state).done:
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        yield state


def first_state(game: Game, players: int, test, seed: int = 0, options: dict | None = None):
    """The first state passing `test` in random games from `seed` on (searching at most 200 games)."""
    for s in range(seed, seed + 200):
        found = next((state for state in random_states(game, players, s, options) if test(state)), None)
        if found is not None:
            return found
    raise LookupError(f"no {game.name} state found")


def table_view(game: Game, state, seats: list[int] | None = None, seat_pads: int = 1, cursor: int | None = None,
               message: dict | None = None, clearing: bool | None = None) -> dict:
    """The session's table view of `state` (through JSON, as it may travel): `seats` in player order."""
    view = game.rules.observe(state, None)
    seats = seats or list(range(1, view["players"] + 1))
    prompt = game.acts.prompt(state)
    lights = need_lights(game.rules.need(state), tuple(seats), view["winners"])
    return json.loads(json.dumps({
        "mode": "game", "game": game.name, "seats": list(range(1, max(seats) + 1)), "joined": seats,
        "min_players": game.info.players.start, "max_players": game.info.players.stop - 1,
        "options": dict(view.get("options") or game.info.defaults()),
        "menu": {"lines": Menu(game.name).lines, "cursor": len(Menu(game.name).lines) - 1},
        "shape": {"seat": seat_pads, "centre": 1},
        "prompt": None if prompt is None else {
            "player": prompt.player, "cursor": prompt.start if cursor is None else cursor,
            "labels": [[key, dict(params)] for key, params in prompt.labels]},
        "message": message,
        "clearing": game.acts.must_clear(state) if clearing is None else clearing,
        "lights": {seat: light.value for seat, light in lights.items()},
        "view": view,
    }))


class Keys:
    """A translator that shows text keys: t("seat", seat=3) is "seat(seat=3)", t.count("cards", 2) "cards(n=2)",
    t.seats([1, 4]) "seats(1, 4)"; what a page's view says, read without the texts (nor pygame)."""

    def __call__(self, key: str, **params) -> str:
        return f"{key}({', '.join(f'{k}={v}' for k, v in sorted(params.items()))})" if params else key

    def count(self, key: str, n: int, **params) -> str:
        return self(key, n=n, **params)

    def seats(self, seats: list[int], joined: list[int] | None = None, key: str = "seats") -> str:
        return f"{key}({', '.join(str(s if joined is None else joined[s]) for s in seats)})"


def game(name: str) -> Game:
    return GAMES[name]
