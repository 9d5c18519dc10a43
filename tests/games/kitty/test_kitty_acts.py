"""Kitty at the table: physical acts to actions and back, idempotent re-reads, the table gate."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.contract import ButtonPress, CardOnPad, PadShape, Refusal
from table.games.kitty.acts import acts_for, interpret, must_clear, prompt
from table.games.kitty.rules import (
    INFO, Bid, Pass, Pick, Receive, Register, Show, apply, check, legal_actions, make_deck, need, new_game,
)

DECK = make_deck(deck_data("pairs"))
ALL = sorted(DECK.ranks)
SHAPES = (PadShape(1, 1), PadShape(4, 4))


def run(state, actions):
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def registered(players, hands, kitty, options=None):
    state = new_game(DECK, players, 0, {**INFO.defaults(), **(options or {})})
    hands = {p: list(hands.get(p, ())) for p in range(players)}
    used = {c for h in hands.values() for c in h} | set(kitty)
    free = [c for c in ALL if c not in used]
    for p in range(players):
        while len(hands[p]) < state.hand_size:
            hands[p].append(free.pop(0))
    return run(state, [Register(p, c) for p in range(players) for c in hands[p]])


def tap(state, card, player=None):
    return interpret(state, CardOnPad(card, player))


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 6), soft=st.booleans(), partners=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_comes_back_from_its_acts(players, soft, partners, seed):
    rng = random.Random(seed)
    state = new_game(DECK, players, 0, {**INFO.defaults(), "soft": soft, "partners": partners})
    while not need(state).done:
        assert prompt(state) is None
        legal = legal_actions(state)
        sample = legal if len(legal) <= 40 else rng.sample(legal, 40)
        for action in sample:
            for shape in SHAPES:
                acts = acts_for(state, action, shape)
                assert acts, action
                for act in acts:
                    slot = None if (act.player is None and shape.centre == 1) or \
                        (act.player is not None and shape.seat == 1) else 0
                    assert act.slot == slot
                    assert interpret(state, act) == action
        state = apply(state, rng.choice(legal))


def test_a_card_read_again_in_its_role_is_no_act():
    state = registered(3, {0: ["1a", "2a"], 1: ["5a", "6a"], 2: ["7a", "8a"]}, kitty=["9a", "10a"])
    # registered: own card again is nothing, another seat's is refused by the rules
    assert tap(state, "2a", 0) is None
    state = run(state, [Show("9a")])
    assert tap(state, "9a") is None                              # the target again on the centre pad
    state = run(state, [Pass(0, "2a")])
    assert tap(state, "2a", 0) is None                           # own pass again
    other = tap(state, "1a", 0)
    assert other == Pass(0, "1a") and check(state, other).key == "already_passed"
    state = run(state, [Pass(1, "6a"), Pass(2, "8a")])
    assert tap(state, "2a", 0) is None                           # the pass, now the neighbour's, is no bid
    assert tap(state, "2a", 1) == Bid(1, "2a")                   # the neighbour may bid it
    state = run(state, [Bid(0, "1a")])
    assert tap(state, "1a", 0) is None                           # own bid again
    state = run(state, [Bid(1, "5a"), Bid(2, "7a")])
    assert state.phase == "gift" and state.giver == 0
    assert tap(state, "1a", 0) is None                           # the revealed bid still on its pad
    giver = tap(state, "9a", 0)
    assert giver == Receive(0, "9a") and check(state, giver).key == "gift_to_self"
    state = run(state, [tap(state, "9a", 2)])
    assert state.phase == "targets" and "9a" in state.hands[2]
    assert tap(state, "9a", 2) is None                           # the gift just received, again
    assert tap(state, "9a") is None                              # the last target, again on the centre
    assert tap(state, "5a", 1) is None                           # last round's bid, again


def test_refusals_from_the_wrong_pad_or_the_wrong_time():
    state = registered(3, {0: ["2a"], 1: ["3a"]}, kitty=["9a", "10a"])
    assert tap(state, "2a", 0) is None                           # held: the seat registered it
    refusal = tap(state, "3a", 0)
    assert isinstance(refusal, Refusal) and refusal.key == "not_now_seat"
    state = run(state, [Show("9a")])
    refusal = tap(state, "10a")
    assert isinstance(refusal, Refusal) and refusal.key == "not_now_show"
    assert interpret(state, ButtonPress(0, "ok")) is None
    assert check(state, tap(state, "2a", 1)).key == "card_not_held"
    early = new_game(DECK, 3, 0, INFO.defaults())
    assert tap(early, "5a").key == "not_now_show"
    assert tap(early, "5a", 1) == Register(1, "5a")
    assert tap(early, "5a", 3).key == "no_such_player"


def test_a_soft_pick_is_a_tap_of_the_target_on_the_pickers_own_pad():
    state = registered(4, {0: ["2a"], 1: ["4a"], 2: ["6a"], 3: ["8a"]}, kitty=["3a", "9a", "10a"],
                       options={"soft": True})
    bids = {p: next(c for c in reversed(state.hands[p]) if c not in ("2a", "4a", "6a", "8a")) for p in range(4)}
    state = run(state, [Show("3a")] + [Pass(p, next(c for c in state.hands[p] if c not in ("2a", "4a", "6a", "8a")
                                                    and c != bids[p])) for p in range(4)])
    state = run(state, [Bid(p, c) for p, c in bids.items()])
    if state.phase == "gift":
        state = run(state, [legal_actions(state)[0]])
    state = run(state, [Show("9a"), Show("10a")])
    state = run(state, [Pass(p, next(c for c in state.hands[p] if c not in ("2a", "4a", "6a", "8a")))
                        for p in range(4)])
    state = run(state, [Bid(0, "2a"), Bid(1, "4a"), Bid(2, "6a"), Bid(3, "8a")])
    assert state.phase == "pick"
    wrong = tap(state, "9a", 1)
    assert wrong == Pick(1, "9a") and check(state, wrong).key == "not_picker"
    assert tap(state, "9a") is None                              # a target on the centre pad again
    assert tap(state, "10a", 0) == Pick(0, "10a")


def test_the_table_gate_from_each_resolution_to_the_next_card():
    state = new_game(DECK, 3, 0, {**INFO.defaults(), "long": True})
    assert not must_clear(state)                                 # nothing has happened yet
    seen_second_deal = False
    while not need(state).done:
        action = legal_actions(state)[0]
        before = state
        state = apply(state, action)
        if state.phase == "targets" and not state.targets:
            assert must_clear(state)                             # registration, or a round, just ended
        elif state.phase in ("pick", "gift"):
            assert must_clear(state)                             # the reveal: bids may lie on the pads
        elif state.phase == "register" and state.deal > 1 and not any(state.hands):
            assert must_clear(state)                             # a deal just ended
            seen_second_deal = True
        else:
            assert not must_clear(state), (before.phase, action, state.phase)
    assert seen_second_deal
