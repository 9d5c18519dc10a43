"""Kitty bots: whole games played by bots from their own views, and the strategy's simple rules."""
from __future__ import annotations

import itertools
import random

import pytest

from table.assets import deck_data
from table.games.kitty import bots
from table.games.kitty.rules import (
    INFO, Pass, Receive, apply, check, legal_actions, make_deck, need, new_game, observe,
)

DECK = make_deck(deck_data("pairs"))


def bot_game(players, options, seed):
    """A game where chance (the deal, the targets) is random and every decision is a bot's, from its view;
    the 1's gift is decided by the giver's bot."""
    rng = random.Random(seed)
    state = new_game(DECK, players, 0, {**INFO.defaults(), **options})
    decisions = []
    while not need(state).done:
        n = need(state)
        legal = legal_actions(state)
        if n.chance:
            action = rng.choice(legal)
        else:
            seat = state.giver if n.any_of else rng.choice(n.players)
            mine = legal if n.any_of else [a for a in legal if a.player == seat]
            action = bots.choose(observe(state, seat), mine, rng)
            assert action in mine
            decisions.append(action)
        assert check(state, action) is None
        state = apply(state, action)
    return state, decisions


SETS = list(itertools.product(range(3, 7), (False, True), (False, True)))


@pytest.mark.parametrize("players, soft, partners", SETS)
def test_bots_play_whole_games(players, soft, partners):
    state, decisions = bot_game(players, {"soft": soft, "partners": partners, "stakes": 1}, seed=players)
    assert state.phase == "over" and state.winners and state.settlement is not None
    again, same = bot_game(players, {"soft": soft, "partners": partners, "stakes": 1}, seed=players)
    assert again == state and same == decisions                # seeded: the same game again


def test_bots_play_a_long_game():
    state, _ = bot_game(4, {"long": True, "partners": True}, seed=3)
    assert state.phase == "over" and max(state.totals) >= 100


def test_a_bot_never_passes_the_1_while_it_has_another_card():
    passes = 0
    for seed in range(20):
        _, decisions = bot_game(3, {}, seed)
        assert not any(isinstance(a, Pass) and a.card == "1a" for a in decisions)
        passes += sum(isinstance(a, Pass) for a in decisions)
    assert passes == 20 * 7 * 3


def test_a_bots_gift_goes_to_the_receiver_who_took_fewest_of_that_rank():
    view = {
        "players": 3, "seat": 0, "teams": None, "hand": ["2a"], "targets": ["9a"], "out": ["1a"],
        "taken": [[], ["9b", "9c"], ["5a"]], "my_passes": [], "phase": "gift",
    }
    legal = [Receive(1, "9a"), Receive(2, "9a")]
    assert bots.choose(view, legal, random.Random(0)) == Receive(2, "9a")
