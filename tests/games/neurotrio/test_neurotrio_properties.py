"""Neurotrio properties over random legal play (3 to 8 players, seeds from hypothesis).

The legal cells are checked against a plain reading of N2 and N3 worked out from the cards on the table
(`plain_cells`), independent of the engine's incremental frontier.
"""
from __future__ import annotations

import json
import re

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.kit import codec
from table.games.kit.replay import replay
from table.games.neurotrio import rules
from table.games.neurotrio.rules import (
    ACTIONS, BidBase, BidCard, BidToken, Call, Choose, NoBid, Pass, Place, Register, Show, _evolve, apply, check,
    legal_actions, make_deck, need, observe,
)

from ..tables import Played

DECK = make_deck(deck_data("neurotrio"))
ALL = list(DECK.cards)
CARD_ID = re.compile(r'"(\d[HSR][KGB][ab])"')

games = settings(max_examples=25, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(3, 8)


class Game(Played):
    """A game played to the end by random legal choices."""

    @classmethod
    def play(cls, players: int, seed: int) -> "Game":
        return cls.record(rules, DECK, players, seed)


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every card is in exactly one place: a hand, the domain, or unseen (all of them before the start card,
    the removed card alone once every hand is in); hands are sorted; the chosen card is in the active hand."""
    domain = state.domain.cards if state.domain else ()
    assert sorted([c for h in state.hands for c in h] + list(domain) + list(state.unseen)) == ALL
    assert all(list(h) == sorted(h) for h in state.hands)
    if state.phase not in ("show", "register"):
        assert len(state.unseen) == 1
    if state.chosen is not None:
        assert state.chosen in state.hands[state.active]
    if state.domain:
        assert len({(r, c) for r, c, _ in state.domain.placed}) == len(domain)
    assert observe(state, None)["counts"] == [len(h) for h in state.hands]


def shared(a: str, b: str) -> int:
    """Attributes two cards have in common, read from their ids (strength, nature, background)."""
    return sum(x == y for x, y in zip(a[:3], b[:3]))


def plain_cells(state, card, rows=None, cols=None):
    """The legal cells of `card` (row, col, reward) in reading order, worked out from scratch (N2, N3)."""
    domain = state.domain
    rows, cols = rows or domain.rows, cols or domain.cols
    at = {(r, c): laid for r, c, laid in domain.placed}
    steps = ((-1, 0), (0, -1), (0, 1), (1, 0))
    empty = {(r + dr, c + dc) for r, c in at for dr, dc in steps} - set(at)
    found = []
    for r, c in sorted(empty):
        touching = [at[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in at]
        compatible = sum(shared(card, t) >= 2 for t in touching)
        if compatible < min(2, len(touching)):
            continue
        height = max(max(y for y, _ in at), r) - min(min(y for y, _ in at), r) + 1
        width = max(max(x for _, x in at), c) - min(min(x for _, x in at), c) + 1
        if height <= rows and width <= cols and width <= 2 * height and height <= 2 * width:
            found.append((r, c, 0 if len(touching) == 1 else {2: 1, 3: 5, 4: 20}[compatible]))
    return tuple(found)


def blocked(state, rows=None, cols=None):
    """Whether every player holding cards has no legal cell for any of them (by the plain reading)."""
    return not any(plain_cells(state, c, rows, cols) for h in state.hands for c in h)


def assert_building_follows_the_rules(before, action, after):
    """The limits grow only when every holder is blocked and one more row and column unblock someone (PR-N4);
    the building ends when one player alone holds cards, or when even that would not help (N5, PR-N1)."""
    if before.domain is None or after.domain is None or after.phase == "register":
        return
    if after.phase == "over":
        holders = sum(1 for h in after.hands if h)
        if after.end.reason == "one_left":
            assert holders == 1
        else:
            assert holders > 1 and blocked(after, after.domain.rows + 1, after.domain.cols + 1)
        return
    if after.domain.rows != before.domain.rows:
        assert after.domain.rows == before.domain.rows + 1 and after.domain.cols == before.domain.cols + 1
        assert blocked(after, before.domain.rows, before.domain.cols) and not blocked(after)
    elif isinstance(action, (Place, Register)):
        assert not blocked(after)


def assert_points_add_up(state):
    view = observe(state, None)
    assert view["totals"] == [sum(p.values()) for p in view["points"]]
    assert [p["passes"] for p in view["points"]] == [-n for n in view["passes"]]
    if state.phase == "over":
        top = max(view["totals"])
        assert view["winners"] == [p for p, t in enumerate(view["totals"]) if t == top]
        assert [p["finishing"] for p in view["points"]] == [
            dict(zip(view["finished"], (5, 3, 1))).get(p, 0) for p in range(state.players)]
    else:
        assert view["winners"] == []


@games
@given(players=player_counts, seed=seeds)
def test_cards_are_conserved_and_the_domain_grows_and_ends_by_the_rules(players, seed):
    game = Game.play(players, seed)
    for before, action, after in zip(game.states, game.actions, game.states[1:]):
        assert_cards_conserved(after)
        assert_building_follows_the_rules(before, action, after)
    for state in game.states[::5] + game.states[-1:]:
        assert_points_add_up(state)


@games
@given(players=player_counts, seed=seeds)
def test_legal_cells_and_choices_are_those_of_the_plain_reading_of_N2_N3_N4(players, seed):
    for state in Game.play(players, seed).states:
        if state.phase != "build":
            continue
        hand = state.hands[state.active]
        if state.chosen is not None:
            cells = plain_cells(state, state.chosen)
            assert rules.legal_cells(state, state.chosen) == cells
            assert legal_actions(state) == [Place(state.active, r, c) for r, c, _ in cells]
            continue
        placeable = [c for c in hand if plain_cells(state, c)]
        legal = legal_actions(state)
        assert [a for a in legal if isinstance(a, Choose)] == [Choose(state.active, c) for c in placeable]
        may_pass = state.tally.two_cards is None or not placeable
        assert (Pass(state.active) in legal) == may_pass


def universe(state):
    """Every action worth asking `check` about now: each kind of action for each player and item, and Place
    around the domain."""
    n = state.players
    items = ALL + list(DECK.bases) + list(DECK.tokens)
    actions = [Show(c) for c in items]
    for p in range(n):
        actions += [Pass(p), Call(p), NoBid(p)]
        actions += [kind(p, c) for kind in (Register, Choose, BidBase, BidCard, BidToken) for c in items]
        if state.domain is not None:
            d = state.domain
            actions += [Place(p, r, c) for r in range(d.top - rules.OFF - 2, d.bottom - rules.OFF + 3)
                        for c in range(d.left - rules.OFF - 2, d.right - rules.OFF + 3)]
    return actions


@settings(max_examples=12, deadline=None)
@given(players=player_counts, seed=seeds)
def test_legal_actions_are_exactly_what_check_accepts_and_come_from_who_need_lists(players, seed):
    game = Game.play(players, seed)
    for state in game.states[::9] + game.states[-1:]:
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        assert set(legal) == {a for a in universe(state) if check(state, a) is None}
        n = need(state)
        if n.done:
            assert legal == [] and state.phase == "over"
        elif n.chance:
            assert legal == [Show(c) for c in n.outcomes]
        else:
            assert n.simultaneous == (state.phase == "register")
            outside = [a for a in legal if a.player not in n.players]
            assert all(isinstance(a, Call) for a in outside) and (not outside or rules.calling(state))
            assert {a.player for a in outside} == set(n.interrupt)   # the others who may call, exactly


@games
@given(players=player_counts, seed=seeds)
def test_registration_does_not_depend_on_the_order_of_the_taps(players, seed):
    game = Game.play(players, seed)
    taps = [a for a in game.actions if isinstance(a, Register)]
    start = game.states[1]
    game.rng.shuffle(taps)
    state = start
    for action in taps:
        assert check(state, action) is None
        state = apply(state, action)
    assert state == game.states[1 + len(taps)]


@games
@given(players=player_counts, seed=seeds)
def test_replay_of_the_actions_is_the_live_state_and_every_action_round_trips_through_json(players, seed):
    game = Game.play(players, seed)
    first = game.states[0].setup.first
    middle = len(game.actions) // 2
    assert replay(rules, DECK, players, first, None, game.actions[:middle]) == game.states[middle]
    assert replay(rules, DECK, players, first, None, game.actions) == game.states[-1]
    for action in game.actions:
        assert codec.from_json(ACTIONS, json.loads(json.dumps(codec.to_json(action)))) == action
    for state in game.states[::11]:
        assert json.loads(json.dumps(observe(state, None))) == observe(state, None)
        json.dumps(observe(state, game.rng.randrange(players)))


# ---------------------------------------------------------------- secrecy (TABLE-PROTOCOLS 3.3, 1.12)

@games
@given(players=player_counts, seed=seeds)
def test_before_the_end_the_public_view_names_no_hand_no_removed_card_and_no_token(players, seed):
    for state in Game.play(players, seed).states:
        if state.phase == "over":
            break
        text = json.dumps(observe(state, None))
        hidden = {c for h in state.hands for c in h if c != state.chosen} | set(state.unseen)
        assert not set(CARD_ID.findall(text)) & hidden
        assert not re.search(r'"T\d-', text)
        view = observe(state, None)
        assert all(b["token"] == "hidden" and "score" not in b for b in view["bids"])
        assert view["end"] is None and (view["bid"] is None or view["bid"]["token"] in (None, "hidden"))


def swap_hidden(state, rng):
    """The same table with two hidden things exchanged: a card between two hands or with the removed card,
    or a bid's token with another free token of the same set."""
    hands = [list(h) for h in state.hands]
    choices = [(p, c) for p, h in enumerate(hands) for c in h if c != state.chosen]
    if rng.random() < 0.3 and state.neuro.bids:
        i = rng.randrange(len(state.neuro.bids))
        wager = state.neuro.bids[i]
        number = DECK.tokens[wager.token][0]
        used = {w.token for w in state.neuro.bids} | {state.neuro.piece.token if state.neuro.piece else None}
        free = [t for t in DECK.sets[number] if t not in used]
        if not free:
            return None
        bids = list(state.neuro.bids)
        bids[i] = wager._replace(token=rng.choice(free))
        return _evolve(state, neuro=state.neuro._replace(bids=tuple(bids)))
    if len(choices) < 2:
        return None
    (p, a), (q, b) = rng.sample(choices, 2)
    if rng.random() < 0.5:
        hands[p] = sorted(c for c in hands[p] if c != a) + [state.unseen[0]]
        return _evolve(state, hands=tuple(tuple(sorted(h)) for h in hands), unseen=(a,))
    hands[p][hands[p].index(a)], hands[q][hands[q].index(b)] = b, a
    return _evolve(state, hands=tuple(tuple(sorted(h)) for h in hands))


@games
@given(players=player_counts, seed=seeds)
def test_changing_a_hand_the_removed_card_or_a_token_changes_nothing_the_public_sees(players, seed):
    game = Game.play(players, seed)
    checked = 0
    for state in game.states:
        if state.phase not in ("build", "bid"):
            continue
        other = swap_hidden(state, game.rng)
        if other is None or other == state:
            continue
        assert observe(other, None) == observe(state, None)
        checked += 1
    assert checked


def test_random_play_bids_and_ends_with_bid_scores_shown():
    game = Game.play(5, 7)
    end = observe(game.states[-1], None)
    assert end["bids"] and all(b["token"] in rules.TOKEN_KINDS and "score" in b for b in end["bids"])
    assert {type(a) for a in game.actions} >= {Show, Register, Choose, Place, Call, BidBase, BidCard, BidToken}
