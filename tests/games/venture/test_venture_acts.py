"""Venture at the table: physical acts to actions and back, re-reads, the table gate."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.contract import ButtonPress, CardOnPad, PadShape, Refusal
from table.games.venture.acts import acts_for, interpret, must_clear, prompt
from table.games.venture.rules import (
    DEALS, Bid, DraftDone, Show, apply, check, legal_actions, make_deck, need, new_game,
)

DECK = make_deck(deck_data("pairs"))
SHAPES = (PadShape(1, 1), PadShape(4, 4))


def run(state, actions):
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def started(players=3, **options):
    return run(new_game(DECK, players, 0, options), [Show(c) for c in ("4a", "5a", "6a", "8a")][:{3: 4, 4: 3}[players]])


# ---------------------------------------------------------------- round trip

@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1), draft=st.booleans(),
       deals=st.sampled_from(DEALS))
def test_every_legal_action_comes_back_from_its_acts(players, seed, draft, deals):
    rng = random.Random(seed)
    state = new_game(DECK, players, rng.randrange(players), {"draft": draft, "deals": deals})
    while not need(state).done:
        legal = legal_actions(state)
        for action in rng.sample(legal, min(len(legal), 25)):
            for shape in SHAPES:
                acts = acts_for(state, action, shape)
                assert len(acts) == 1
                act = acts[0]
                if isinstance(act, CardOnPad):
                    assert act.slot == (None if (shape.seat if act.player is not None else shape.centre) == 1
                                        else 0)
                assert interpret(state, act) == action
        state = apply(state, rng.choice(legal))
        assert prompt(state) is None


def test_acts_for_each_action_kind():
    state = new_game(DECK, 4, 0, {"draft": True})
    assert acts_for(state, DraftDone(2), PadShape(1, 1)) == (ButtonPress(2, "ok"),)
    assert acts_for(state, Show("7a"), PadShape(4, 4)) == (CardOnPad("7a", None, 0),)
    assert acts_for(state, Show("7a"), PadShape(1, 1)) == (CardOnPad("7a"),)
    assert acts_for(state, Bid(1, "7a"), PadShape(4, 1)) == (CardOnPad("7a", 1, 0),)
    assert acts_for(state, Bid(1, "7a"), PadShape(1, 4)) == (CardOnPad("7a", 1, None),)


# ---------------------------------------------------------------- re-reads are no act

def test_centre_card_read_again_is_no_act():
    state = run(new_game(DECK, 3, 0, {}), [Show("4a")])
    assert interpret(state, CardOnPad("4a")) is None
    state = started()
    assert interpret(state, CardOnPad("8a", None, 2)) is None


def test_own_committed_bid_read_again_is_no_act_any_pad():
    state = run(started(), [Bid(1, "9a")])
    assert interpret(state, CardOnPad("9a", 1)) is None
    assert interpret(state, CardOnPad("9a", 1, 3)) is None
    assert interpret(state, CardOnPad("9b", 1)) == Bid(1, "9b")        # a second bid: check refuses it
    assert check(state, Bid(1, "9b")).key == "already_bid"
    assert interpret(state, CardOnPad("9a", 0)) == Bid(0, "9a")        # another seat's card: refused by check
    assert check(state, Bid(0, "9a")).key == "bid_taken"


def test_last_rounds_bid_read_again_before_the_next_card_is_no_act():
    state = run(started(), [Bid(0, "9a"), Bid(1, "9b"), Bid(2, "10a")])
    assert must_clear(state)
    assert interpret(state, CardOnPad("10a", 2)) is None
    assert interpret(state, CardOnPad("9a", 0)) is None
    state = run(state, [Bid(1, "2a")])
    assert not must_clear(state)
    action = interpret(state, CardOnPad("10a", 2))
    assert action == Bid(2, "10a") and check(state, action).key == "bid_seen"


def test_ok_pressed_again_after_the_draft_and_buttons_outside_the_draft_are_no_act():
    state = new_game(DECK, 3, 0, {"draft": True})
    assert interpret(state, ButtonPress(1, "ok")) == DraftDone(1)
    assert interpret(state, ButtonPress(1, "next")) is None
    state = run(state, [DraftDone(1)])
    assert interpret(state, ButtonPress(1, "ok")) is None
    state = run(state, [DraftDone(0), DraftDone(2)])
    assert interpret(state, ButtonPress(1, "ok")) is None


# ---------------------------------------------------------------- refusals

def test_cards_out_of_phase_are_refused():
    state = new_game(DECK, 3, 0, {"draft": True})
    assert interpret(state, CardOnPad("5a", 0)) == Refusal.of("not_now_bid", player=0)
    assert interpret(state, CardOnPad("5a")) == Refusal.of("not_now_show", card="5a")
    state = run(state, [DraftDone(p) for p in range(3)])
    assert interpret(state, CardOnPad("5a", 0)) == Refusal.of("not_now_bid", player=0)
    state = started()
    assert interpret(state, CardOnPad("5b")) == Refusal.of("not_now_show", card="5b")
    assert interpret(state, CardOnPad("5b", 7)) == Refusal.of("no_such_player", player=7)


def test_game_over_takes_nothing():
    state = new_game(DECK, 8, 0, {})
    rng = random.Random(5)
    while not need(state).done:
        state = apply(state, rng.choice(legal_actions(state)))
    assert interpret(state, CardOnPad("5b")) is None
    assert interpret(state, CardOnPad("5b", 1)) is None
    assert interpret(state, ButtonPress(1, "ok")) is None
    assert not must_clear(state)


# ---------------------------------------------------------------- the table gate

def test_must_clear_from_each_firing_until_the_next_card():
    state = new_game(DECK, 8, 0, {"deals": 2, "draft": True})
    assert not must_clear(state)
    rng = random.Random(1)
    seen_round_gate = seen_deal_gate = False
    while not need(state).done:
        action = rng.choice(legal_actions(state))
        before = state
        state = apply(state, action)
        fired = state.board.last is not before.board.last
        if fired:
            assert must_clear(state) == (state.phase != "over")
            seen_round_gate = True
            seen_deal_gate |= state.phase == "draft"
        elif isinstance(action, (Bid, Show)):
            assert not must_clear(state)
        else:
            assert must_clear(state) == must_clear(before)     # an OK press does not lift the gate
    assert seen_round_gate and seen_deal_gate


@pytest.mark.parametrize("players", [3, 4])
def test_no_gate_before_the_first_firing(players):
    state = new_game(DECK, players, 0, {})
    assert not must_clear(state)
    assert not must_clear(started(players))
