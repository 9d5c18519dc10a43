"""Venture properties over random legal play (3 to 8 players, every option, seeds from hypothesis)."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.kit import codec
from table.games.venture.rules import (
    ACTIONS, DEALS, HAND, SLUG, Bid, DraftDone, Show, apply, breakdown, check, legal_actions, make_deck, need,
    observe, points, tables,
)
from table.games.venture import rules
from table.games.kit.replay import replay

from ..tables import Played

DECK = make_deck(deck_data("pairs"))
T = tables(DECK)

games = settings(max_examples=60, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(3, 8)
option_sets = st.fixed_dictionaries({"draft": st.booleans(), "deals": st.sampled_from(DEALS)})


class Game(Played):
    """A game played to the end by random legal choices."""

    @classmethod
    def play(cls, players: int, seed: int, options: dict) -> "Game":
        return cls.record(rules, DECK, players, seed, options, limit=options["deals"] * (players + 55))

    def rounds(self):
        """(state when the round opens, the round's bids in order, state after the last bid) for each round."""
        start = None
        for i, action in enumerate(self.actions):
            before, after = self.states[i], self.states[i + 1]
            if isinstance(action, Bid) and not any(before.bids):
                start = i
            if isinstance(action, Bid) and not any(after.bids):
                yield self.states[start], self.actions[start:i + 1], after


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every card is in exactly one place: the centre, a score pile, or unseen (a hand or a sealed bid)."""
    board = state.board
    places = list(board.centre) + [c for pile in board.piles for c in pile] + list(state.pool)
    assert sorted(places) == sorted(T.order)
    committed = [c for c in state.bids if c is not None]
    assert set(committed) <= set(state.pool)
    assert list(state.free) == [c for c in state.pool if c not in committed]
    assert set(board.slug) <= set(board.centre) | {c for pile in board.piles for c in pile}
    n = state.players
    if state.phase == "bidding":
        assert len(state.pool) == n * (HAND[n] - state.round + 1) and len(board.slug) == SLUG[n]
    elif state.phase in ("slug", "draft"):
        assert len(state.pool) == 55 - len(board.slug) and state.round == 1 and not board.log
    else:
        assert state.pool == () and state.round == HAND[n]


def assert_totals_recount(state):
    match = state.match
    assert list(match.totals) == [sum(deal[p] for deal in match.history) for p in range(state.players)]
    assert [d.points for d in match.scores] == list(match.history)
    assert [d.deal for d in match.scores] == list(range(1, len(match.history) + 1))
    for d in match.scores:
        assert list(d.points) == [points(T.sizes, T.rank, pile, d.centre) for pile in d.piles]
        assert list(d.points) == [breakdown(T, p, pile, d.centre).points for p, pile in enumerate(d.piles)]
        assert sorted([*d.centre, *(c for pile in d.piles for c in pile)]) == sorted(T.order)
    if state.phase == "over":
        assert len(match.history) == match.deals
        top = max(match.totals)
        assert match.winners == tuple(p for p, t in enumerate(match.totals) if t == top)
        assert match.scores[-1].piles == state.board.piles and match.scores[-1].centre == state.board.centre
    else:
        assert match.winners == () and len(match.history) == match.deal - 1


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_cards_are_conserved_totals_recount_and_the_game_ends(players, seed, options):
    game = Game.play(players, seed, options)
    for state in game.states:
        assert_cards_conserved(state)
        assert_totals_recount(state)
    end = game.states[-1]
    assert end.phase == "over" and need(end).done and legal_actions(end) == []
    drafts = players * options["deals"] if options["draft"] else 0
    assert len(game.actions) == drafts + options["deals"] * (SLUG[players] + players * HAND[players])


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_replay_of_the_actions_is_the_live_state(players, seed, options):
    game = Game.play(players, seed, options)
    first = game.states[0].match.dealer
    middle = len(game.actions) // 2
    assert replay(rules, DECK, players, first, options, game.actions[:middle]) == game.states[middle]
    assert replay(rules, DECK, players, first, options, game.actions) == game.states[-1]


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_every_action_round_trips_through_json(players, seed, options):
    game = Game.play(players, seed, options)
    for action in game.actions:
        data = json.loads(json.dumps(codec.to_json(action)))
        assert codec.from_json(ACTIONS, data) == action


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_public_view_is_json_and_shows_the_firing_of_every_round(players, seed, options):
    game = Game.play(players, seed, options)
    for _, bids, end in game.rounds():
        view = json.loads(json.dumps(observe(end, None)))
        last = view["last_round"]
        assert [b["card"] for b in last["bids"]] == [b.card for b in sorted(bids, key=lambda b: b.player)]
        fired = [b for s in last["steps"] for b in s["bids"]]
        assert sorted(b["seat"] for b in fired) == list(range(players))
        assert [s["rank"] for s in last["steps"]] == sorted({T.rank[b.card] for b in bids})
        for s in last["steps"]:
            assert (s["result"] == "missed") == (s["tied"] and s["by"] is None)
    for key in ("phase", "players", "totals", "winners"):
        assert key in observe(game.states[-1], None)


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_round_result_does_not_depend_on_the_order_bids_arrive(players, seed, options):
    game = Game.play(players, seed, options)
    for start, bids, end in game.rounds():
        shuffled = list(bids)
        game.rng.shuffle(shuffled)
        state = start
        for bid in shuffled:
            assert check(state, bid) is None
            state = apply(state, bid)
        assert state == end
        assert observe(state, None) == observe(end, None)


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_changing_a_sealed_bid_changes_nothing_anyone_else_sees(players, seed, options):
    game = Game.play(players, seed, options)
    for start, bids, _ in game.rounds():
        made = bids[:game.rng.randrange(1, len(bids))]      # before the reveal
        state = start
        for bid in made:
            state = apply(state, bid)
        changed = game.rng.choice(made)
        other_card = game.rng.choice([c for c in state.free])
        other = start
        for bid in made:
            if bid == changed:
                bid = Bid(bid.player, other_card)
            assert check(other, bid) is None
            other = apply(other, bid)
        assert other != state
        assert observe(other, None) == observe(state, None)
        for seat in range(players):
            assert (observe(other, seat) == observe(state, seat)) == (seat != changed.player)


@games
@given(players=player_counts, seed=seeds, options=option_sets)
def test_legal_actions_are_exactly_the_actions_check_accepts(players, seed, options):
    game = Game.play(players, seed, options)
    everything = ([Bid(p, c) for p in range(players) for c in T.order] + [Show(c) for c in T.order]
                  + [DraftDone(p) for p in range(players)])
    picks = game.rng.sample(game.states, min(12, len(game.states)))
    for state in picks:
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        assert set(legal) == {a for a in everything if check(state, a) is None}
        n = need(state)
        if n.chance:
            assert sorted(a.card for a in legal) == sorted(n.outcomes)
        else:
            assert {a.player for a in legal} == set(n.players)
