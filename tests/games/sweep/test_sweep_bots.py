"""Sweep bots: they play whole games from their own view, and follow the protocol's simple strategy."""
from __future__ import annotations

import random

import pytest

from table.games.sweep import bots, rules
from table.games.sweep.rules import Play, Take, apply, check, legal_actions, need, observe

from .test_sweep_rules import DECK, THREE, play, start


def bot_game(players, seed, match):
    """Every seat a bot (chance and the table draw at random); the end state."""
    rng = random.Random(seed)
    state = rules.new_game(DECK, players, rng.randrange(players), {"match": match})
    steps = 0
    while not need(state).done:
        steps += 1
        assert steps < 20_000
        n = need(state)
        legal = legal_actions(state)
        if n.chance:
            action = rng.choice(legal)
        else:
            seat = rng.choice(n.players)
            mine = [a for a in legal if a.player == seat]
            action = bots.choose(observe(state, seat), mine, rng)
            assert action in mine
        assert check(state, action) is None
        state = apply(state, action)
    return state


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("match", [False, True])
def test_bots_play_whole_games(players, match):
    end = bot_game(players, players * 7 + match, match)
    assert end.phase == "over" and end.deal.winners
    if match:
        assert max(end.deal.totals) >= rules.TARGET


def test_bots_are_deterministic_for_a_seed():
    assert bot_game(4, 11, False) == bot_game(4, 11, False)


def test_rank_of_reads_the_deck_ids():
    assert all(bots.rank_of(card) == rank for card, rank in DECK.ranks.items())


def test_tie_pick_takes_the_rank_that_gains_a_majority_else_the_highest():
    state = start(THREE, 2, ("9a", "9b", "5a", "1a", "3a"))
    state = play(state, "7b", "4a", "7a")
    assert rules.turn(state) == 2
    # seat 2 holds 6, 8, 10, 10: one 5 is not yet a majority anyone beats; seat 1 took nothing yet either
    legal = legal_actions(state)
    choice = bots.choose(observe(state, 2), legal, random.Random(0))
    assert choice == Take(2, "5a")              # the highest rank among targets that nobody holds publicly
    # with a view where seat 0 publicly holds two 5s, a 5 gains nothing: the next best rank
    view = observe(state, 2)
    view["log"] = [{"steps": [{"taken": [{"player": 0, "rank": 5}, {"player": 0, "rank": 5}]}], "played": []}]
    assert bots.choose(view, legal, random.Random(0)) == Take(2, "4a")


def test_the_play_prefers_a_capture_that_wins_a_rank():
    # seat 0 plays last after a 7 and an 8: its 2 would take the three 9s, a 10 only the 8
    hands = (("2a", "2b", "10a", "10b", "10c"),
             ("7a", "6a", "8a", "10e", "10f"),
             ("7b", "6b", "8b", "10g", "10h"))
    state = play(start(hands, 1, ("9a", "9b", "9c", "3a", "1a")), "7a", "8b")
    legal = legal_actions(state)
    assert {a.card for a in legal} == {"2a", "2b", "10a", "10b", "10c"}
    choice = bots.choose(observe(state, 0), legal, random.Random(1))
    assert choice in (Play(0, "2a"), Play(0, "2b"))
