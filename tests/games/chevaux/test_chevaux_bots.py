"""Chevaux bots (TABLE-PROTOCOLS 2.4): the leader plays its best-ranked characteristic; a rarer seat switches to a
much better one, or when a value already shown beats its own, else keeps."""
from __future__ import annotations

import random

from games.chevaux.test_chevaux_properties import DECK
from table.games.chevaux import bots
from table.games.chevaux.rules import Choose, Keep, Reveal, Switch, apply, legal_actions, new_game, observe

HEIGHT, WEIGHT, APPEARED = range(3)
RNG = random.Random(1)


def test_percentiles_rank_a_value_among_the_decks_direction_included():
    assert bots.percentile(HEIGHT, 175, True) == 1.0                  # the Shire, tallest
    assert bots.percentile(HEIGHT, 75, True) == 0.0                   # the Falabella
    assert bots.percentile(APPEARED, -2500, False) == 1.0             # the Arabian, the oldest date wins
    assert 0.4 < bots.percentile(WEIGHT, 475, True) < 0.6


def state_after(*actions, players: int = 3, first: int = 0):
    state = new_game(DECK, players, first, {"time_limit": 0})
    for action in actions:
        state = apply(state, action)
    return state


def test_the_leader_picks_its_best_ranked_characteristic():
    state = state_after(Reveal(0, "arabian"))                          # -2500: nothing is older
    assert bots.choose(observe(state, 0), legal_actions(state), RNG) == Choose(0, APPEARED)
    state = state_after(Reveal(0, "shire"))                            # 175 cm, the tallest
    assert bots.choose(observe(state, 0), legal_actions(state), RNG) == Choose(0, HEIGHT)


def choice(leader: str, seat: str):
    """What seat 1's bot does with `seat` when the leader played `leader` on height."""
    state = state_after(Reveal(0, leader), Choose(0, HEIGHT), Reveal(1, seat))
    assert state.phase == "switch"
    return bots.choose(observe(state, 1), legal_actions(state), RNG)


def test_a_rarer_seat_switches_only_for_a_much_better_line_or_when_beaten():
    # Marwari (orange) beats the Criollo's 145 cm with 150 cm, but its date (1200) ranks 0.37 higher: it switches
    assert choice("criollo", "marwari") == Switch(1, APPEARED)
    # Cleveland Bay (red) beats the Thoroughbred's 163 cm with 165 cm, its best line: it keeps
    assert choice("thoroughbred", "cleveland_bay") == Keep(1)
    # Boulonnais (red): 160 cm is beaten by the Percheron's 168 cm; its weight ranks only 0.13 higher, but it
    # would lose on height: it switches
    assert choice("percheron", "boulonnais") == Switch(1, WEIGHT)
