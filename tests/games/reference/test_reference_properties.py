"""High Card properties over random legal play (2 to 4 players, seeds from hypothesis)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tests.games.reference import GAME
from tests.games.reference.rules import ROUNDS, apply, check, observe

from ..tables import Played


def assert_cards_conserved(state) -> None:
    """No card is shown or sealed twice; every shown card is of the deck; ROUNDS cards per player at most."""
    sealed = [c for c in state.bids if c is not None]
    assert len(set(state.seen + tuple(sealed))) == len(state.seen) + len(sealed)
    assert set(state.seen) <= set(dict(state.rank))
    assert len(state.seen) == state.players * (min(state.round, ROUNDS + 1) - 1)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_points_go_to_the_single_highest_card_and_the_most_points_win(players, seed):
    game = Played.record(GAME.rules, GAME.deck, players, seed)
    rank = dict(GAME.deck)
    for before, action, after in zip(game.states, game.actions, game.states[1:]):
        assert check(before, action) is None
        assert_cards_conserved(after)
        if after.last is not None and after.round == before.round + 1:
            best = max(rank[c] for c in after.last)
            takers = [p for p, c in enumerate(after.last) if rank[c] == best]
            gained = [a - b for a, b in zip(after.totals, before.totals)]
            assert gained == [int(len(takers) == 1 and p == takers[0]) for p in range(players)]
    end = game.states[-1]
    assert end.phase == "over" and len(game.actions) == players * ROUNDS
    assert observe(end, None)["winners"] == [p for p in range(players) if end.totals[p] == max(end.totals)]


def test_a_card_seen_or_a_second_bid_is_refused():
    state = GAME.rules.new_game(GAME.deck, 2, 0)
    state = apply(state, GAME.rules.Bid(0, "7a"))
    assert check(state, GAME.rules.Bid(0, "8a")).key == "already_bid"
    assert check(state, GAME.rules.Bid(1, "7a")).key == "card_seen"
    state = apply(state, GAME.rules.Bid(1, "9a"))
    assert check(state, GAME.rules.Bid(0, "9a")).key == "card_seen"
    assert state.totals == (0, 1) and state.fresh
