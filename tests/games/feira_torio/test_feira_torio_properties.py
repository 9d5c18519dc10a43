"""Feira Torio properties over random legal play (3 to 6 players, seeds from hypothesis)."""
from __future__ import annotations

from itertools import product
from math import prod

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.feira_torio.rules import (
    CATEGORIES, ROUNDS, Bid, Deck, MarkFirst, apply, check, legal_actions, observe, score,
    unseen,
)
from table.games.feira_torio import rules
from table.games.kit.replay import replay

from ..tables import Played

DECK = Deck.from_data(deck_data("feira-torio"))

games = settings(max_examples=100, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(3, 6)


class Game(Played):
    """A game played to the end by random legal choices."""

    @classmethod
    def play(cls, players: int, seed: int) -> "Game":
        return cls.record(rules, DECK, players, seed)

    def bidding_rounds(self):
        """(state when bidding opens, the round's bids in order, state after the last bid) for each round."""
        start = None
        for i, action in enumerate(self.actions):
            if isinstance(action, MarkFirst):
                start = i + 1
            elif isinstance(action, Bid) and self.states[i + 1].phase != "bidding":
                yield self.states[start], self.actions[start:i + 1], self.states[i + 1]


def views(state):
    return [observe(state, p) for p in (None, *range(state.players))]


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every card of the game is in exactly one place; known hands hold 4 cards and the bids come from them."""
    lots = [c for c in state.lots if c]
    bids = [c for row in state.bids for c in row if c]
    held = [c for hand in state.hands if hand is not None for c in hand if c not in bids]
    places = lots + bids + held + sorted(state.discard) + sorted(unseen(state))
    assert sorted(places) == sorted(DECK.for_players(state.players))
    known = [hand for hand in state.hands if hand is not None]
    assert known in ([], list(state.hands))
    if known:
        assert all(len(hand) == 4 for hand in known)
        assert all(set(filter(None, row)) <= hand for row, hand in zip(state.bids, known))
        # 16 cards stay after the deal and the discard of 2 of 6 (F10); 4 are turned up per round.
        if state.phase == "over":
            assert (len(unseen(state)), len(state.discard)) == (0, 4 * ROUNDS)
        else:
            assert len(unseen(state)) == 16 - 4 * (state.round - 1) - len(lots)
            assert len(state.discard) == 4 * (state.round - 1)
    else:
        assert state.round == 1 and not state.discard


def assert_totals_recount(state):
    assert list(state.totals) == [sum(hand[p] for hand in state.history) for p in range(state.players)]
    over = max(state.totals) > 50
    assert (state.phase == "over") == over
    if over:
        assert state.winners == tuple(p for p, t in enumerate(state.totals) if t == max(state.totals))


@games
@given(players=player_counts, seed=seeds)
def test_cards_are_conserved_and_totals_recount_history(players, seed):
    for state in Game.play(players, seed).states:
        assert_cards_conserved(state)
        assert_totals_recount(state)


@games
@given(players=player_counts, seed=seeds)
def test_replay_of_the_actions_is_the_live_state(players, seed):
    game = Game.play(players, seed)
    first = game.states[0]
    middle = len(game.actions) // 2
    assert replay(rules, DECK, players, first.dealer, None, game.actions[:middle]) == game.states[middle]
    assert replay(rules, DECK, players, first.dealer, None, game.actions) == game.states[-1]


@games
@given(players=player_counts, seed=seeds)
def test_round_result_does_not_depend_on_the_order_bids_arrive(players, seed):
    game = Game.play(players, seed)
    for start, bids, end in game.bidding_rounds():
        shuffled = list(bids)
        game.rng.shuffle(shuffled)
        state = start
        for bid in shuffled:
            assert check(state, bid) is None
            state = apply(state, bid)
        assert state == end


@games
@given(players=player_counts, seed=seeds)
def test_legal_actions_are_exactly_the_bids_check_accepts(players, seed):
    game = Game.play(players, seed)
    everything = [Bid(p, slot, c) for p in range(players) for slot in range(4) for c in sorted(DECK.cards)]
    for start, bids, _ in game.bidding_rounds():
        state = start
        for bid in bids[:game.rng.randrange(len(bids))]:
            state = apply(state, bid)
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        assert set(legal) == {b for b in everything if check(state, b) is None}


# ---------------------------------------------------------------- secrecy (F5)

def other_cards(state, player, rng):
    """Other legal cards for `player`'s committed slots, as {slot: card}, differing somewhere."""
    row = state.bids[player]
    slots = [slot for slot, card in enumerate(row) if card]
    hand = state.hands[player]
    if hand is not None:
        pool = sorted(hand)
    else:
        taken = {*state.lots, *(c for r in state.bids for c in r), *state.discard}
        pool = sorted(DECK.for_players(state.players) - taken) + [row[s] for s in slots]
    while True:
        cards = rng.sample(pool, len(slots))
        if cards != [row[s] for s in slots]:
            return dict(zip(slots, cards))


@games
@given(players=player_counts, seed=seeds)
def test_changing_a_players_bid_cards_changes_nothing_anyone_else_sees(players, seed):
    game = Game.play(players, seed)
    for start, bids, _ in game.bidding_rounds():
        made = bids[:game.rng.randrange(1, len(bids))]
        state = start
        for bid in made:
            state = apply(state, bid)
        player = game.rng.choice(sorted({b.player for b in made}))
        swap = other_cards(state, player, game.rng)
        other = start
        for bid in made:
            if bid.player == player:
                bid = Bid(player, bid.position, swap[bid.position])
            assert check(other, bid) is None
            other = apply(other, bid)
        assert other != state
        assert observe(other, None) == observe(state, None)
        for seat in range(players):
            assert (observe(other, seat) == observe(state, seat)) == (seat != player)


# ---------------------------------------------------------------- scoring (F3, F4)

def brute_force_score(cards):
    """Try every way of keeping one card per category present; the best product, +5 with all four."""
    by_category = [[DECK.cards[c].stars for c in cards if DECK.cards[c].category == cat] for cat in CATEGORIES]
    present = [stars for stars in by_category if stars]
    return max(prod(kept) for kept in product(*present)) + (5 if len(present) == 4 else 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(DECK.cards)), min_size=4, max_size=4, unique=True))
def test_score_is_product_of_best_stars_per_category_plus_bonus(cards):
    result = score(DECK, 0, cards)
    assert result.score == brute_force_score(cards)
    assert result.score == result.bonus + prod(result.factors)
    assert sorted(result.kept) == sorted(set(result.kept)) and set(result.kept) <= set(cards)
    assert len(result.kept) == len({DECK.cards[c].category for c in cards})
