"""Venture bots play whole games from their own view, with or without knowing their physical hand."""
from __future__ import annotations

import random

import pytest

from table.assets import deck_data
from table.games.venture import bots
from table.games.venture.rules import (
    HAND, SLUG, Bid, DraftDone, apply, check, legal_actions, make_deck, need, new_game, observe, tables,
)

DECK = make_deck(deck_data("pairs"))
T = tables(DECK)


def play(players, seed, options, with_hands):
    """Bots at every seat; the slug is the top of a shuffled deck and the hands the rest (with_hands: each bot
    is offered only the bids of its own hand, as a simulated table would)."""
    rng = random.Random(seed)
    state = new_game(DECK, players, 0, options)
    hands = None
    bid_log = []
    while not need(state).done:
        n = need(state)
        if n.chance:
            if hands is None:
                cards = list(T.order)
                rng.shuffle(cards)
                pile, rest = cards[:SLUG[players]], cards[SLUG[players]:]
                hands = [set(rest[p::players]) for p in range(players)]
            action = next(a for a in legal_actions(state) if a.card == pile[len(state.board.slug)])
        else:
            seat = n.players[0] if not n.simultaneous else rng.choice(n.players)
            legal = [a for a in legal_actions(state) if a.player == seat]
            if with_hands and hands is not None:
                legal = [a for a in legal if not isinstance(a, Bid) or a.card in hands[seat]]
            action = bots.choose(observe(state, seat), legal, rng)
            assert action in legal
            if isinstance(action, Bid):
                bid_log.append((seat, action.card))
                if hands is not None:
                    assert not with_hands or action.card in hands[seat]
                    hands[seat].discard(action.card)
        assert check(state, action) is None
        state = apply(state, action)
        if state.phase in ("draft", "slug") and not state.board.slug:
            hands = None
    return state, bid_log


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("with_hands", [False, True])
def test_bots_play_whole_games(players, with_hands):
    state, bids = play(players, players, {"draft": True, "deals": 2}, with_hands)
    assert state.phase == "over" and len(bids) == 2 * players * HAND[players]
    assert state.winners


def test_bots_are_deterministic_for_a_seed():
    assert play(5, 11, {"draft": False, "deals": 1}, True) == play(5, 11, {"draft": False, "deals": 1}, True)


def test_bot_draft_is_ok_and_keep_picks_three_of_the_hand():
    state = new_game(DECK, 4, 0, {"draft": True})
    view = observe(state, 2)
    assert bots.choose(view, [DraftDone(2)], random.Random(0)) == DraftDone(2)
    hand = ["1a", "10a", "10b", "5a", "6a", "2a"]
    keep = bots.draft_keep(view, hand, random.Random(0))
    assert len(keep) == 3 and set(keep) <= set(hand)
    assert set(keep) == {"10a", "10b", "6a"}         # the most common ranks among unseen cards: 10 (8 left), 6 (5)


@pytest.mark.parametrize("seed", range(5))
def test_bot_does_not_bid_the_1_into_a_centre_of_10s(seed):
    """The 1 is always the unique lowest bid: it would take the four 10s of the centre (and any 10 bid), -4 or
    worse. A 6 only takes the odd lower bid, or the 10s when both others bid higher: the bot bids the 6."""
    state = new_game(DECK, 3, 0, {})
    for card in ("10a", "10b", "10c", "10d"):
        state = apply(state, next(a for a in legal_actions(state) if a.card == card))
    legal = [Bid(0, "1a"), Bid(0, "6a")]
    assert bots.choose(observe(state, 0), legal, random.Random(seed)) == Bid(0, "6a")
    assert bots.choose(observe(state, 0), legal[::-1], random.Random(seed)) == Bid(0, "6a")
