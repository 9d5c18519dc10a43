"""Sweep at the table: acts to actions and back, re-reads that are no act, the table gate."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from table.games.contract import ButtonPress, CardOnPad, PadShape, Refusal
from table.games.sweep import acts, rules
from table.games.sweep.rules import DrawFirst, Play, Register, Show, Take, apply, legal_actions, need

from .test_sweep_properties import Game
from .test_sweep_rules import DECK, THREE, ok, play, start

SHAPES = (PadShape(1, 1), PadShape(4, 4))


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32 - 1), match=st.booleans())
def test_every_legal_action_comes_back_from_its_acts(players, seed, match):
    game = Game.play(players, seed, match)
    for state in game.states[:-1]:
        assert acts.prompt(state) is None
        for action in legal_actions(state):
            for shape in SHAPES:
                physical = acts.acts_for(state, action, shape)
                if isinstance(action, DrawFirst):
                    assert physical == () and need(state).table_draw     # the table draws it itself
                    continue
                assert len(physical) == 1
                act = physical[0]
                assert act.slot == (None if (shape.seat if act.player is not None else shape.centre) == 1 else 0)
                assert acts.interpret(state, act) == action


def test_a_card_read_again_in_its_role_is_no_act():
    state = rules.new_game(DECK, 3, 0, {"match": False})
    state = ok(state, Register(0, "4a"))
    assert acts.interpret(state, CardOnPad("4a", 0)) is None
    assert acts.interpret(state, CardOnPad("4a", 0, 2)) is None       # any pad of the seat
    assert acts.interpret(state, CardOnPad("4b", 0)) == Register(0, "4b")
    state = start(THREE, 0, ("9a", "9b", "5a", "1a"))
    assert acts.interpret(state, CardOnPad("9a")) is None               # a centre card shown
    assert acts.interpret(state, CardOnPad("4a", 0)) is None            # the last registered card, still there
    assert acts.interpret(state, CardOnPad("3a")) == Show("3a")
    state = ok(state, Show("3a"))
    state = ok(state, Play(0, "4a"))
    assert acts.interpret(state, CardOnPad("4a", 0)) is None            # the card just played
    assert acts.interpret(state, CardOnPad("3a")) is None
    assert acts.interpret(state, CardOnPad("7a", 1)) == Play(1, "7a")
    assert acts.interpret(state, ButtonPress(1, "ok")) == Refusal.of("no_buttons", player=1)   # cards alone


def test_a_tied_player_picks_by_tapping_the_target_and_reads_again_are_no_act():
    state = start(THREE, 2, ("9a", "9b", "5a", "1a", "3a"))
    state = play(state, "7b", "4a", "7a")
    assert acts.interpret(state, CardOnPad("5a", 2)) == Take(2, "5a")
    assert acts.interpret(state, CardOnPad("5a", 1)) == Refusal.of("not_your_turn", player=1)
    assert acts.interpret(state, CardOnPad("7a", 1)) is None            # its played card
    state = ok(state, Take(2, "5a"))
    assert acts.interpret(state, CardOnPad("5a", 2)) is None            # the target it just took
    assert acts.interpret(state, CardOnPad("1a", 1)) == Take(1, "1a")
    assert acts.interpret(state, CardOnPad("2b")) == Refusal.of("centre_full", card="2b")


def test_acts_refusals():
    state = start(THREE, 0, ("9a", "9b", "5a", "1a"))
    assert acts.interpret(state, CardOnPad("7a", 0)) == Refusal.of("not_now_play", player=0)
    state = ok(state, Show("3a"))
    assert acts.interpret(state, CardOnPad("7a", 1)) == Refusal.of("not_your_turn", player=1)
    assert acts.interpret(state, CardOnPad("2a")) == Refusal.of("centre_full", card="2a")
    assert acts.interpret(state, CardOnPad("2a", 9)) == Refusal.of("no_such_player", player=9)
    fresh = rules.new_game(DECK, 3, 0, {"match": False})
    assert acts.interpret(fresh, CardOnPad("2a")) == Refusal.of("not_now_centre", card="2a")


def test_the_table_gate_holds_from_a_capture_until_the_next_centre_card():
    state = start(THREE, 0, ("9a", "9b", "5a", "1a", "3a"))
    assert not acts.must_clear(state)
    state = play(state, "4a", "8a")
    assert not acts.must_clear(state)
    state = ok(state, Play(2, "10e"))
    assert state.phase == "centre" and acts.must_clear(state)
    state = ok(state, Show("9c"))
    assert not acts.must_clear(state)


def test_the_table_gate_holds_into_the_next_deal_of_a_match_until_a_registration():
    rng = random.Random(4)
    state = rules.new_game(DECK, 3, 0, {"match": True})
    while state.deal.number == 1:
        state = apply(state, rng.choice(legal_actions(state)))
        if state.phase == "register" and state.deal.number == 1:
            assert not acts.must_clear(state)
    assert state.phase == "register" and acts.must_clear(state)
    state = apply(state, legal_actions(state)[0])
    assert not acts.must_clear(state)
