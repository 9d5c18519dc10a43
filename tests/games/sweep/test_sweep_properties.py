"""Sweep properties over random legal play: every player count, with and without the match option."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.kit import codec
from table.games.sweep import rules
from table.games.sweep.rules import (
    ACTIONS, HAND, ROUNDS, DrawFirst, Play, Register, Show, Take, apply, check, legal_actions, need, observe,
)
from table.games.kit.replay import replay

from ..tables import Played

DECK = rules.make_deck(deck_data("pairs"))
ALL = frozenset(DECK.ranks)

games = settings(max_examples=40, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(3, 6)
matches = st.booleans()


class Game(Played):
    """A game played to the end by random legal choices."""

    @classmethod
    def play(cls, players: int, seed: int, match: bool = False) -> "Game":
        return cls.record(rules, DECK, players, seed, {"match": match})


def by_rank(cards):
    return sorted(DECK.rank(c) for c in cards)


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every card is in exactly one place: a hand (or a pool), the pile, the centre, played, discarded."""
    if state.phase == "register":
        places = [c for h in state.hands for c in h] + list(rules.pile_cards(state))
        assert sorted(places) == sorted(ALL)
        assert all(len(h) <= HAND for h in state.hands)
        return
    pooled = [c for pool in state.pools for c in pool.cards]
    pile = rules.pile_cards(state)
    places = ([c for h in state.hands for c in h] + pooled + list(pile) + list(state.centre)
              + [c for _, c in state.played] + list(state.round.discard))
    assert sorted(places) == sorted(ALL)
    for pool in state.pools:
        assert sum(pool.shares) == len(pool.cards) and sum(1 for s in pool.shares if s) >= 2
        assert {DECK.rank(c) for c in pool.cards} == {pool.rank}
    counts = [rules.hand_count(state, p) for p in range(state.players)]
    assert sum(counts) + len(pile) + len(state.round.discard) + len(state.centre) + len(state.played) == 55
    # 5 per seat were dealt and 5 per round are shown: the pile runs out with the last round (P1)
    if state.phase == "over":
        assert not pile and not state.centre
    else:
        assert len(pile) == 5 * (ROUNDS[state.players] - state.round.number + 1) - len(state.centre)


def recount_points(holdings):
    """Majority scoring written out again: the rank's points to every player with the most (at least one)."""
    points = [0] * len(holdings)
    for i, r in enumerate(range(1, 11)):
        most = max(h[i] for h in holdings)
        for p, h in enumerate(holdings):
            if most > 0 and h[i] == most:
                points[p] += r
    return points


def naive_capture(shown, played):
    """The capture written out plainly: (rank, targets, takers in order) per step, and the centre left."""
    centre = list(shown)
    steps = []
    for i, r in enumerate(sorted({DECK.rank(c) for _, c in played})):
        group = [(p, c) for p, c in played if DECK.rank(c) == r]
        if i == 0:
            top = max(DECK.rank(c) for c in centre)
            targets = {c for c in centre if DECK.rank(c) == top}
        else:
            targets = {c for c in centre if DECK.rank(c) < r}
        takers = [group[k % len(group)][0] for k in range(len(targets))]
        centre = [c for c in centre if c not in targets] + [c for _, c in group]
        steps.append((r, targets, takers))
    return steps, centre


@games
@given(players=player_counts, seed=seeds, match=matches)
def test_cards_are_conserved_and_totals_recount(players, seed, match):
    game = Game.play(players, seed, match)
    for before, state in zip(game.states, game.states[1:]):
        assert_cards_conserved(state)
        if state.deal.history != before.deal.history:      # a deal just ended
            scores = state.deal.scores
            assert list(scores.points) == recount_points(scores.holdings)
            assert sum(map(sum, scores.holdings)) + len(before.round.discard) + len(state.round.last.discarded) == 55
            assert len(before.round.log) == ROUNDS[players] - 1 and not rules.pile_cards(before)
    end = game.states[-1]
    history = end.deal.history
    if match:
        assert list(end.deal.totals) == [sum(h[p] for h in history) for p in range(players)]
        assert max(end.deal.totals) >= rules.TARGET
        assert all(max(sum(h[p] for h in history[:k]) for p in range(players)) < rules.TARGET
                   for k in range(1, len(history)))
    else:
        assert len(history) == 1 and end.deal.totals == history[0]
    top = max(end.deal.totals)
    assert end.deal.winners == tuple(p for p, t in enumerate(end.deal.totals) if t == top)
    assert end.deal.scores.holdings == rules.holdings(end)


@games
@given(players=player_counts, seed=seeds)
def test_each_capture_matches_the_plain_rule_and_the_last_taker_starts(players, seed):
    game = Game.play(players, seed)
    records = game.states[-1].round.log
    assert len(records) == ROUNDS[players]
    for previous, record in zip((None,) + records, records):
        steps, centre = naive_capture(record.centre, record.played)
        assert [(s.rank, set(s.targets), [t[0] for t in s.taken]) for s in record.steps] == steps
        assert sorted(record.discarded) == sorted(centre)
        for s in record.steps:
            assert by_rank(s.targets) == sorted(t[2] for t in s.taken)
            assert all(t[3] == "all" for t in s.taken) == (len(s.players) == 1)
        takers = [t[0] for s in record.steps for t in s.taken]
        assert record.last_taker == takers[-1]
        if previous is None:
            assert record.reason == "draw"
        else:
            assert (record.first, record.reason) == (previous.last_taker, "last_taker")
        assert record.order[0] == record.first


@games
@given(players=player_counts, seed=seeds)
def test_play_order_is_clockwise_from_the_first_player_skipping_empty_hands(players, seed):
    game = Game.play(players, seed)
    for state in game.states:
        if state.phase == "centre" and not state.centre:
            r = state.round
            seats = rules.clockwise(players, r.first)
            assert r.order == tuple(p for p in seats if rules.hand_count(state, p))
            assert observe(state, None)["skipped"] == [p for p in seats if p not in r.order]


@games
@given(players=player_counts, seed=seeds, match=matches)
def test_replay_of_the_actions_is_the_live_state(players, seed, match):
    game = Game.play(players, seed, match)
    first = game.states[0].deal.dealer
    middle = len(game.actions) // 2
    assert replay(rules, DECK, players, first, game.options, game.actions[:middle]) == game.states[middle]
    assert replay(rules, DECK, players, first, game.options, game.actions) == game.states[-1]


@games
@given(players=player_counts, seed=seeds)
def test_every_action_round_trips_through_json(players, seed):
    game = Game.play(players, seed)
    for state in game.states[::7]:
        for action in legal_actions(state):
            data = json.loads(json.dumps(codec.to_json(action)))
            assert codec.from_json(ACTIONS, data) == action
    for action in game.actions:
        assert codec.from_json(ACTIONS, json.loads(json.dumps(codec.to_json(action)))) == action


@games
@given(players=player_counts, seed=seeds)
def test_legal_actions_are_exactly_what_check_accepts(players, seed):
    game = Game.play(players, seed)
    cards = sorted(ALL)
    for state in game.states[::5]:
        everything = ([Show(c) for c in cards] + [DrawFirst(p) for p in range(players)]
                      + [k(p, c) for k in (Register, Play, Take) for p in range(players) for c in cards])
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        assert set(legal) == {a for a in everything if check(state, a) is None}
        n = need(state)
        if n.chance:
            outcomes = tuple(str(a.player) for a in legal) if n.table_draw else tuple(a.card for a in legal)
            assert n.outcomes == outcomes
        else:
            assert {a.player for a in legal} == set(n.players)


@games
@given(players=player_counts, seed=seeds)
def test_registration_does_not_depend_on_the_order_cards_arrive(players, seed):
    game = Game.play(players, seed)
    count = HAND * players
    registrations = game.actions[:count]
    assert all(isinstance(a, Register) for a in registrations) and game.states[count].phase == "draw"
    shuffled = list(registrations)
    game.rng.shuffle(shuffled)
    state = game.states[0]
    for action in shuffled:
        assert check(state, action) is None
        state = apply(state, action)
    assert state == game.states[count]


@games
@given(players=player_counts, seed=seeds)
def test_swapping_two_hidden_cards_between_hands_changes_nothing_anyone_else_sees(players, seed):
    game = Game.play(players, seed)
    rng = game.rng
    dealt = game.states[HAND * players].hands
    p, q = rng.sample(range(players), 2)
    a, b = rng.choice(sorted(dealt[p])), rng.choice(sorted(dealt[q]))
    swap = {Register(p, a): Register(p, b), Register(q, b): Register(q, a)}
    state = game.states[0]
    for action, original in zip(game.actions, game.states[1:]):
        if isinstance(action, (Play, Take)) and action.card in (a, b):
            break                        # the card comes into the open
        action = swap.get(action, action)
        assert check(state, action) is None
        state = apply(state, action)
        if original.phase == "over":
            break                        # the end shows every hand by rank
        assert observe(state, None) == observe(original, None)
        for seat in set(range(players)) - {p, q}:
            assert observe(state, seat) == observe(original, seat)
        if a in original.hands[p]:
            assert observe(state, p) != observe(original, p)


@games
@given(players=player_counts, seed=seeds, match=matches)
def test_the_public_view_never_holds_a_hand_and_is_json(players, seed, match):
    game = Game.play(players, seed, match)
    for state in game.states[::3] + [game.states[-1]]:
        view = observe(state, None)
        json.dumps(view)
        for key in ("phase", "players", "totals", "winners"):
            assert key in view
        assert "hand" not in view and "loose" not in view
        assert len(view["totals"]) == players and len(view["hand_counts"]) == players
        text = json.dumps({k: v for k, v in view.items()})
        public = set(state.centre) | {c for _, c in state.played} | {
            c for r in state.round.log for s in r.steps for c in (*s.targets, *s.cards)} | set(state.round.discard)
        if state.round.last is not None:
            public |= {c for s in state.round.last.steps for c in (*s.targets, *s.cards)} | set(state.round.last.centre)
        if state.round.work is not None:
            public |= {c for s in state.round.work.steps for c in (*s.targets, *s.cards)}
            public |= set(state.round.work.tie.targets) | set(state.round.work.tie.cards)
        hidden = {c for h in state.hands for c in h} - public
        assert not any(f'"{c}"' in text for c in hidden)
        own = observe(state, 0)
        assert own["hand"] == sorted(state.hands[0]) and own["seat"] == 0
