"""Kitty properties over random legal play (3 to 6 players, every option set, seeds from hypothesis)."""
from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.kit import codec
from table.games.kitty.rules import (
    ACTIONS, INFO, Bid, Pass, Receive, Register, Show, _evolve, apply, check, legal_actions, make_deck, need,
    observe, settle, units,
)
from table.games.kitty import rules
from table.games.kit.replay import replay

from ..tables import Played

DECK = make_deck(deck_data("pairs"))
ALL = sorted(DECK.ranks)

games = settings(max_examples=40, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(3, 6)
option_sets = st.fixed_dictionaries({
    "soft": st.booleans(), "partners": st.booleans(), "stakes": st.sampled_from((0, 1, 5)), "long": st.booleans()})


class Game(Played):
    """A game played to the end by random legal choices."""

    @classmethod
    def play(cls, players: int, options: dict, seed: int) -> "Game":
        return cls.record(rules, DECK, players, seed, options)

    def sealed_runs(self):
        """(state before, the commits in order, state after) for each sealed phase: registration, passes, bids."""
        start = None
        for i, action in enumerate(self.actions):
            if not isinstance(action, (Register, Pass, Bid)):
                continue
            if start is None:
                start = i
            if self.states[i + 1].phase != self.states[i].phase:   # the last commit always ends its phase
                yield self.states[start], self.actions[start:i + 1], self.states[i + 1]
                start = None


def pending(state):
    """Targets shown and not yet placed in a hand or out."""
    if state.phase == "pick":
        return list(state.left)
    if state.phase == "gift":
        return [state.gift]
    if state.phase in ("pass", "bid", "targets"):
        return list(state.targets)
    return []


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every card is in exactly one place: a hand, the unseen pile, out of the game, or a target in play; out
    of the game are exactly this deal's revealed bids and discarded targets."""
    places = [c for h in state.hands for c in h] + list(state.pile) + sorted(state.out) + pending(state)
    assert sorted(places) == ALL
    assert all(list(h) == sorted(h) for h in state.hands)
    rounds = [(r.bids, r.steps) for r in state.log if r.deal == state.deal]
    if state.phase in ("pick", "gift"):
        rounds.append((state.bids, state.steps))
    discarded = [s.card for _, steps in rounds for s in steps if s.kind == "discard"]
    assert state.out == {c for bids, _ in rounds for c in bids} | set(discarded)
    assert observe(state, None)["counts"] == [len(h) for h in state.hands]


def recount(state, hands):
    """Per player, the points of a deal counted the plain way: a rank scores for every side holding most."""
    sides = units(state)
    points = []
    for p in range(state.players):
        side = next(u for u in sides if p in u)
        total = 0
        for r in range(1, 11):
            held = [sum(DECK.ranks[c] == r for q in u for c in hands[q]) for u in sides]
            mine = sum(DECK.ranks[c] == r for q in side for c in hands[q])
            if mine and mine == max(held):
                total += r
        points.append(total)
    return tuple(points)


def assert_totals_recount(state):
    assert list(state.totals) == [sum(h[p] for h in state.history) for p in range(state.players)]
    if state.scores is not None:
        assert state.scores.points == recount(state, state.scores.hands) == state.history[-1]
    if state.phase == "over":
        assert state.scores.hands == state.hands
        top = max(state.totals)
        assert state.winners == tuple(p for p, t in enumerate(state.totals) if t == top)
        assert not state.long or top >= 100
        teams = units(state)
        if state.stakes:
            assert state.settlement == settle(teams, tuple(state.totals[u[0]] for u in teams), state.stakes,
                                              state.players)
            assert sum(state.settlement.net[u[0]] for u in teams) == 0
        else:
            assert state.settlement is None
    else:
        assert not state.winners
        assert max(state.totals) < 100 or not state.long


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_cards_are_conserved_and_totals_recount_history(players, options, seed):
    for state in Game.play(players, options, seed).states:
        assert_cards_conserved(state)
        assert_totals_recount(state)


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_need_lists_exactly_who_acts_and_legal_actions_are_what_check_accepts(players, options, seed):
    game = Game.play(players, options, seed)
    for state in game.states[::7]:
        n = need(state)
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        if n.done:
            assert legal == [] and state.phase == "over"
            continue
        if n.chance:
            assert legal == [Show(c) for c in n.outcomes] and not n.table_draw and n.by is None
            universe = [Show(c) for c in ALL]
        else:
            assert sorted({a.player for a in legal}) == sorted(n.players)
            kind = type(legal[0])
            assert n.simultaneous == (kind in (Register, Pass, Bid)) and n.any_of == (kind is Receive)
            universe = [kind(p, c) for p in range(players) for c in ALL]
        assert set(legal) == {a for a in universe if check(state, a) is None}


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_sealed_results_do_not_depend_on_the_order_commits_arrive(players, options, seed):
    game = Game.play(players, options, seed)
    for start, commits, end in game.sealed_runs():
        shuffled = list(commits)
        game.rng.shuffle(shuffled)
        state = start
        for action in shuffled:
            assert check(state, action) is None
            state = apply(state, action)
        assert state == end


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_replay_of_the_actions_is_the_live_state_and_every_action_round_trips_through_json(players, options, seed):
    game = Game.play(players, options, seed)
    first = game.states[0].dealer
    middle = len(game.actions) // 2
    assert replay(rules, DECK, players, first, options, game.actions[:middle]) == game.states[middle]
    assert replay(rules, DECK, players, first, options, game.actions) == game.states[-1]
    for action in game.actions:
        assert codec.from_json(ACTIONS, json.loads(json.dumps(codec.to_json(action)))) == action
    for state in game.states[::11]:
        json.dumps(observe(state, None))
        json.dumps(observe(state, game.rng.randrange(players)))


# ---------------------------------------------------------------- secrecy (TABLE-PROTOCOLS 6.3, 1.12)

def hidden_cards(state):
    """Cards the public may not see now (first deal, before its end): hands, the unseen pile, sealed bids
    before the reveal, passes; a card once shown as a target is public by its id (not by where it is)."""
    shown = {c for r in state.log for c in r.targets} | set(state.targets)
    hidden = {c for h in state.hands for c in h if c not in shown} | set(state.pile)
    if state.phase == "bid":
        hidden |= {c for c in state.bids if c and c not in shown}
    revealed = shown | {c for r in state.log for c in r.bids}
    if state.phase in ("pick", "gift"):
        revealed |= set(state.bids)
    passes = [c for r in state.log for c in r.passes] + [c for c in state.passes if c]
    return hidden | {c for c in passes if c not in revealed}


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_the_public_view_never_names_a_hidden_card(players, options, seed):
    game = Game.play(players, options, seed)
    for state in game.states:
        if state.deal > 1 or state.scores is not None:
            break
        text = json.dumps(observe(state, None))
        named = set(re.findall(r'"(\d+[a-j])"', text))
        assert not named & hidden_cards(state)


def swap_in_hands(state, rng):
    """The same table with two hidden cards exchanged: between two hands, or a hand and the unseen pile."""
    p, q = rng.sample(range(state.players), 2)
    committed = {c for c in (*state.passes, *state.bids) if c}
    a = [c for c in state.hands[p] if c not in committed]
    if not a:
        return None
    a = rng.choice(a)
    if rng.random() < 0.5 and state.pile:
        b = rng.choice(state.pile)
        hands = list(state.hands)
        hands[p] = tuple(sorted([c for c in hands[p] if c != a] + [b]))
        pile = tuple(sorted([c for c in state.pile if c != b] + [a]))
        return _evolve(state, hands=tuple(hands), pile=pile)
    others = [c for c in state.hands[q] if c not in committed]
    if not others:
        return None
    b = rng.choice(others)
    hands = list(state.hands)
    hands[p] = tuple(sorted([c for c in hands[p] if c != a] + [b]))
    hands[q] = tuple(sorted([c for c in hands[q] if c != b] + [a]))
    return _evolve(state, hands=tuple(hands))


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_changing_a_hidden_card_changes_nothing_the_public_sees(players, options, seed):
    game = Game.play(players, options, seed)
    checked = 0
    for state in game.states:
        if state.phase == "over":
            continue
        other = swap_in_hands(state, game.rng)
        if other is None or other == state:
            continue
        assert observe(other, None) == observe(state, None)
        checked += 1
    assert checked


@games
@given(players=player_counts, options=option_sets, seed=seeds)
def test_changing_a_sealed_pass_or_bid_changes_nothing_the_public_sees(players, options, seed):
    game = Game.play(players, options, seed)
    for start, commits, end in game.sealed_runs():
        kind = type(commits[0])
        if kind is Register:
            continue
        made = commits[:game.rng.randrange(1, len(commits) + 1)]
        state = start
        for action in made:
            state = apply(state, action)
        player = game.rng.choice([a.player for a in made])
        options_ = [c for c in start.hands[player] if c != next(a.card for a in made if a.player == player)]
        if not options_:
            continue
        swap = kind(player, game.rng.choice(options_))
        other = start
        for action in made:
            other = apply(other, swap if action.player == player else action)
        assert other != state
        if kind is Bid and len(made) == len(commits):
            continue        # the reveal: bids are public from here on
        assert observe(other, None) == observe(state, None)
        for seat in range(players):
            if kind is Bid or len(made) < len(commits):
                assert (observe(other, seat) == observe(state, seat)) == (seat != player)
            else:   # every pass in: the passer and the receiver know it
                assert (observe(other, seat) == observe(state, seat)) == (seat not in (player,
                                                                                      (player + 1) % players))


def test_every_option_is_declared_with_its_default():
    assert INFO.defaults() == {"soft": False, "partners": False, "stakes": 0, "long": False}
    assert INFO.players == range(3, 7) and INFO.deck == "pairs"
    assert INFO.pads.seat_pads is None and INFO.pads.centre_pads is None and INFO.pads.buttons == ("ok",)


def test_random_play_reaches_every_kind_of_step():
    kinds = set()
    rng = random.Random(11)
    for i in range(60):
        options = {"soft": bool(i % 2), "partners": bool(i % 3 == 0), "stakes": 0, "long": False}
        state = Game.play(3 + i % 4, options, rng.randrange(2**32)).states[-1]
        kinds |= {s.kind for r in state.log for s in r.steps}
        if {"tie", "win", "one", "pick", "take", "gift", "discard"} <= kinds:
            break
    assert kinds == {"tie", "win", "one", "pick", "take", "gift", "discard"}
