"""Festival properties over random legal play (4 and 5 players, full and simplified, seeds from hypothesis)."""
from __future__ import annotations

import json
import re

from hypothesis import given, settings, strategies as st

from table.assets import deck_data
from table.games.festival import rules
from table.games.festival.rules import (ACTIONS, INFO, LATER, LOWEST, STAYS, Draw, Face, Keep, check, legal_actions,
                                        make_deck, need, observe)
from table.games.kit import codec
from table.games.kit.replay import replay

from ..tables import Played

DECK = make_deck(deck_data("festival"))
CARDS = DECK.cards

games = settings(max_examples=40, deadline=None)
seeds = st.integers(0, 2**32 - 1)
player_counts = st.integers(4, 5)
simplified = st.booleans()


def play(players: int, simple: bool, seed: int) -> Played:
    return Played.record(rules, DECK, players, seed, {"simplified": simple})


def in_play(players: int, simple: bool) -> set[str]:
    """The cards of a game, counted from the deck (RULINGS V1)."""
    if simple:
        return {c for c, card in CARDS.items() if card.number <= 5}
    return {c for c, card in CARDS.items() if players == 5 or card.number != 8}


def kept(state) -> list[str]:
    return [c.card for turn in state.log for c in turn.choices] + [c.card for c in state.choices]


# ---------------------------------------------------------------- invariants

def assert_cards_conserved(state):
    """Every card of the game is in exactly one place: the pile, this turn's packet, a seat's tableau, or a last
    seat's discard; no other card is anywhere. Each finished turn used X + 1 cards."""
    pile = list(state.pile)
    places = pile + list(state.packet) + kept(state) + [turn.discard for turn in state.log]
    assert sorted(places) == sorted(in_play(state.players, state.setup.simplified))
    assert all(len(turn.choices) == state.players for turn in state.log)
    if state.phase in ("keep", "face"):
        assert len(state.choices) + len(state.packet) == state.players + 1
    else:
        assert not state.choices
    assert observe(state, None)["pile"] == len(pile)


def recount(state) -> list[int]:
    """Every player's gold counted the plain way (V4), from the tableaus."""
    held = [[c.card for turn in state.log for c in turn.choices if c.player == p] for p in range(state.players)]
    if state.setup.simplified:
        return [sum(CARDS[c].number for c in cards) for cards in held]
    gold = [0] * state.players
    for k in range(len(DECK.professions)):
        stars = [sum(CARDS[c].stars for c in cards if CARDS[c].profession == k) for cards in held]
        ranked = sorted({s for s in stars if s}, reverse=True)
        if not ranked:
            continue
        most = [p for p, s in enumerate(stars) if s == ranked[0]]
        if len(most) > 1:
            for p in most:
                gold[p] += 4
            continue
        gold[most[0]] += 6
        if len(ranked) > 1:
            second = [p for p, s in enumerate(stars) if s == ranked[1]]
            for p in second:
                gold[p] += 3 if len(second) == 1 else 1
    for p, cards in enumerate(held):
        kinds = len({CARDS[c].profession for c in cards})
        gold[p] += {3: 3, 4: 6, 5: 10}.get(kinds, 0) - sum(CARDS[c].stars == 2 for c in cards)
    return [max(0, g) for g in gold]


@games
@given(players=player_counts, simple=simplified, seed=seeds)
def test_cards_are_conserved_and_the_gold_recounts(players, simple, seed):
    game = play(players, simple, seed)
    for state in game.states:
        assert_cards_conserved(state)
    end = game.states[-1]
    assert end.turn == {(4, False): 10, (5, False): 10, (4, True): 6, (5, True): 5}[players, simple]   # PR-V1
    assert list(end.totals) == recount(end)
    top = max(end.totals)
    assert end.winners == tuple(p for p, g in enumerate(end.totals) if g == top)          # PR-V3


@games
@given(players=player_counts, simple=simplified, seed=seeds)
def test_every_turn_serves_last_turns_face_up_seats_first_and_names_the_next_first_player(players, simple, seed):
    end = play(players, simple, seed).states[-1]
    previous_up: set[int] = set()
    first = end.log[0].first
    for turn in end.log:
        assert turn.first == first and turn.choices[0].player == first
        assert turn.priority == tuple(sorted(previous_up))
        order = [c.player for c in turn.choices[1:]]
        waiting = [p for p in order if p in previous_up]
        assert order[:len(waiting)] == waiting                                            # V2
        up = [(CARDS[c.card].number, i, c.player) for i, c in enumerate(turn.choices) if c.up and c.player != first]
        if up:
            low = min(n for n, _, _ in up)
            lowest = [(i, p) for n, i, p in up if n == low]
            assert (turn.next_first, turn.reason) == (lowest[-1][1], LATER if len(lowest) > 1 else LOWEST)  # V3
        else:
            assert (turn.next_first, turn.reason) == (first, STAYS)
        previous_up = {c.player for c in turn.choices if c.up}
        first = turn.next_first


@games
@given(players=player_counts, simple=simplified, seed=seeds)
def test_need_lists_exactly_who_acts_and_legal_actions_are_what_check_accepts(players, simple, seed):
    game = play(players, simple, seed)
    for state in game.states[::3]:
        n = need(state)
        legal = legal_actions(state)
        assert len(legal) == len(set(legal))
        if n.done:
            assert legal == [] and state.phase == "over"
            continue
        if n.chance:
            assert legal == [Draw(state.first, c) for c in n.outcomes] and n.by == state.first
            universe = [Draw(p, c) for p in range(players) for c in CARDS]
        else:
            assert sorted({a.player for a in legal}) == sorted(n.players)
            assert n.any_of == (len(n.players) > 1) and not n.simultaneous
            universe = [Keep(p, c, up) for p in range(players) for c in CARDS for up in (None, False, True)] \
                + [Face(p, up) for p in range(players) for up in (False, True)]
        assert set(legal) == {a for a in universe if check(state, a) is None}


@games
@given(players=player_counts, simple=simplified, seed=seeds)
def test_replay_of_the_actions_is_the_live_state_and_every_action_round_trips_through_json(players, simple, seed):
    game = play(players, simple, seed)
    first = game.states[0].first
    options = {"simplified": simple}
    middle = len(game.actions) // 2
    assert replay(rules, DECK, players, first, options, game.actions[:middle]) == game.states[middle]
    assert replay(rules, DECK, players, first, options, game.actions) == game.states[-1]
    for action in game.actions:
        assert codec.from_json(ACTIONS, json.loads(json.dumps(codec.to_json(action)))) == action
    for state in game.states[::7] + game.states[-1:]:
        view = observe(state, None)
        assert json.loads(json.dumps(view)) == view
        json.dumps(observe(state, game.rng.randrange(players)))


# ---------------------------------------------------------------- secrecy (TABLE-PROTOCOLS 4.3, 1.12)

def hidden(state) -> set[str]:
    """The cards the public may not know now: the pile, the packet, face-down cards (and a card whose face is
    being chosen) until the end, and the last seats' discards for ever."""
    discards = {turn.discard for turn in state.log}
    if state.phase == "over":
        return discards
    down = {c.card for turn in state.log for c in turn.choices if not c.up} | {c.card for c in state.choices
                                                                               if not c.up}
    return discards | down | set(state.packet) | set(state.pile)


@games
@given(players=player_counts, simple=simplified, seed=seeds)
def test_the_public_view_never_names_a_hidden_card(players, simple, seed):
    for state in play(players, simple, seed).states:
        named = set(re.findall(r'"([A-Z]{2}\d[ab])"', json.dumps(observe(state, None))))
        assert not named & hidden(state)


def swapped(actions: list, a: str, b: str) -> list:
    """The same actions with cards `a` and `b` exchanged."""
    swap = {a: b, b: a}
    return [type(x)(**{f: swap.get(getattr(x, f), getattr(x, f)) for f in x.__slots__}) for x in actions]


@games
@given(players=player_counts, simple=simplified, seed=seeds)
def test_changing_a_hidden_card_changes_nothing_the_public_or_the_other_seats_see(players, simple, seed):
    """A face-down card (or a packet card) exchanged with a card still in the pile: the same public view; only
    the seats that saw it (its keeper, or the packet's holder) may see a difference."""
    game = play(players, simple, seed)
    rng = game.rng
    checked = 0
    for i in rng.sample(range(1, len(game.states) - 1), 12):
        state = game.states[i]
        pile = list(state.pile)
        secret = [(c.player, c.card) for turn in state.log for c in turn.choices if not c.up] + \
                 [(c.player, c.card) for c in state.choices if not c.up] + [(None, c) for c in state.packet]
        if not pile or not secret:
            continue
        keeper, a = rng.choice(secret)
        other = replay(rules, DECK, players, game.states[0].first, {"simplified": simple},
                       swapped(game.actions[:i], a, rng.choice(pile)))
        assert other != state
        assert observe(other, None) == observe(state, None)
        saw = {keeper} if keeper is not None else {rules.holder(state)}
        for seat in range(players):
            if seat not in saw and not any(c.player == seat for c in state.choices):
                assert observe(other, seat) == observe(state, seat)
        checked += 1
    assert checked


def test_the_option_and_the_table_it_needs():
    assert INFO.defaults() == {"simplified": False}
    assert INFO.players == range(4, 6) and INFO.deck == "festival"
    assert INFO.pads.seat_pads is None and INFO.pads.buttons == ("next", "ok")

