"""Feira Torio rules, hand-worked (feira-torio.fr.md as settled by RULINGS F1-F10).

Cards are chosen from the reference deck by what the rules look at
(category, stars, bid points), never by id, so the cases read as the rule text.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from table.assets import deck_data
from table.games.feira_torio.rules import (
    Bid, Deck, MarkFirst, PlaceLot, PointFirst, apply, check, legal_actions, need, new_game, observe, score,
)

DECK = Deck.from_data(deck_data("feira-torio"))

# The rule text's colours: Vert, Rose, Marron, Jaune; "Bleu" and "Orange" in the
# scoring examples are slips for the two categories the example leaves out (F3).
COLOURS = {"vert": "taureau", "rose": "vache", "marron": "abri", "jaune": "fourrage",
           "bleu": "vache", "orange": "abri"}


class Cards:
    """Hands out distinct cards of an N-player game, chosen by bid points (or category and stars)."""

    def __init__(self, players: int = 6):
        self.free = sorted(DECK.for_players(players))

    def take(self, **wanted) -> str:
        card = next(c for c in self.free if all(getattr(DECK.cards[c], k) == v for k, v in wanted.items()))
        self.free.remove(card)
        return card

    def __call__(self, *fingers: int) -> tuple[str, ...]:
        return tuple(self.take(fingers=f) for f in fingers)


def run(state, actions):
    """Check then apply each action, as the table does; every one must be accepted."""
    for action in actions:
        assert check(state, action) is None, (action, check(state, action))
        state = apply(state, action)
    return state


def play_round(state, lots, first, bids):
    """One round: the dealer's lots (by position), the First Bid mark, then each player's bids (by position)."""
    return run(state, [PlaceLot(p, c) for p, c in enumerate(lots)] + [MarkFirst(state.first_bid, first)]
               + [Bid(player, p, c) for player, row in bids.items() for p, c in enumerate(row)])


def views(state):
    return [observe(state, p) for p in (None, *range(state.players))]


def settled(state, **changes):
    """`state` with these fields of its standing (what changes once a round) changed."""
    return replace(state, standing=replace(state.standing, **changes))


def at_round(players, round, hands, dealer=0, **changes):
    """A hand in progress: round `round` about to start, these known hands (`changes`: more of the standing)."""
    return settled(new_game(DECK, players, dealer), round=round, hands=tuple(frozenset(h) for h in hands), **changes)


# ---------------------------------------------------------------- setup (F1)

@pytest.mark.parametrize("players, size", [(3, 28), (4, 32), (5, 36), (6, 40)])
def test_player_count_selects_cards_by_marker(players, size):
    cards = DECK.for_players(players)
    assert len(cards) == size
    assert all((DECK.cards[c].players <= players) == (c in cards) for c in DECK.cards)
    assert len(need(new_game(DECK, players)).outcomes) == size


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_out_of_range_is_refused(players):
    with pytest.raises(ValueError):
        new_game(DECK, players)


# ---------------------------------------------------------------- scoring (F3, F4)

@pytest.mark.parametrize("example, expected", [
    ([("jaune", 2), ("jaune", 1), ("vert", 3), ("bleu", 1)], 6),
    ([("jaune", 2), ("vert", 1), ("bleu", 2), ("orange", 2)], 13),
    ([("jaune", 4), ("jaune", 2), ("vert", 2), ("vert", 1)], 8),
])
def test_rule_text_scoring_examples(example, expected):
    cards = Cards()
    hand = [cards.take(category=COLOURS[colour], stars=stars) for colour, stars in example]
    assert score(DECK, 0, hand).score == expected


def test_score_keeps_best_card_per_category_and_bonus_needs_all_four():
    cards = Cards()
    three = [cards.take(category="taureau", stars=4), cards.take(category="taureau", stars=1),
             cards.take(category="vache", stars=3), cards.take(category="abri", stars=2)]
    result = score(DECK, 2, three)
    assert (result.player, result.factors, result.bonus, result.score) == (2, (4, 3, 2), 0, 24)
    assert set(result.kept) == {three[0], three[2], three[3]}
    four = three[:1] + three[2:] + [cards.take(category="fourrage", stars=1)]
    assert score(DECK, 2, four).score == 4 * 3 * 2 * 1 + 5


# ---------------------------------------------------------------- bidding (F5)

def test_every_player_bids_one_card_per_lot_in_secret():
    take = Cards(3)
    state = play_round(new_game(DECK, 3), take(1, 1, 1, 1), 0, {})
    assert need(state).players == (0, 1, 2) and need(state).simultaneous
    secret = take(5)[0]
    state = run(state, [Bid(1, 2, secret)])
    for seat in (None, 0, 2):
        assert secret not in json.dumps(observe(state, seat))
    assert observe(state, 1)["my_bids"] == [None, None, secret, None]
    assert observe(state, None)["committed"][1] == [False, False, True, False]
    state = run(state, [Bid(1, p, c) for p, c in zip((0, 1, 3), take(2, 2, 3))])
    assert need(state).players == (0, 2)
    assert all(b.player != 1 for b in legal_actions(state))


def test_engine_knows_every_hand_from_round_two():
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    bids = {0: take(5, 1, 1, 1), 1: take(4, 2, 2, 2), 2: take(3, 3, 4, 2), 3: take(2, 3, 3, 5)}
    state = new_game(DECK, 4)
    assert observe(state, None)["holdings"] == [None] * 4
    state = play_round(state, lots, 0, bids)
    # lot 0: the 5 wins, player 0 takes back the rest; lot 1: the 3s tie, the 2 wins;
    # lot 2: the 4 beats the 3; lot 3: player 3 alone, wins.
    assert [r.winner for r in state.reveal] == [0, 1, 2, 3]
    expected = [{lots[0], *bids[0][1:]},
                {bids[1][0], lots[1], bids[1][2], bids[1][3]},
                {bids[2][0], bids[2][1], lots[2], bids[2][3]},
                {bids[3][0], bids[3][1], bids[3][2], lots[3]}]
    assert [set(h) for h in state.hands] == expected
    assert observe(state, None)["holdings"] == [sorted(h) for h in expected]
    assert (state.round, state.phase) == (2, "lots")


# ---------------------------------------------------------------- winning a lot (F6)

def test_tied_top_bids_cancel_and_a_lower_unique_bid_wins():
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    state = play_round(new_game(DECK, 4), lots, 0,
                       {0: take(5, 1, 1, 1), 1: take(5, 2, 2, 2), 2: take(3, 3, 4, 2), 3: take(1, 3, 3, 5)})
    first = state.reveal[0]
    assert (first.position, first.lot, first.winner, first.cancelled) == (0, lots[0], 2, (0, 1))
    assert lots[0] in state.hands[2]


def test_when_every_bid_ties_nobody_wins_the_lot_is_discarded_and_bids_go_back():
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    bids = {0: take(2, 1, 1, 1), 1: take(2, 2, 2, 2), 2: take(3, 3, 4, 2), 3: take(3, 3, 3, 5)}
    state = play_round(new_game(DECK, 4), lots, 0, bids)
    first = state.reveal[0]
    assert (first.winner, first.cancelled, first.withdrawn) == (None, (0, 1, 2, 3), ())
    assert lots[0] in state.discard and all(lots[0] not in h for h in state.hands)
    assert all(bids[p][0] in state.hands[p] for p in range(4))
    assert observe(state, None)["reveal"][0]["winner"] is None


# ---------------------------------------------------------------- reveal order and withdrawal (F7)

def test_winner_withdraws_from_later_lots_in_resolution_order():
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    # First Bid on lot 2: resolution order 2, 3, 0, 1. Player 0's 5 wins lot 2.
    bids = {0: take(5, 5, 5, 4), 1: take(1, 1, 4, 2), 2: take(2, 2, 2, 1), 3: take(3, 3, 3, 3)}
    state = play_round(new_game(DECK, 4), lots, 2, bids)
    assert [r.position for r in state.reveal] == [2, 3, 0, 1]
    assert state.reveal[0].winner == 0
    assert state.reveal[0].withdrawn == ((0, (bids[0][3], bids[0][0], bids[0][1])),)
    assert all(0 not in dict(r.bids) for r in state.reveal[1:])
    assert state.hands[0] == {lots[2], bids[0][3], bids[0][0], bids[0][1]}
    assert bids[0][2] in state.discard
    # lot 3: 3 beats 2 and 1; lot 0: 2 beats 1; lot 1: player 1 alone.
    assert [r.winner for r in state.reveal] == [0, 3, 2, 1]


def test_three_players_winner_of_first_lot_stays_in_and_can_win_again():
    take = Cards(3)
    lots = take(1, 1, 1, 1)
    bids = {0: take(5, 5, 1, 2), 1: take(1, 4, 2, 3), 2: take(2, 3, 3, 1)}
    state = play_round(new_game(DECK, 3), lots, 0, bids)
    first, second = state.reveal[:2]
    assert (first.winner, first.withdrawn) == (0, ())
    assert second.winner == 0 and 0 in dict(second.bids)
    assert second.withdrawn == ((0, (bids[0][2], bids[0][3])),)
    assert state.hands[0] == {lots[0], lots[1], bids[0][2], bids[0][3]}
    assert {bids[0][0], bids[0][1]} <= state.discard


def test_three_players_only_the_first_lot_is_an_exception():
    take = Cards(3)
    lots = take(1, 1, 1, 1)
    # Lot 0 all tied; player 0 wins lot 1 and must withdraw from lots 2 and 3.
    bids = {0: take(2, 5, 5, 5), 1: take(2, 1, 1, 1), 2: take(2, 3, 4, 2)}
    state = play_round(new_game(DECK, 3), lots, 0, bids)
    assert [r.winner for r in state.reveal] == [None, 0, 2, 1]
    assert state.reveal[1].withdrawn == ((0, bids[0][2:]),)


# ---------------------------------------------------------------- First Bid card (F8)

@pytest.mark.parametrize("dealer, first_bid", [(0, 1), (1, 2), (2, 1), (3, 1)])
def test_first_bid_to_first_winless_player_clockwise_from_dealers_left_dealer_last(dealer, first_bid):
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    # Lots 0 and 1 tie out; player 3 wins lot 2 (5 over the tied 2s), player 0 lot 3.
    # Winless: 1 and 2. Dealer 1: 2 comes first from the dealer's left (dealer 1 last);
    # dealer 2: 3, 0, then 1 before the dealer.
    bids = {0: take(1, 2, 1, 5), 1: take(1, 2, 2, 1), 2: take(2, 3, 2, 2), 3: take(2, 3, 5, 3)}
    state = play_round(new_game(DECK, 4, dealer), lots, 0, bids)
    assert [r.winner for r in state.reveal] == [None, None, 3, 0]
    assert state.first_bid == first_bid


def test_first_bid_to_the_only_winless_player():
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    # Lot 0 ties out; players 0, 2, 3 win; player 1 wins nothing.
    bids = {0: take(1, 5, 1, 1), 1: take(1, 2, 2, 2), 2: take(2, 3, 5, 2), 3: take(2, 3, 3, 5)}
    state = play_round(new_game(DECK, 4), lots, 0, bids)
    assert [r.winner for r in state.reveal] == [None, 0, 2, 3]
    assert state.first_bid == 1


def test_first_bid_to_winner_of_last_resolved_lot_when_everyone_won():
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    # First Bid on lot 1: order 1, 2, 3, 0; player 2 wins lot 0, resolved last.
    bids = {0: take(1, 5, 1, 1), 1: take(1, 2, 5, 2), 2: take(2, 3, 3, 3), 3: take(2, 3, 4, 5)}
    state = play_round(new_game(DECK, 4), lots, 1, bids)
    assert [(r.position, r.winner) for r in state.reveal] == [(1, 0), (2, 1), (3, 3), (0, 2)]
    assert state.first_bid == 2


# ---------------------------------------------------------------- new hand and end (F9)

def _two_winners_round(dealer, round):
    """Players 0 and 2 win a lot each, 1 and 3 tie out; returns (state after, hands before, lots)."""
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    hands = [take(5, 4, 4, 4), take(2, 2, 2, 2), take(1, 5, 3, 3), take(2, 2, 2, 2)]
    state = at_round(4, round, hands, dealer)
    return play_round(state, lots, 0, dict(enumerate(hands))), hands, lots


def test_first_bid_within_a_hand_follows_the_round():
    state, _, _ = _two_winners_round(dealer=3, round=3)
    assert [r.winner for r in state.reveal] == [0, 2, None, None]
    assert (state.round, state.dealer, state.first_bid) == (4, 3, 1)


def test_new_hand_moves_dealer_left_and_gives_them_first_bid():
    state, hands, lots = _two_winners_round(dealer=3, round=4)
    assert (state.hand, state.round, state.phase) == (2, 1, "lots")
    assert (state.dealer, state.first_bid) == (0, 0)
    assert state.hands == (None,) * 4 and state.discard == frozenset()
    final = [{lots[0], *hands[0][1:]}, set(hands[1]), {hands[2][0], lots[1], *hands[2][2:]}, set(hands[3])]
    expected = tuple(score(DECK, p, final[p]).score for p in range(4))
    assert state.history == (expected,) and state.totals == expected
    assert [s.score for s in state.scores] == list(expected)
    assert need(state).outcomes == tuple(sorted(DECK.for_players(4)))


def _last_round_ending_at(totals):
    """A round 4 where every bid ties, so everyone scores the hand they hold, ending at these totals."""
    take = Cards(4)
    lots = take(1, 1, 1, 1)
    hands = [take(1, 2, 3, 4), take(1, 2, 3, 4), take(1, 2, 3, 5), take(1, 2, 3, 5)]
    before = tuple(t - score(DECK, p, h).score for p, (t, h) in enumerate(zip(totals, hands)))
    state = play_round(at_round(4, 4, hands, totals=before), lots, 0, dict(enumerate(hands)))
    assert all(r.winner is None for r in state.reveal)
    assert state.totals == totals
    return state


def test_a_total_of_exactly_fifty_does_not_end_the_game():
    state = _last_round_ending_at((50, 50, 49, 50))
    assert (state.phase, state.hand, state.winners) == ("lots", 2, ())


def test_game_ends_after_a_hand_above_fifty_and_the_highest_total_wins():
    state = _last_round_ending_at((50, 51, 30, 52))
    assert (state.phase, state.winners) == ("over", (3,))
    assert need(state).done and legal_actions(state) == []
    assert observe(state, None)["winners"] == [3]


def test_tied_highest_totals_all_win():
    state = _last_round_ending_at((60, 40, 60, 51))
    assert (state.phase, state.winners) == ("over", (0, 2))


# ---------------------------------------------------------------- refusals

def _bidding(players=4):
    """Round 1 bidding: lots turned up, player 0 has bid one card on lot 0. Returns it and the unused cards."""
    take = Cards(players)
    state = play_round(new_game(DECK, players), take(1, 1, 1, 1), 0, {})
    return run(state, [Bid(0, 0, take(5)[0])]), take


def _round_two():
    """Round 2 bidding, nobody has bid yet: the hands known, and the unused cards."""
    take = Cards(4)
    hands = [take(5, 1, 1, 1), take(4, 2, 2, 2), take(3, 3, 4, 2), take(2, 3, 3, 5)]
    return play_round(at_round(4, 2, hands), take(1, 1, 1, 1), 0, {}), hands, take


def _refusals():
    """Each way an input is refused: state, action, refusal key."""
    bidding, take = _bidding()
    lot, bid, spare = bidding.lots[1], bidding.bids[0][0], take(4)[0]
    round_two, hands, unused = _round_two()
    gone = unused(3)[0]
    lots_phase = new_game(DECK, 4)
    first_phase = run(lots_phase, [PlaceLot(p, c) for p, c in enumerate(Cards(4)(1, 1, 1, 1))])
    cases = {
        "locked slot": (bidding, Bid(0, 0, spare), "slot_locked"),
        "lot card": (bidding, Bid(1, 1, lot), "card_on_table"),
        "another player's bid": (bidding, Bid(1, 0, bid), "card_on_table"),
        "own bid again": (bidding, Bid(0, 1, bid), "card_on_table"),
        "not in the game": (bidding, Bid(1, 0, "ZZ99"), "card_not_in_game"),
        "not for 3 players": (_bidding(3)[0], Bid(1, 0, Cards(6).take(players=6)), "card_not_for_players"),
        "another player's hand": (round_two, Bid(0, 0, hands[1][0]), "card_not_held"),
        "unseen card in round 2": (round_two, Bid(0, 0, unused.free[0]), "card_not_held"),
        "discarded card": (settled(round_two, discard=frozenset({gone})), Bid(0, 0, gone), "card_not_held"),
        "no such seat": (bidding, Bid(4, 0, spare), "no_such_slot"),
        "no such lot": (bidding, Bid(1, 4, spare), "no_such_slot"),
        "bid before the lots": (lots_phase, Bid(0, 0, spare), "not_now_bid"),
        "lot while bidding": (bidding, PlaceLot(0, spare), "not_now_lot"),
        "lot on a taken lot": (run(lots_phase, [PlaceLot(2, lot)]), PlaceLot(2, bid), "lot_taken"),
        "lot card already seen": (run(lots_phase, [PlaceLot(2, lot)]), PlaceLot(0, lot), "card_seen"),
        "lot from a known hand": (replace(round_two, phase="lots", lots=(None,) * 4, first=None),
                                  PlaceLot(0, hands[2][0]), "card_seen"),
        "first bid while bidding": (bidding, MarkFirst(0, 1), "not_now_first"),
        "first bid by the wrong player": (first_phase, PointFirst(1, 1), "not_first_bid_holder"),
        "after the end": (_last_round_ending_at((60, 60, 60, 60)), PlaceLot(0, spare), "game_over"),
    }
    return [pytest.param(*case, id=name) for name, case in cases.items()]


@pytest.mark.parametrize("state, action, key", _refusals())
def test_refused_input_leaves_the_game_unchanged(state, action, key):
    before = views(state)
    refusal = check(state, action)
    assert refusal is not None and refusal.key == key
    assert action not in legal_actions(state)
    assert views(state) == before
